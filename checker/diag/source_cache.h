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

// Holds in-memory texts (stdin, NEFF archive members, API buffers) and reads
// lines of on-disk files lazily. Files are never held whole: `Prefetch` reads
// each file once, sequentially, keeping only the requested lines, so a 300 MB
// HLO dump costs one scan and a few lines of memory.
// Not thread-safe; one per rendering.
class SourceCache {
 public:
  // Registers text for a name that is not (or not only) a file on disk.
  void AddInMemory(const std::string& file, std::string text);

  // Loads every (file, line) of `locs` that is not yet cached. Files that
  // cannot be read are silently left out (the caret display is optional).
  void Prefetch(const std::vector<Location>& locs);

  // The text of `line` (1-based) of `file`, without its line terminator, or
  // nullopt when unknown. Calls Prefetch for that single line when needed.
  std::optional<std::string> Line(const std::string& file, int64_t line);

 private:
  std::map<std::string, std::string> in_memory_;
  std::map<std::pair<std::string, int64_t>, std::string> lines_;
  std::set<std::pair<std::string, int64_t>> missing_;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_SOURCE_CACHE_H_
