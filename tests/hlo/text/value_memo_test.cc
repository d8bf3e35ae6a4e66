// ValueMemo (explicit replica groups and source_target_pairs recalled when
// the same plain value comes again) and TryParsePlainGroups (the whole
// explicit value from the window): a recalled or fast-read value must be
// exactly what the exact parser gives at that place, positions included,
// however values repeat, move, change or outnumber the memo's entries.
#include "checker/hlo/text/value_memo.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/input_window.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/group_list_parser.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/hlo_parser.h"
#include "fmt/format.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

std::string Dump(const std::string& text, size_t window) {
  return testing::DumpWithWindow(text, window);
}

// The same dump, with the collectives handed to a sink (as the runner
// parses) and copied there: the parser's reused storage must not show.
std::string DumpThroughSink(const std::string& text, size_t window) {
  ParseOptions options;
  options.window_bytes = window;
  std::vector<Collective> seen;
  options.on_collective = [&seen](const Module&, Collective& op) {
    seen.push_back(op);
  };
  Module module = ParseHloText(text, "test.hlo", options);
  module.collectives = std::move(seen);
  return ModuleDebugString(module);
}

std::string PosStr(TextPos p) { return fmt::format("{}:{}", p.line, p.column); }

// Everything a ReplicaGroups holds, positions of every id included.
std::string Describe(const ReplicaGroups& g) {
  std::string s = fmt::format(
      "form={} pos={} text='{}' count={} groups=", static_cast<int>(g.form),
      PosStr(g.pos), g.text, g.explicit_id_count);
  for (int64_t i = 0; i < g.num_groups(); ++i) {
    s += fmt::format("[@{}", PosStr(g.group_pos[static_cast<size_t>(i)]));
    for (size_t k = 0; k < g.group(i).size(); ++k) {
      s += fmt::format(" {}@{}", g.group(i)[k],
                       PosStr(g.IdPos(i, static_cast<int64_t>(k))));
    }
    s += "]";
  }
  return s;
}

std::string Describe(const SourceTargetPairs& p) {
  std::string s =
      fmt::format("present={} pos={} pairs=", p.present, PosStr(p.pos));
  for (size_t i = 0; i < p.pairs.size(); ++i) {
    s += fmt::format("{{{},{}}}@{} ", p.pairs[i].first, p.pairs[i].second,
                     PosStr(p.pair_pos[i]));
  }
  return s;
}

// Reads every value of `text` (values separated by blanks, commas and line
// breaks) with `read(lexer, memo)`, which describes one.
template <typename Read>
std::vector<std::string> ReadAll(const std::string& text, ValueMemo* memo,
                                 Read read) {
  InputWindow window(text, size_t{1} << 20);
  Module module;
  HloLexer lx(&window, &module, ParseOptions{});
  std::vector<std::string> out;
  while (lx.SkipTrivia() && lx.Peek() != kEof) {
    if (lx.Peek() == ',') {
      lx.Bump();
      continue;
    }
    out.push_back(read(lx, memo));
  }
  EXPECT_TRUE(module.syntax_errors.empty());
  return out;
}

std::vector<std::string> ReadGroups(const std::string& text, ValueMemo* memo) {
  return ReadAll(text, memo, [&](HloLexer& lx, ValueMemo* m) {
    ReplicaGroups g;
    EXPECT_TRUE(ParseReplicaGroups(lx, &g, m)) << text;
    return Describe(g);
  });
}

std::vector<std::string> ReadPairs(const std::string& text, ValueMemo* memo) {
  return ReadAll(text, memo, [&](HloLexer& lx, ValueMemo* m) {
    SourceTargetPairs p;
    EXPECT_TRUE(ParseSourceTargetPairs(lx, "source_target_pairs", &p, m))
        << text;
    return Describe(p);
  });
}

TEST(ValueMemoTest, RecallsARepeatedGroupListWithItsPositionsMoved) {
  const std::string text =
      "{{0,1},{2,3}}\n"
      "   {{0,1},{2,3}}, {{0,1},{2,3,4}} {{0,1},{2,3}}\n"
      "{{0, 1},{2,3}} {{}} {{}} {} {}\n";
  ValueMemo memo;
  const std::vector<std::string> recalled = ReadGroups(text, &memo);
  // The second and fourth {{0,1},{2,3}}, the second {{}} and {}.
  EXPECT_EQ(memo.recalled(), 4);
  EXPECT_EQ(recalled, ReadGroups(text, nullptr));
  EXPECT_NE(recalled[1].find("[@2:5 0@2:6 1@2:8]"), std::string::npos)
      << recalled[1];
}

