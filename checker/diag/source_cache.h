// Gives renderers the text of a source line, for the caret display.
#ifndef TOPOLINT_CHECKER_DIAG_SOURCE_CACHE_H_
#define TOPOLINT_CHECKER_DIAG_SOURCE_CACHE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker/diag/location.h"

namespace topolint {

// A piece of one source line: the bytes of the line from `first_column` on,
// possibly cut on either side when the line is long.
struct LineExcerpt {
  std::string text;          // bytes of the line, no terminator (no '\r')
  int64_t first_column = 1;  // 1-based byte column of text[0]
  int64_t line_length = 0;   // bytes in the whole line, without terminator

  bool CutBefore() const { return first_column > 1; }
  bool CutAfter() const {
    return first_column - 1 + static_cast<int64_t>(text.size()) < line_length;
  }
};

// Holds in-memory texts (stdin, NEFF archive members, API buffers) and reads
// lines of on-disk files lazily. Files are never held whole: `Prefetch` reads
// each file once, sequentially, keeping only the requested lines, so a 300 MB
// HLO dump costs one scan and a few lines of memory.
// Not thread-safe; one per rendering.
class SourceCache {
 public:
  // Registers text for a name that is not (or not only) a file on disk.
  void AddInMemory(const std::string& file, std::string text);

  // Drops the text registered for `file` (and any line read from it).
  void RemoveInMemory(const std::string& file);

  // Forgets every line read so far (in-memory texts stay), so that a
  // streaming renderer holds one batch's lines, not every line it showed.
  void ForgetLines();

  // Loads every (file, line) of `locs` that is not yet cached. Files that
  // cannot be read are silently left out (the caret display is optional).
  void Prefetch(const std::vector<Location>& locs);

  // The bytes of `line` (1-based) of `file` around byte `column` (1-based):
  // at least kExcerptRadius bytes on each side of the column where the line
  // has them, however long the line is; for column 0 the line from its
  // start, up to kMaxLineBytes bytes. Never the line terminator (a trailing
  // '\r' of a CRLF file is stripped). nullopt when the line is unknown.
  // Calls Prefetch for that location when needed; Prefetch of the same
  // Location makes this free.
  std::optional<LineExcerpt> Excerpt(const std::string& file, int64_t line,
                                     int64_t column);

  static constexpr int64_t kMaxLineBytes = 4096;
  static constexpr int64_t kExcerptRadius = 256;

 private:
  using LineKey = std::pair<std::string, int64_t>;
  // Disjoint, non-adjacent byte ranges of one long line: 0-based start ->
  // bytes. Together they cover the window of every column asked for, so a
  // line with many findings costs at most its own length, whatever the
  // number of findings.
  using Segments = std::map<int64_t, std::string>;
  // What is kept of a line read: its first kMaxLineBytes bytes, its whole
  // length, and bytes around columns beyond that prefix.
  struct KeptLine {
    std::string prefix;
    int64_t length = 0;  // without terminator
    Segments segments;
  };

  // True when Excerpt(loc) can be answered without reading.
  bool Cached(const Location& loc) const;
  // Forgets the lines read from `file`.
  void ForgetLinesOf(const std::string& file);

  std::map<std::string, std::string> in_memory_;
  std::map<LineKey, KeptLine> lines_;
  std::set<LineKey> missing_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_SOURCE_CACHE_H_
