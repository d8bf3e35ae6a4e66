#include "checker/hlo/sharding/sharding_lexer.h"

#include <array>

namespace topolint::hlo::sharding_internal {
namespace {

bool IsIdentStartByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// The bytes an identifier goes on with, one load each.
constexpr std::array<bool, 256> MakeIdentBytes() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) {
    t[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (c >= '0' && c <= '9') || c == '.' || c == '-';
  }
  return t;
}
constexpr std::array<bool, 256> kIdentBytes = MakeIdentBytes();
bool IsIdentByte(char c) { return kIdentBytes[static_cast<unsigned char>(c)]; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// The bytes SkipTrivia may skip from: blanks, line breaks, a comment's '/'.
bool IsTriviaStart(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/';
}

}  // namespace

bool ShardingLexer::SkipTrivia() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      const size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        start_ = pos_;
        kind_ = Tok::kError;
        tok_text_ = "unterminated comment";
        pos_ = text_.size();
        return false;
      }
      pos_ = close + 2;
    } else {
      return true;
    }
  }
  return true;
}

Tok ShardingLexer::Lex() {
  last_end_ = pos_;
  // (Most tokens follow the last one right away: no call.)
  if (pos_ < text_.size() && IsTriviaStart(text_[pos_]) && !SkipTrivia()) {
    return kind_;
  }
  start_ = pos_;
  tok_text_ = {};
  if (pos_ >= text_.size()) return kind_ = Tok::kEof;
  const char c = text_[pos_];
  switch (c) {
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case ',':
    case '=':
    case '?':
    case ':':
      ++pos_;
      punct_ = c;
      return kind_ = Tok::kPunct;
    case '<':
      if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') {
        pos_ += 2;
        return kind_ = Tok::kLeq;
      }
      break;
    case '"':
    case '\'': {
      string_.clear();
      size_t p = pos_ + 1;
      while (p < text_.size() && text_[p] != c) {
        if (text_[p] == '\\' && p + 1 < text_.size()) ++p;
        string_.push_back(text_[p]);
        ++p;
      }
      if (p >= text_.size()) {
        pos_ = text_.size();
        tok_text_ = "unterminated string";
        return kind_ = Tok::kError;
      }
      pos_ = p + 1;
      tok_text_ = text_.substr(start_, pos_ - start_);
      return kind_ = Tok::kString;
    }
    default:
      break;
  }
  if (IsDigit(c) ||
      (c == '-' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
    const bool negative = c == '-';
    size_t p = pos_ + (negative ? 1 : 0);
    uint64_t v = 0;
    bool overflow = false;
    while (p < text_.size() && IsDigit(text_[p])) {
      const uint64_t digit = static_cast<uint64_t>(text_[p] - '0');
      if (v > (uint64_t{1} << 62) / 5) overflow = true;  // v * 10 > 2^63
      v = v * 10 + digit;
      if (v > (uint64_t{1} << 63) - (negative ? 0 : 1)) overflow = true;
      ++p;
    }
    pos_ = p;
    tok_text_ = text_.substr(start_, pos_ - start_);
    if (overflow) {
      tok_text_ = "integer is out of range";
      return kind_ = Tok::kError;
    }
    int_value_ =
        negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    return kind_ = Tok::kInt;
  }
  if (IsIdentStartByte(c)) {
    size_t p = pos_ + 1;
    while (p < text_.size() && IsIdentByte(text_[p])) ++p;
    tok_text_ = text_.substr(start_, p - start_);
    if (p < text_.size() && text_[p] == '=' &&
        !(p + 1 < text_.size() && text_[p + 1] == '=')) {
      pos_ = p + 1;
      return kind_ = Tok::kAttrName;
    }
    pos_ = p;
    return kind_ = Tok::kIdent;
  }
  ++pos_;
  tok_text_ = "unexpected character";
  return kind_ = Tok::kError;
}

}  // namespace topolint::hlo::sharding_internal
