// Pairing a directory's modules with NEFF sides when the names do not say
// which belongs to which (issue 27, defect 1): the unique pairing of a
// plain def.json, and an unchecked-input record (never silence) for what
// stays unpaired, reported by one unit of the directory.
#include "checker/core/layout_groups.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/group_on_disk.h"

namespace topolint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

testing::RoleFile File(const std::string& path, FileRole role) {
  return {path, role};
}

std::vector<std::string> Paths(const UnitSpec& u) {
  std::vector<std::string> out;
  for (const InputFile& f : u.files) out.push_back(f.path);
  return out;
}

struct Grouped {
  std::vector<UnitSpec> units;
  std::vector<SkippedPath> skipped;
  // The units' unchecked-input records, as "path: message".
  std::vector<std::string> unchecked;
};

Grouped Group(const std::vector<testing::RoleFile>& files) {
  Grouped g;
  g.units = testing::GroupOnDisk(files, &g.skipped);
  for (const UnitSpec& u : g.units) {
    for (const UncheckedInput& r : u.unchecked) {
      EXPECT_EQ(r.kind, UncheckedInput::Kind::kUnpaired);
      g.unchecked.push_back(r.path + ": " + r.message);
    }
  }
  return g;
}

TEST(PairingTest, TwoModulesAndOneDefJsonIsAFindingNamingTheCandidates) {
  Grouped g = Group({File("r/model.hlo", FileRole::kHlo),
                     File("r/other.hlo", FileRole::kHlo),
                     File("r/def.json", FileRole::kDefJson)});
  ASSERT_THAT(g.unchecked, SizeIs(1));
  const std::string& w = g.unchecked[0];
  EXPECT_THAT(w, HasSubstr("r: "));
  EXPECT_THAT(w, HasSubstr("model.hlo"));
  EXPECT_THAT(w, HasSubstr("other.hlo"));
  EXPECT_THAT(w, HasSubstr("def.json"));
  EXPECT_THAT(w, HasSubstr("--hlo"));
  EXPECT_THAT(w, HasSubstr("--neff"));
  EXPECT_THAT(w, HasSubstr("X.neff"));
  // Each file is still checked, on its own; one unit reports the record.
  EXPECT_THAT(g.units, SizeIs(3));
  size_t reporting = 0;
  for (const UnitSpec& u : g.units) reporting += u.unchecked.empty() ? 0 : 1;
  EXPECT_EQ(reporting, 1u);
}

TEST(PairingTest, TwoNeffsBesideOneModuleIsAFinding) {
  Grouped g = Group({File("r/a.neff", FileRole::kNeff),
                     File("r/b.neff", FileRole::kNeff),
                     File("r/model.hlo", FileRole::kHlo)});
  ASSERT_THAT(g.unchecked, SizeIs(1));
  EXPECT_THAT(g.unchecked[0], HasSubstr("a.neff"));
  EXPECT_THAT(g.unchecked[0], HasSubstr("b.neff"));
  EXPECT_THAT(g.unchecked[0], HasSubstr("model.hlo"));
  EXPECT_THAT(g.units, SizeIs(3));
}

TEST(PairingTest, SameStemPairsStillRunBesideTheUnpairedOnes) {
  Grouped g = Group(
      {File("r/a.hlo", FileRole::kHlo), File("r/a.neff", FileRole::kNeff),
       File("r/b.hlo", FileRole::kHlo), File("r/c.neff", FileRole::kNeff)});
  ASSERT_THAT(g.units, SizeIs(3));
  // In key order: the unit reporting the unpaired files is keyed by the
  // directory ("r" < "r/a.hlo").
  EXPECT_THAT(Paths(g.units[1]), ElementsAre("r/a.hlo", "r/a.neff"));
  ASSERT_THAT(g.unchecked, SizeIs(1));
  EXPECT_THAT(g.unchecked[0], HasSubstr("b.hlo"));
  EXPECT_THAT(g.unchecked[0], HasSubstr("c.neff"));
  EXPECT_THAT(g.unchecked[0], Not(HasSubstr("a.hlo")));
}

TEST(PairingTest, APlainDefJsonPairsWithTheOnlyModuleLeftUnpaired) {
  Grouped g =
      Group({File("r/a.hlo", FileRole::kHlo), File("r/a.neff", FileRole::kNeff),
             File("r/model.hlo", FileRole::kHlo),
             File("r/def.json", FileRole::kDefJson)});
  EXPECT_THAT(g.unchecked, IsEmpty());
  ASSERT_THAT(g.units, SizeIs(2));
  EXPECT_THAT(Paths(g.units[0]), ElementsAre("r/a.hlo", "r/a.neff"));
  EXPECT_THAT(Paths(g.units[1]), ElementsAre("r/def.json", "r/model.hlo"));
}

TEST(PairingTest, ModulesWithoutAnyNeffSideNeedNoWarning) {
  Grouped g =
      Group({File("r/a.hlo", FileRole::kHlo), File("r/b.hlo", FileRole::kHlo),
             File("r/c.hlo", FileRole::kHlo)});
  EXPECT_THAT(g.unchecked, IsEmpty());
  EXPECT_THAT(g.units, SizeIs(3));
}

TEST(PairingTest, AWorkdirOfCompletePairsNeedsNoWarning) {
  Grouped g = Group({File("r/m.MODULE_1+f.hlo_module.pb", FileRole::kHlo),
                     File("r/m.MODULE_1+f.neff", FileRole::kNeff),
                     File("r/m.MODULE_2+f.hlo_module.pb", FileRole::kHlo),
                     File("r/m.MODULE_2+f.neff", FileRole::kNeff),
                     File("r/m.MODULE_3+f.hlo_module.pb", FileRole::kHlo)});
  EXPECT_THAT(g.unchecked, IsEmpty());
  EXPECT_THAT(g.units, SizeIs(3));
}

TEST(PairingTest, IntermediateDumpsAreNoCandidates) {
  Grouped g =
      Group({File("r/module_0001.f.before_optimizations.txt", FileRole::kHlo),
             File("r/module_0001.f.after_optimizations.txt", FileRole::kHlo),
             File("r/def.json", FileRole::kDefJson)});
  // The final module is the only candidate: it pairs with the def.json.
  EXPECT_THAT(g.unchecked, IsEmpty());
  ASSERT_THAT(g.units, SizeIs(2));
  EXPECT_THAT(
      Paths(g.units[0]),
      ElementsAre("r/def.json", "r/module_0001.f.after_optimizations.txt"));
}

TEST(PairingTest, AWarningListsAtMostAFewCandidatesOfEachSide) {
  std::vector<testing::RoleFile> files;
  for (int i = 0; i < 30; ++i) {
    files.push_back(File("r/m" + std::to_string(i) + ".hlo", FileRole::kHlo));
    files.push_back(File("r/n" + std::to_string(i) + ".neff", FileRole::kNeff));
  }
  Grouped g = Group(files);
  ASSERT_THAT(g.unchecked, SizeIs(1));
  EXPECT_THAT(g.unchecked[0], HasSubstr("and 25 more"));
  EXPECT_LT(g.unchecked[0].size(), 1000u);
}

}  // namespace
}  // namespace topolint
