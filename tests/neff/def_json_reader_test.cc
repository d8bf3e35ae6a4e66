// The streaming def.json reader (ParseDefJson) against the exact reading
// (json::Parse + BuildDefJson): same model, same rank positions, same
// findings, on well-formed and malformed inputs; and FindRepeats.
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/registry.h"
#include "tests/neff/neff_test_util.h"

namespace topolint::neff {
namespace {

using testing_neff::OfRule;
using testing_neff::RunNeff;

DefJsonDocument Streamed(const std::string& text) {
  return ParseDefJson(std::make_shared<const std::string>(text));
}

DefJson Fast(const std::string& text) {
  DefJsonDocument doc = Streamed(text);
  EXPECT_TRUE(doc.parsed.ok) << doc.parsed.error.message;
  return BuildDefJson(std::move(doc), "def.json");
}

DefJson Exact(const std::string& text) {
  json::ParseResult r = json::Parse(text);
  EXPECT_TRUE(r.ok) << r.error.message;
  return BuildDefJson(r.root, "def.json");
}

std::string Pos(TextPos p) { return fmt::format("{}:{}", p.line, p.column); }

// Everything BuildDefJson records, rank positions included, as text.
std::string Dump(const DefJson& d) {
  std::string out =
      fmt::format("cc {} {} rg {} {} count {} pairs {} {} {} ws {} {} {}\n",
                  d.has_cc_info, Pos(d.cc_info_pos), d.has_replica_groups,
                  Pos(d.replica_groups_pos), d.topology_count, d.has_pairs,
                  Pos(d.pairs_pos), d.pair_count, d.has_explicit_world_size,
                  d.explicit_world_size.value, Pos(d.explicit_world_size.pos));
  for (const Topology& t : d.topologies) {
    out += fmt::format("t{} {} groups {} ranks {}\n", t.index, Pos(t.pos),
                       t.num_groups(), t.num_ranks());
    for (int64_t g = 0; g < t.num_groups(); ++g) {
      out += fmt::format(" g{} {}:", g, Pos(t.group_pos(g)));
      for (int64_t r = 0; r < t.group_size(g); ++r) {
        out += fmt::format(" {}@{}", t.rank(g, r), Pos(t.rank_pos(g, r)));
      }
      out += "\n";
    }
  }
  for (const Pair& p : d.pairs) {
    out += fmt::format("p{} {} {}@{} {}@{}\n", p.index, Pos(p.pos), p.src.value,
                       Pos(p.src.pos), p.dst.value, Pos(p.dst.pos));
  }
  for (const SchemaProblem& p : d.schema_problems) {
    out += fmt::format("problem {} {} [{}]\n", Pos(p.pos), p.message, p.anchor);
  }
  return out;
}

std::string DumpFindings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += fmt::format("{} {}:{}:{} {} [{}]\n", f.rule, f.loc.file, f.loc.line,
                       f.loc.column, f.message, f.anchor);
    for (const Note& n : f.notes) {
      out +=
          fmt::format("  note {}:{} {}\n", n.loc.line, n.loc.column, n.message);
    }
  }
  return out;
}

std::string Def(const std::string& cc_info) {
  return "{\"var\": {\"a\": {\"type\": \"input\"}},\n\"CCInfo\": " + cc_info +
         "}\n";
}

// A [groups][size] topology with ranks 0.. in order, compact or with
// json.dumps(indent=1)-like lines.
std::string BigTopology(int groups, int size, bool pretty) {
  std::string rg = pretty ? "[\n [\n" : "[[";
  int next = 0;
  for (int g = 0; g < groups; ++g) {
    if (g > 0) rg += pretty ? ",\n" : ", ";
    rg += pretty ? "  [\n" : "[";
    for (int r = 0; r < size; ++r) {
      if (r > 0) rg += pretty ? ",\n" : ", ";
      rg += pretty ? fmt::format("   {}", next++) : std::to_string(next++);
    }
    rg += pretty ? "\n  ]" : "]";
  }
  rg += pretty ? "\n ]\n]" : "]]";
  return rg;
}

struct Case {
  const char* name;
  std::string text;
  bool streamed;  // expected to take the streaming path
};

