#include "checker/json/json_loader.h"

#include <cmath>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::json {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Parses text that must be valid.
Value ParseOk(std::string_view text) {
  ParseResult r = Parse(text);
  EXPECT_TRUE(r.ok) << r.error.pos.line << ":" << r.error.pos.column << ": "
                    << r.error.message;
  return std::move(r.root);
}

// Parses text that must be rejected.
SyntaxError ParseBad(std::string_view text) {
  ParseResult r = Parse(text);
  EXPECT_FALSE(r.ok) << "parsed: " << text;
  return r.error;
}

void ExpectPos(TextPos pos, int64_t line, int64_t column) {
  EXPECT_EQ(pos.line, line);
  EXPECT_EQ(pos.column, column);
}

TEST(JsonLoaderTest, PositionsOfKeysValuesAndNestedArrays) {
  const std::string text =
      "{\n"
      "  \"CCInfo\": {\n"
      "    \"replica_groups\": [[[0, 1], [2, 3]]],\n"
      "    \"#rank_world_size\": 4\n"
      "  }\n"
      "}\n";
  Value root = ParseOk(text);
  ASSERT_TRUE(root.is_object());
  ExpectPos(root.pos, 1, 1);
  ASSERT_EQ(root.object.size(), 1u);
  ExpectPos(root.object[0].key_pos, 2, 3);
  const Value& cc = root.object[0].value;
  ExpectPos(cc.pos, 2, 13);
  ASSERT_EQ(cc.object.size(), 2u);
  ExpectPos(cc.object[0].key_pos, 3, 5);
  const Value& rg = cc.object[0].value;
  ExpectPos(rg.pos, 3, 23);
  ExpectPos(rg.array[0].pos, 3, 24);
  ExpectPos(rg.array[0].array[0].pos, 3, 25);
  ExpectPos(rg.array[0].array[0].array[0].pos, 3, 26);
  ExpectPos(rg.array[0].array[0].array[1].pos, 3, 29);
  ExpectPos(rg.array[0].array[1].pos, 3, 33);
  ExpectPos(rg.array[0].array[1].array[1].pos, 3, 37);
  EXPECT_EQ(rg.array[0].array[1].array[1].int_value, 3);
  ExpectPos(cc.object[1].key_pos, 4, 5);
  ExpectPos(cc.object[1].value.pos, 4, 25);
  EXPECT_EQ(cc.object[1].value.number_text, "4");
}

TEST(JsonLoaderTest, CompactDocumentPositions) {
  Value root = ParseOk(R"({"a":[1,"x",true,null,-2.5e3],"b":{}})");
  const Value& a = root.object[0].value;
  ExpectPos(root.object[0].key_pos, 1, 2);
  ExpectPos(a.pos, 1, 6);
  ExpectPos(a.array[0].pos, 1, 7);
  ExpectPos(a.array[1].pos, 1, 9);
  ExpectPos(a.array[2].pos, 1, 13);
  ExpectPos(a.array[3].pos, 1, 18);
  ExpectPos(a.array[4].pos, 1, 23);
  EXPECT_EQ(a.array[4].type, Type::kFloat);
  EXPECT_DOUBLE_EQ(a.array[4].float_value, -2500.0);
  EXPECT_EQ(a.array[4].number_text, "-2.5e3");
  ExpectPos(root.object[1].key_pos, 1, 31);
  ExpectPos(root.object[1].value.pos, 1, 35);
}

TEST(JsonLoaderTest, StringsWithEscapesDoNotShiftPositions) {
  Value root = ParseOk(R"(["a\"b\\", "\u00e9", 7])");
  EXPECT_EQ(root.array[0].string_value, "a\"b\\");
  EXPECT_EQ(root.array[1].string_value, "\xC3\xA9");
  ExpectPos(root.array[1].pos, 1, 12);
  ExpectPos(root.array[2].pos, 1, 22);
}

TEST(JsonLoaderTest, CrLfLineEndings) {
  Value root = ParseOk("{\r\n  \"a\": [1,\r\n 2]\r\n}");
  ExpectPos(root.object[0].key_pos, 2, 3);
  ExpectPos(root.object[0].value.array[1].pos, 3, 2);
}

TEST(JsonLoaderTest, ColumnsCountBytesNotCharacters) {
  // "é" is two bytes, "€" three.
  Value root = ParseOk("[\"\xC3\xA9\xE2\x82\xAC\", 5]");
  ExpectPos(root.array[1].pos, 1, 11);
}

