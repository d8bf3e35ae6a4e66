// A position in an input, as shown to users: `file:line:column`.
#ifndef TOPOLINT_CHECKER_DIAG_LOCATION_H_
#define TOPOLINT_CHECKER_DIAG_LOCATION_H_

#include <cstdint>
#include <string>
#include <utility>

namespace topolint {

// `file` is the path exactly as the user gave it (or as found while walking a
// directory), or `archive.neff:sg00/def.json` for a member of a NEFF archive.
// `line` and `column` are 1-based; the column counts bytes, not characters.
// line == 0 means "the whole file" (no line is known); column == 0 means
// "the whole line".
struct Location {
  // Constructors rather than aggregate initialisation: with braced aggregate
  // temporaries holding a string, GCC 12 at -O3 reports a false
  // -Wmaybe-uninitialized on their destruction.
  Location() = default;
  Location(std::string file_in, int64_t line_in = 0, int64_t column_in = 0)
      : file(std::move(file_in)), line(line_in), column(column_in) {}

  std::string file;
  int64_t line = 0;
  int64_t column = 0;

  bool operator==(const Location& o) const {
    return file == o.file && line == o.line && column == o.column;
  }
  bool operator!=(const Location& o) const { return !(*this == o); }
  bool operator<(const Location& o) const {
    if (file != o.file) return file < o.file;
    if (line != o.line) return line < o.line;
    return column < o.column;
  }
};

// A line/column inside one file whose name is implied by context (parsers use
// this to avoid carrying the file name on every token).
struct TextPos {
  int64_t line = 0;    // 1-based
  int64_t column = 0;  // 1-based, bytes
};

inline Location At(const std::string& file, TextPos pos) {
  return Location{file, pos.line, pos.column};
}

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_LOCATION_H_