TEST(ValueMemoTest, RecallsRepeatedPairsWithTheirPositionsMoved) {
  const std::string text =
      "{{0,1},{1,0}} {{0,1},{1,0}}\n"
      "      {{0,1},{1,0}} {{0,1},{1,0},{2,3}} {{0,1}, {1,0}} {} {}\n";
  ValueMemo memo;
  const std::vector<std::string> recalled = ReadPairs(text, &memo);
  EXPECT_EQ(memo.recalled(), 3);
  EXPECT_EQ(recalled, ReadPairs(text, nullptr));
  EXPECT_NE(recalled[2].find("{0,1}@2:8 {1,0}@2:14"), std::string::npos)
      << recalled[2];
}

TEST(ValueMemoTest, TakesOnlyPlainValues) {
  EXPECT_TRUE(ValueMemo::IsPlainValue("{{0,1},{2,3}}"));
  EXPECT_TRUE(ValueMemo::IsPlainValue("{}"));
  EXPECT_FALSE(ValueMemo::IsPlainValue("{{0, 1}}"));
  EXPECT_FALSE(ValueMemo::IsPlainValue("{{0,-1}}"));
  EXPECT_FALSE(ValueMemo::IsPlainValue("{{0,/*x*/1}}"));
  EXPECT_FALSE(ValueMemo::IsPlainValue("{{0,\n1}}"));
  EXPECT_FALSE(ValueMemo::IsPlainValue("{"));
  EXPECT_FALSE(ValueMemo::IsPlainValue(
      "{{" + std::string(ValueMemo::kMaxTextBytes, '1') + "}}"));
}

TEST(ValueMemoTest, PlainGroupsDeclineWhatTheExactParserMustDecide) {
  for (const std::string value :
       {"{{0,1},{2,3}", "{{0,1},{2,}}", "{{0,1}{2,3}}", "{{0,1},2}", "{{{0}}}",
        "{{0,1},{2,3}},", "{{0,1},}", "{,}", "{{0,1}, {2}}",
        "{{99999999999999999999}}", "{{1}}"}) {
    const std::string text = value + std::string(InputWindow::kSlackBytes, ' ');
    InputWindow window(text, size_t{1} << 20);
    Module module;
    HloLexer lx(&window, &module, ParseOptions{});
    ASSERT_TRUE(lx.SkipTrivia());
    ReplicaGroups g;
    const bool fast = TryParsePlainGroups(lx, &g);
    if (value == "{{0,1},{2,3}}," || value == "{{1}}") {
      // (The value ends at its closing brace: what follows is not its.)
      EXPECT_TRUE(fast) << value;
      continue;
    }
    EXPECT_FALSE(fast) << value;
    EXPECT_EQ(lx.Offset(), 0) << value;
    EXPECT_TRUE(g.ids().empty() && g.group_ends.empty() &&
                g.group_pos.empty() && g.id_layout.empty())
        << value;
  }
}

TEST(ValueMemoTest, RecallsShapesReadFromTheWindow) {
  const std::string text =
      "(f32[], f32[4096]{0}) %a, (f32[], f32[4096]{0}) %b, bf16[4,64]{1,0} %c, "
      "bf16[4,64]{1,0} %d, f32[8] %e, f32[8] %f, (f32[], f32[4096]{0})x";
  InputWindow window(text, size_t{1} << 20);
  Module module;
  HloLexer lx(&window, &module, ParseOptions{});
  ASSERT_TRUE(lx.SkipTrivia());
  ValueMemo memo;
  std::vector<std::string> with_memo;
  for (int i = 0; i < 6; ++i) {
    Shape shape;
    ASSERT_TRUE(TryReadShape(lx, &memo, &shape)) << i;
    with_memo.push_back(ShapeToString(shape));
    lx.AdvanceTo(lx.cursor() + 4);  // ` %a,`
    ASSERT_TRUE(lx.SkipTrivia());
  }
  // The second tuple and the second bf16 (f32[8] ends in ']': never kept).
  EXPECT_EQ(memo.recalled(), 2);
  EXPECT_EQ(with_memo[1], "(f32[], f32[4096])");
  EXPECT_EQ(with_memo[3], "bf16[4,64]");
  EXPECT_EQ(with_memo[5], "f32[8]");
  // A result shape by its whole text.
  const size_t entry = memo.TryFindShape("(f32[], f32[4096]{0})");
  ASSERT_NE(entry, ValueMemo::kNoEntry);
  Shape result;
  memo.RecallShapeInto(entry, &result);
  EXPECT_EQ(memo.recalled(), 3);
  EXPECT_EQ(ShapeToString(result), "(f32[], f32[4096])");
  // A text that merely starts like a remembered shape is none.
  EXPECT_EQ(memo.TryFindShape("(f32[], f32[4096]{0}"), ValueMemo::kNoEntry);
  EXPECT_EQ(memo.TryFindShape("f32[8]"), ValueMemo::kNoEntry);
}

