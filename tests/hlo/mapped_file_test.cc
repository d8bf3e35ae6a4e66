// Mapped files (checker/hlo/mapped_file.h): a module read through a mapping
// parses exactly as one read through read() or held in memory, whatever the
// window, and a file truncated while it is mapped is reported as changed
// instead of killing the process with SIGBUS.
#include "checker/hlo/mapped_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using testing::ReadFile;
using testing::WriteTemp;

// A module of `ops` elementwise instructions with a collective every 7th
// and a syntax error every 500th, long enough for many windows.
std::string BigModule(int ops) {
  std::string text =
      "HloModule big, replica_count=1, num_partitions=8\n\n"
      "%add (x: f32[], y: f32[]) -> f32[] {\n"
      "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n";
  for (int i = 0; i < ops; ++i) {
    const std::string n = std::to_string(i);
    text += "  %a." + n + " = f32[8]{0} add(f32[8]{0} %p, f32[8]{0} %p), " +
            "metadata={op_name=\"jit(f)/add\" source_file=\"m.py\" " +
            "source_line=" + n + "}\n";
    if (i % 7 == 0) {
      text += "  %ar." + n + " = f32[8]{0} all-reduce(f32[8]{0} %a." + n +
              "), channel_id=" + std::to_string(i + 1) +
              ", replica_groups={{0,1,2,3},{4,5,6,7}}, "
              "use_global_device_ids=true, to_apply=%add\n";
    }
    if (i % 500 == 499) text += "  %bad." + n + " = f32[8]{0} add(]\n";
  }
  text += "  ROOT %r = f32[8]{0} copy(f32[8]{0} %p)\n}\n";
  return text;
}

// Parses the file at `path` through windows of `window` bytes, mapped
// (`map` and mapping enabled) or read.
absl::Status ParseFile(const std::string& path, size_t window, bool map,
                       Module* module) {
  ParseOptions options;
  options.window_bytes = window;
  options.map_min_bytes = map ? 0 : INT64_MAX;
  return ParseHloFile(path, "test.hlo", options, module);
}

TEST(MappedFileTest, MappedParseEqualsReadAndInMemoryParse) {
  EnableFileMapping();
  const std::string torture =
      ReadFile(std::string(TOPOLINT_SOURCE_DIR) +
               "/fixtures/syntax/pass-torture/model.hlo");
  ASSERT_FALSE(torture.empty());
  for (const std::string& text : {torture, BigModule(3000)}) {
    const std::string expected =
        ModuleDebugString(ParseHloText(text, "test.hlo"));
    const std::string path = WriteTemp(text);
    for (size_t window :
         {size_t{1}, size_t{7}, size_t{64}, size_t{65}, size_t{4096},
          size_t{4097}, size_t{1} << 16, kDefaultWindowBytes}) {
      for (bool map : {true, false}) {
        Module m;
        ASSERT_TRUE(ParseFile(path, window, map, &m).ok());
        EXPECT_EQ(ModuleDebugString(m), expected)
            << "window " << window << (map ? ", mapped" : ", read");
      }
    }
    std::remove(path.c_str());
  }
}

TEST(MappedFileTest, MapsOnlyWhenEnabledAndGivesPagesBack) {
  EnableFileMapping();
  ASSERT_TRUE(FileMappingEnabled());
  const std::string text = BigModule(20000);
  const std::string path = WriteTemp(text);
  const int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  {
    MappedFile f;
    ASSERT_TRUE(f.Map(fd, text.size()));
    EXPECT_FALSE(f.Map(fd, text.size()));  // one mapping per object
    EXPECT_EQ(std::string(f.data(), f.size()), text);
    f.DropBefore(text.size());  // the bytes read as the file's again
    EXPECT_EQ(std::string(f.data(), f.size()), text);
    EXPECT_FALSE(f.truncated());
  }
  MappedFile empty;
  EXPECT_FALSE(empty.Map(fd, 0));
  close(fd);
  std::remove(path.c_str());
}

// The file is cut short while the parser is inside it: the pages it lost
// read as zeros, the parse stops, and the caller hears that the file
// changed (not a SIGBUS, not a silently shorter module).
TEST(MappedFileTest, AFileTruncatedWhileMappedIsReportedNotASignal) {
  EnableFileMapping();
  const std::string text = BigModule(40000);  // ~5 MB
  ASSERT_GT(text.size(), size_t{4} << 20);
  for (off_t keep : {off_t{0}, off_t{100000}, off_t{1} << 20}) {
    const std::string path = WriteTemp(text);
    ParseOptions options;
    options.window_bytes = size_t{64} << 10;
    options.map_min_bytes = 0;
    bool cut = false;
    options.on_collective = [&](const Module&, Collective&) {
      if (!cut) {
        cut = true;
        ASSERT_EQ(truncate(path.c_str(), keep), 0);
      }
    };
    Module m;
    const absl::Status st = ParseHloFile(path, "test.hlo", options, &m);
    EXPECT_TRUE(cut);
    EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << "kept " << keep;
    EXPECT_NE(st.message().find("test.hlo: the file shrank while it was read"),
              std::string::npos)
        << st;
    std::remove(path.c_str());
  }
  // Mapping still works after a truncation was handled.
  const std::string path = WriteTemp(text);
  Module m;
  EXPECT_TRUE(ParseFile(path, size_t{64} << 10, true, &m).ok());
  EXPECT_EQ(ModuleDebugString(m),
            ModuleDebugString(ParseHloText(text, "test.hlo")));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace topolint::hlo
