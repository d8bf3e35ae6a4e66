// The tokens of a sharding value (internal to checker/hlo/sharding): XLA's
// HloLexer rules for the few token kinds a sharding uses. An identifier
// written right before '=' is an attribute name (`devices=`), as in XLA.
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_LEXER_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace topolint::hlo::sharding_internal {

enum class Tok {
  kEof,
  kPunct,     // one of { } [ ] ( ) , = ? : — in `punct`
  kLeq,       // <=
  kInt,       // -?[0-9]+ (value in `int_value`)
  kIdent,     // [A-Za-z_][A-Za-z0-9_.-]*
  kAttrName,  // an identifier followed right away by '=' (consumed)
  kString,    // "..." or '...' (contents, unescaped, in `text`)
  kError,     // a byte no token starts with, an unterminated string or
              // comment, an integer out of range (message in `text`)
};

class ShardingLexer {
 public:
  explicit ShardingLexer(std::string_view text) : text_(text) { Lex(); }

  Tok kind() const { return kind_; }
  char punct() const { return punct_; }
  int64_t int_value() const { return int_value_; }
  std::string_view text() const { return tok_text_; }
  const std::string& string_value() const { return string_; }
  // Byte offset of the current token's first byte.
  size_t offset() const { return start_; }
  // Byte offset just past the current token.
  size_t end() const { return pos_; }
  // Byte offset just past the token before the current one.
  size_t last_end() const { return last_end_; }

  bool Is(char c) const { return kind_ == Tok::kPunct && punct_ == c; }
  bool IsIdent(std::string_view word) const {
    return kind_ == Tok::kIdent && tok_text_ == word;
  }
  bool IsAttr(std::string_view word) const {
    return kind_ == Tok::kAttrName && tok_text_ == word;
  }
  Tok Lex();

 private:
  bool SkipTrivia();  // false: an unterminated comment (kError set)

  std::string_view text_;
  size_t pos_ = 0;
  size_t start_ = 0;
  size_t last_end_ = 0;
  Tok kind_ = Tok::kEof;
  char punct_ = 0;
  int64_t int_value_ = 0;
  std::string_view tok_text_;
  std::string string_;
};

}  // namespace topolint::hlo::sharding_internal

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_LEXER_H_