TEST(JsonLoaderTest, ByteOrderMarkIsSkippedButCounted) {
  Value root = ParseOk("\xEF\xBB\xBF[1]");
  ExpectPos(root.pos, 1, 4);
  ExpectPos(root.array[0].pos, 1, 5);
}

TEST(JsonLoaderTest, PythonInfinityAndNaN) {
  Value root = ParseOk("{\"a\": Infinity, \"b\": -Infinity, \"c\": [NaN, 1]}");
  const Value& a = root.object[0].value;
  EXPECT_EQ(a.type, Type::kFloat);
  EXPECT_TRUE(std::isinf(a.float_value) && a.float_value > 0);
  EXPECT_EQ(a.number_text, "Infinity");
  ExpectPos(a.pos, 1, 7);
  const Value& b = root.object[1].value;
  EXPECT_TRUE(std::isinf(b.float_value) && b.float_value < 0);
  EXPECT_EQ(b.number_text, "-Infinity");
  ExpectPos(b.pos, 1, 22);
  const Value& c = root.object[2].value;
  EXPECT_TRUE(std::isnan(c.array[0].float_value));
  EXPECT_EQ(c.array[0].number_text, "NaN");
  ExpectPos(c.array[0].pos, 1, 39);
  EXPECT_EQ(c.array[1].type, Type::kInt);
  ExpectPos(c.array[1].pos, 1, 44);
}

TEST(JsonLoaderTest, InfinityInsideStringsIsText) {
  Value root = ParseOk(R"(["NaN", "x\"Infinity", NaN])");
  EXPECT_EQ(root.array[0].string_value, "NaN");
  EXPECT_EQ(root.array[1].string_value, "x\"Infinity");
  EXPECT_TRUE(std::isnan(root.array[2].float_value));
}

TEST(JsonLoaderTest, MisspelledInfinityIsRejected) {
  SyntaxError e = ParseBad("[Infinityx]");
  ExpectPos(e.pos, 1, 2);
  EXPECT_THAT(e.message, HasSubstr("'Infinityx'"));
  e = ParseBad("[nan]");
  ExpectPos(e.pos, 1, 2);
  EXPECT_THAT(e.message, HasSubstr("invalid literal 'nan'"));
}

TEST(JsonLoaderTest, IntegerKinds) {
  Value root = ParseOk(
      "[0, -1, 9223372036854775807, 9223372036854775808, "
      "-9223372036854775809, 18446744073709551616, 1.0]");
  EXPECT_EQ(root.array[0].type, Type::kInt);
  EXPECT_EQ(root.array[1].type, Type::kInt);
  EXPECT_EQ(root.array[1].int_value, -1);
  EXPECT_EQ(root.array[2].type, Type::kInt);
  EXPECT_EQ(root.array[2].int_value, INT64_MAX);
  EXPECT_EQ(root.array[3].type, Type::kUInt);
  EXPECT_EQ(root.array[3].uint_value, 9223372036854775808u);
  EXPECT_EQ(root.array[4].type, Type::kFloat);
  EXPECT_EQ(root.array[4].number_text, "-9223372036854775809");
  EXPECT_EQ(root.array[5].type, Type::kFloat);
  EXPECT_EQ(root.array[5].number_text, "18446744073709551616");
  EXPECT_EQ(root.array[6].type, Type::kFloat);
  EXPECT_EQ(root.array[6].number_text, "1.0");
}

TEST(JsonLoaderTest, DuplicateKeysAreKeptInOrder) {
  Value root = ParseOk(R"({"a": 1, "a": 2})");
  ASSERT_EQ(root.object.size(), 2u);
  EXPECT_EQ(root.Find("a")->int_value, 1);
  EXPECT_EQ(root.object[1].value.int_value, 2);
}

TEST(JsonLoaderTest, EmptyInput) {
  SyntaxError e = ParseBad("");
  ExpectPos(e.pos, 1, 1);
  EXPECT_THAT(e.message, StartsWith("expected a JSON value"));
  e = ParseBad("  \n\t ");
  ExpectPos(e.pos, 1, 1);
  EXPECT_THAT(e.message, StartsWith("expected a JSON value"));
}

TEST(JsonLoaderTest, MissingValue) {
  SyntaxError e = ParseBad(R"({"a": })");
  ExpectPos(e.pos, 1, 7);
  EXPECT_EQ(e.message, "expected a JSON value but found '}'");
}

