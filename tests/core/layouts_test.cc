// Unit grouping (checker/core/layout_groups.h): pairing keys, XLA dump
// stages, and the units the walk forms from a directory's files
// (group_on_disk.h).
#include "checker/core/layout_groups.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/group_on_disk.h"

namespace topolint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(PairKeyTest, ModuleAndNeffOfOneCompileShareAKey) {
  const std::string stem = "model.MODULE_56f0d314fda2b6e1e336+617f6939";
  EXPECT_EQ(PairKey(stem + ".hlo_module.pb", FileRole::kHlo), stem);
  EXPECT_EQ(PairKey(stem + ".hlo.pb", FileRole::kHlo), stem);
  EXPECT_EQ(PairKey(stem + ".hlo", FileRole::kHlo), stem);
  EXPECT_EQ(PairKey(stem + ".hlo_module.pb.gz", FileRole::kHlo), stem);
  EXPECT_EQ(PairKey(stem + ".neff", FileRole::kNeff), stem);
  // transformers-neuronx: X.pb with X.pb.neff.
  EXPECT_EQ(PairKey("hlo_module.pb", FileRole::kHlo), "hlo_module");
  EXPECT_EQ(PairKey("hlo_module.pb.neff", FileRole::kNeff), "hlo_module");
  EXPECT_EQ(PairKey("graph.hlo", FileRole::kHlo), "graph");
  EXPECT_EQ(PairKey("graph.neff", FileRole::kNeff), "graph");
}

TEST(PairKeyTest, XlaDumpFilesPairByModuleId) {
  EXPECT_EQ(
      PairKey("module_0042.jit_f.after_optimizations.txt", FileRole::kHlo),
      "module_0042");
  EXPECT_EQ(PairKey("module_0042.jit_f.neff", FileRole::kNeff), "module_0042");
  EXPECT_TRUE(IsFinalDumpModule("module_0042.jit_f.after_optimizations.txt"));
  EXPECT_TRUE(
      IsFinalDumpModule("module_0042.jit_f.cpu_after_optimizations.txt"));
  EXPECT_TRUE(
      IsFinalDumpModule("module_0042.jit_f.after_optimizations.hlo.pb"));
  EXPECT_FALSE(IsFinalDumpModule("module_0042.jit_f.before_optimizations.txt"));
  EXPECT_FALSE(IsFinalDumpModule(
      "module_0042.jit_f.after_optimizations-buffer-assignment.txt"));
  EXPECT_FALSE(IsFinalDumpModule("after_optimizations.txt"));
}

using testing::GroupOnDisk;
using testing::RoleFile;

RoleFile File(const std::string& path, FileRole role) { return {path, role}; }

void GroupUnits(const std::vector<RoleFile>& files,
                std::vector<UnitSpec>* units, std::vector<SkippedPath>* skipped,
                const std::vector<std::string>& roots = {"r"}) {
  *units = GroupOnDisk(files, skipped, roots);
}

std::vector<std::string> Paths(const UnitSpec& u) {
  std::vector<std::string> out;
  for (const InputFile& f : u.files) out.push_back(f.path);
  return out;
}

TEST(GroupUnitsTest, NeverPairsAModuleWithAnotherModulesNeff) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  GroupUnits(
      {File("r/a.hlo", FileRole::kHlo), File("r/a.neff", FileRole::kNeff),
       File("r/b.hlo", FileRole::kHlo), File("r/b.neff", FileRole::kNeff),
       File("r/c.neff", FileRole::kNeff),
       File("r/cfg.json", FileRole::kConfig)},
      &units, &skipped);
  ASSERT_EQ(units.size(), 3u);
  EXPECT_THAT(Paths(units[0]),
              ElementsAre("r/a.hlo", "r/a.neff", "r/cfg.json"));
  EXPECT_THAT(Paths(units[1]),
              ElementsAre("r/b.hlo", "r/b.neff", "r/cfg.json"));
  EXPECT_THAT(Paths(units[2]), ElementsAre("r/c.neff", "r/cfg.json"));
  for (const UnitSpec& u : units) EXPECT_THAT(u.unchecked, IsEmpty());
}

TEST(GroupUnitsTest, OneModuleAndOneNeffStayOneUnitWhateverTheirNames) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  GroupUnits({File("r/model.hlo", FileRole::kHlo),
              File("r/def.json", FileRole::kDefJson)},
             &units, &skipped);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_THAT(Paths(units[0]), ElementsAre("r/def.json", "r/model.hlo"));
}

