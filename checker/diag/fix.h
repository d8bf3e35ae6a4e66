// Fixes: the edits a rule is certain of, carried by its finding as data, and
// the engine that applies them to a file's bytes (`check --fix / --diff`).
//
// A rule records, for each edit, the byte offset in the file where it
// applies and the exact bytes it saw there (the whole comment, the whole key
// as written); line and column are kept for messages only. The engine
// applies an edit only when those bytes are still at that offset, and
// refuses it otherwise (the file changed since it was read): it never counts
// lines, so line ends (LF, CRLF, a lone CR), a byte order mark or escapes
// cannot move an edit. A fix is applied whole or not at all.
#ifndef TOPOLINT_CHECKER_DIAG_FIX_H_
#define TOPOLINT_CHECKER_DIAG_FIX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace topolint {

struct TextEdit {
  enum class Kind {
    // Replace exactly `original` (checked) by `replacement`.
    kReplace,
    // Remove the line comment `original` (the whole "//..." comment, checked
    // to hold "topolint:" and to end at a line break or the end of the
    // file), with the blanks before it; the whole line, with its line break
    // (LF, CRLF or a lone CR), when nothing else is on it.
    kRemoveLineComment,
    // Replace the JSON array that starts here by `replacement`; the array
    // must hold only integers, commas, blanks and brackets, and read without
    // its blanks it must be `original` (e.g. "[[0,4],[1,5]]"): the integers
    // the rule saw.
    kReplaceIntegerArray,
  };
  Kind kind = Kind::kReplace;
  std::string file;      // as the finding names it
  int64_t line = 0;      // 1-based, for messages
  int64_t column = 0;    // 1-based, bytes, for messages
  int64_t offset = -1;   // 0-based byte of the file; -1: unknown (no fix)
  std::string original;  // what the rule saw at `offset` (see Kind)
  std::string replacement;
};

struct Fix {
  std::string title;  // "remove the unused suppression comment"
  // Empty for a fix `--fix` applies; "hlo" for one applied only with
  // `--fix-from hlo` (the user says which side is right).
  std::string needs_fix_from;
  std::vector<TextEdit> edits;
};

// An edit resolved to bytes [begin, end) of one file's text.
struct ByteEdit {
  size_t begin = 0;
  size_t end = 0;
  std::string replacement;
  bool operator==(const ByteEdit& o) const {
    return begin == o.begin && end == o.end && replacement == o.replacement;
  }
};

// Resolves `edit` against `text` (the whole file's bytes) at edit.offset.
// Errors say why the edit does not apply ("expected '\"mlp_dp_szie\"' at
// 15:5 (byte 210)"). Costs O(size of the bytes checked), never a scan of
// the lines before the edit.
absl::StatusOr<ByteEdit> ResolveEdit(std::string_view text,
                                     const TextEdit& edit);

// `text` with `edits` (sorted by begin, non-overlapping) applied.
std::string ApplyEdits(std::string_view text,
                       const std::vector<ByteEdit>& edits);

// A unified diff (3 lines of context) from `before` to `after` of `file`,
// whose changed regions are `edits` (as ApplyEdits applied them): headers
// `--- file` and `+++ file`, so `patch -p0` applies it. "" when nothing
// changes.
std::string UnifiedDiff(const std::string& file, std::string_view before,
                        const std::vector<ByteEdit>& edits);

// Why `file` (as a finding names it) takes no fix: a binary module, an
// archive or a member of one, standard input; "" when it can be fixed.
std::string NotFixableReason(const std::string& file);

// Why a file that exists at `path` cannot be written by --fix: not a
// regular file (a pipe such as `<(cat m.hlo)`, a device); "" for a regular
// file (or one that does not exist: reading it will say so).
std::string NotRegularFileReason(const std::string& path);

// Whether `--fix` could write every edit of `fix`: it has edits, each with
// the offset and the bytes the rule saw, and none goes into a file
// NotFixableReason refuses. (Inputs read from a pipe are the caller's to
// leave out: only the CLI knows them.)
bool WritableFix(const Fix& fix);

// What a file was when it was read for fixing: a write refuses to replace
// a file that is no longer this one (another inode, another size or
// modification time: an editor or a second --fix wrote it meanwhile).
struct FileState {
  uint64_t dev = 0;
  uint64_t ino = 0;
  int64_t size = 0;
  int64_t mtime_sec = 0;
  int64_t mtime_nsec = 0;
  bool operator==(const FileState& o) const {
    return dev == o.dev && ino == o.ino && size == o.size &&
           mtime_sec == o.mtime_sec && mtime_nsec == o.mtime_nsec;
  }
  bool operator!=(const FileState& o) const { return !(*this == o); }
};

// fix_apply.cc: the fixes of one file, as the engine applies them.
struct FileFixPlan {
  std::string file;
  FileState state;              // stat of the file before it was read
  std::string before;           // the bytes read
  std::string after;            // with the accepted fixes applied
  std::vector<ByteEdit> edits;  // accepted, sorted, non-overlapping
  std::vector<bool> applied;    // per fix given
  // Per fix refused: "FILE:L:C: TITLE: not applied: REASON".
  std::vector<std::string> refused;
};

// Reads `file` and plans `fixes` (all of whose edits must be in `file` or
// in one of `aliases`: other names of the same file, as a symlink or a hard
// link reach it). A fix is accepted when all its edits resolve and none
// overlaps an edit accepted before it (fixes in order of position; an edit
// identical to an accepted one is shared, as when several findings carry
// one fix); a sorted sweep, O(n log n) in the edits. A file that cannot be
// fixed (NotFixableReason, not a regular file, a NUL byte) refuses every
// fix. Errors: the file cannot be read.
absl::StatusOr<FileFixPlan> PlanFileFixes(
    const std::string& file, const std::vector<const Fix*>& fixes,
    const std::vector<std::string>& aliases = {});

// Writes plan.after over plan.file atomically (a temporary file renamed
// over it, with its permissions, owner and group; through a symlink, the
// target's content is replaced; checker/io/output_file.h). Refuses
// (FailedPrecondition, nothing written) when the file is no longer the one
// read (plan.state), checked just before the rename.
absl::Status WriteFixedFile(const FileFixPlan& plan);

// The state of the file at `path` (following symlinks); false when it
// cannot be stat'ed.
bool StatFileState(const std::string& path, FileState* state);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_FIX_H_