std::vector<Case> Cases() {
  return {
      {"one topology", Def(R"({"replica_groups": [[[0, 4], [1, 5]]]})"), true},
      {"pairs and world size",
       Def("{\"replica_groups\": [[[0, 1], [2, 3]]],\n"
           " \"src_target_pairs\": [[0, 1], [1, 0]], \"#rank_world_size\": 4}"),
       true},
      {"empty list", Def(R"({"replica_groups": []})"), true},
      {"empty topology (MPMD)",
       Def(R"({"replica_groups": [[[0, 1]], [], [[2, 3]]]})"), true},
      {"empty group", Def(R"({"replica_groups": [[[]], [[0], []]]})"), true},
      {"inconsistent worker counts (MPMD)",
       Def(R"({"replica_groups": [[[0, 1]], [[0, 1, 2, 3]]]})"), true},
      {"ragged groups", Def(R"({"replica_groups": [[[0, 1, 2], [3]]]})"), true},
      {"duplicate ranks",
       Def("{\"replica_groups\": [[[0, 1, 0], [2, 1]],\n [[5, 5]]]}"), true},
      {"world size too small",
       Def(R"({"replica_groups": [[[0, 1, 2]]], "#rank_world_size": 2})"),
       true},
      {"CRLF, tabs and odd spacing",
       Def("{\"replica_groups\" :\r\n[ [\t[ 0 ,1\r\n,\t2 ] ,[3,\n\n 4,5 ] ] ] "
           "}"),
       true},
      {"byte order mark",
       "\xEF\xBB\xBF" + Def(R"({"replica_groups": [[[0, 1], [1, 2]]]})"), true},
      {"replica_groups before other keys",
       "{\"CCInfo\": {\"replica_groups\": [[[0,1]]], \"x\": [1, \"a\"]}, "
       "\"var\": [[[\"not ranks\"]]]}",
       true},
      {"big compact",
       Def("{\"replica_groups\": " + BigTopology(5, 150, false) + "}"), true},
      {"big pretty",
       Def("{\"replica_groups\": " + BigTopology(7, 70, true) + "}"), true},
      {"groups smaller than the mark stride",
       Def("{\"replica_groups\": " + BigTopology(40, 3, true) + "}"), true},
      // Refused by the streaming reader: described by the exact reading.
      {"2-D list", Def(R"({"replica_groups": [[0, 1], [2, 3]]})"), false},
      {"list of ranks as a topology",
       Def(R"({"replica_groups": [[[0, 1]], [2, 3]]})"), false},
      {"rank is a string", Def(R"({"replica_groups": [[[0, "1"]]]})"), false},
      {"negative rank", Def(R"({"replica_groups": [[[0, -1]]]})"), false},
      {"rank too large",
       Def(R"({"replica_groups": [[[0, 2147483648]], [[1]]]})"), false},
      {"rank beyond uint64",
       Def(R"({"replica_groups": [[[99999999999999999999]]]})"), false},
      {"fractional rank", Def(R"({"replica_groups": [[[0, 1.0]]]})"), false},
      {"NaN rank", Def(R"({"replica_groups": [[[0, NaN], [Infinity]]]})"),
       false},
      {"object rank", Def(R"({"replica_groups": [[[0, {"r": 1}]]]})"), false},
      {"null group", Def(R"({"replica_groups": [[[0], null, true]]})"), false},
      {"4-D list", Def(R"({"replica_groups": [[[[0, 1]]]]})"), false},
      {"replica_groups twice",
       Def(R"({"replica_groups": [[[0]]], "replica_groups": [[[1, 2]]]})"),
       false},
      {"CCInfo twice",
       "{\"CCInfo\": {\"replica_groups\": [[[0]]]},\n"
       " \"CCInfo\": {\"replica_groups\": [[[1]]]}}",
       false},
      // Not an array at the path: nothing to stream.
      {"replica_groups is a string", Def(R"({"replica_groups": "0,1"})"),
       false},
      {"replica_groups absent", Def(R"({"src_target_pairs": [[0, 1]]})"),
       false},
      {"CCInfo not an object", Def("[[[0, 1]]]"), false},
      {"first of two replica_groups is a string",
       Def(R"({"replica_groups": "x", "replica_groups": [[[0, 1]]]})"), true},
  };
}

TEST(DefJsonReaderTest, SameModelAndFindingsAsTheExactReading) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Streamed(c.text).streamed, c.streamed);
    const DefJson fast = Fast(c.text);
    const DefJson exact = Exact(c.text);
    EXPECT_EQ(Dump(fast), Dump(exact));
    EXPECT_EQ(DumpFindings(RunNeff({fast})), DumpFindings(RunNeff({exact})));
  }
}

