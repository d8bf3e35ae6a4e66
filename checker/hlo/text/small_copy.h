// CopySmall: memcpy for the short texts the parser copies once per
// instruction or attribute (names, shapes, keys): 8 to 32 bytes are copied
// inline as two overlapping fixed-size moves instead of a call. Internal to
// checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_SMALL_COPY_H_
#define TOPOLINT_CHECKER_HLO_TEXT_SMALL_COPY_H_

#include <cstddef>
#include <cstring>

namespace topolint::hlo {

// Copies `n` bytes, W <= n <= 2W, as two overlapping W-byte moves.
template <size_t W>
inline void CopyTwoOverlapping(char* dst, const char* src, size_t n) {
  char head[W];
  char tail[W];
  std::memcpy(head, src, W);
  std::memcpy(tail, src + n - W, W);
  std::memcpy(dst, head, W);
  std::memcpy(dst + n - W, tail, W);
}

// Copies `n` bytes from `src` to `dst` (which must not overlap), reading
// and writing only those bytes.
inline void CopySmall(char* dst, const char* src, size_t n) {
  if (n >= 8 && n <= 16) {
    CopyTwoOverlapping<8>(dst, src, n);
  } else if (n > 16 && n <= 32) {
    CopyTwoOverlapping<16>(dst, src, n);
  } else if (n != 0) {
    std::memcpy(dst, src, n);
  }
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_SMALL_COPY_H_
