#include "checker/io/text_encoding.h"

#include <algorithm>

namespace topolint {

std::string_view WideEncodingOf(std::string_view head) {
  auto at = [&](size_t i) {
    return i < head.size() ? static_cast<unsigned char>(head[i]) : 0x100u;
  };
  if (at(0) == 0xff && at(1) == 0xfe) {
    return at(2) == 0 && at(3) == 0 ? "UTF-32LE" : "UTF-16LE";
  }
  if (at(0) == 0xfe && at(1) == 0xff) return "UTF-16BE";
  if (at(0) == 0 && at(1) == 0 && at(2) == 0xfe && at(3) == 0xff) {
    return "UTF-32BE";
  }
  // Without a BOM: ASCII text with NULs between its bytes (at least 8
  // characters, every one printable or a line break).
  auto wide = [&](size_t unit, size_t offset) {
    const size_t n = std::min<size_t>(head.size() / unit, 64);
    if (n < 8) return false;
    for (size_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < unit; ++k) {
        const unsigned char c = at(i * unit + k);
        const bool is_char = k == offset;
        if (is_char ? (c == 0 ||
                       (c < 0x20 && c != '\n' && c != '\r' && c != '\t') ||
                       c >= 0x7f)
                    : c != 0) {
          return false;
        }
      }
    }
    return true;
  };
  if (wide(4, 0)) return "UTF-32LE";
  if (wide(4, 3)) return "UTF-32BE";
  if (wide(2, 0)) return "UTF-16LE";
  if (wide(2, 1)) return "UTF-16BE";
  return "";
}

}  // namespace topolint
