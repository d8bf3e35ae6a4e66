// The C API's request parser (checker/api/request_json.h): the document
// nlohmann's DOM parser would build, with strings moved rather than copied,
// and the depth limit enforced before anything deeper is built.
#include "checker/api/request_json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace topolint::api::internal {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

TEST(RequestJsonTest, BuildsWhatTheDomParserBuilds) {
  const char* text =
      R"({"files": [{"name": "a\u00e9\n", "text": "x\u0000y"}, [], {}],
          "n": [1, -2, 18446744073709551615, 2.5, true, false, null],
          "k": 1, "k": {"deep": [[["z"]]]}})";
  absl::StatusOr<Json> got = ParseRequestJson(text, 64);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, Json::parse(text));
  EXPECT_EQ((*got)["files"][0]["text"].get<std::string>(),
            std::string("x\0y", 3));
  EXPECT_EQ((*got)["k"]["deep"][0][0][0], "z");  // the last "k" wins
  ASSERT_TRUE(ParseRequestJson("\"just a string\"", 64).ok());
}

TEST(RequestJsonTest, DepthLimitAndErrors) {
  auto nested = [](int levels) {
    return std::string(static_cast<size_t>(levels), '[') +
           std::string(static_cast<size_t>(levels), ']');
  };
  EXPECT_TRUE(ParseRequestJson(nested(64).c_str(), 64).ok());
  absl::StatusOr<Json> deep = ParseRequestJson(nested(65).c_str(), 64);
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().message(),
            "the request is nested deeper than 64 levels");
  absl::StatusOr<Json> bad = ParseRequestJson("{\"a\": [1,}", 64);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("the request is not valid JSON: "
                        "[json.exception.parse_error.101]"));
  EXPECT_FALSE(ParseRequestJson("", 64).ok());
  EXPECT_FALSE(ParseRequestJson("{} trailing", 64).ok());
}

}  // namespace
}  // namespace topolint::api::internal