TEST(JsonLoaderTest, TrailingCommaInArray) {
  SyntaxError e = ParseBad("[1, 2,\n]");
  ExpectPos(e.pos, 2, 1);
  EXPECT_THAT(e.message, HasSubstr("found ']'"));
  EXPECT_THAT(e.message, HasSubstr("trailing comma"));
}

TEST(JsonLoaderTest, TrailingCommaInObject) {
  SyntaxError e = ParseBad(R"({"a": 1,})");
  ExpectPos(e.pos, 1, 9);
  EXPECT_THAT(e.message,
              StartsWith("expected a quoted object key but found '}'"));
  EXPECT_THAT(e.message, HasSubstr("trailing comma"));
}

TEST(JsonLoaderTest, DoubleComma) {
  SyntaxError e = ParseBad("[1,,2]");
  ExpectPos(e.pos, 1, 4);
  EXPECT_EQ(e.message, "expected a JSON value but found ','");
}

TEST(JsonLoaderTest, MissingCommaBetweenElements) {
  SyntaxError e = ParseBad("[1\n 2]");
  ExpectPos(e.pos, 2, 2);
  EXPECT_EQ(e.message, "expected ',' or ']' but found a number");
}

TEST(JsonLoaderTest, MissingColon) {
  SyntaxError e = ParseBad(R"({"a" 1})");
  ExpectPos(e.pos, 1, 6);
  EXPECT_EQ(e.message, "expected ':' after the object key but found a number");
}

TEST(JsonLoaderTest, UnquotedKey) {
  SyntaxError e = ParseBad("{a: 1}");
  ExpectPos(e.pos, 1, 2);
  EXPECT_EQ(e.message, "invalid literal 'a'; expected a quoted object key");
}

TEST(JsonLoaderTest, NumberAsKey) {
  SyntaxError e = ParseBad("{1: 1}");
  ExpectPos(e.pos, 1, 2);
  EXPECT_EQ(e.message, "expected a quoted object key but found a number");
}

TEST(JsonLoaderTest, MissingCommaInObject) {
  SyntaxError e = ParseBad("{\"a\": 1 \"b\": 2}");
  ExpectPos(e.pos, 1, 9);
  EXPECT_EQ(e.message, "expected ',' or '}' but found a string");
}

TEST(JsonLoaderTest, TrailingContent) {
  SyntaxError e = ParseBad("{} {}");
  ExpectPos(e.pos, 1, 4);
  EXPECT_THAT(e.message, HasSubstr("end of the document"));
}

TEST(JsonLoaderTest, UnclosedArrayAtEndOfInput) {
  SyntaxError e = ParseBad("{\"a\": [1, 2\n");
  ExpectPos(e.pos, 1, 12);
  EXPECT_EQ(e.message,
            "expected ',' or ']' but found end of input; the '[' at 1:7 is "
            "never closed");
}

TEST(JsonLoaderTest, UnterminatedString) {
  SyntaxError e = ParseBad("[\"abc");
  ExpectPos(e.pos, 1, 2);
  EXPECT_THAT(e.message, StartsWith("unterminated string"));
}

TEST(JsonLoaderTest, RawNewlineInString) {
  SyntaxError e = ParseBad("[\"ab\ncd\"]");
  ExpectPos(e.pos, 1, 5);
  EXPECT_THAT(e.message, HasSubstr("control character U+000A"));
}

TEST(JsonLoaderTest, BadEscape) {
  SyntaxError e = ParseBad(R"(["a\x"])");
  ExpectPos(e.pos, 1, 5);
  EXPECT_THAT(e.message, HasSubstr("after backslash"));
}

TEST(JsonLoaderTest, BadNumbers) {
  SyntaxError e = ParseBad("[1.]");
  ExpectPos(e.pos, 1, 4);
  EXPECT_THAT(e.message, HasSubstr("expected digit after '.'"));
  e = ParseBad("[-x]");
  ExpectPos(e.pos, 1, 3);
  EXPECT_THAT(e.message, HasSubstr("after '-'"));
  e = ParseBad("[1e+]");
  ExpectPos(e.pos, 1, 5);
  e = ParseBad("[01]");
  ExpectPos(e.pos, 1, 3);
}

TEST(JsonLoaderTest, DoubleOverflowIsRejected) {
  SyntaxError e = ParseBad("[1, 1e999]");
  ExpectPos(e.pos, 1, 5);
  EXPECT_THAT(e.message, HasSubstr("'1e999'"));
  EXPECT_THAT(e.message, HasSubstr("out of the range"));
}

