#include "checker/diag/source_snippet.h"

#include <algorithm>

#include "fmt/format.h"

namespace topolint {
namespace {

// One displayed character: the bytes it spans and how it prints.
struct Glyph {
  size_t bytes = 1;
  std::string shown;  // empty: print the source bytes unchanged
  int width = 1;      // columns taken on screen (tab handled by the caller)
};

bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Decodes one UTF-8 sequence at the start of `s` (RFC 3629: no overlongs,
// no surrogates, nothing above U+10FFFF). Returns its length, 0 if invalid.
size_t DecodeUtf8(std::string_view s, uint32_t* cp) {
  const auto b = [&s](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = b(0);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (s.size() < len || b(1) < lo || b(1) > hi) return 0;
  for (size_t i = 2; i < len; ++i) {
    if (!IsContinuation(b(i))) return 0;
  }
  uint32_t v = b0 & (0x7F >> len);
  for (size_t i = 1; i < len; ++i) v = (v << 6) | (b(i) & 0x3F);
  *cp = v;
  return len;
}

// Code points that must not reach a terminal raw: C0/C1 controls, DEL, and
// the invisible bidirectional controls of "Trojan Source" (CVE-2021-42574).
bool IsUnsafeCodePoint(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

Glyph NextGlyph(std::string_view s) {
  Glyph g;
  uint32_t cp = 0;
  const size_t len = DecodeUtf8(s, &cp);
  if (len == 0) {
    g.shown = fmt::format("<{:02X}>", static_cast<unsigned char>(s[0]));
    g.width = static_cast<int>(g.shown.size());
    return g;
  }
  g.bytes = len;
  if (cp != '\t' && IsUnsafeCodePoint(cp)) {
    g.shown = fmt::format("<U+{:04X}>", cp);
    g.width = static_cast<int>(g.shown.size());
  }
  return g;
}

}  // namespace

std::string SanitizeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const Glyph g = NextGlyph(text);
    if (g.shown.empty()) {
      out.append(text.substr(0, g.bytes));
    } else {
      out += g.shown;
    }
    text.remove_prefix(g.bytes);
  }
  return out;
}

SourceSnippet MakeSnippet(const LineExcerpt& excerpt, int64_t column) {
  const std::string& src = excerpt.text;
  // Byte offsets are 0-based positions in the whole line.
  const int64_t a = excerpt.first_column - 1;
  const int64_t b = a + static_cast<int64_t>(src.size());
  const int64_t length = std::max(excerpt.line_length, b);
  const int64_t target = column - 1;
  // A caret may sit one past the last byte only at the real end of the line.
  bool caret = column >= 1 && target >= a && target <= length &&
               (target < b || b == length);

  int64_t ws = a, we = b;
  if (b - a > kSnippetWidth) {
    if (caret) {
      ws = std::max(a, target - kSnippetWidth / 2);
      we = std::min(b, ws + kSnippetWidth);
      ws = std::max(a, we - kSnippetWidth);
    } else {
      we = a + kSnippetWidth;
    }
  }
  const auto byte_at = [&](int64_t p) {
    return static_cast<unsigned char>(src[static_cast<size_t>(p - a)]);
  };
  // Never cut through a UTF-8 sequence at a window edge.
  if (ws > 0) {
    while (ws < we && IsContinuation(byte_at(ws))) ++ws;
  }
  if (we < b) {
    while (we > ws && IsContinuation(byte_at(we))) --we;
  }
  if (caret && (target < ws || target > we || (target == we && we < length))) {
    caret = false;
  }

  SourceSnippet out;
  out.has_caret = caret;
  if (ws > 0) {
    out.text = "...";
    if (caret) out.caret_indent = "   ";
  }
  std::string_view rest(src);
  rest = rest.substr(static_cast<size_t>(ws - a), static_cast<size_t>(we - ws));
  int64_t pos = ws;
  while (!rest.empty()) {
    const Glyph g = NextGlyph(rest);
    const std::string_view bytes = rest.substr(0, g.bytes);
    if (g.shown.empty()) {
      out.text.append(bytes);
    } else {
      out.text += g.shown;
    }
    if (caret && pos + static_cast<int64_t>(g.bytes) <= target) {
      if (bytes == "\t") {
        out.caret_indent.push_back('\t');
      } else {
        out.caret_indent.append(static_cast<size_t>(g.width), ' ');
      }
    }
    pos += static_cast<int64_t>(g.bytes);
    rest.remove_prefix(g.bytes);
  }
  if (we < length) out.text += "...";
  return out;
}

std::string SanitizeLinesForTerminal(std::string_view text,
                                     std::string_view breaks) {
  std::string out;
  out.reserve(text.size());
  for (;;) {
    const size_t brk = text.find_first_of(breaks);
    out += SanitizeForTerminal(text.substr(0, brk));
    if (brk == std::string_view::npos) break;
    out += text[brk];
    text.remove_prefix(brk + 1);
  }
  return out;
}

}  // namespace topolint
