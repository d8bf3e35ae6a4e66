#include "checker/hlo/instruction_head.h"

#include <cstdint>
#include <cstring>

#include "checker/hlo/hlo_lexer.h"
#include "checker/hlo/hlo_parser.h"

namespace topolint::hlo {
namespace {

inline bool Ident(char c) { return IsIdentChar(static_cast<unsigned char>(c)); }
inline bool Digit(char c) { return c >= '0' && c <= '9'; }

// Past an identifier at `p` (which starts one), or nullptr when it is longer
// than a token may be (the exact path reports that).
const char* SkipIdent(const char* p) {
  const char* const start = p;
  while (Ident(*p)) ++p;  // the NUL sentinel stops it
  return p - start > kMaxTokenBytes ? nullptr : p;
}

// `[d,d,...]` and an optional `{d,d,...}` layout right after it: digits and
// commas only, as HloLexer::TrySkipSimpleDims takes them. `p` is at '['.
const char* SkipDims(const char* p) {
  ++p;
  while (Digit(*p) || *p == ',') ++p;
  if (*p != ']') return nullptr;
  ++p;
  if (*p != '{') return p;
  ++p;
  if (!Digit(*p) && *p != '}') return nullptr;
  while (Digit(*p) || *p == ',') ++p;
  return *p == '}' ? p + 1 : nullptr;
}

// An array shape `type[dims]{layout}` at `p` (an identifier start).
const char* SkipArray(const char* p) {
  p = SkipIdent(p);
  if (p == nullptr || *p != '[') return nullptr;  // `b(...)` buffers too
  return SkipDims(p);
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
    } else if (IsIdentStart(static_cast<unsigned char>(*p))) {
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

}  // namespace

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
  if (!IsIdentStart(static_cast<unsigned char>(*p))) return false;
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
  if (*p == '(') {
    p = SkipTuple(p, 0);
  } else if (IsIdentStart(static_cast<unsigned char>(*p))) {
    p = SkipArray(p);
  } else {
    return false;
  }
  if (p == nullptr || *p != ' ') return false;
  out->shape = std::string_view(shape, static_cast<size_t>(p - shape));
  while (*p == ' ') ++p;
  if (!IsIdentStart(static_cast<unsigned char>(*p))) return false;
  const char* const opcode = p;
  p = SkipIdent(p);
  if (p == nullptr || *p != '(') return false;
  out->opcode = std::string_view(opcode, static_cast<size_t>(p - opcode));
  out->opcode_offset = static_cast<size_t>(opcode - start);
  out->open = p;
  return true;
}

}  // namespace topolint::hlo
