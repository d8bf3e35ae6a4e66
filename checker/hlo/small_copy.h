// CopySmall: memcpy for the short texts the parser copies once per
// instruction or attribute (names, shapes, keys): 8 to 32 bytes are copied
// inline as two overlapping fixed-size moves instead of a call. Internal to
// checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_SMALL_COPY_H_
#define TOPOLINT_CHECKER_HLO_SMALL_COPY_H_

#include <cstddef>
#include <cstring>

namespace topolint::hlo {

// Copies `n` bytes from `src` to `dst` (which must not overlap), reading
// and writing only those bytes.
inline void CopySmall(char* dst, const char* src, size_t n) {
  if (n >= 8 && n <= 16) {
    char head[8];
    char tail[8];
    std::memcpy(head, src, 8);
    std::memcpy(tail, src + n - 8, 8);
    std::memcpy(dst, head, 8);
    std::memcpy(dst + n - 8, tail, 8);
  } else if (n > 16 && n <= 32) {
    char head[16];
    char tail[16];
    std::memcpy(head, src, 16);
    std::memcpy(tail, src + n - 16, 16);
    std::memcpy(dst, head, 16);
    std::memcpy(dst + n - 16, tail, 16);
  } else if (n != 0) {
    std::memcpy(dst, src, n);
  }
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SMALL_COPY_H_
