#include "checker/hlo/text/instruction_head.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "checker/hlo/input_window.h"
#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/hlo/text/small_copy.h"

namespace topolint::hlo {
namespace {

static_assert(InputWindow::kSlackBytes >= 15,
              "ScanSimpleHead loads 16 bytes at a time past the sentinel");

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `p` is a digit or ','.
inline unsigned DimMask(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
      BytesInRange(v, '0', 9), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')))));
}
#endif

// Past the run of bytes at `p` that `mask` (16 at a time) or `is` (one at a
// time) accept. The run always ends at the NUL sentinel, and the 16-byte
// loads stay within the window's slack after it.
template <unsigned (*kMask)(const char*), bool (*kIs)(char)>
const char* SkipRun(const char* p) {
#if defined(__SSE2__)
  (void)kIs;
  for (;;) {
    const unsigned stop = ~kMask(p) & 0xffffu;
    if (stop != 0) return p + __builtin_ctz(stop);
    p += 16;
  }
#else
  (void)kMask;
  while (kIs(*p)) ++p;
  return p;
#endif
}

inline bool IsDimByte(char c) { return IsDigit(c) || c == ','; }
#if !defined(__SSE2__)
inline unsigned DimMask(const char*) { return 0; }
#endif

// Past an identifier at `p` (which starts one), or nullptr when it is longer
// than a token may be (the exact path reports that).
const char* SkipIdent(const char* p) {
  const char* const end = SkipIdentBytes(p);
  return end - p > kMaxTokenBytes ? nullptr : end;
}

// The tail of a layout after its minor-to-major list, at ':' — TPU tiles
// and the like, `:T(8,128)(2,1)`, `:T(1024)S(1)`, `:E(32)`: identifier
// bytes, ',', '*' and unnested `(...)`, then the closing '}'; past the
// '}', or nullptr (blanks, quotes, other brackets, a line break, the
// window's NUL). The exact parser skips a layout as one bracket group
// (SkipGroup), which stops at that same '}'.
const char* SkipPlainLayoutTail(const char* p) {
  bool open = false;  // inside one `(...)`
  for (++p;; ++p) {
    const char c = *p;  // the window's NUL declines
    if (IsIdentChar(c) || c == ',' || c == '*') continue;
    if (c == '(' && !open) {
      open = true;
    } else if (c == ')' && open) {
      open = false;
    } else {
      return c == '}' && !open ? p + 1 : nullptr;
    }
  }
}

// The plain dims of an array shape, `[d,d,...]`, and an optional
// `{d,d,...}` layout right after it (digits and commas, then optionally a
// tail SkipPlainLayoutTail takes), at `p` ('['); past them, or nullptr when
// they are not that plain. The same slack requirement as ScanSimpleHead.
const char* SkipPlainDims(const char* p) {
  p = SkipRun<DimMask, IsDimByte>(p + 1);
  if (*p != ']') return nullptr;
  ++p;
  if (*p != '{') return p;
  ++p;
  if (!IsDigit(*p) && *p != '}' && *p != ':') return nullptr;
  p = SkipRun<DimMask, IsDimByte>(p);
  if (*p == ':') return SkipPlainLayoutTail(p);
  return *p == '}' ? p + 1 : nullptr;
}

#if defined(__SSE2__)
static_assert(InputWindow::kSlackBytes >= 33,
              "SkipShortArray reads the 34 bytes at an identifier start");

// Bit i set when byte i of the 32 at `p` is an identifier byte.
inline uint32_t IdentMask32(const char* p) {
  const auto bits = [](const char* q) {
    return static_cast<uint32_t>(_mm_movemask_epi8(
        IdentBytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)))));
  };
  return bits(p) | (bits(p + 16) << 16);
}

