// The documented input limits (docs/reliability.md): each one exceeded gives
// a located finding, never a crash, a hang or an unbounded allocation.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

// An SPMD module whose one all-reduce has `groups` as its replica_groups.
std::string ModuleWith(const std::string& groups,
                       const std::string& header = "num_partitions=8") {
  return fmt::format(
      "HloModule m, replica_count=1, {}\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {{\n"
      "  %p = f32[8]{{0}} parameter(0)\n"
      "  ROOT %ar = f32[8]{{0}} all-reduce(%p), channel_id=1, "
      "replica_groups={}, use_global_device_ids=true, to_apply=%add\n"
      "}}\n",
      header, groups);
}

// 1-based line and byte column of the first occurrence of `needle`.
TextPos PosOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  TextPos p{1, 1};
  for (size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

// Checks `hlo` and expects an hlo-syntax finding at `needle` whose message
// contains `message_part`.
void ExpectHloSyntaxAt(const std::string& hlo, const std::string& needle,
                       const std::string& message_part) {
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  const TextPos want = PosOf(hlo, needle);
  EXPECT_EQ(f->loc.file, "model.hlo");
  EXPECT_EQ(f->loc.line, want.line) << Describe(findings);
  EXPECT_EQ(f->loc.column, want.column) << Describe(findings);
  EXPECT_THAT(f->message, HasSubstr(message_part)) << Describe(findings);
}

TEST(HloLimitsTest, IotaAboveTheExpansionCapIsRefused) {
  const std::string hlo = ModuleWith("[1,33554432]<=[33554432]");
  ExpectHloSyntaxAt(hlo, "[1,33554432]", std::to_string(hlo::kMaxExpandedIds));
}

TEST(HloLimitsTest, IotaWithTransposeAboveTheCapIsRefused) {
  const std::string hlo = ModuleWith("[8192,4096]<=[4096,8192]T(1,0)");
  ExpectHloSyntaxAt(hlo, "[8192,4096]", std::to_string(hlo::kMaxExpandedIds));
}

TEST(HloLimitsTest, IotaWhoseSizeOverflowsInt64IsRefused) {
  // 2^32 * 2^32 = 2^64 does not fit in int64.
  const std::string hlo =
      ModuleWith("[4294967296,4294967296]<=[4294967296,4294967296]");
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 4);
}

TEST(HloLimitsTest, MeshAboveTheExpansionCapIsRefused) {
  const std::string hlo = ModuleWith("mesh['x'=8192,'y'=4096] {'x'}");
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 4);
  EXPECT_GE(f->loc.column, PosOf(hlo, "mesh[").column) << Describe(findings);
  EXPECT_THAT(f->message, HasSubstr(std::to_string(hlo::kMaxExpandedIds)));
}

TEST(HloLimitsTest, MeshWhoseSizeOverflowsInt64IsRefused) {
  const std::string hlo =
      ModuleWith("mesh['x'=4294967296,'y'=4294967296,'z'=4294967296] {'x'}");
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 4);
}

TEST(HloLimitsTest, ExplicitListAboveTheCapIsRefused) {
  std::string ids = "{{0";
  for (int64_t i = 1; i <= hlo::kMaxExplicitIds; ++i) ids += ",0";
  ids += "}}";
  const std::string hlo = ModuleWith(ids);
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings).substr(0, 2000);
  EXPECT_EQ(f->loc.line, 4);
  EXPECT_THAT(f->message, HasSubstr(std::to_string(hlo::kMaxExplicitIds)));
}

TEST(HloLimitsTest, IntegersThatOverflowInt64AreLocated) {
  const struct {
    std::string hlo;
    std::string needle;
  } cases[] = {
      {ModuleWith("{{0,99999999999999999999}}"), "99999999999999999999"},
      {ModuleWith("{{0,-9223372036854775809}}"), "-9223372036854775809"},
      {ModuleWith("{{0,1}}", "num_partitions=9223372036854775808"),
       "9223372036854775808"},
      {ModuleWith("[2,4]<=[99999999999999999999]"), "99999999999999999999"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.hlo);
    ExpectHloSyntaxAt(c.hlo, c.needle, "64 bits");
  }
}

