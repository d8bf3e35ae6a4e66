// neff-lnc-mismatch and neff-graphs-disagree over hand-built units.
#include <string>
#include <vector>

#include "checker/model/unit.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/emitter.h"
#include "rules/families.h"

namespace topolint {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<Finding> RunRules(const Unit& unit,
                              const CheckOptions& options = {}) {
  Emitter emit([](std::string_view) { return true; },
               [](std::string_view) { return Severity::kError; });
  CheckNeffArchive(unit, options, emit);
  return emit.findings();
}

neff::DefJson Graph(const std::string& member,
                    const std::vector<std::vector<std::vector<int64_t>>>& rg,
                    int64_t line_base = 3) {
  neff::DefJson d;
  d.file = "m.neff:" + member;
  d.has_cc_info = true;
  d.cc_info_pos = {2, 13};
  d.has_replica_groups = true;
  d.replica_groups_pos = {line_base, 23};
  for (size_t t = 0; t < rg.size(); ++t) {
    neff::Topology topo;
    topo.pos = {line_base + static_cast<int64_t>(t), 24};
    for (size_t g = 0; g < rg[t].size(); ++g) {
      const TextPos group_pos{line_base + static_cast<int64_t>(t),
                              25 + 10 * static_cast<int64_t>(g)};
      topo.AddGroup(group_pos);
      for (size_t r = 0; r < rg[t][g].size(); ++r) {
        topo.AddRank(rg[t][g][r],
                     {group_pos.line,
                      group_pos.column + 1 + 3 * static_cast<int64_t>(r)});
      }
    }
    d.topologies.push_back(topo);
  }
  return d;
}

neff::NeffArchive Archive(int64_t lnc, int graphs) {
  neff::NeffArchive a;
  a.file = "m.neff";
  a.header_ok = true;
  a.lnc_size = lnc;
  a.kelf_loc = {"m.neff:kelf-0.json", 1, 12};
  for (int i = 0; i < graphs; ++i) {
    const std::string name = "sg0" + std::to_string(i);
    a.graph_names.push_back(name);
    a.graph_definitions.push_back(name + "/def.json");
    a.graphs.push_back(Graph(name + "/def.json", {{{0, 1}, {2, 3}}}));
  }
  return a;
}

json::Value IntValue(int64_t v, TextPos pos) {
  json::Value x;
  x.type = json::Type::kInt;
  x.int_value = v;
  x.pos = pos;
  return x;
}

json::Value Object(std::vector<json::Member> members, TextPos pos = {1, 1}) {
  json::Value x;
  x.type = json::Type::kObject;
  x.pos = pos;
  x.object = std::move(members);
  return x;
}

// A NxDI neuron_config.json: {"neuron_config": {"logical_nc_config": lnc}}.
config::ComponentConfig NxdiConfig(int64_t lnc) {
  return config::ComponentConfig(
      "neuron_config.json",
      Object({{"neuron_config",
               {2, 3},
               Object({{"logical_nc_config", {3, 5}, IntValue(lnc, {3, 26})}},
                      {2, 20})}}));
}

// ---------------------------------------------------------------- lnc

TEST(NeffLncMismatchTest, AgreeingSourcesAreQuiet) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  u.configs.push_back(NxdiConfig(2));
  CheckOptions o;
  o.lnc = 2;
  o.lnc_given = true;
  EXPECT_THAT(RunRules(u, o), IsEmpty());
}

TEST(NeffLncMismatchTest, GraphCountDisagreesWithHeader) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 1));
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "neff-lnc-mismatch");
  EXPECT_EQ(f[0].loc, (Location{"m.neff:kelf-0.json", 1, 12}));
  EXPECT_EQ(f[0].message,
            "kelf-0.json lists 1 graph but the archive was compiled for LNC 2 "
            "(header lnc_size); expected one graph per physical core");
  EXPECT_EQ(f[0].anchor, "kelf-0.json.graphs");
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc, (Location{"m.neff", 0, 0}));
  EXPECT_EQ(f[0].notes[0].message, "header lnc_size is 2 here");
}

TEST(NeffLncMismatchTest, CommandLineLncDisagrees) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  CheckOptions o;
  o.lnc = 1;
  o.lnc_given = true;
  std::vector<Finding> f = RunRules(u, o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc, (Location{"m.neff", 0, 0}));
  EXPECT_EQ(f[0].message,
            "--lnc is 1 but the archive was compiled for LNC 2 (header "
            "lnc_size); expected 2");
  EXPECT_EQ(f[0].anchor, "--lnc");
  // The header shares the finding's location; only kelf gets a note.
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].message, "kelf-0.json lists 2 graphs here");
}

