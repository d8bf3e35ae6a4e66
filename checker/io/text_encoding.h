// Recognising text written in a wide encoding (UTF-16 / UTF-32), so that
// readers that expect UTF-8 (HLO text, JSON) can name the encoding in their
// finding ("found UTF-16LE text; convert it (iconv -f UTF-16LE -t UTF-8)")
// instead of reporting the first byte as garbage.
#ifndef TOPOLINT_CHECKER_IO_TEXT_ENCODING_H_
#define TOPOLINT_CHECKER_IO_TEXT_ENCODING_H_

#include <string_view>

namespace topolint {

// "UTF-16LE", "UTF-16BE", "UTF-32LE" or "UTF-32BE" when `head` (the first
// bytes of an input; 4 KiB is plenty) starts with that encoding's byte order
// mark, or is ASCII text with NULs between its bytes (at least 8
// characters, each printable or a line break); "" otherwise (UTF-8, with or
// without its BOM, and binary data).
std::string_view WideEncodingOf(std::string_view head);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_IO_TEXT_ENCODING_H_
