#include "checker/json/json_input.h"

namespace topolint::json::internal {
namespace {

// Length of the special literal at `i` ("NaN", "Infinity", "-Infinity"),
// or 0 when there is none or an identifier byte follows it.
size_t SpecialAt(std::string_view text, size_t i, Substitution::Kind* kind) {
  struct Special {
    std::string_view word;
    Substitution::Kind kind;
  };
  static constexpr Special kSpecials[] = {
      {"NaN", Substitution::Kind::kNaN},
      {"Infinity", Substitution::Kind::kInfinity},
      {"-Infinity", Substitution::Kind::kNegInfinity},
  };
  std::string_view rest = text.substr(i);
  for (const Special& s : kSpecials) {
    if (rest.substr(0, s.word.size()) != s.word) continue;
    if (rest.size() > s.word.size() && IsIdentifierByte(rest[s.word.size()])) {
      return 0;
    }
    *kind = s.kind;
    return s.word.size();
  }
  return 0;
}

}  // namespace

std::vector<Substitution> FindSubstitutions(std::string_view text) {
  std::vector<Substitution> subs;
  bool value_may_start = true;
  bool nul_seen = false;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '"') {
      // Skip the string, honouring escapes; an unterminated one runs to the
      // end (the lexer reports it).
      ++i;
      while (i < n && text[i] != '"') i += (text[i] == '\\') ? 2 : 1;
      ++i;
      value_may_start = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '\0') {
      if (!nul_seen) {
        subs.push_back({i, 1, Substitution::Kind::kNul});
        nul_seen = true;
      }
      ++i;
      value_may_start = false;
      continue;
    }
    if (value_may_start && (c == 'N' || c == 'I' || c == '-')) {
      Substitution::Kind kind;
      if (size_t len = SpecialAt(text, i, &kind); len > 0) {
        subs.push_back({i, len, kind});
        i += len;
        value_may_start = false;
        continue;
      }
    }
    value_may_start = (c == '[' || c == ',' || c == ':');
    ++i;
  }
  return subs;
}

char TrackedInput::AtSubstituted(size_t offset) {
  const std::vector<Substitution>& subs = *subs_;
  while (next_sub_ < subs.size() &&
         subs[next_sub_].offset + subs[next_sub_].length <= offset) {
    ++next_sub_;
  }
  plain_until_ =
      next_sub_ == subs.size() ? text_.size() : subs[next_sub_].offset;
  if (next_sub_ == subs.size() || offset < subs[next_sub_].offset) {
    return text_[offset];
  }
  const Substitution& s = subs[next_sub_];
  const size_t k = offset - s.offset;
  switch (s.kind) {
    case Substitution::Kind::kNul:
      return '\x01';
    case Substitution::Kind::kNegInfinity:
      return k == 0 ? '-' : (k == 1 ? '0' : ' ');
    case Substitution::Kind::kNaN:
    case Substitution::Kind::kInfinity:
      return k == 0 ? '0' : ' ';
  }
  return text_[offset];
}

}  // namespace topolint::json::internal