TEST(HloLimitsTest, ChannelIdThatOverflowsIsLocated) {
  std::string hlo = ModuleWith("{{0,1,2,3,4,5,6,7}}");
  const std::string from = "channel_id=1";
  hlo.replace(hlo.find(from), from.size(), "channel_id=18446744073709551616");
  ExpectHloSyntaxAt(hlo, "18446744073709551616", "64 bits");
}

TEST(HloLimitsTest, BracketNestingDeeperThanTheCapIsRefused) {
  const std::string deep(static_cast<size_t>(hlo::kMaxNestingDepth) + 10, '{');
  const std::string hlo = ModuleWith(deep);
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 4);
}

TEST(HloLimitsTest, TupleShapesDeeperThanTheCapAreRefused) {
  std::string shape;
  for (int i = 0; i < 5000; ++i) shape += '(';
  shape += "f32[]";
  for (int i = 0; i < 5000; ++i) shape += ')';
  const std::string hlo =
      "HloModule m\nENTRY %main (p: f32[8]) -> f32[8] {\n  %t = " + shape +
      " tuple()\n  ROOT %p = f32[8]{0} parameter(0)\n}\n";
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 3);
}

TEST(HloLimitsTest, TokenLongerThanTheCapIsRefused) {
  const std::string name(static_cast<size_t>(hlo::kMaxTokenBytes) + 100, 'x');
  const std::string hlo = "HloModule " + name + "\n";
  std::vector<Finding> findings = CheckTexts({{"model.hlo", hlo}});
  const Finding* f = FindRuleFinding(findings, "hlo-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 1);
}

TEST(HloLimitsTest, InstructionLongerThanTheCapIsRefused) {
  // The real cap is kMaxInstructionBytes (64 MiB; the CLI test checks it);
  // here a 1 MiB cap keeps the test small.
  hlo::ParseOptions options;
  options.max_instruction_bytes = int64_t{1} << 20;
  std::string operands = "%p";
  while (operands.size() < (size_t{2} << 20)) operands += ", %p";
  const std::string hlo =
      "HloModule m\nENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  ROOT %t = (f32[8]) tuple(" +
      operands + ")\n}\n";
  hlo::Module m = hlo::ParseHloText(hlo, "model.hlo", options);
  ASSERT_FALSE(m.syntax_errors.empty());
  EXPECT_EQ(m.syntax_errors[0].pos.line, 4);
  EXPECT_THAT(m.syntax_errors[0].message, HasSubstr(std::to_string(1 << 20)));
}

TEST(HloLimitsTest, SyntaxErrorsStopAfterTheCap) {
  std::string hlo = "HloModule m\nENTRY %main () -> f32[] {\n";
  for (int i = 0; i < 500; ++i) hlo += "  %x = f32[ garbage ) (\n";
  hlo += "}\n";
  hlo::Module m = hlo::ParseHloText(hlo, "model.hlo");
  EXPECT_LE(m.syntax_errors.size(),
            static_cast<size_t>(hlo::kMaxSyntaxErrors) + 1);
  EXPECT_FALSE(m.syntax_errors.empty());
}

// ------------------------------------------------------------------ JSON

std::string Nested(int depth) {
  return std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']');
}

TEST(JsonLimitsTest, NestingAtTheCapParses) {
  EXPECT_TRUE(json::Parse(Nested(json::kMaxNestingDepth)).ok);
}

TEST(JsonLimitsTest, NestingDeeperThanTheCapIsALocatedSyntaxError) {
  const std::string text = "{\"CCInfo\": " + Nested(100000) + "}";
  std::vector<Finding> findings = CheckTexts({{"def.json", text}});
  const Finding* f = FindRuleFinding(findings, "json-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 1);
  // The '[' that opens level kMaxNestingDepth + 1 (the object is level 1).
  EXPECT_EQ(f->loc.column, 12 + json::kMaxNestingDepth - 1);
  EXPECT_THAT(f->message, HasSubstr(std::to_string(json::kMaxNestingDepth)));
}

TEST(JsonLimitsTest, ObjectNestingDeeperThanTheCapIsRefused) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"a\":";
  text += "1";
  for (int i = 0; i < 5000; ++i) text += "}";
  json::ParseResult r = json::Parse(text);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.pos.line, 1);
}

