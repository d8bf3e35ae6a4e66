#include "checker/hlo/text/collective_attrs.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "checker/hlo/input_window.h"
#include "checker/hlo/pairs_text.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/group_list_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr std::string_view kSendRecvPairs =
    "_xla_send_recv_source_target_pairs";

bool ReadKey(HloLexer& lx, std::string_view what, std::string* key) {
  const int c = lx.Peek();
  if (c == '"' || c == '\'') return lx.ReadString(key, 256);
  if (IsIdentStart(c)) return lx.ReadIdent(key);
  return lx.Expected(what);
}

// Where byte `offset` of a string's content is, the string's opening quote
// being at `string_pos` (exact for content without escapes).
TextPos InString(std::string_view content, TextPos string_pos, size_t offset) {
  TextPos pos{string_pos.line, string_pos.column + 1};
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < content.size(); ++i) {
    // A line ends at LF, CRLF or a lone CR, as the lexer counts lines.
    const bool crlf =
        content[i] == '\r' && i + 1 < content.size() && content[i + 1] == '\n';
    if (content[i] == '\n' || (content[i] == '\r' && !crlf)) {
      ++pos.line;
      line_start = i + 1;
      pos.column = 1;
    }
  }
  if (pos.line != string_pos.line) {
    pos.column = static_cast<int64_t>(offset - line_start) + 1;
  } else {
    pos.column += static_cast<int64_t>(offset);
  }
  return pos;
}

// The pairs written inside a string that started at `string_pos`, read by
// the reader both front ends share (checker/hlo/pairs_text.h); errors are
// reported at their place in the file.
bool ParseQuotedPairs(HloLexer& lx, const std::string& content,
                      TextPos string_pos, SourceTargetPairs* out) {
  out->Clear();
  out->present = true;
  std::vector<size_t> offsets;
  if (const std::optional<PairsTextProblem> p =
          ParsePairsText(content, kSendRecvPairs, out, &offsets)) {
    return lx.Error(InString(content, string_pos, p->offset), p->message);
  }
  const size_t first = content.find('{');
  out->pos =
      InString(content, string_pos, first == std::string::npos ? 0 : first);
  for (size_t offset : offsets) {
    out->pair_pos.push_back(InString(content, string_pos, offset));
  }
  return true;
}

static_assert(InputWindow::kSlackBytes >= 15,
              "SkipPlainString loads 16 bytes at a time past the sentinel");

// Past a plain double-quoted string at `p` (its opening quote): no escape,
// control byte or line break inside. nullptr otherwise.
// Reads 16 bytes at a time: the window keeps InputWindow::kSlackBytes
// readable bytes after its NUL.
const char* SkipPlainString(const char* p) {
  ++p;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  for (;; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stop = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
        LowBytes(v));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
    if (mask != 0) {
      p += __builtin_ctz(mask);
      break;
    }
  }
#else
  while (*p != '"' && *p != '\\' && !IsLowByte(*p)) ++p;
#endif
  return *p == '"' ? p + 1 : nullptr;  // NUL (the window's end) declines
}

// OpMetadata.source_column is an int32; a column outside 1..INT32_MAX is
// none.
int32_t ColumnOf(int64_t column) {
  return column > 0 && column <= INT32_MAX ? static_cast<int32_t>(column) : 0;
}

}  // namespace

