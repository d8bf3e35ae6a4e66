#include "checker/diag/source_cache.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/diag/temp_dir.h"

namespace topolint {
namespace {

using ::testing::Eq;
using ::testing::Optional;

// The kept text of a whole line (its first kMaxLineBytes bytes): the
// excerpt for column 0.
std::optional<std::string> Line(SourceCache& cache, const std::string& file,
                                int64_t line) {
  std::optional<LineExcerpt> ex = cache.Excerpt(file, line, 0);
  if (!ex.has_value()) return std::nullopt;
  return ex->text;
}

TEST(SourceCacheTest, ReadsLinesOfAFileOnDisk) {
  TempDir dir;
  const std::string f = dir.Write("a.hlo", "first\nsecond\n\nfourth");
  SourceCache cache;
  EXPECT_THAT(Line(cache, f, 1), Optional(Eq("first")));
  EXPECT_THAT(Line(cache, f, 2), Optional(Eq("second")));
  EXPECT_THAT(Line(cache, f, 3), Optional(Eq("")));
  EXPECT_THAT(Line(cache, f, 4), Optional(Eq("fourth")));  // no final newline
  EXPECT_EQ(Line(cache, f, 5), std::nullopt);
  EXPECT_EQ(Line(cache, f, 0), std::nullopt);
  EXPECT_EQ(Line(cache, f, -3), std::nullopt);
}

TEST(SourceCacheTest, LineAfterFinalNewlineIsEmptyAndTheNextIsUnknown) {
  TempDir dir;
  const std::string f = dir.Write("a.hlo", "only\n");
  SourceCache cache;
  // A parser reporting "unexpected end of input" points just past the end.
  EXPECT_THAT(Line(cache, f, 2), Optional(Eq("")));
  EXPECT_EQ(Line(cache, f, 3), std::nullopt);
}

TEST(SourceCacheTest, StripsCarriageReturnsOfCrlfFiles) {
  TempDir dir;
  const std::string f = dir.Write("a.json", "{\r\n  \"x\": 1\r\n}\r\n");
  SourceCache cache;
  cache.Prefetch({{f, 1, 1}, {f, 2, 3}, {f, 3, 1}});
  EXPECT_THAT(Line(cache, f, 1), Optional(Eq("{")));
  EXPECT_THAT(Line(cache, f, 2), Optional(Eq("  \"x\": 1")));
  EXPECT_THAT(Line(cache, f, 3), Optional(Eq("}")));
  auto ex = cache.Excerpt(f, 2, 3);
  ASSERT_TRUE(ex.has_value());
  EXPECT_EQ(ex->line_length, 8);
  EXPECT_EQ(ex->text, "  \"x\": 1");
}

TEST(SourceCacheTest, HloLinesEndAtCrCrlfAndLfAsInAnEditor) {
  SourceCache cache;
  // HLO text counts lines as the parser does (checker/hlo/input_window.h):
  // a lone '\r' ends a line, "\r\n" is one line end, a leading BOM is no
  // part of line 1.
  cache.AddInMemory("m",
                    "\xEF\xBB\xBF"
                    "a\rb\r\nc\n\rd\r");
  EXPECT_THAT(Line(cache, "m", 1), Optional(Eq("a")));
  EXPECT_THAT(Line(cache, "m", 2), Optional(Eq("b")));
  EXPECT_THAT(Line(cache, "m", 3), Optional(Eq("c")));
  EXPECT_THAT(Line(cache, "m", 4), Optional(Eq("")));
  EXPECT_THAT(Line(cache, "m", 5), Optional(Eq("d")));
}

TEST(SourceCacheTest, InJsonOnlyALineEndingCarriageReturnIsDropped) {
  SourceCache cache;
  // JSON lines end at '\n' (as the JSON loader counts them): a '\r' inside
  // a line is content (the renderer escapes it); one at the end of the
  // last line, even without '\n', is a line terminator.
  cache.AddInMemory("m.json", "a\rb\r\nc\rd\r");
  EXPECT_THAT(Line(cache, "m.json", 1), Optional(Eq("a\rb")));
  EXPECT_THAT(Line(cache, "m.json", 2), Optional(Eq("c\rd")));
}

TEST(SourceCacheTest, MissingFilesAndDirectoriesAreSkipped) {
  TempDir dir;
  SourceCache cache;
  cache.Prefetch({{dir.Path("nope.hlo"), 1, 1}, {dir.Path(""), 1, 1}});
  EXPECT_EQ(Line(cache, dir.Path("nope.hlo"), 1), std::nullopt);
  EXPECT_EQ(cache.Excerpt(dir.Path("nope.hlo"), 1, 1), std::nullopt);
  EXPECT_EQ(Line(cache, dir.Path(""), 1), std::nullopt);
}

TEST(SourceCacheTest, PrefetchedLinesSurviveTheFileBeingDeleted) {
  TempDir dir;
  const std::string f = dir.Write("a.hlo", "one\ntwo\nthree\nfour\n");
  SourceCache cache;
  cache.Prefetch({{f, 2, 1}, {f, 4, 2}});
  std::filesystem::remove(f);
  // Served from the cache: the file was read once, by Prefetch.
  EXPECT_THAT(Line(cache, f, 2), Optional(Eq("two")));
  EXPECT_THAT(Line(cache, f, 4), Optional(Eq("four")));
  // Never requested, and the file is gone now.
  EXPECT_EQ(Line(cache, f, 3), std::nullopt);
}

TEST(SourceCacheTest, InMemoryTextsNeedNoFile) {
  SourceCache cache;
  cache.AddInMemory("archive.neff:sg00/def.json", "{\n  \"CCInfo\": {}\n}");
  EXPECT_THAT(Line(cache, "archive.neff:sg00/def.json", 2),
              Optional(Eq("  \"CCInfo\": {}")));
  EXPECT_EQ(Line(cache, "archive.neff:sg00/def.json", 4), std::nullopt);
}

TEST(SourceCacheTest, InMemoryTextReplacesWhatWasReadFromDisk) {
  TempDir dir;
  const std::string f = dir.Write("a.hlo", "disk\n");
  SourceCache cache;
  EXPECT_THAT(Line(cache, f, 1), Optional(Eq("disk")));
  cache.AddInMemory(f, "memory\n");
  EXPECT_THAT(Line(cache, f, 1), Optional(Eq("memory")));
}

TEST(SourceCacheTest, LinesAcrossReadChunkBoundaries) {
  // Lines of 1000 bytes: many straddle the 64 KiB read chunks.
  std::string text;
  for (int i = 0; i < 300; ++i) {
    std::string line = std::to_string(i);
    line.resize(999, static_cast<char>('a' + i % 26));
    text += line + "\n";
  }
  TempDir dir;
  const std::string f = dir.Write("big.hlo", text);
  SourceCache cache;
  std::vector<Location> locs;
  for (int i : {1, 65, 66, 131, 300}) locs.push_back({f, i, 1});
  cache.Prefetch(locs);
  for (int i : {1, 65, 66, 131, 300}) {
    auto line = Line(cache, f, i);
    ASSERT_TRUE(line.has_value()) << i;
    EXPECT_EQ(line->size(), 999u);
    EXPECT_EQ(line->substr(0, std::to_string(i - 1).size()),
              std::to_string(i - 1));
    EXPECT_EQ(line->back(), static_cast<char>('a' + (i - 1) % 26));
  }
}

TEST(SourceCacheTest, LongLinesKeepAPrefixAndAWindowAroundTheColumn) {
  // One 300 KB line (a minified def.json), then a short one.
  std::string longline;
  for (int i = 0; longline.size() < 300000; ++i) {
    longline += std::to_string(i % 10);
  }
  TempDir dir;
  const std::string f = dir.Write("def.json", longline + "\r\nshort\n");
  SourceCache cache;
  const int64_t col = 250001;
  cache.Prefetch({{f, 1, col}, {f, 2, 1}});

  auto line = Line(cache, f, 1);
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(static_cast<int64_t>(line->size()), SourceCache::kMaxLineBytes);
  EXPECT_EQ(*line, longline.substr(0, SourceCache::kMaxLineBytes));

  auto ex = cache.Excerpt(f, 1, col);
  ASSERT_TRUE(ex.has_value());
  EXPECT_EQ(ex->line_length, 300000);
  EXPECT_EQ(ex->first_column, col - SourceCache::kExcerptRadius);
  EXPECT_EQ(ex->text, longline.substr(col - 1 - SourceCache::kExcerptRadius,
                                      2 * SourceCache::kExcerptRadius + 1));
  EXPECT_TRUE(ex->CutBefore());
  EXPECT_TRUE(ex->CutAfter());
  EXPECT_THAT(Line(cache, f, 2), Optional(Eq("short")));
}

TEST(SourceCacheTest, WindowAtTheEndOfALongCrlfLineDropsTheCarriageReturn) {
  const std::string longline(10000, 'x');
  TempDir dir;
  const std::string f = dir.Write("a.hlo", longline + "Z\r\n");
  SourceCache cache;
  auto ex = cache.Excerpt(f, 1, 10001);  // the 'Z'
  ASSERT_TRUE(ex.has_value());
  EXPECT_EQ(ex->line_length, 10001);
  EXPECT_EQ(ex->text.back(), 'Z');
  EXPECT_FALSE(ex->CutAfter());
  // The column just past the end is still in the excerpt's reach.
  auto end = cache.Excerpt(f, 1, 10002);
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->first_column - 1 + static_cast<int64_t>(end->text.size()),
            10001);
}

TEST(SourceCacheTest, ExcerptOfAShortLineIsTheWholeLineAroundTheColumn) {
  SourceCache cache;
  cache.AddInMemory("m", "abcdef\n");
  auto ex = cache.Excerpt("m", 1, 3);
  ASSERT_TRUE(ex.has_value());
  EXPECT_EQ(ex->text, "abcdef");
  EXPECT_EQ(ex->first_column, 1);
  EXPECT_FALSE(ex->CutBefore());
  EXPECT_FALSE(ex->CutAfter());
  // A column far past the end falls back to the line itself.
  auto far = cache.Excerpt("m", 1, int64_t{1} << 50);
  ASSERT_TRUE(far.has_value());
  EXPECT_EQ(far->text, "abcdef");
}

TEST(SourceCacheTest, ExcerptInTheMiddleOfALongInMemoryLine) {
  std::string text(5000, '.');
  text[4500] = '^';
  SourceCache cache;
  cache.AddInMemory("m", text);
  auto ex = cache.Excerpt("m", 1, 4501);
  ASSERT_TRUE(ex.has_value());
  ASSERT_GE(4500, ex->first_column - 1);
  EXPECT_EQ(ex->text[4500 - (ex->first_column - 1)], '^');
  EXPECT_EQ(ex->line_length, 5000);
}

// The excerpt the cache must give for `column` of `line`: the bytes within
// kExcerptRadius of the column, clipped to the line.
LineExcerpt ExpectedExcerpt(const std::string& line, int64_t column) {
  const int64_t length = static_cast<int64_t>(line.size());
  const int64_t begin =
      std::max<int64_t>(0, column - 1 - SourceCache::kExcerptRadius);
  const int64_t end =
      std::min<int64_t>(length, column + SourceCache::kExcerptRadius);
  LineExcerpt ex;
  ex.first_column = begin + 1;
  ex.line_length = length;
  ex.text =
      line.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
  return ex;
}

// A long line with distinct bytes everywhere, so a window shifted by one
// byte would not compare equal.
std::string DistinctLine(size_t n) {
  std::string s(n, ' ');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('!' + (i * 7) % 90);
  return s;
}

TEST(SourceCacheTest, ManyColumnsOfOneLongLineEachGetTheirOwnWindow) {
  TempDir dir;
  const std::string line = DistinctLine(60000);
  const std::string f = dir.Write("def.json", "{\n" + line + "\n}\n");
  // Overlapping windows (every 3 bytes), repeated columns, windows touching
  // the prefix, isolated ones, the last byte and one past it.
  std::vector<int64_t> columns;
  for (int64_t c = 3900; c < 9000; c += 3) columns.push_back(c);
  for (int64_t c : {20000, 20000, 20513, 30000, 59990, 60000, 60001}) {
    columns.push_back(c);
  }
  std::vector<Location> locs;
  for (int64_t c : columns) locs.push_back({f, 2, c});
  SourceCache cache;
  cache.Prefetch(locs);
  std::filesystem::remove(f);  // everything is served from the cache now
  for (int64_t c : columns) {
    SCOPED_TRACE(c);
    auto ex = cache.Excerpt(f, 2, c);
    ASSERT_TRUE(ex.has_value());
    const LineExcerpt want = ExpectedExcerpt(line, c);
    EXPECT_EQ(ex->first_column, want.first_column);
    EXPECT_EQ(ex->line_length, want.line_length);
    EXPECT_EQ(ex->text, want.text);
  }
  EXPECT_THAT(Line(cache, f, 2),
              Optional(Eq(line.substr(0, SourceCache::kMaxLineBytes))));
}

TEST(SourceCacheTest, SecondPrefetchOfTheSameLineAddsWindows) {
  const std::string line = DistinctLine(30000);
  SourceCache cache;
  cache.AddInMemory("m", line + "\r\n" + line);
  cache.Prefetch({{"m", 1, 10000}, {"m", 1, 29999}});
  // Overlapping and adjacent to the first window, then one far away, then
  // one bridging two windows: each read again and merged.
  cache.Prefetch({{"m", 1, 10300}});
  cache.Prefetch({{"m", 1, 9487}, {"m", 1, 25000}});
  cache.Prefetch({{"m", 1, 17500}});
  for (int64_t c : {10000, 10300, 9487, 25000, 17500, 9600, 25256}) {
    SCOPED_TRACE(c);
    auto ex = cache.Excerpt("m", 1, c);
    ASSERT_TRUE(ex.has_value());
    const LineExcerpt want = ExpectedExcerpt(line, c);
    EXPECT_EQ(ex->first_column, want.first_column);
    EXPECT_EQ(ex->text, want.text);
  }
  // The window at the end of the CRLF line drops the carriage return.
  auto end = cache.Excerpt("m", 1, 29999);
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->text, ExpectedExcerpt(line, 29999).text);
  EXPECT_EQ(end->line_length, 30000);
}

}  // namespace
}  // namespace topolint
