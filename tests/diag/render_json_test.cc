#include <memory>
#include <string>
#include <utility>
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
      {"fingerprint", RootedFingerprint(f)}};
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

// A fix is printed as the rule states it: each edit's kind, place and
// text, and the flags that apply it; a finding without one has no "fix".
// A fix of one edit, as a rule attaches it.
std::shared_ptr<const Fix> OneEditFix(std::string title, TextEdit::Kind kind,
                                      Location at, std::string original,
                                      std::string replacement,
                                      std::string needs_fix_from = "",
                                      int64_t offset = 42) {
  Fix fix;
  fix.title = std::move(title);
  fix.needs_fix_from = std::move(needs_fix_from);
  TextEdit e;
  e.kind = kind;
  e.file = at.file;
  e.line = at.line;
  e.column = at.column;
  e.offset = offset;
  e.original = std::move(original);
  e.replacement = std::move(replacement);
  fix.edits.push_back(std::move(e));
  return std::make_shared<const Fix>(std::move(fix));
}

TEST(RenderJsonTest, FixesAreDataAfterTheFingerprint) {
  Finding rename = SampleFinding("config-unknown-key",
                                 {"neuron_config.json", 3, 5}, "unknown key");
  rename.fix = OneEditFix("rename 'mlp_dp_szie' to 'mlp_dp_size'",
                          TextEdit::Kind::kReplace, rename.loc,
                          "\"mlp_dp_szie\"", "\"mlp_dp_size\"");
  Finding stale =
      SampleFinding("unused-suppression", {"m.hlo", 7, 40}, "unused");
  stale.fix = OneEditFix("remove the unused suppression comment",
                         TextEdit::Kind::kRemoveLineComment, stale.loc,
                         "// topolint: disable=x", "");
  Finding topology =
      SampleFinding("xref-topology-mismatch", {"m.hlo", 9, 3}, "groups differ");
  topology.fix =
      OneEditFix("rewrite topology[0] from the HLO's groups",
                 TextEdit::Kind::kReplaceIntegerArray, {"def.json", 4, 9},
                 "[[1,0],[2,3]]", "[[0,1],[2,3]]", "hlo", 60);
  // Not applicable where --fix never writes: a binary module.
  Finding binary =
      SampleFinding("unused-suppression", {"m.hlo_module.pb", 0, 0}, "unused");
  binary.fix = OneEditFix("remove the unused suppression comment",
                          TextEdit::Kind::kRemoveLineComment,
                          {"m.hlo_module.pb", 7, 40}, "// topolint: x", "");
  // Nor where the rule could not record the bytes to check (issue 43: an
  // escaped key was offered a fix that --fix then refused).
  Finding unchecked = SampleFinding("config-unknown-key",
                                    {"neuron_config.json", 3, 5}, "unknown");
  unchecked.fix = OneEditFix("rename", TextEdit::Kind::kReplace, unchecked.loc,
                             "\"a\"", "\"b\"", "", -1);

  const Finding plain = SampleFinding("r", {"f", 1, 2}, "m");
  const std::string text =
      RenderJson({rename, stale, topology, binary, plain, unchecked});
  const Json out = Json::parse(text);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(
      out[0]["fix"],
      Json({{"title", "rename 'mlp_dp_szie' to 'mlp_dp_size'"},
            {"applied_by", "--fix"},
            {"edits", Json::array({{{"kind", "replace"},
                                    {"file", "neuron_config.json"},
                                    {"line", 3},
                                    {"column", 5},
                                    {"offset", 42},
                                    {"original", "\"mlp_dp_szie\""},
                                    {"replacement", "\"mlp_dp_size\""}}})}}));
  EXPECT_EQ(out[1]["fix"]["edits"][0],
            Json({{"kind", "remove_line_comment"},
                  {"file", "m.hlo"},
                  {"line", 7},
                  {"column", 40},
                  {"offset", 42},
                  {"original", "// topolint: disable=x"}}));
  EXPECT_EQ(out[2]["fix"]["applied_by"], "--fix --fix-from hlo");
  EXPECT_EQ(out[2]["fix"]["edits"][0],
            Json({{"kind", "replace_integer_array"},
                  {"file", "def.json"},
                  {"line", 4},
                  {"column", 9},
                  {"offset", 60},
                  {"original", "[[1,0],[2,3]]"},
                  {"replacement", "[[0,1],[2,3]]"}}));
  EXPECT_FALSE(out[3].contains("fix"));
  EXPECT_FALSE(out[4].contains("fix"));
  EXPECT_FALSE(out[5].contains("fix"));
  // After the fingerprint, as docs/findings.schema.json lists the fields.
  const size_t first = text.find("\"fingerprint\"");
  EXPECT_LT(first, text.find("\"fix\""));
}

}  // namespace
}  // namespace topolint
