// Fixes: the edits a rule is certain of, carried by its finding as data, and
// the engine that applies them to a file's bytes (`check --fix / --diff`).
//
// Rules know positions as (line, byte column), not byte offsets, and never
// see the file's bytes; the engine resolves each edit against the bytes it
// reads when it applies the fix, and refuses an edit whose bytes are not
// what the rule saw (the file changed, or a key was written with escapes).
// A fix is applied whole or not at all.
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
    // Remove the line comment ("//...", checked to hold "topolint:") that
    // starts here up to the line break, with the blanks before it; the
    // whole line when nothing else is on it.
    kRemoveLineComment,
    // Replace the JSON array that starts here by `replacement`; the array
    // must hold only integers, commas, blanks and brackets (checked).
    kReplaceIntegerArray,
  };
  Kind kind = Kind::kReplace;
  std::string file;      // as the finding names it
  int64_t line = 0;      // 1-based
  int64_t column = 0;    // 1-based, bytes
  std::string original;  // kReplace only
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

// Resolves `edit` against `text` (the whole file). Errors say why the edit
// does not apply ("line 7 has no column 40", "expected '\"mlp_dp_szie\"'
// at 15:5").
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

// Whether `--fix` could write every edit of `fix`: it has edits and none
// goes into a file NotFixableReason refuses. (Inputs read from a pipe are
// the caller's to leave out: only the CLI knows them.)
bool WritableFix(const Fix& fix);

// fix_apply.cc: the fixes of one file, as the engine applies them.
struct FileFixPlan {
  std::string file;
  std::string before;           // the bytes read
  std::string after;            // with the accepted fixes applied
  std::vector<ByteEdit> edits;  // accepted, sorted, non-overlapping
  std::vector<bool> applied;    // per fix given
  // Per fix refused: "FILE:L:C: TITLE: not applied: REASON".
  std::vector<std::string> refused;
};

// Reads `file` and plans `fixes` (all of whose edits must be in `file`).
// A fix is accepted when all its edits resolve and none overlaps an edit
// accepted before it (fixes in order of position; an edit identical to an
// accepted one is shared, as when several findings carry one fix). A file
// that cannot be fixed (NotFixableReason, a NUL byte) refuses every fix.
// Errors: the file cannot be read.
absl::StatusOr<FileFixPlan> PlanFileFixes(const std::string& file,
                                          const std::vector<const Fix*>& fixes);

// Writes plan.after over plan.file atomically (a temporary file renamed
// over it, with its permissions; checker/diag/output_file.h).
absl::Status WriteFixedFile(const FileFixPlan& plan);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_FIX_H_
