#include "checker/json/json_errors.h"

#include <algorithm>

#include "checker/io/text_encoding.h"
#include "checker/json/json_input.h"
#include "fmt/format.h"

namespace topolint::json::internal {
namespace {

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}
bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t SkipSpace(std::string_view text, size_t i) {
  while (i < text.size() && IsSpace(text[i])) ++i;
  return i;
}

// What the parser wanted in a given nlohmann context.
std::string_view Expectation(std::string_view context,
                             std::string_view expected_token) {
  if (context == "object key") return "a quoted object key";
  if (context == "object separator") return "':' after the object key";
  if (context == "array") return "',' or ']'";
  if (context == "object") return "',' or '}'";
  if (expected_token == "end of input") {
    return "the end of the document after the top-level value";
  }
  return "a JSON value";
}

// nlohmann token names -> what users call them.
std::string FoundName(std::string_view token) {
  if (token == "string literal") return "a string";
  if (token == "number literal") return "a number";
  if (token == "true literal") return "'true'";
  if (token == "false literal") return "'false'";
  if (token == "null literal") return "'null'";
  return std::string(token);
}

// The literal that starts at `i`, quoted, or its first byte in hex when that
// byte is not printable ASCII (binary garbage).
std::string LiteralAt(std::string_view text, size_t i) {
  if (i >= text.size()) return "end of input";
  const unsigned char first = static_cast<unsigned char>(text[i]);
  if (first < 0x21 || first > 0x7e) return fmt::format("byte 0x{:02X}", first);
  size_t end = i + 1;
  if (IsIdentifierByte(text[i])) {
    while (end < text.size() && end - i < 32 && IsIdentifierByte(text[end])) {
      ++end;
    }
  }
  return fmt::format("'{}'", text.substr(i, end - i));
}

std::string_view Between(std::string_view s, std::string_view begin,
                         std::string_view end) {
  size_t b = s.find(begin);
  if (b == std::string_view::npos) return {};
  b += begin.size();
  size_t e = end.empty() ? std::string_view::npos : s.find(end, b);
  return s.substr(b, e == std::string_view::npos ? s.size() - b : e - b);
}

}  // namespace

size_t NextTokenStart(std::string_view text, size_t from, size_t limit) {
  size_t i = SkipSpace(text, from);
  if (i < text.size() && i < limit && (text[i] == ',' || text[i] == ':')) {
    i = SkipSpace(text, i + 1);
  }
  return i;
}

DescribedError DescribeParseError(const ErrorContext& ctx,
                                  std::string_view what) {
  std::string_view text = ctx.text;
  // UTF-16 / UTF-32 JSON (RFC 8259 wants UTF-8): named, as HLO text in
  // those encodings is (checker/hlo/dispatch/parse_any.h).
  if (const std::string_view wide = WideEncodingOf(text.substr(0, 4096));
      !wide.empty()) {
    return {0, fmt::format("expected UTF-8 JSON, found {} text; convert it "
                           "(iconv -f {} -t UTF-8)",
                           wide, wide)};
  }
  const size_t last = std::min(ctx.last_read, text.size());
  size_t start = std::min(NextTokenStart(text, ctx.cursor, last), last);

  // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
  if (Contains(what, "number overflow")) {
    return {start, fmt::format("number {} is out of the range of a double",
                               LiteralAt(text, start))};
  }
  std::string_view body = what;
  if (size_t p = body.find("syntax error"); p != std::string_view::npos) {
    body = body.substr(p);
  }
  std::string_view context =
      Between(body, "syntax error while parsing ", " - ");
  std::string_view detail = Between(body, " - ", "");
  std::string_view expected_token = Between(detail, "; expected ", "");
  std::string_view expect = Expectation(context, expected_token);

  if (StartsWith(detail, "unexpected ")) {
    std::string found = FoundName(Between(detail, "unexpected ", "; expected"));
    const bool at_end = found == "end of input";
    if (at_end && !ctx.any_token) {
      return {0, "expected a JSON value, but the document is empty"};
    }
    std::string message =
        fmt::format("expected {} but found {}", expect, found);
    if ((found == "']'" || found == "'}'") && ctx.any_token) {
      // A trailing comma: the last significant byte before `start` is ','.
      size_t j = start;
      while (j > 0 && IsSpace(text[j - 1])) --j;
      if (j > 0 && text[j - 1] == ',') {
        message += " (JSON allows no trailing comma)";
      }
    }
    if (at_end) {
      // Point just past the last byte that is not whitespace, so that the
      // line shown is the one where the document stops.
      size_t end = text.size();
      while (end > 0 && IsSpace(text[end - 1])) --end;
      start = end;
    }
    if (at_end && ctx.open_bracket != 0) {
      message +=
          fmt::format("; the '{}' at {}:{} is never closed", ctx.open_bracket,
                      ctx.open_pos.line, ctx.open_pos.column);
    }
    return {start, std::move(message)};
  }

  // A lexical error: nlohmann's lexer message precedes "; last read: '...'".
  std::string_view lexical = detail.substr(0, detail.find("; last read: '"));
  if (lexical == "invalid literal") {
    if (start < text.size() &&
        (static_cast<unsigned char>(text[start]) < 0x20 ||
         static_cast<unsigned char>(text[start]) > 0x7e)) {
      return {start, fmt::format("unexpected {}; expected {} (JSON is text; "
                                 "is this a binary file?)",
                                 LiteralAt(text, start), expect)};
    }
    return {start, fmt::format("invalid literal {}; expected {}",
                               LiteralAt(text, start), expect)};
  }
  if (Contains(lexical, "missing closing quote")) {
    return {start, "unterminated string; expected a closing '\"'"};
  }
  if (Contains(lexical, "ill-formed UTF-8")) {
    const unsigned char byte =
        last < text.size() ? static_cast<unsigned char>(text[last]) : 0;
    return {last, fmt::format("invalid UTF-8 byte 0x{:02X} in a string; JSON "
                              "text must be UTF-8",
                              byte)};
  }
  if (StartsWith(lexical, "invalid BOM")) {
    return {0, "invalid byte-order mark; expected EF BB BF or none"};
  }
  // Strings and numbers: point at the byte the lexer choked on.
  return {last, std::string(lexical)};
}

}  // namespace topolint::json::internal
