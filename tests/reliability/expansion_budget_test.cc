// Bug 3 of docs/reliability.md: an iota or mesh list expands to up to
// hlo::kMaxExpandedIds ids however short its text, so the work of checking a
// module must be bounded per module, not only per list. Identical lists share
// one expansion (model::ExpansionCache) and a module's fresh expansions are
// bounded by model::kMaxModuleExpandedIds; an op beyond that budget gets an
// hlo-syntax finding at its replica_groups value.
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/model/expansion_cache.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

std::string Regression(const std::string& name) {
  return std::string(TOPOLINT_SOURCE_DIR) +
         "/fuzz/regressions/hlo_parser_fuzz/" + name;
}

// A module of all-reduces in flattened-id mode over `devices` devices, one
// per list in `groups`.
std::string ModuleOf(const std::vector<std::string>& groups, int64_t devices) {
  std::string hlo = fmt::format(
      "HloModule m, replica_count=1, num_partitions={}\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {{\n"
      "  %p = f32[8]{{0}} parameter(0)\n",
      devices);
  for (size_t i = 0; i < groups.size(); ++i) {
    hlo += fmt::format(
        "  %ar{} = f32[8]{{0}} all-reduce(%p), channel_id=1, "
        "replica_groups={}, use_global_device_ids=true, to_apply=%add\n",
        i, groups[i]);
  }
  return hlo + "  ROOT %t = () tuple()\n}\n";
}

std::vector<Finding> OfRule(const std::vector<Finding>& all,
                            const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

// Found by hlo_parser_fuzz (timeouts): 64 collectives whose iota lists were
// just under the old expansion cap (2^24 ids) ran for minutes. Above the cap
// now, each is refused by the parser (fuzz/regressions/hlo_parser_fuzz/
// hang-64-ops-at-the-iota-cap.hlo).
TEST(ExpansionBudgetTest, ManyCollectivesAtTheIotaCapFinish) {
  CliResult r =
      RunTopolintWithin({"check", "--color", "never",
                         Regression("hang-64-ops-at-the-iota-cap.hlo")},
                        "", 60);
  EXPECT_THAT(r.exit_code, AnyOf(0, 1)) << r.err;
}

// 64 distinct lists at the cap (2^21 ids each): the first eight fill the
// module's budget, each later op is reported unchecked, and the run ends.
TEST(ExpansionBudgetTest, ManyDistinctListsAtTheCapFinishWithFindings) {
  CliResult r = RunTopolintWithin(
      {"check", "--color", "never",
       Regression("hang-64-distinct-ops-at-the-2-21-iota-cap.hlo")},
      "", 60);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("%ar8's replica groups were not expanded or "
                               "checked"));
  EXPECT_THAT(r.out, HasSubstr("%ar63's replica groups were not expanded"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("%ar7's replica groups were "
                                              "not expanded")));
}

TEST(ExpansionBudgetTest, OpBeyondTheBudgetIsReportedAtItsGroups) {
  const int64_t cap = hlo::kMaxExpandedIds;
  const int64_t lists = model::kMaxModuleExpandedIds / cap;  // fill the budget
  std::vector<std::string> groups;
  for (int64_t i = 0; i < lists; ++i) {
    // [1,cap]<=[cap] and the transposes [2^k,cap/2^k]<=[cap/2^k,2^k]T(1,0):
    // distinct lists of `cap` ids.
    if (i == 0) {
      groups.push_back(fmt::format("[1,{}]<=[{}]", cap, cap));
    } else {
      const int64_t g = int64_t{1} << i;
      groups.push_back(
          fmt::format("[{},{}]<=[{},{}]T(1,0)", g, cap / g, cap / g, g));
    }
  }
  groups.push_back("[2,4]<=[8]");  // 8 more ids: over the budget
  // Identical to the last list, which the cache still holds: no finding.
  groups.push_back(groups[static_cast<size_t>(lists - 1)]);
  const std::string hlo = ModuleOf(groups, cap);
  const std::vector<Finding> all = CheckTexts({{"model.hlo", hlo}});
  const std::vector<Finding> syntax = OfRule(all, "hlo-syntax");
  ASSERT_EQ(syntax.size(), 1u) << Describe(all);
  const std::string op = fmt::format("%ar{}", lists);
  const std::string needle = fmt::format("{} = f32[8]{{0}}", op);
  const size_t line_start = hlo.find(needle);
  ASSERT_NE(line_start, std::string::npos);
  const size_t value = hlo.find("[2,4]<=[8]", line_start);
  int line = 1;
  size_t bol = 0;
  for (size_t i = 0; i < value; ++i) {
    if (hlo[i] == '\n') {
      ++line;
      bol = i + 1;
    }
  }
  EXPECT_EQ(syntax[0].loc.file, "model.hlo");
  EXPECT_EQ(syntax[0].loc.line, line);
  EXPECT_EQ(syntax[0].loc.column, static_cast<int>(value - bol + 1));
  EXPECT_EQ(syntax[0].message,
            fmt::format("{}'s replica groups were not expanded or checked: "
                        "they expand to 8 ids but this module's iota and mesh "
                        "lists have already expanded to {} of the {} ids "
                        "topolint expands per module (identical lists count "
                        "once); expected fewer distinct large lists in one "
                        "module",
                        op, model::kMaxModuleExpandedIds,
                        model::kMaxModuleExpandedIds));
}

// The budget is per module: a second module starts afresh.
TEST(ExpansionBudgetTest, BudgetIsPerModule) {
  const int64_t cap = hlo::kMaxExpandedIds;
  std::vector<std::string> groups;
  const int64_t lists = model::kMaxModuleExpandedIds / cap;
  for (int64_t i = 0; i < lists; ++i) {
    const int64_t g = int64_t{1} << i;
    groups.push_back(fmt::format("[{},{}]<=[{}]", g, cap / g, cap));
  }
  const std::string hlo = ModuleOf(groups, cap);
  const std::vector<Finding> all = CheckTexts({{"a.hlo", hlo}, {"b.hlo", hlo}});
  EXPECT_TRUE(OfRule(all, "hlo-syntax").empty()) << Describe(all);
}

// Thousands of ops sharing one large list cost one expansion: far more ops
// than the budget would allow fresh, and no finding.
TEST(ExpansionBudgetTest, IdenticalListsShareOneExpansion) {
  const int64_t cap = hlo::kMaxExpandedIds;
  const std::vector<std::string> groups(3 * model::kMaxModuleExpandedIds / cap,
                                        fmt::format("[1,{}]<=[{}]", cap, cap));
  const std::string hlo = ModuleOf(groups, cap);
  const std::vector<Finding> all = CheckTexts({{"model.hlo", hlo}});
  EXPECT_TRUE(all.empty()) << Describe(all);
}

}  // namespace
}  // namespace topolint::testing