// Collectives whose values repeat at other columns and lines, change, and
// outnumber the memo's entries; some values are not plain, some are cut by
// small windows. Parsed through a 1-byte window (where neither the memo nor
// any fast path can engage), a 7-byte one and a large one: the same dump.
TEST(ValueMemoTest, RandomRepeatsParseAsTheExactParserReadsThem) {
  const std::vector<std::string> groups = {"{{0,1},{2,3}}",
                                           "{{0,2},{1,3}}",
                                           "{{0,1,2,3}}",
                                           "{{0},{1},{2},{3}}",
                                           "{{3,2},{1,0}}",
                                           "{{1,0},{3,2}}",
                                           "{{0,3},{1,2}}",
                                           "{{2,0},{3,1}}",
                                           "{{0,1},{3,2}}",
                                           "{{1,2},{3,0}}",
                                           "{}",
                                           "{{}}",
                                           "{{0, 1},{2,3}}",
                                           "{{0,1},{2,3}",
                                           "{{0,1},{2,-3}}",
                                           "{{0,1},{2,3,}}",
                                           "{{0,1},{0,1}}",
                                           "{{0,01},{2,3}}",
                                           "[2,2]<=[4]",
                                           "[1,4]<=[2,2]T(1,0)",
                                           "[2,2]<=[2,2]T(1,0)",
                                           "[2,2]<=[2, 2]T(1,0)",
                                           "[2,3]<=[4]",
                                           "[2,2]<=[4]T(0)",
                                           "[4,1]<=[4]",
                                           "[2,2]<=[4] ",
                                           "[2,2]<=[2,2] T(1,0)"};
  const std::vector<std::string> pairs = {"{{0,1},{1,2},{2,3},{3,0}}",
                                          "{{0,1},{1,0}}",
                                          "{{0,2},{2,0}}",
                                          "{{1,0},{0,1}}",
                                          "{{3,0}}",
                                          "{{0,1}}",
                                          "{{1,2}}",
                                          "{{2,3}}",
                                          "{{0,3}}",
                                          "{}",
                                          "{{0,1}, {1,0}}",
                                          "{{0,1},{1,0}",
                                          "{{0,1,2}}",
                                          "{{0,7}}",
                                          "{{0,1},{0,2}}"};
  // Result shapes of several arities, repeated and changing.
  const std::vector<std::string> results = {
      "f32[8]{0}",
      "f32[8]{0}",
      "(f32[8]{0}, f32[8]{0})",
      "(f32[], u32[])",
      "(f32[8]{0}, f32[8]{0}, u32[], u32[])",
      "f32[8]",
      "bf16[4,8]{1,0}"};
  const std::vector<std::string> indents = {"  ", "  ", " ", "    ", "\t"};
  std::mt19937 rng(20261201);
  const auto pick = [&rng](const std::vector<std::string>& v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  for (int i = 0; i < 300; ++i) {
    std::string text =
        "HloModule m, replica_count=4\n\nENTRY main {\n"
        "  %p = f32[8]{0} parameter(0)\n";
    const int lines = 4 + static_cast<int>(rng() % 12);
    for (int k = 0; k < lines; ++k) {
      const std::string name =
          "%op." + std::string(rng() % 4, 'x') + std::to_string(k);
      if (rng() % 2 == 0) {
        text += pick(indents) + name + " = " + pick(results) +
                " all-reduce(f32[8]{0} %p)" +
                ", channel_id=1, replica_groups=" + pick(groups) +
                (rng() % 3 == 0 ? "\n" : ", to_apply=%add\n");
      } else {
        text += pick(indents) + name +
                " = f32[8]{0} collective-permute(f32[8]{0} %p), "
                "channel_id=2, source_target_pairs=" +
                pick(pairs) + "\n";
      }
    }
    text += "}\n";
    const std::string exact = Dump(text, 1);
    EXPECT_EQ(Dump(text, size_t{1} << 20), exact) << text;
    EXPECT_EQ(Dump(text, 7), exact) << text;
    EXPECT_EQ(Dump(text, 64), exact) << text;
    EXPECT_EQ(DumpThroughSink(text, size_t{1} << 20), exact) << text;
    EXPECT_EQ(DumpThroughSink(text, 64), exact) << text;
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace topolint::hlo
