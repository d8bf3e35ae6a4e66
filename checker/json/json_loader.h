// Parses JSON text into a located json::Value, using nlohmann_json's SAX
// interface with a position-tracking input adapter (nlohmann 3.11 records no
// positions itself).
#ifndef TOPOLINT_CHECKER_JSON_JSON_LOADER_H_
#define TOPOLINT_CHECKER_JSON_JSON_LOADER_H_

#include <string>
#include <string_view>

#include "checker/diag/location.h"
#include "checker/json/json_value.h"

namespace topolint::json {

// Documented limits (refused with a syntax error, never a crash).
inline constexpr int kMaxNestingDepth = 256;
inline constexpr size_t kMaxDocumentBytes = size_t{1} << 30;  // 1 GiB
// Values plus object keys in one document. It bounds the memory of the tree
// (a json::Value is 56 bytes, a key 16 more: at most about 60 MB) whatever
// the document; a def.json listing nearly a million ranks still fits.
inline constexpr size_t kMaxValueCount = size_t{1} << 20;

struct SyntaxError {
  TextPos pos;          // offending byte
  std::string message;  // says what was expected
};

struct ParseResult {
  bool ok = false;
  Value root;         // valid when ok
  SyntaxError error;  // valid when !ok
};

// Parses `text`. Accepts Python's bare `Infinity`, `-Infinity` and `NaN`
// (as json.dumps writes them) as kFloat. Never throws.
ParseResult Parse(std::string_view text);

}  // namespace topolint::json

#endif  // TOPOLINT_CHECKER_JSON_JSON_LOADER_H_
