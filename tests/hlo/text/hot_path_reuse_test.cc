// The helpers behind the parser's hot paths agree with their plain
// definitions: the 16-byte identifier scan with the byte class, a shape read
// into a reused Shape with a fresh read, the inline opcode filter with the
// opcode table, the inline copies of the shape table with the text given,
// and a collective's result shape read in the window with the one read
// from its captured text.
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/input_window.h"
#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/collective_parser.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/shape_parser.h"
#include "checker/hlo/text/shape_table.h"
#include "checker/hlo/text/small_copy.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo {
namespace {

// `text`, its NUL and the slack a window keeps after its bytes.
std::string Padded(const std::string& text) {
  return text + std::string(InputWindow::kSlackBytes + 1, '\0');
}

TEST(HotPathReuseTest, SkipIdentBytesStopsWhereTheByteClassSaysSo) {
  // Every byte value after runs of every length up to 40 (crossing the
  // 16-byte blocks), and a run that reaches the NUL.
  for (int stop = 0; stop < 256; ++stop) {
    for (size_t len = 0; len <= 40; ++len) {
      std::string text(len, 'a');
      for (size_t i = 0; i < len; ++i) text[i] = "aZ9_.-"[i % 6];
      text += static_cast<char>(stop);
      text += "xyz";
      const std::string buf = Padded(text);
      const char* expected = buf.data();
      while (IsIdentChar(*expected)) ++expected;
      ASSERT_EQ(SkipIdentBytes(buf.data()), expected)
          << "stop byte " << stop << ", run of " << len;
    }
  }
}

std::string Describe(const Shape& s) {
  return std::string(s.known ? "known " : "unknown ") + ShapeToString(s);
}

TEST(HotPathReuseTest, AShapeReadIntoAReusedShapeIsTheFreshOne) {
  const std::vector<std::string> shapes = {
      "f32[8]{0}",
      "(bf16[4,64,4096]{2,1,0}, bf16[4,2048,4096]{2,1,0})",
      "(f32[], f32[4096]{0})",
      "(bf16[4]{0}, bf16[4]{0}, u32[], u32[])",
      "((s32[], pred[7]), f32[1,2,3,4,5,6,7,8,9])",
      "()",
      "pred[]",
      "(f32[8]{0}, (s32[], (u8[2], u8[3,3])))",
      "token[]",
      "s64[1,1]{1,0}",
  };
  std::mt19937 rng(20261201);
  Shape reused;
  for (int i = 0; i < 400; ++i) {
    const std::string& text = shapes[std::uniform_int_distribution<size_t>(
        0, shapes.size() - 1)(rng)];
    const char* end = text.data() + text.size();
    Shape fresh;
    ASSERT_EQ(ReadSimpleShape(text.data(), end, true, &fresh), end) << text;
    ASSERT_EQ(ReadSimpleShape(text.data(), end, true, &reused), end) << text;
    ASSERT_EQ(Describe(reused), Describe(fresh)) << text;
    ASSERT_EQ(reused.is_tuple, fresh.is_tuple) << text;
    ASSERT_EQ(reused.tuple.size(), fresh.tuple.size()) << text;
    // Read through a window (the text ends in its NUL: no bounds checks).
    const std::string window = Padded(text + " add(");
    Shape in_window;
    ASSERT_EQ(ReadSimpleShape(window.data(), window.data() + window.size(),
                              false, &in_window),
              window.data() + text.size())
        << text;
    ASSERT_EQ(Describe(in_window), Describe(fresh)) << text;
  }
}

TEST(HotPathReuseTest, ResultShapeInTheWindowOrFromItsCapturedText) {
  for (const std::string text :
       {"(f32[], f32[4096]{0})", "bf16[4,64]{1,0}", "f32[8]", "token[]"}) {
    const std::string window = Padded(text + " all-reduce(");
    Shape from_captured;
    ASSERT_TRUE(ParseShapeText(text, &from_captured)) << text;
    Shape shape;
    ASSERT_TRUE(ParseResultShape(std::string_view(window.data(), text.size()),
                                 window.data() + window.size(), text, nullptr,
                                 &shape))
        << text;
    EXPECT_EQ(Describe(shape), Describe(from_captured)) << text;
    // Without the window (the exact head parser read the head), the
    // captured text decides alone.
    Shape no_window;
    ASSERT_TRUE(ParseResultShape({}, nullptr, text, nullptr, &no_window))
        << text;
    EXPECT_EQ(Describe(no_window), Describe(from_captured)) << text;
  }
  // Where the bytes in the window go on past the head's shape, the fast
  // path's end differs and the captured text decides.
  const std::string window = Padded("f32[8]{0} x");
  Shape shape;
  ASSERT_TRUE(ParseResultShape(std::string_view(window.data(), 6),
                               window.data() + window.size(), "f32[8]", nullptr,
                               &shape));
  EXPECT_EQ(Describe(shape), "known f32[8]");
  // Text that is not a shape at all stays unknown.
  EXPECT_FALSE(ParseResultShape({}, nullptr, "f32[8", nullptr, &shape));
  EXPECT_FALSE(shape.known);
}

TEST(HotPathReuseTest, TheInlineOpcodeFilterPassesEveryCollective) {
  for (const char* op :
       {"all-reduce", "all-reduce-start", "all-gather", "all-gather-start",
        "all-to-all", "all-to-all-start", "reduce-scatter",
        "reduce-scatter-start", "ragged-all-to-all", "ragged-all-to-all-start",
        "collective-permute", "collective-permute-start",
        "collective-broadcast", "collective-broadcast-start", "send", "recv"}) {
    EXPECT_TRUE(MayBeCollectiveOpcode(op)) << op;
    EXPECT_TRUE(ClassifyOpcode(op).has_value()) << op;
  }
  for (const char* op :
       {"add", "copy", "fusion", "get-tuple-element", "all-reduce-done",
        "all-gather-done", "collective-permute-done", "send-done", "recv-done",
        "async-start", "all-reducex", "reduce", "",
        "all-reduce-start-with-a-very-long-suffix-beyond-32"}) {
    EXPECT_FALSE(ClassifyOpcode(op).has_value()) << op;
  }
  EXPECT_EQ(ClassifyOpcode("collective-permute-start")->kind,
            CollectiveKind::kCollectivePermute);
  EXPECT_TRUE(ClassifyOpcode("all-gather-start")->async_start);
  EXPECT_FALSE(ClassifyOpcode("all-gather")->async_start);
}

TEST(HotPathReuseTest, CopySmallCopiesExactlyTheBytesAsked) {
  std::string src(48, '\0');
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>('A' + i);
  for (size_t n = 0; n <= 40; ++n) {
    std::string dst(48, '.');
    CopySmall(&dst[4], src.data(), n);
    EXPECT_EQ(dst.substr(0, 4), "....") << n;
    EXPECT_EQ(dst.substr(4, n), src.substr(0, n)) << n;
    EXPECT_EQ(dst.substr(4 + n), std::string(44 - n, '.')) << n;
  }
}

TEST(HotPathReuseTest, TheShapeTableKeepsTextsOfEveryLength) {
  ShapeTable t(size_t{1} << 20);
  std::vector<std::string> names;
  std::vector<std::string> shapes;
  for (size_t n = 0; n <= 40; ++n) {
    std::string name = "n" + std::to_string(n) + "_";
    while (name.size() < n + 1) name += static_cast<char>('a' + name.size());
    std::string shape = "f32[";
    while (shape.size() + 1 < n) shape += static_cast<char>('0' + n % 10);
    shape += "]";
    t.BeginWithShape(name, shape);
    EXPECT_EQ(t.PendingName(), name);
    EXPECT_EQ(t.PendingShape(), shape);
    ASSERT_TRUE(t.Commit());
    names.push_back(name);
    shapes.push_back(shape);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::optional<std::string_view> found = t.Find(names[i]);
    ASSERT_TRUE(found.has_value()) << names[i];
    EXPECT_EQ(*found, shapes[i]) << names[i];
  }
}

}  // namespace
}  // namespace topolint::hlo