TEST(GroupUnitsTest, NearestConfigAboveAppliesToEveryUnitBelow) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  GroupUnits({File("r/neuron_config.json", FileRole::kConfig),
              File("r/c/MODULE_1/model.hlo", FileRole::kHlo),
              File("r/c/MODULE_1/model.done", FileRole::kCacheMarker),
              File("r/c/MODULE_2/model.hlo", FileRole::kHlo),
              File("r/c/MODULE_2/model.done", FileRole::kCacheMarker),
              File("r/b/_tp0_bk0/model/graph.hlo", FileRole::kHlo),
              File("r/b/_tp0_bk0/graph.neff", FileRole::kNeff),
              File("r/b/_tp0_bk0/neuron_config.json", FileRole::kConfig)},
             &units, &skipped);
  // The config directory is no unit of its own: each unit below checks it.
  ASSERT_EQ(units.size(), 3u);
  EXPECT_THAT(Paths(units[0]), ElementsAre("r/b/_tp0_bk0/graph.neff",
                                           "r/b/_tp0_bk0/model/graph.hlo",
                                           "r/b/_tp0_bk0/neuron_config.json"));
  EXPECT_THAT(Paths(units[1]),
              ElementsAre("r/c/MODULE_1/model.hlo", "r/neuron_config.json"));
  EXPECT_THAT(Paths(units[2]),
              ElementsAre("r/c/MODULE_2/model.hlo", "r/neuron_config.json"));
}

TEST(GroupUnitsTest, ConfigsAreNotInheritedFromAboveThePathGiven) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  // A search of r/sub: the config in r is above the path given.
  GroupUnits({File("r/neuron_config.json", FileRole::kConfig),
              File("r/sub/m.hlo", FileRole::kHlo)},
             &units, &skipped, {"r/sub"});
  ASSERT_EQ(units.size(), 1u);
  EXPECT_THAT(Paths(units[0]), ElementsAre("r/sub/m.hlo"));
}

TEST(GroupUnitsTest, FailedLockedAndIncompleteCacheEntriesAreOneSkipUnitEach) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  GroupUnits({File("r/MODULE_1/model.hlo", FileRole::kHlo),
              File("r/MODULE_1/model.log", FileRole::kCacheMarker),
              File("r/MODULE_1/compile_flags.json", FileRole::kCompileFlags),
              File("r/MODULE_2/model.hlo", FileRole::kHlo),
              File("r/MODULE_2/model.hlo.lock", FileRole::kCacheMarker),
              File("r/MODULE_3/model.hlo", FileRole::kHlo)},
             &units, &skipped);
  // No file is checked: each entry is a unit of no files that reports it.
  ASSERT_EQ(units.size(), 3u);
  const UncheckedInput::Kind kinds[] = {UncheckedInput::Kind::kCacheFailed,
                                        UncheckedInput::Kind::kCacheInProgress,
                                        UncheckedInput::Kind::kCacheIncomplete};
  const char* whys[] = {"failed compilation", "compilation in progress",
                        "incomplete entry"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(IsSkipUnit(units[i]));
    ASSERT_EQ(units[i].unchecked.size(), 1u);
    EXPECT_EQ(units[i].unchecked[0].path, "r/MODULE_" + std::to_string(i + 1));
    EXPECT_EQ(units[i].unchecked[0].kind, kinds[i]);
    EXPECT_THAT(units[i].unchecked[0].message, HasSubstr(whys[i]));
  }
  ASSERT_EQ(skipped.size(), 3u);
  EXPECT_EQ(skipped[0].files, 2u);  // the module and its flags
}

TEST(GroupUnitsTest, OnlyTheFinalDumpModuleMeetsTheNeff) {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  GroupUnits({File("r/module_0001.f.before_optimizations.txt", FileRole::kHlo),
              File("r/module_0001.f.after_optimizations.txt", FileRole::kHlo),
              File("r/module_0001.f.neff", FileRole::kNeff)},
             &units, &skipped);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_THAT(Paths(units[0]),
              ElementsAre("r/module_0001.f.after_optimizations.txt",
                          "r/module_0001.f.neff"));
  EXPECT_THAT(Paths(units[1]),
              ElementsAre("r/module_0001.f.before_optimizations.txt"));
}

}  // namespace
}  // namespace topolint