TEST(JsonLoaderTest, Comments) {
  SyntaxError e = ParseBad("[1, // two\n 2]");
  ExpectPos(e.pos, 1, 5);
  EXPECT_THAT(e.message, StartsWith("invalid literal '/'"));
}

TEST(JsonLoaderTest, SingleQuotes) {
  SyntaxError e = ParseBad("{'a': 1}");
  ExpectPos(e.pos, 1, 2);
}

TEST(JsonLoaderTest, InvalidUtf8InString) {
  SyntaxError e = ParseBad("[\"ok\", \"a\xFF\"]");
  ExpectPos(e.pos, 1, 10);
  EXPECT_THAT(e.message, HasSubstr("0xFF"));
  EXPECT_THAT(e.message, HasSubstr("UTF-8"));
  // An overlong encoding and a truncated sequence.
  ParseBad("[\"\xC0\xAF\"]");
  ParseBad("[\"\xE2\x82\"]");
}

TEST(JsonLoaderTest, BinaryGarbage) {
  SyntaxError e = ParseBad(std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  ExpectPos(e.pos, 1, 1);
  EXPECT_THAT(e.message,
              StartsWith("unexpected byte 0x89; expected a JSON value"));
}

TEST(JsonLoaderTest, NulByteIsNotEndOfInput) {
  SyntaxError e = ParseBad(std::string("{}\0garbage", 10));
  ExpectPos(e.pos, 1, 3);
  EXPECT_THAT(e.message, HasSubstr("byte 0x00"));
  e = ParseBad(std::string("[1,\0]", 5));
  ExpectPos(e.pos, 1, 4);
}

TEST(JsonLoaderTest, NulByteInsideString) {
  SyntaxError e = ParseBad(std::string("[\"a\0\"]", 6));
  ExpectPos(e.pos, 1, 4);
  EXPECT_THAT(e.message, HasSubstr("U+0000"));
}

TEST(JsonLoaderTest, BadByteOrderMark) {
  SyntaxError e = ParseBad("\xEF\xBB[]");
  ExpectPos(e.pos, 1, 1);
  EXPECT_THAT(e.message, HasSubstr("byte-order mark"));
}

TEST(JsonLoaderTest, NestingUpToTheCapIsAccepted) {
  std::string text(kMaxNestingDepth, '[');
  text += std::string(kMaxNestingDepth, ']');
  ParseOk(text);
}

TEST(JsonLoaderTest, NestingBeyondTheCapIsRefusedAtTheBracket) {
  std::string text = "\n" + std::string(kMaxNestingDepth + 1, '[');
  text += std::string(kMaxNestingDepth + 1, ']');
  SyntaxError e = ParseBad(text);
  ExpectPos(e.pos, 2, kMaxNestingDepth + 1);
  EXPECT_THAT(e.message, HasSubstr("deeper than 256"));
}

TEST(JsonLoaderTest, VeryDeepNestingDoesNotOverflowTheStack) {
  std::string text(1'000'000, '[');
  SyntaxError e = ParseBad(text);
  ExpectPos(e.pos, 1, kMaxNestingDepth + 1);
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  e = ParseBad(objects);
  EXPECT_THAT(e.message, HasSubstr("deeper than"));
}

TEST(JsonLoaderTest, ScalarRoot) {
  Value root = ParseOk("  42 ");
  EXPECT_EQ(root.type, Type::kInt);
  ExpectPos(root.pos, 1, 3);
  root = ParseOk("\"s\"");
  EXPECT_EQ(root.string_value, "s");
}

TEST(JsonLoaderTest, FindUsesTheFirstDuplicateAndTypeNames) {
  Value root = ParseOk(R"({"i": 1, "u": 18446744073709551615, "f": 1.5,
                          "s": "x", "b": false, "n": null, "a": [], "o": {}})");
  EXPECT_EQ(root.Find("i")->TypeName(), "integer");
  EXPECT_EQ(root.Find("u")->TypeName(), "integer");
  EXPECT_EQ(root.Find("f")->TypeName(), "number");
  EXPECT_EQ(root.Find("s")->TypeName(), "string");
  EXPECT_EQ(root.Find("b")->TypeName(), "boolean");
  EXPECT_EQ(root.Find("n")->TypeName(), "null");
  EXPECT_EQ(root.Find("a")->TypeName(), "array");
  EXPECT_EQ(root.Find("o")->TypeName(), "object");
  EXPECT_EQ(root.Find("missing"), nullptr);
  ExpectPos(root.FindMember("s")->key_pos, 2, 27);
}

}  // namespace
}  // namespace topolint::json