// Every rule family over the def.json beside a 4-device module with groups
// {{0,1},{2,3}} and 2 cores (so xref-* and lnc-rank-range look at ranks).
std::vector<Finding> RunAllFamilies(DefJson d) {
  Unit unit;
  unit.directory = ".";
  unit.hlo_modules.push_back(
      hlo::ParseHloText("HloModule m, replica_count=4\n"
                        "%add (a: f32[], b: f32[]) -> f32[] {\n"
                        "  %a = f32[] parameter(0)\n"
                        "  %b = f32[] parameter(1)\n"
                        "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n"
                        "}\n"
                        "ENTRY %main (p: f32[8]) -> f32[8] {\n"
                        "  %p = f32[8]{0} parameter(0)\n"
                        "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), "
                        "replica_groups={{0,1},{2,3}}, to_apply=%add\n"
                        "}\n",
                        "model.hlo"));
  unit.def_jsons.push_back(std::move(d));
  CheckOptions options;
  options.num_cores = 2;
  Emitter emit = testing_neff::AllRulesEmitter();
  for (const CheckFamily& family : AllCheckFamilies()) {
    family.run(unit, options, emit);
  }
  return emit.findings();
}

TEST(DefJsonReaderTest, SameFindingsOfEveryRuleFamily) {
  size_t findings = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    const std::vector<Finding> fast = RunAllFamilies(Fast(c.text));
    EXPECT_EQ(DumpFindings(fast), DumpFindings(RunAllFamilies(Exact(c.text))));
    findings += fast.size();
  }
  EXPECT_GT(findings, 30u);  // the comparison is not of empty lists
}

TEST(DefJsonReaderTest, SyntaxErrorsAreReportedAsJsonParseDoes) {
  for (const std::string& text :
       {std::string("{\"CCInfo\": {\"replica_groups\": [[[0, 1], [2,]]]}}"),
        std::string("{\"CCInfo\": {\"replica_groups\": [[[0, 1]]"),
        std::string("{\"CCInfo\": {\"replica_groups\": [[[0 1]]]}}"),
        std::string("{\"CCInfo\": {\"replica_groups\": [[[0]]]}} x")}) {
    SCOPED_TRACE(text);
    const DefJsonDocument doc = Streamed(text);
    const json::ParseResult exact = json::Parse(text);
    ASSERT_FALSE(exact.ok);
    ASSERT_FALSE(doc.parsed.ok);
    EXPECT_EQ(Pos(doc.parsed.error.pos), Pos(exact.error.pos));
    EXPECT_EQ(doc.parsed.error.message, exact.error.message);
  }
}

TEST(DefJsonReaderTest, TooManyValuesIsTheSameLimitError) {
  // More values than kMaxValueCount, all inside replica_groups.
  const std::string text = Def(
      "{\"replica_groups\": " +
      BigTopology(1, static_cast<int>(json::kMaxValueCount) + 10, false) + "}");
  const DefJsonDocument doc = Streamed(text);
  const json::ParseResult exact = json::Parse(text);
  ASSERT_FALSE(exact.ok);
  ASSERT_FALSE(doc.parsed.ok);
  EXPECT_EQ(doc.parsed.error.message, exact.error.message);
  EXPECT_EQ(Pos(doc.parsed.error.pos), Pos(exact.error.pos));
}

TEST(DefJsonReaderTest, MillionRankTopologyIsStoredFlat) {
  const std::string text =
      Def("{\"replica_groups\": " + BigTopology(1000, 1000, false) + "}");
  DefJsonDocument doc = Streamed(text);
  ASSERT_TRUE(doc.streamed);
  // The tree holds a placeholder, not a million values.
  const json::Value* cc = doc.parsed.root.Find("CCInfo");
  ASSERT_NE(cc, nullptr);
  ASSERT_NE(cc->Find("replica_groups"), nullptr);
  EXPECT_TRUE(cc->Find("replica_groups")->array.empty());
  const DefJson fast = BuildDefJson(std::move(doc), "def.json");
  ASSERT_EQ(fast.topologies.size(), 1u);
  const Topology& t = fast.topologies[0];
  EXPECT_EQ(t.num_groups(), 1000);
  EXPECT_EQ(t.num_ranks(), 1000000);
  EXPECT_EQ(t.rank(999, 999), 999999);
  EXPECT_TRUE(RunNeff({fast}).empty());
  // Positions found again by scanning agree with the located tree's.
  const DefJson exact = Exact(text);
  const Topology& e = exact.topologies[0];
  for (int64_t g : {0, 1, 63, 500, 999}) {
    EXPECT_EQ(Pos(t.group_pos(g)), Pos(e.group_pos(g)));
    for (int64_t r : {0, 1, 62, 63, 64, 65, 127, 128, 998, 999}) {
      EXPECT_EQ(Pos(t.rank_pos(g, r)), Pos(e.rank_pos(g, r))) << g << " " << r;
    }
  }
}

