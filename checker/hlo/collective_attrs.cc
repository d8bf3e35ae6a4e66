#include "checker/hlo/collective_attrs.h"

#include <string>

#include "checker/hlo/group_list_parser.h"
#include "checker/hlo/input_window.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr std::string_view kSendRecvPairs = "_xla_send_recv_source_target_pairs";

bool ReadKey(HloLexer& lx, std::string_view what, std::string* key) {
  const int c = lx.Peek();
  if (c == '"' || c == '\'') return lx.ReadString(key, 256);
  if (IsIdentStart(c)) return lx.ReadIdent(key);
  return lx.Expected(what);
}

// Parses the pairs written inside a string that started at `string_pos`;
// errors are re-reported through `lx` at their position in the file.
bool ParseQuotedPairs(HloLexer& lx, const std::string& content,
                      TextPos string_pos, SourceTargetPairs* out) {
  InputWindow window(content, content.size() + 1);
  Module scratch;
  HloLexer sub(&window, &scratch, ParseOptions{});
  sub.SetStartPos(TextPos{string_pos.line, string_pos.column + 1});
  bool ok = sub.SkipTrivia();
  if (ok && sub.Peek() != '{') {
    ok = sub.Expected(fmt::format("'{{' to start the pairs of {}",
                                  kSendRecvPairs));
  }
  ok = ok && ParseSourceTargetPairs(sub, kSendRecvPairs, out) &&
       sub.SkipTrivia();
  if (ok && sub.Peek() != kEof) {
    ok = sub.Expected(fmt::format("the end of the {} string", kSendRecvPairs));
  }
  if (!ok && !scratch.syntax_errors.empty()) {
    const SyntaxError& e = scratch.syntax_errors.front();
    return lx.Error(e.pos, e.message);
  }
  return ok;
}

}  // namespace

bool ParseMetadata(HloLexer& lx, Collective* c) {
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
        ok = ParseSourceTargetPairs(lx, kSendRecvPairs, &c->source_target_pairs);
      } else if (v == '"' || v == '\'') {
        const TextPos string_pos = lx.Pos();
        ok = lx.ReadString(&content, size_t{16} << 20) &&
             ParseQuotedPairs(lx, content, string_pos, &c->source_target_pairs);
      } else {
        ok = lx.Expected(fmt::format("a string or '{{...}}' value for {}",
                                     kSendRecvPairs));
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
