// Parsing the C API's request (include/topolint/topolint_c.h) into a
// document without copying its strings: nlohmann's DOM parser copies each
// string out of the lexer, so a 500 MB "text" would briefly exist three
// times (raw token, decoded token, document); here the decoded token is
// moved into the document. Not installed.
#ifndef TOPOLINT_CHECKER_API_REQUEST_JSON_H_
#define TOPOLINT_CHECKER_API_REQUEST_JSON_H_

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace topolint::api::internal {

// The request `text` (NUL-terminated) as a document. Invalid JSON is an
// InvalidArgument status "the request is not valid JSON: <nlohmann's
// message>"; arrays and objects nested deeper than `max_depth` are
// InvalidArgument "the request is nested deeper than N levels" (nothing is
// built past that depth).
absl::StatusOr<nlohmann::json> ParseRequestJson(const char* text,
                                                int max_depth);

}  // namespace topolint::api::internal

#endif  // TOPOLINT_CHECKER_API_REQUEST_JSON_H_