TEST(DefJsonReaderTest, DuplicateRankInABigTopologyIsLocatedExactly) {
  // 300 groups of 300 ranks, one rank per line; group 250's rank 123 is a
  // copy of group 7's rank 200.
  std::string rg = BigTopology(300, 300, true);
  const std::string was = fmt::format("\n   {},", 250 * 300 + 123);
  const std::string now = fmt::format("\n   {},", 7 * 300 + 200);
  ASSERT_NE(rg.find(was), std::string::npos);
  rg.replace(rg.find(was), was.size(), now);
  const std::string text = Def("{\"replica_groups\": " + rg + "}");
  ASSERT_TRUE(Streamed(text).streamed);
  const std::vector<Finding> fast =
      OfRule(RunNeff({Fast(text)}), "neff-duplicate-rank");
  ASSERT_EQ(fast.size(), 1u);
  EXPECT_EQ(fast[0].anchor, "CCInfo.replica_groups[0][250][123]");
  EXPECT_THAT(fast[0].message,
              ::testing::HasSubstr("rank 2300 appears in group 7 and again in "
                                   "group 250 of topology[0]"));
  const std::vector<Finding> exact =
      OfRule(RunNeff({Exact(text)}), "neff-duplicate-rank");
  EXPECT_EQ(DumpFindings(fast), DumpFindings(exact));
  EXPECT_EQ(fast[0].loc.column, 4);
  ASSERT_EQ(fast[0].notes.size(), 1u);
  EXPECT_EQ(fast[0].notes[0].loc.column, 4);
  EXPECT_LT(fast[0].notes[0].loc.line, fast[0].loc.line);
}

// The repeats of a list, by a map (the reference).
std::vector<Repeat> NaiveRepeats(const std::vector<int32_t>& ranks) {
  std::map<int32_t, int64_t> first;
  std::vector<Repeat> out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    auto [it, inserted] = first.emplace(ranks[i], static_cast<int64_t>(i));
    if (!inserted) out.push_back({static_cast<int64_t>(i), it->second});
  }
  return out;
}

std::string Str(const std::vector<Repeat>& v) {
  std::string out;
  for (const Repeat& r : v) out += fmt::format("{}<{} ", r.index, r.first);
  return out;
}

TEST(FindRepeatsTest, MatchesAMapOnDenseAndSparseRanks) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = static_cast<int>(rng() % 300);
    // Dense ranges take the bitmap; sparse ones (a few values anywhere in
    // [0, 2^31)) take the sort.
    std::vector<int32_t> pool;
    for (int i = 0; i < 12; ++i) {
      pool.push_back(static_cast<int32_t>(rng() % 2147483648u));
    }
    const uint32_t range = trial % 2 == 0 ? n + 1 : 4 * n + 1;
    std::vector<int32_t> ranks;
    for (int i = 0; i < n; ++i) {
      ranks.push_back(trial % 3 == 0 ? pool[rng() % pool.size()]
                                     : static_cast<int32_t>(rng() % range));
    }
    SCOPED_TRACE(trial);
    EXPECT_EQ(Str(FindRepeats(ranks)), Str(NaiveRepeats(ranks)));
  }
  EXPECT_TRUE(FindRepeats({}).empty());
  EXPECT_TRUE(FindRepeats({2147483647}).empty());
  EXPECT_EQ(Str(FindRepeats({2147483647, 0, 2147483647, 2147483647})),
            "2<0 3<0 ");
  EXPECT_EQ(Str(FindRepeats({3, 3, 3, 1, 3})), "1<0 2<0 4<0 ");
}

TEST(FindRepeatsTest, AllEqualMillionRanksIsLinear) {
  const std::vector<int32_t> ranks(1000000, 0);
  const std::vector<Repeat> repeats = FindRepeats(ranks);
  ASSERT_EQ(repeats.size(), 999999u);
  EXPECT_EQ(repeats.back().index, 999999);
  EXPECT_EQ(repeats.back().first, 0);
}

}  // namespace
}  // namespace topolint::neff
