// Parses JSON text into a located json::Value, using nlohmann_json's SAX
// interface with a position-tracking input adapter (nlohmann 3.11 records no
// positions itself).
#ifndef TOPOLINT_CHECKER_JSON_JSON_LOADER_H_
#define TOPOLINT_CHECKER_JSON_JSON_LOADER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/location.h"
#include "checker/json/json_value.h"

namespace topolint::json {

// Documented limits (refused with a syntax error, never a crash).
inline constexpr int kMaxNestingDepth = 256;
inline constexpr size_t kMaxDocumentBytes = size_t{1} << 30;  // 1 GiB
// Values plus object keys in one document. It bounds the memory of the tree
// (a json::Value is 56 bytes, a key 24 more: at most about 60 MB) whatever
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

// Receives, in document order, the contents of the one array a
// ParseCapturing call hands over instead of building it. `depth` is 1 for the
// captured array itself, 2 for an array inside it, and so on; `offset` is the
// byte of the '[' or of the literal. Returning false stops the parse (the
// result is then kRefused).
class ArraySink {
 public:
  virtual ~ArraySink() = default;
  virtual bool OpenArray(int depth, size_t offset, TextPos pos) = 0;
  virtual bool CloseArray(int depth) = 0;
  // An integer literal that fits int64 (not NaN / Infinity).
  virtual bool Integer(int64_t value, size_t offset, TextPos pos) = 0;
};

struct CapturedParse {
  enum class Outcome {
    kNotFound,  // no array at the path: `parsed` is json::Parse's result
    kCaptured,  // `parsed.root` holds an empty array at the path (its
                // position is the captured array's); the sink saw the rest
    kRefused,   // stopped: the sink refused, or the captured array holds
                // something other than arrays and integers, or a second
                // array sits at the path (a repeated key); `parsed` is not
                // usable
  };
  Outcome outcome = Outcome::kNotFound;
  ParseResult parsed;
};

// Parses `text` as Parse does, except that the array at `path` (object keys
// from the root, e.g. {"CCInfo", "replica_groups"}) goes to `sink` element
// by element instead of into the tree: a large list of numbers then costs
// what the sink keeps, not a located Value per number. Values given to the
// sink still count against kMaxValueCount. On a syntax error (or any
// failure) the outcome is kRefused: callers fall back to Parse, which
// describes the error exactly.
CapturedParse ParseCapturing(std::string_view text,
                             const std::vector<std::string_view>& path,
                             ArraySink* sink);

}  // namespace topolint::json

#endif  // TOPOLINT_CHECKER_JSON_JSON_LOADER_H_
