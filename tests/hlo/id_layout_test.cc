// IdLayout (where each id of an explicit list was written, kept as runs) and
// the explicit-group parsers that fill it: every id's position, recomputed
// from the layout, must be the one a plain scan of the text finds, through
// any window size and however the list is spaced, broken or commented.
#include "checker/hlo/id_layout.h"

#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

TextPos At(int64_t line, int64_t column) {
  TextPos p;
  p.line = line;
  p.column = column;
  return p;
}

bool Same(TextPos a, TextPos b) {
  return a.line == b.line && a.column == b.column;
}

TEST(IdLayoutTest, WrittenLength) {
  EXPECT_EQ(IdLayout::WrittenLength(0, false), 1);
  EXPECT_EQ(IdLayout::WrittenLength(9, false), 1);
  EXPECT_EQ(IdLayout::WrittenLength(10, false), 2);
  EXPECT_EQ(IdLayout::WrittenLength(1048575, false), 7);
  EXPECT_EQ(IdLayout::WrittenLength(-1, false), 2);
  EXPECT_EQ(IdLayout::WrittenLength(INT64_MAX, false), 19);
  EXPECT_EQ(IdLayout::WrittenLength(INT64_MIN, false), 20);
  EXPECT_EQ(IdLayout::WrittenLength(0, true), 1);
  EXPECT_EQ(IdLayout::WrittenLength(127, true), 1);
  EXPECT_EQ(IdLayout::WrittenLength(128, true), 2);
  EXPECT_EQ(IdLayout::WrittenLength(-1, true), 10);
}

TEST(IdLayoutTest, OneRunPerSteadyStretch) {
  // `{7,8,9,10, 11}` from column 1 on line 2, then `{12}` on line 3.
  const std::vector<int64_t> ids = {7, 8, 9, 10, 11, 12};
  const std::vector<TextPos> pos = {At(2, 2), At(2, 4),  At(2, 6),
                                    At(2, 8), At(2, 12), At(3, 5)};
  IdLayout layout;
  for (size_t i = 0; i < ids.size(); ++i) {
    layout.Add(static_cast<int64_t>(i), ids[i], pos[i]);
  }
  // 7..10 step by one comma; 11 follows a blank; 12 is on another line.
  EXPECT_EQ(layout.num_runs(), 3u);
  IdLayout::Cursor cursor(layout, ids);
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_TRUE(Same(layout.Locate(ids, static_cast<int64_t>(i)), pos[i])) << i;
    EXPECT_TRUE(Same(cursor.At(static_cast<int64_t>(i)), pos[i])) << i;
  }
  // Unrecorded ids are unknown.
  EXPECT_FALSE(layout.Locate(ids, 6).known());
  EXPECT_FALSE(layout.Locate(ids, -1).known());
  EXPECT_FALSE(IdLayout().Locate(ids, 0).known());
  // A cursor may skip ahead, and start over when asked for an earlier id.
  IdLayout::Cursor jumpy(layout, ids);
  EXPECT_TRUE(Same(jumpy.At(3), pos[3]));
  EXPECT_TRUE(Same(jumpy.At(1), pos[1]));
  EXPECT_TRUE(Same(jumpy.At(5), pos[5]));
  layout.Clear();
  EXPECT_TRUE(layout.empty());
  EXPECT_FALSE(layout.Locate(ids, 0).known());
}

TEST(IdLayoutTest, LeadingZerosAndBinaryVarints) {
  // `{007,1,2}`: the written length of 7 is not its decimal length; the
  // run's gap absorbs the difference, the next id starts a run of its own.
  const std::vector<int64_t> ids = {7, 1, 2};
  IdLayout text;
  text.Add(0, 7, At(1, 2));
  text.Add(1, 1, At(1, 6));
  text.Add(2, 2, At(1, 8));
  EXPECT_TRUE(Same(text.Locate(ids, 1), At(1, 6)));
  EXPECT_TRUE(Same(text.Locate(ids, 2), At(1, 8)));
  // Packed varints: 300 takes two bytes.
  const std::vector<int64_t> bin_ids = {300, 1, -1, 5};
  IdLayout bin;
  int64_t offset = 40;
  for (size_t i = 0; i < bin_ids.size(); ++i) {
    bin.Add(static_cast<int64_t>(i), bin_ids[i], TextPos::AtByte(offset));
    offset += IdLayout::WrittenLength(bin_ids[i], true);
  }
  EXPECT_EQ(bin.num_runs(), 1u);
  EXPECT_EQ(bin.Locate(bin_ids, 3).byte_offset(), 40 + 2 + 1 + 10);
}

