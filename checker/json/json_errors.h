// Turns nlohmann_json's parse errors into located, user-facing messages that
// say what was expected. Internal to checker/json.
#ifndef TOPOLINT_CHECKER_JSON_JSON_ERRORS_H_
#define TOPOLINT_CHECKER_JSON_JSON_ERRORS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "checker/diag/location.h"

namespace topolint::json::internal {

// What the loader knew when nlohmann reported the error.
struct ErrorContext {
  std::string_view text;   // the original bytes (not the substituted ones)
  size_t cursor = 0;       // end of the last token the loader accepted
  size_t last_read = 0;    // offset of the byte the lexer read last
                           // (text.size() at the end of input)
  bool any_token = false;  // whether any token was accepted
  // The innermost '[' or '{' still open, for "... is not closed" hints.
  char open_bracket = 0;
  TextPos open_pos;
};

struct DescribedError {
  size_t offset = 0;  // the offending byte
  std::string message;
};

// `what` is nlohmann's exception text, e.g. "[json.exception.parse_error.101]
// parse error at line 1, column 3: syntax error while parsing value -
// unexpected ']'; expected '[', '{', or a literal".
DescribedError DescribeParseError(const ErrorContext& ctx,
                                  std::string_view what);

// Offset of the next token at or after `from`: skips whitespace, and one ','
// or ':' separator when it lies before `limit` (the separator the parser
// already accepted).
size_t NextTokenStart(std::string_view text, size_t from, size_t limit);

}  // namespace topolint::json::internal

#endif  // TOPOLINT_CHECKER_JSON_JSON_ERRORS_H_
