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
  // Binary inputs (HLO protos) have no lines: line and column stay 0 and
  // `byte_offset` is the offset of the value in the (decompressed) file,
  // -1 for text inputs. `logical` names the place in the module, e.g.
  // "computation %main, op %ar" ("" when not known); the runner fills it in.
  int64_t byte_offset = -1;
  std::string logical;

  bool operator==(const Location& o) const {
    return file == o.file && line == o.line && column == o.column &&
           byte_offset == o.byte_offset;
  }
};

// A line/column inside one file whose name is implied by context (parsers use
// this to avoid carrying the file name on every token).
//
// A binary input's parser records byte offsets instead: line ==
// kBytePosLine and column = the 0-based byte offset (no third field, so
// that the many positions a text module records stay 16 bytes).
struct TextPos {
  static constexpr int64_t kBytePosLine = -1;

  int64_t line = 0;    // 1-based
  int64_t column = 0;  // 1-based, bytes

  static TextPos AtByte(int64_t offset) {
    TextPos p;
    p.line = kBytePosLine;
    p.column = offset;
    return p;
  }
  bool is_byte() const { return line == kBytePosLine; }
  int64_t byte_offset() const { return is_byte() ? column : -1; }
  // A position was recorded (a line, or a byte offset).
  bool known() const { return line > 0 || is_byte(); }
};

inline Location At(const std::string& file, TextPos pos) {
  if (pos.is_byte()) {
    Location loc{file, 0, 0};
    loc.byte_offset = pos.column;
    return loc;
  }
  return Location{file, pos.line, pos.column};
}

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_LOCATION_H_