TEST(JsonLimitsTest, RankThatOverflowsInt64IsASchemaFinding) {
  const std::string text =
      "{\"CCInfo\": {\"replica_groups\": [[[0, 99999999999999999999]]]}}";
  std::vector<Finding> findings = CheckTexts({{"def.json", text}});
  const Finding* f = FindRuleFinding(findings, "neff-schema");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.column,
            static_cast<int64_t>(text.find("99999999999999999999")) + 1);
}

// Integers beyond int64 / uint64 still parse (as floats that keep their
// text); a negative one and one too large are each a neff-schema finding at
// the offending number (docs/rules/neff-schema.md: "negative numbers ... and
// integers too large are each reported at the offending element"), quoting
// the number as written, and nothing else is reported.
TEST(JsonLimitsTest, NegativeOverflowAndHugeWorldSizeAreSchemaFindings) {
  const std::string text =
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1]]],\n"
      " \"src_target_pairs\": [[0, -99999999999999999999]],\n"
      " \"#rank_world_size\": 18446744073709551616}}";
  std::vector<Finding> findings = CheckTexts({{"def.json", text}});
  std::vector<const Finding*> schema;
  for (const Finding& f : findings) {
    EXPECT_EQ(f.rule, "neff-schema") << Describe(findings);
    if (f.rule == "neff-schema") schema.push_back(&f);
  }
  ASSERT_EQ(schema.size(), 2u) << Describe(findings);
  const TextPos dst = PosOf(text, "-99999999999999999999");
  const TextPos ws = PosOf(text, "18446744073709551616");
  EXPECT_EQ(schema[0]->loc.line, dst.line);
  EXPECT_EQ(schema[0]->loc.column, dst.column);
  EXPECT_THAT(schema[0]->message, HasSubstr("-99999999999999999999"));
  EXPECT_THAT(schema[0]->message, HasSubstr("non-negative"));
  EXPECT_EQ(schema[1]->loc.line, ws.line);
  EXPECT_EQ(schema[1]->loc.column, ws.column);
  EXPECT_THAT(schema[1]->message, HasSubstr("18446744073709551616"));
  EXPECT_THAT(schema[1]->message, HasSubstr("no larger than"));
}

TEST(JsonLimitsTest, NumberOutOfDoubleRangeIsALocatedSyntaxError) {
  const std::string text =
      "{\"CCInfo\": {\"replica_groups\": [[[0, 1]]],\n"
      " \"#rank_world_size\": 1e400}}";
  std::vector<Finding> findings = CheckTexts({{"def.json", text}});
  const Finding* f = FindRuleFinding(findings, "json-syntax");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.line, 2);
  EXPECT_EQ(f->loc.column, 22);
}

TEST(JsonLimitsTest, RankAboveInt32IsASchemaFinding) {
  const std::string text =
      fmt::format("{{\"CCInfo\": {{\"replica_groups\": [[[0, {}]]]}}}}",
                  neff::kMaxRank + 1);
  std::vector<Finding> findings = CheckTexts({{"def.json", text}});
  ASSERT_NE(FindRuleFinding(findings, "neff-schema"), nullptr)
      << Describe(findings);
}

TEST(JsonLimitsTest, ConfigIntegerThatOverflowsIsASchemaFinding) {
  const std::string text =
      "{\"neuron_config\": {\"tp_degree\": 99999999999999999999}}";
  std::vector<Finding> findings = CheckTexts({{"neuron_config.json", text}});
  const Finding* f = FindRuleFinding(findings, "config-schema");
  ASSERT_NE(f, nullptr) << Describe(findings);
  EXPECT_EQ(f->loc.column,
            static_cast<int64_t>(text.find("99999999999999999999")) + 1);
}

TEST(JsonLimitsTest, SchemaProblemsAreCapped) {
  // Every rank is a string: one schema problem each, but at most
  // kMaxSchemaProblems (+1 summary) are recorded.
  std::string ranks = "\"a\"";
  for (int i = 0; i < 1000; ++i) ranks += ",\"a\"";
  json::ParseResult r =
      json::Parse("{\"CCInfo\": {\"replica_groups\": [[[" + ranks + "]]]}}");
  ASSERT_TRUE(r.ok);
  neff::DefJson d = neff::BuildDefJson(r.root, "def.json");
  EXPECT_LE(d.schema_problems.size(), neff::kMaxSchemaProblems + 1);
  EXPECT_FALSE(d.schema_problems.empty());
}

}  // namespace
}  // namespace topolint::testing