TEST(IdLayoutTest, PackedRunsAreWhatAddingEachIdGives) {
  // Packed fields of a binary group, one after another: the second one's
  // ids continue the index but start after a tag and a length (a new run),
  // and one field is a single id. AddPacked must leave the layout, and
  // every id's place, as Add() of each id at its byte does.
  const std::vector<std::vector<int64_t>> fields = {
      {300, 1, -1, 5, 6, 7, 8, 127, 128},
      {9},
      {10, 11},
      {12, 13, 14, 15},
      {},
      {16, 17, 18}};
  // (`bounded`: AddPacked told where the varints begin as well.)
  IdLayout each;
  IdLayout packed;
  IdLayout bounded;
  std::vector<int64_t> all;
  int64_t offset = 100;
  for (const std::vector<int64_t>& f : fields) {
    offset += 2;  // the field's tag and length
    const int64_t begin = offset;
    const int64_t first = static_cast<int64_t>(all.size());
    for (int64_t v : f) {
      each.Add(static_cast<int64_t>(all.size()), v, TextPos::AtByte(offset));
      all.push_back(v);
      offset += IdLayout::WrittenLength(v, true);
    }
    packed.AddPacked(first, f, offset);  // the field's end
    bounded.AddPacked(first, f, begin, offset);
  }
  EXPECT_TRUE(packed == each);
  EXPECT_TRUE(bounded == each);
  EXPECT_EQ(packed.num_runs(), each.num_runs());
  EXPECT_EQ(bounded.num_runs(), each.num_runs());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(packed.Locate(all, static_cast<int64_t>(i)).byte_offset(),
              each.Locate(all, static_cast<int64_t>(i)).byte_offset())
        << "id " << i;
    EXPECT_EQ(bounded.Locate(all, static_cast<int64_t>(i)).byte_offset(),
              each.Locate(all, static_cast<int64_t>(i)).byte_offset())
        << "id " << i;
  }
}

// Where a plain reading of `text` finds each integer of the replica_groups
// value: line and column of each, skipping comments.
std::vector<TextPos> ScanIdPositions(std::string_view text) {
  std::vector<TextPos> out;
  size_t i = text.find("replica_groups=");
  int64_t line = 1;
  size_t line_start = 0;
  for (size_t j = 0; j < i; ++j) {
    if (text[j] == '\n') {
      ++line;
      line_start = j + 1;
    }
  }
  i += std::string_view("replica_groups=").size();
  int depth = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
    } else if (text.substr(i, 2) == "/*") {
      const size_t end = text.find("*/", i + 2) + 2;
      for (; i < end; ++i) {
        if (text[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
      }
    } else if (c == '{') {
      ++depth;
      ++i;
    } else if (c == '}') {
      ++i;
      if (--depth == 0) break;
    } else if ((c >= '0' && c <= '9') || c == '-') {
      out.push_back(At(line, static_cast<int64_t>(i - line_start) + 1));
      ++i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::string ModuleWith(const std::string& value) {
  return "HloModule m, replica_count=64\n\nENTRY main {\n"
         "  %p = f32[8]{0} parameter(0)\n"
         "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups=" +
         value + ", to_apply=%add\n}\n";
}

TEST(IdLayoutTest, EveryIdWhereTheTextHasItThroughAnyWindow) {
  const std::vector<std::string> values = {
      "{{0,1,2,3},{4,5,6,7}}",
      "{{0, 1, 2, 3}, {4,5, 6,7}}",
      "{{ 0 ,1 ,  2},{},{3}}",
      "{{007,10,0100,2}}",
      "{{-1,2,-30,40}}",
      "{{0,1,\n  2,3},\n {4,\n5}}",
      "{{0,/* one */1,2 /* two\n */,3}}",
      "{{0,1} /* between */, {2,3}}",
      "{{10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30}}",
      "{{0\t,\t1}}",
  };
  for (const std::string& value : values) {
    const std::string text = ModuleWith(value);
    const std::vector<TextPos> want = ScanIdPositions(text);
    for (size_t window : {size_t{1}, size_t{2}, size_t{3}, size_t{7},
                          size_t{64}, size_t{1} << 20}) {
      ParseOptions options;
      options.window_bytes = window;
      const Module m = ParseHloText(text, "t.hlo", options);
      ASSERT_TRUE(m.syntax_errors.empty())
          << value << ": " << m.syntax_errors[0].message;
      ASSERT_EQ(m.collectives.size(), 1u);
      const ReplicaGroups& rg = m.collectives[0].replica_groups;
      ASSERT_EQ(rg.ids().size(), want.size()) << value;
      size_t i = 0;
      for (int64_t g = 0; g < rg.num_groups(); ++g) {
        for (size_t k = 0; k < rg.group(g).size(); ++k, ++i) {
          const TextPos got = rg.IdPos(g, static_cast<int64_t>(k));
          EXPECT_TRUE(Same(got, want[i]))
              << value << " window " << window << " id " << i << ": "
              << got.line << ":" << got.column << " vs " << want[i].line << ":"
              << want[i].column;
        }
      }
    }
  }
}

TEST(IdLayoutTest, APlainListIsOneRunWhateverItsSize) {
  std::string value = "{{0";
  for (int i = 1; i < 5000; ++i) value += "," + std::to_string(i);
  value += "},{5000,5001}}";
  for (size_t window : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
    ParseOptions options;
    options.window_bytes = window;
    const Module m = ParseHloText(ModuleWith(value), "t.hlo", options);
    ASSERT_EQ(m.collectives.size(), 1u);
    const ReplicaGroups& rg = m.collectives[0].replica_groups;
    // One run per group: the second starts after `},{`.
    EXPECT_EQ(rg.id_layout.num_runs(), 2u) << window;
    EXPECT_EQ(
        rg.IdPos(0, 4999).column,
        rg.IdPos(0, 0).column + static_cast<int64_t>(value.find("4999")) - 2);
  }
}

}  // namespace
}  // namespace topolint::hlo
