#include <string>
#include <vector>

#include "checker/diag/render.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/diag/finding_samples.h"

namespace topolint {
namespace {

using Json = nlohmann::json;

TEST(RenderJsonTest, EmptyIsAnEmptyArray) {
  EXPECT_EQ(Json::parse(RenderJson({})), Json::array());
}

TEST(RenderJsonTest, FieldsAndNotes) {
  Finding f = SampleFinding("xref-topology-mismatch", {"model.hlo", 14, 76},
                            "group differs", Severity::kError, "%ar");
  f.notes.push_back({{"def.json", 3, 25}, "declared here"});
  const Finding w = SampleFinding("hlo-not-flattened-id", {"m.hlo", 0, 0},
                                  "not flattened", Severity::kWarning);
  const Json out = Json::parse(RenderJson({f, w}));
  ASSERT_TRUE(out.is_array());
  ASSERT_EQ(out.size(), 2u);
  const Json expected_first = {
      {"rule", "xref-topology-mismatch"},
      {"severity", "error"},
      {"message", "group differs"},
      {"file", "model.hlo"},
      {"line", 14},
      {"column", 76},
      {"notes", Json::array({{{"message", "declared here"},
                              {"file", "def.json"},
                              {"line", 3},
                              {"column", 25}}})},
      {"fingerprint", Fingerprint(f)}};
  EXPECT_EQ(out[0], expected_first);
  EXPECT_EQ(out[1]["severity"], "warning");
  EXPECT_EQ(out[1]["line"], 0);
  EXPECT_EQ(out[1]["notes"], Json::array());
}

TEST(RenderJsonTest, KeepsTheDocumentedFieldOrder) {
  const std::string text = RenderJson({SampleFinding("r", {"f", 1, 2}, "m")});
  size_t last = 0;
  for (const char* key :
       {"\"rule\"", "\"severity\"", "\"message\"", "\"file\"", "\"line\"",
        "\"column\"", "\"notes\"", "\"fingerprint\""}) {
    const size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    EXPECT_GT(at, last) << key;
    last = at;
  }
}

TEST(RenderJsonTest, InvalidUtf8IsReplacedNotThrown) {
  const Finding f =
      SampleFinding("json-syntax", {"bad\xff.json", 1, 1}, "got \xc3 byte");
  std::string text;
  ASSERT_NO_THROW(text = RenderJson({f}));
  const Json out = Json::parse(text);  // valid JSON, valid UTF-8
  EXPECT_EQ(out[0]["message"], "got \xef\xbf\xbd byte");
  // A file name keeps its bytes distinct instead (issue 31, item 18).
  EXPECT_EQ(out[0]["file"], "bad\\xff.json");
}

TEST(RenderJsonTest, EscapesControlCharacters) {
  const Finding f = SampleFinding("r", {"a", 1, 1}, "tab\there \"quoted\"\n");
  const Json out = Json::parse(RenderJson({f}));
  EXPECT_EQ(out[0]["message"], "tab\there \"quoted\"\n");
}

}  // namespace
}  // namespace topolint