TEST(NeffLncMismatchTest, DefaultLncIsNotCompared) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  CheckOptions o;  // lnc 1, but not given
  EXPECT_THAT(RunRules(u, o), IsEmpty());
}

TEST(NeffLncMismatchTest, ConfigLncDisagrees) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  u.configs.push_back(NxdiConfig(1));
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc, (Location{"neuron_config.json", 3, 26}));
  EXPECT_EQ(f[0].message,
            "logical_nc_config is 1 but m.neff was compiled for LNC 2 (header "
            "lnc_size); expected 2");
  EXPECT_EQ(f[0].anchor, "neuron_config.logical_nc_config");
  EXPECT_THAT(
      f[0].notes,
      ElementsAre(Field(&Note::loc, Location{"m.neff", 0, 0}),
                  Field(&Note::loc, Location{"m.neff:kelf-0.json", 1, 12})));
}

TEST(NeffLncMismatchTest, TopLevelConfigKeyIsRead) {
  Unit u;
  u.neff_archives.push_back(Archive(1, 1));
  u.configs.emplace_back(
      "cfg.json",
      Object({{"logical_nc_config", {1, 2}, IntValue(2, {1, 22})}}));
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc, (Location{"cfg.json", 1, 22}));
  EXPECT_EQ(f[0].anchor, "logical_nc_config");
}

TEST(NeffLncMismatchTest, NonIntegerConfigLncIsLeftToConfigSchema) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  config::ComponentConfig c = NxdiConfig(0);
  u.configs.push_back(c);
  EXPECT_THAT(RunRules(u), IsEmpty());
}

TEST(NeffLncMismatchTest, GraphCountIsTheReferenceWithoutHeaderLnc) {
  Unit u;
  u.neff_archives.push_back(Archive(0, 2));
  u.configs.push_back(NxdiConfig(1));
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "logical_nc_config is 1 but m.neff holds 2 graphs in kelf-0.json, "
            "one per physical core (LNC 2); expected 2");
}

TEST(NeffLncMismatchTest, EveryDisagreementIsReportedOnce) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 1));
  u.configs.push_back(NxdiConfig(1));
  CheckOptions o;
  o.lnc = 1;
  o.lnc_given = true;
  std::vector<Finding> f = RunRules(u, o);
  EXPECT_THAT(
      f, ElementsAre(Field(&Finding::anchor, "kelf-0.json.graphs"),
                     Field(&Finding::anchor, "neuron_config.logical_nc_config"),
                     Field(&Finding::anchor, "--lnc")));
}

TEST(NeffLncMismatchTest, NothingFromTheNeffMeansNoFinding) {
  Unit u;
  neff::NeffArchive a;
  a.file = "m.neff";  // header unreadable, no kelf
  u.neff_archives.push_back(a);
  u.configs.push_back(NxdiConfig(2));
  CheckOptions o;
  o.lnc = 1;
  o.lnc_given = true;
  EXPECT_THAT(RunRules(u, o), IsEmpty());
}

// ---------------------------------------------------------- graphs

TEST(NeffGraphsDisagreeTest, IdenticalGraphsAreQuiet) {
  Unit u;
  u.neff_archives.push_back(Archive(2, 2));
  EXPECT_THAT(RunRules(u), IsEmpty());
}

TEST(NeffGraphsDisagreeTest, RankDiffers) {
  Unit u;
  neff::NeffArchive a = Archive(2, 2);
  a.graphs[1] = Graph("sg01/def.json", {{{0, 1}, {3, 2}}});
  u.neff_archives.push_back(a);
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "neff-graphs-disagree");
  EXPECT_EQ(f[0].loc, (Location{"m.neff:sg01/def.json", 3, 36}));
  EXPECT_EQ(f[0].message,
            "CCInfo.replica_groups[0][1][0] is 3 in sg01/def.json but 2 in "
            "sg00/def.json (graph 0); every graph of one NEFF must carry the "
            "same CCInfo");
  EXPECT_EQ(f[0].anchor, "sg01/def.json:CCInfo.replica_groups[0][1][0]");
  ASSERT_EQ(f[0].notes.size(), 1u);
  EXPECT_EQ(f[0].notes[0].loc, (Location{"m.neff:sg00/def.json", 3, 36}));
  EXPECT_EQ(f[0].notes[0].message,
            "CCInfo.replica_groups[0][1][0] in sg00/def.json (graph 0) is 2 "
            "here");
}

