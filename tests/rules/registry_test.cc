// Every registered rule has its docs page (with the standard sections) and
// at least one failing and one passing fixture; every page is a rule.
#include <filesystem>
#include <set>
#include <string>

#include "checker/core/rule_docs.h"
#include "gtest/gtest.h"
#include "rules/registry.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = TOPOLINT_SOURCE_DIR;

// The ids of the first release (docs/reference/rules.md): the registry
// must hold each one, since an id is never removed or renamed.
const char* const kSpecRules[] = {"hlo-syntax",
                                  "json-syntax",
                                  "neff-schema",
                                  "neff-empty-topology",
                                  "neff-inconsistent-worker-count",
                                  "neff-multiple-topologies",
                                  "neff-ragged-groups",
                                  "neff-duplicate-rank",
                                  "neff-world-size",
                                  "hlo-group-mode",
                                  "hlo-empty-group",
                                  "hlo-device-id-range",
                                  "hlo-duplicate-device-id",
                                  "hlo-group-coverage",
                                  "hlo-nonuniform-groups",
                                  "hlo-group-size-shape",
                                  "hlo-permute-pairs",
                                  "hlo-not-flattened-id",
                                  "hlo-multiple-geometries",
                                  "xref-topology-mismatch",
                                  "xref-world-size",
                                  "xref-permute-pairs",
                                  "config-schema",
                                  "config-unknown-key",
                                  "config-di-recommended",
                                  "config-dp-divides",
                                  "config-mlp-dp-with-ep",
                                  "config-world-size",
                                  "xref-config-groups",
                                  "lnc-rank-range",
                                  "neff-lnc-mismatch",
                                  "neff-graphs-disagree"};

TEST(RegistryTest, HoldsEverySpecRule) {
  for (const char* id : kSpecRules) {
    EXPECT_NE(FindRule(id), nullptr) << id;
  }
}

TEST(RegistryTest, IdsAreUnique) {
  std::set<std::string_view> seen;
  for (const RuleInfo& r : AllRules()) {
    EXPECT_TRUE(seen.insert(r.id).second) << r.id;
  }
}

TEST(RegistryTest, EveryRuleHasADocsPageWithTheStandardSections) {
  for (const RuleInfo& r : AllRules()) {
    fs::path page = kRoot / "docs" / "rules" / (std::string(r.id) + ".md");
    ASSERT_TRUE(fs::exists(page)) << page;
    std::string text = testing::ReadAll(page.string());
    EXPECT_EQ(text.rfind("# " + std::string(r.id), 0), 0u) << page;
    size_t last = 0;
    for (const char* section :
         {"## What it checks", "## Why it matters", "## Failing example",
          "## Passing example", "## How to fix", "## Options"}) {
      size_t at = text.find(std::string("\n") + section + "\n");
      EXPECT_NE(at, std::string::npos) << page << " lacks " << section;
      if (at != std::string::npos) {
        EXPECT_GT(at, last) << page << ": " << section << " out of order";
        last = at;
      }
    }
    // The embedded copy is the same page.
    EXPECT_EQ(RuleDoc(r.id), text) << "rebuild to re-embed " << page;
  }
}

TEST(RegistryTest, EveryDocsPageIsARule) {
  for (const auto& e : fs::directory_iterator(kRoot / "docs" / "rules")) {
    std::string id = e.path().stem().string();
    EXPECT_NE(FindRule(id), nullptr) << e.path() << " documents no rule";
  }
}

TEST(RegistryTest, EveryRuleHasFailingAndPassingFixtures) {
  for (const RuleInfo& r : AllRules()) {
    fs::path dir = kRoot / "fixtures" / std::string(r.id);
    bool fail = false, pass = false;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      std::string n = e.path().filename().string();
      bool has_expected = fs::exists(e.path() / "expected.txt");
      fail |= n.rfind("fail-", 0) == 0 && has_expected;
      pass |= n.rfind("pass-", 0) == 0 && has_expected;
    }
    EXPECT_TRUE(fail) << r.id << " has no fixtures/" << r.id << "/fail-*";
    EXPECT_TRUE(pass) << r.id << " has no fixtures/" << r.id << "/pass-*";
  }
}

}  // namespace
}  // namespace topolint
