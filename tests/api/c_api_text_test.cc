// topolint_check_text: one input given as bytes, read in place. The same
// findings as the same text inside a request ("files"[].text) or on disk;
// bad arguments are invalid_request errors, never a crash.
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "topolint/topolint.h"
#include "topolint/topolint_c.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

TEST(CApiTextTest, SameFindingsAsTheTextInsideARequest) {
  const std::string hlo = ReadSource(kDuplicateIdHlo);
  const Json in_request =
      CallCheck(Json{{"files", {{{"name", "out/m.hlo"}, {"text", hlo}}}}});
  const Json by_bytes = CallCheckText(nullptr, "out/m.hlo", nullptr, hlo);
  ASSERT_TRUE(in_request.is_array()) << in_request;
  ASSERT_FALSE(in_request.empty());
  EXPECT_EQ(in_request, by_bytes);
  EXPECT_EQ(by_bytes[0]["rule"], "hlo-duplicate-device-id");
  EXPECT_EQ(by_bytes[0]["file"], "out/m.hlo");
}

TEST(CApiTextTest, TheRequestAddsOptionsAndInputsOfTheSameUnit) {
  const std::string hlo = ReadSource(kDuplicateIdHlo);
  // Options apply to the bytes' input.
  const Json off =
      CallCheckText(R"({"options": {"rules": "-hlo-duplicate-device-id"}})",
                    "m.hlo", "hlo", hlo);
  ASSERT_TRUE(off.is_array()) << off;
  for (const Json& f : off) EXPECT_NE(f["rule"], "hlo-duplicate-device-id");
  // "files" of the request join the unit: a def.json that disagrees.
  const Json request =
      Json{{"files",
            {{{"name", "def.json"},
              {"text",
               R"({"CCInfo": {"replica_groups": [[[0,3],[1,2],[4,5]]]}})"}}}}};
  const Json both =
      CallCheckText(request.dump().c_str(), "m.hlo", nullptr, hlo);
  ASSERT_TRUE(both.is_array()) << both;
  bool cross_file = false;
  for (const Json& f : both) {
    cross_file =
        cross_file || f["rule"].get<std::string>().rfind("xref-", 0) == 0;
  }
  EXPECT_TRUE(cross_file) << both;
}

TEST(CApiTextTest, BadArgumentsAreInvalidRequests) {
  const std::string hlo = ReadSource(kDuplicateIdHlo);
  auto code = [](const Json& r) {
    return r.is_object() ? r.value("code", "") : std::string("(array)");
  };
  EXPECT_EQ(code(CallCheckText(nullptr, nullptr, nullptr, hlo)),
            "invalid_request");
  EXPECT_EQ(code(CallCheckText(nullptr, "", nullptr, hlo)), "invalid_request");
  char* out = topolint_check_text(nullptr, "m.hlo", nullptr, nullptr, 10);
  ASSERT_NE(out, nullptr);
  EXPECT_THAT(std::string(out), HasSubstr("invalid_request"));
  topolint_free(out);
  const Json bad_kind = CallCheckText(nullptr, "m.hlo", "text", hlo);
  EXPECT_EQ(code(bad_kind), "invalid_request");
  EXPECT_THAT(bad_kind.value("error", ""), HasSubstr("\"text\""));
  EXPECT_EQ(code(CallCheckText("[]", "m.hlo", nullptr, hlo)),
            "invalid_request");
  EXPECT_EQ(code(CallCheckText(R"({"search": ["."]})", "m.hlo", nullptr, hlo)),
            "invalid_request");
  // The same name twice in one unit.
  const Json twice = CallCheckText(
      Json{{"files", {{{"name", "m.hlo"}, {"text", hlo}}}}}.dump().c_str(),
      "m.hlo", nullptr, hlo);
  EXPECT_EQ(code(twice), "invalid_request");
  EXPECT_THAT(twice.value("error", ""), HasSubstr("already in the unit"));
}

TEST(CApiTextTest, EmptyAndBinaryBytes) {
  // NULL data with size 0 is an empty input: HLO text that is not there.
  char* out = topolint_check_text(nullptr, "m.hlo", "hlo", nullptr, 0);
  ASSERT_NE(out, nullptr);
  const Json empty = Json::parse(out);
  topolint_free(out);
  ASSERT_TRUE(empty.is_array()) << empty;
  ASSERT_FALSE(empty.empty());
  EXPECT_EQ(empty[0]["rule"], "hlo-syntax");
  // A binary module needs no base64: the bytes themselves.
  const std::string pb = ReadSource(
      "fixtures/hlo-duplicate-device-id/fail-binary-module/"
      "model.hlo_module.pb");
  const Json binary = CallCheckText(nullptr, "m.hlo_module.pb", nullptr, pb);
  ASSERT_TRUE(binary.is_array()) << binary;
  ASSERT_FALSE(binary.empty());
  EXPECT_EQ(binary[0]["rule"], "hlo-duplicate-device-id");
}

}  // namespace
}  // namespace topolint::testing

namespace topolint::testing {
namespace {

// The C++ form: Unit::AddTextView reads the caller's bytes in place and
// finds what AddText (a copy) finds.
TEST(CppApiTextViewTest, SameFindingsAsAddText) {
  const std::string hlo = ReadSource(kDuplicateIdHlo);
  api::Unit copied, viewed;
  ASSERT_TRUE(copied.AddText("m.hlo", hlo).ok());
  ASSERT_TRUE(viewed.AddTextView("m.hlo", hlo).ok());
  EXPECT_EQ(viewed.inputs()[0].bytes().data(), hlo.data());  // not copied
  EXPECT_TRUE(viewed.inputs()[0].text.empty());
  std::vector<api::Finding> a, b;
  ASSERT_TRUE(api::Check(copied, api::Options{}, &a).ok());
  ASSERT_TRUE(api::Check(viewed, api::Options{}, &b).ok());
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(api::FormatFinding(a[i]), api::FormatFinding(b[i]));
  }
  // A name already in the unit, and an empty name, are refused as AddText
  // refuses them.
  EXPECT_FALSE(viewed.AddTextView("m.hlo", hlo).ok());
  EXPECT_FALSE(viewed.AddTextView("", hlo).ok());
  // A null view is an empty input (an hlo-syntax finding), not "no view".
  api::Unit empty;
  ASSERT_TRUE(
      empty.AddTextView("e.hlo", std::string_view(), api::InputKind::kHlo)
          .ok());
  std::vector<api::Finding> e;
  ASSERT_TRUE(api::Check(empty, api::Options{}, &e).ok());
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].rule, "hlo-syntax");
}

}  // namespace
}  // namespace topolint::testing
