// LoadAndCheckUnit (the CLI's one-pass load-and-check, which drops every
// collective once checked) must report exactly what CheckUnit(LoadUnit(...))
// reports, on every fixture and under option settings that switch the
// collective families on and off.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/model/unit.h"
#include "gtest/gtest.h"

namespace topolint {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> FixtureDirs() {
  std::vector<std::string> dirs;
  const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  for (const auto& rule : fs::directory_iterator(root)) {
    if (!rule.is_directory()) continue;
    for (const auto& c : fs::directory_iterator(rule.path())) {
      if (c.is_directory()) dirs.push_back(c.path().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string Describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += f.loc.file + ":" + std::to_string(f.loc.line) + ":" +
           std::to_string(f.loc.column) + " [" + f.rule + "] " + f.message +
           " {" + f.anchor + "}";
    for (const Note& n : f.notes) {
      out += " note " + n.loc.file + ":" + std::to_string(n.loc.line) + ":" +
             std::to_string(n.loc.column) + " " + n.message;
    }
    out += "\n";
  }
  return out;
}

struct Setting {
  const char* name;
  CheckOptions options;
  const char* globs;  // nullptr: every rule
};

std::vector<Setting> Settings() {
  std::vector<Setting> s;
  s.push_back({"defaults", CheckOptions{}, nullptr});
  CheckOptions lnc;
  lnc.lnc = 2;
  lnc.lnc_given = true;
  lnc.num_cores = 8;
  s.push_back({"lnc2-cores8", lnc, nullptr});
  CheckOptions counts;
  counts.replica_count = 2;
  counts.num_partitions = 4;
  s.push_back({"r2-p4", counts, nullptr});
  s.push_back({"xref-only", CheckOptions{}, "-*,xref-*"});
  s.push_back({"no-xref-config-groups", CheckOptions{}, "-xref-config-groups"});
  return s;
}

TEST(StreamingCheckTest, SameFindingsAsLoadThenCheckOnEveryFixture) {
  const std::vector<std::string> dirs = FixtureDirs();
  ASSERT_GT(dirs.size(), 50u);
  size_t compared = 0, with_findings = 0;
  for (const std::string& dir : dirs) {
    std::vector<UnitSpec> specs;
    DiscoveryReport report;
    if (!DiscoverUnits({dir}, DiscoveryLimits{}, &specs, &report).ok()) {
      continue;
    }
    for (const UnitSpec& spec : specs) {
      for (const Setting& setting : Settings()) {
        RuleSelection selection;
        if (setting.globs != nullptr) {
          ASSERT_TRUE(selection.ApplyGlobs(setting.globs).ok());
        }
        Unit loaded;
        const absl::Status load_status = LoadUnit(spec, {}, &loaded);
        Unit streamed;
        std::vector<Finding> streamed_findings;
        const absl::Status stream_status =
            LoadAndCheckUnit(spec, {}, setting.options, selection, &streamed,
                             &streamed_findings);
        ASSERT_EQ(load_status.ok(), stream_status.ok()) << dir;
        if (!load_status.ok()) {
          EXPECT_EQ(load_status.message(), stream_status.message()) << dir;
          continue;
        }
        const std::vector<Finding> expected =
            CheckUnit(loaded, setting.options, selection);
        EXPECT_EQ(Describe(expected), Describe(streamed_findings))
            << dir << " (" << setting.name << ")";
        ++compared;
        if (!expected.empty()) ++with_findings;
        // Nothing of the collectives is kept.
        for (const hlo::Module& m : streamed.hlo_modules) {
          EXPECT_TRUE(m.collectives.empty()) << dir;
        }
        ASSERT_EQ(streamed.hlo_modules.size(), loaded.hlo_modules.size());
      }
    }
  }
  EXPECT_GT(compared, 200u);
  EXPECT_GT(with_findings, 100u);  // the comparison is not vacuous
}

}  // namespace
}  // namespace topolint