// SkipArray for a shape whose type and dims end within the 32 bytes at
// `p`, the most common (`bf16[4,2048,4096]{2,1,0}`): its parts are found
// in masks of those bytes, loaded at once, rather than each run's end
// waiting for the load after the last one's. False when they do not end
// there (SkipArray then takes it run by run); else `*end` as SkipArray's.
bool SkipShortArray(const char* p, const char** end) {
  const uint32_t type = ~IdentMask32(p);
  const uint32_t dims = ~(DimMask(p) | (DimMask(p + 16) << 16));
  if (type == 0) return false;
  uint32_t i = static_cast<uint32_t>(__builtin_ctz(type));
  if (p[i] != '[') {
    *end = nullptr;  // `b(...)` buffers too
    return true;
  }
  if (++i >= 32 || (dims >> i) == 0) return false;
  i += static_cast<uint32_t>(__builtin_ctz(dims >> i));
  *end = nullptr;
  if (p[i] != ']') return true;
  ++i;
  if (p[i] != '{') {
    *end = p + i;
    return true;
  }
  ++i;
  if (!IsDigit(p[i]) && p[i] != '}' && p[i] != ':') return true;
  if (i >= 32 || (dims >> i) == 0) return false;
  i += static_cast<uint32_t>(__builtin_ctz(dims >> i));
  if (p[i] == ':') {
    *end = SkipPlainLayoutTail(p + i);
  } else if (p[i] == '}') {
    *end = p + i + 1;
  }
  return true;
}
#endif

// An array shape `type[dims]{layout}` at `p` (an identifier start).
const char* SkipArray(const char* p) {
#if defined(__SSE2__)
  if (const char* end = nullptr; SkipShortArray(p, &end)) return end;
#endif
  p = SkipIdent(p);
  if (p == nullptr || *p != '[') return nullptr;  // `b(...)` buffers too
  return SkipPlainDims(p);
}

// A tuple shape `(shape, shape, ...)` of plain array and tuple shapes; `p`
// is at '('. Anything else (comments such as `/*index=5*/`, line breaks)
// declines.
const char* SkipTuple(const char* p, int depth) {
  if (depth >= kMaxShapeDepth) return nullptr;
  ++p;  // '('
  if (*p == ')') return p + 1;
  for (;;) {
    if (*p == '(') {
      p = SkipTuple(p, depth + 1);
    } else if (IsIdentStart(*p)) {
      p = SkipArray(p);
    } else {
      return nullptr;
    }
    if (p == nullptr) return nullptr;
    if (*p == ')') return p + 1;
    if (*p != ',') return nullptr;
    ++p;
    while (*p == ' ') ++p;
  }
}

// A plain array or tuple shape at `p`: past it, or nullptr.
const char* SkipSimpleShape(const char* p) {
  if (*p == '(') return SkipTuple(p, 0);
  if (IsIdentStart(*p)) return SkipArray(p);
  return nullptr;
}

}  // namespace

bool ScanSimpleParam(const char* const start, SimpleParam* out) {
  const char* p = start;
  if (*p == '%') ++p;
  if (!IsIdentStart(*p)) return false;
  p = SkipIdent(p);
  if (p == nullptr || p[0] != ':' || p[1] != ' ') return false;
  out->name = std::string_view(start, static_cast<size_t>(p - start));
  p += 2;
  const char* const shape = p;
  p = SkipSimpleShape(p);
  if (p == nullptr || (*p != ',' && *p != ')')) return false;
  out->shape = std::string_view(shape, static_cast<size_t>(p - shape));
  out->end = p;
  return true;
}

bool ScanSimpleHead(const char* const start, SimpleHead* out) {
  const char* p = start;
  out->is_root = false;
  if (p[0] == 'R' && std::memcmp(p, "ROOT ", 5) == 0) {
    out->is_root = true;
    p += 5;
    while (*p == ' ') ++p;
  }
  out->percent = *p == '%';
  if (out->percent) ++p;
  if (!IsIdentStart(*p)) return false;
  const char* const name = p;
  p = SkipIdent(p);
  if (p == nullptr) return false;
  out->name = std::string_view(name, static_cast<size_t>(p - name));
  if (!out->percent && (out->name == "ROOT" || out->name == "ENTRY")) {
    return false;
  }
  if (p[0] != ' ' || p[1] != '=' || p[2] != ' ') return false;
  p += 3;
  const char* const shape = p;
  p = SkipSimpleShape(p);
  if (p == nullptr || *p != ' ') return false;
  out->shape = std::string_view(shape, static_cast<size_t>(p - shape));
  while (*p == ' ') ++p;
  if (!IsIdentStart(*p)) return false;
  const char* const opcode = p;
  p = SkipIdent(p);
  if (p == nullptr || *p != '(') return false;
  out->opcode = std::string_view(opcode, static_cast<size_t>(p - opcode));
  out->opcode_offset = static_cast<size_t>(opcode - start);
  out->open = p;
  return true;
}

}  // namespace topolint::hlo