TEST(NeffGraphsDisagreeTest, GroupSizeGroupCountAndTopologyCount) {
  struct Case {
    std::vector<std::vector<std::vector<int64_t>>> rg;
    std::string message_start;
    Location loc;
  };
  for (const Case& c : std::vector<Case>{
           {{{{0, 1}, {2, 3, 4}}},
            "CCInfo.replica_groups[0][1] is 3 ranks in sg01/def.json but 2 "
            "ranks",
            {"m.neff:sg01/def.json", 3, 35}},
           {{{{0, 1}}},
            "CCInfo.replica_groups[0] is 1 group in sg01/def.json but 2 groups",
            {"m.neff:sg01/def.json", 3, 24}},
           {{{{0, 1}, {2, 3}}, {{0, 2}}},
            "CCInfo.replica_groups is 2 topologies in sg01/def.json but 1 "
            "topology",
            {"m.neff:sg01/def.json", 3, 23}},
       }) {
    Unit u;
    neff::NeffArchive a = Archive(2, 2);
    a.graphs[1] = Graph("sg01/def.json", c.rg);
    u.neff_archives.push_back(a);
    std::vector<Finding> f = RunRules(u);
    ASSERT_EQ(f.size(), 1u) << c.message_start;
    EXPECT_THAT(f[0].message, ::testing::StartsWith(c.message_start));
    EXPECT_EQ(f[0].loc, c.loc);
  }
}

TEST(NeffGraphsDisagreeTest, PairsAndWorldSizeDiffer) {
  Unit u;
  neff::NeffArchive a = Archive(0, 3);  // no header LNC: 3 graphs are fine
  for (neff::DefJson& g : a.graphs) {
    g.has_pairs = true;
    g.pairs_pos = {4, 25};
    neff::Pair p;
    p.pos = {4, 26};
    p.src = {0, {4, 27}};
    p.dst = {1, {4, 30}};
    g.pairs.push_back(p);
    g.has_explicit_world_size = true;
    g.explicit_world_size = {4, {5, 26}};
  }
  a.graphs[1].pairs[0].dst.value = 2;
  a.graphs[2].explicit_world_size.value = 8;
  u.neff_archives.push_back(a);
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].loc, (Location{"m.neff:sg01/def.json", 4, 30}));
  EXPECT_THAT(f[0].message,
              HasSubstr("CCInfo.src_target_pairs[0][1] is 2 in sg01/def.json "
                        "but 1 in sg00/def.json"));
  EXPECT_EQ(f[1].loc, (Location{"m.neff:sg02/def.json", 5, 26}));
  EXPECT_THAT(f[1].message,
              HasSubstr("CCInfo.#rank_world_size is 8 in sg02/def.json but 4 "
                        "in sg00/def.json"));
}

TEST(NeffGraphsDisagreeTest, OnlyTheFirstDifferenceOfAGraphIsReported) {
  Unit u;
  neff::NeffArchive a = Archive(2, 2);
  a.graphs[1] = Graph("sg01/def.json", {{{1, 0}, {3, 2}}});
  a.graphs[1].has_explicit_world_size = true;
  u.neff_archives.push_back(a);
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].anchor, HasSubstr("replica_groups[0][0][0]"));
}

TEST(NeffGraphsDisagreeTest, MissingCCInfoInOneGraph) {
  Unit u;
  neff::NeffArchive a = Archive(2, 2);
  a.graphs[1] = neff::DefJson();
  a.graphs[1].file = "m.neff:sg01/def.json";
  a.graphs[1].cc_info_pos = {1, 1};
  u.neff_archives.push_back(a);
  std::vector<Finding> f = RunRules(u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "CCInfo is absent in sg01/def.json but present in sg00/def.json "
            "(graph 0); every graph of one NEFF must carry the same CCInfo");
}

TEST(NeffGraphsDisagreeTest, GraphsWithSchemaProblemsAreNotCompared) {
  Unit u;
  neff::NeffArchive a = Archive(2, 2);
  a.graphs[1] = Graph("sg01/def.json", {{{0, 1}}});
  a.graphs[1].schema_problems.push_back({{3, 30}, "bad", "x"});
  u.neff_archives.push_back(a);
  EXPECT_THAT(RunRules(u), IsEmpty());
}

}  // namespace
}  // namespace topolint