// The common case of ParseMetadata, read straight from the window:
// `{key="plain string" ... source_line=N}` where every value is a plain
// double-quoted string, or the integer of source_line, and keys and values
// are separated by blanks or commas on one line. False with nothing
// consumed and `c` untouched otherwise.
bool TryParseSimpleMetadata(HloLexer& lx, Collective* c) {
  const char* p = lx.cursor() + 1;  // after '{'
  std::string_view op_name;
  std::string_view source_file;
  bool has_op_name = false;
  bool has_source_file = false;
  bool has_source_line = false;
  int64_t source_line = 0;
  bool has_source_column = false;
  int64_t source_column = 0;
  for (;;) {
    while (*p == ' ' || *p == ',') ++p;
    if (*p == '}') break;
    if (!IsIdentStart(*p)) return false;
    const char* const key = p;
    p = SkipIdentBytes(p);  // (the window's slack follows its NUL)
    const std::string_view k(key, static_cast<size_t>(p - key));
    if (*p != '=') return false;
    ++p;
    if (k.size() == 11 && k == "source_line") {
      p = ReadPlainDecimal(p, &source_line);
      if (p == nullptr) return false;
      has_source_line = true;
    } else if (k.size() == 13 && k == "source_column") {
      // `source_line=12 source_end_line=12 source_column=10
      // source_end_column=10`: what XLA prints of OpMetadata for JAX.
      p = ReadPlainDecimal(p, &source_column);
      if (p == nullptr) return false;
      has_source_column = true;
    } else if (IsDigit(*p)) {
      // `source_end_line=12 source_end_column=10 ...`: digits, skipped as
      // the exact path's SkipAtom skips them.
      while (IsDigit(*p)) ++p;
    } else {
      if (*p != '"') return false;
      const char* const end = SkipPlainString(p);
      if (end == nullptr) return false;
      const std::string_view content(p + 1, static_cast<size_t>(end - p - 2));
      if (k.size() == 7 && k == "op_name") {
        has_op_name = true;
        op_name = content;
      } else if (k.size() == 11 && k == "source_file") {
        has_source_file = true;
        source_file = content;
      }
      p = end;
    }
    if (*p != ' ' && *p != ',' && *p != '}') return false;
  }
  // (clear + append: the copy without assign's overlap checks.)
  if (has_op_name) {
    c->op_name.clear();
    c->op_name.append(op_name.substr(0, 256));
  }
  if (has_source_file) {
    c->source_file.clear();
    c->source_file.append(source_file.substr(0, 4096));
  }
  if (has_source_line) c->source_line = source_line;
  if (has_source_column) c->source_column = ColumnOf(source_column);
  lx.AdvanceTo(p + 1);
  return true;
}

bool ParseMetadataExact(HloLexer& lx, Collective* c) {
  if (!lx.Eat('{')) return lx.Expected("'{' to start metadata");
  std::string key;
  for (;;) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat('}')) return true;
    if (lx.Eat(',')) continue;
    if (!IsIdentStart(lx.Peek())) {
      return lx.Expected("a metadata key (such as op_name=) or '}'");
    }
    if (!lx.ReadIdent(&key) || !lx.SkipTrivia()) return false;
    if (!lx.Eat('=')) {
      return lx.Expected(fmt::format("'=' after metadata key '{}'", key));
    }
    if (!lx.SkipTrivia()) return false;
    const int q = lx.Peek();
    const bool quoted = q == '"' || q == '\'';
    bool ok;
    if (key == "source_file" && quoted) {
      ok = lx.ReadString(&c->source_file, 4096);
    } else if (key == "op_name" && quoted) {
      ok = lx.ReadString(&c->op_name, 256);
    } else if (key == "source_line") {
      ok = lx.ReadInt(&c->source_line, "an integer source_line");
    } else if (key == "source_column") {
      int64_t column = 0;
      ok = lx.ReadInt(&column, "an integer source_column");
      c->source_column = ColumnOf(column);
    } else {
      ok = lx.SkipAtom();
    }
    if (!ok) return false;
  }
}

bool ParseFrontendAttributes(HloLexer& lx, Collective* c) {
  if (!lx.Eat('{')) return lx.Expected("'{' to start frontend_attributes");
  std::string key;
  std::string content;
  for (;;) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat('}')) return true;
    if (!ReadKey(lx, "a frontend attribute name or '}'", &key) ||
        !lx.SkipTrivia()) {
      return false;
    }
    if (!lx.Eat('=')) {
      return lx.Expected(fmt::format("'=' after frontend attribute '{}'", key));
    }
    if (!lx.SkipTrivia()) return false;
    bool ok;
    if (key == kSendRecvPairs) {
      const int v = lx.Peek();
      if (v == '{') {
        ok = ParseSourceTargetPairs(lx, kSendRecvPairs, &c->source_target_pairs,
                                    nullptr);
      } else if (v == '"' || v == '\'') {
        const TextPos string_pos = lx.Pos();
        ok = lx.ReadString(&content, size_t{16} << 20) &&
             ParseQuotedPairs(lx, content, string_pos, &c->source_target_pairs);
      } else {
        ok = lx.Expected(
            fmt::format("a string or '{{...}}' value for {}", kSendRecvPairs));
      }
    } else {
      ok = lx.SkipValue();
    }
    if (!ok || !lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat('}')) return true;
    return lx.Expected("',' or '}' in frontend_attributes");
  }
}

}  // namespace topolint::hlo
