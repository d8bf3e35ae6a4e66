// `topolint explain -o FILE` writes through the staged, input-checked
// writer that `check -o` uses (issue 43, section 2): never over an input
// (by device and inode, so also through a symlink), and a failed write is
// exit 2, in every format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/common/run_cli.h"
#include "tests/common/sample_inputs.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(ExplainOutputTest, OutputThatIsAnInputIsRefused) {
  TempDir dir;
  const std::string hlo = dir.Write("m.hlo", kModuleHlo);
  const std::string def = dir.Write("def.json", kGoodDef);
  fs::create_symlink("m.hlo", dir.path() + "/link.hlo");
  for (const char* format : {"text", "json", "html"}) {
    for (const std::string& out : {hlo, def, dir.path() + "/link.hlo"}) {
      CliResult r =
          RunTopolint({"explain", "--format", format, "-o", out, dir.path()});
      EXPECT_EQ(r.exit_code, 2) << format << " " << out << r.err;
      EXPECT_EQ(ReadAll(hlo), kModuleHlo) << format << " " << out;
      EXPECT_EQ(ReadAll(def), kGoodDef) << format << " " << out;
    }
    CliResult r = RunTopolint({"explain", "--format", format, "-o", hlo, hlo});
    EXPECT_THAT(r.err, HasSubstr("refusing to overwrite it")) << format;
  }
}

TEST(ExplainOutputTest, AFailedWriteIsExit2) {
  TempDir dir;
  const std::string hlo = dir.Write("m.hlo", kModuleHlo);
  for (const char* format : {"text", "json", "html"}) {
    CliResult r =
        RunTopolint({"explain", "--format", format, "-o", "/dev/full", hlo});
    EXPECT_EQ(r.exit_code, 2) << format << r.err;
    EXPECT_THAT(r.err, HasSubstr("No space left on device")) << format;
  }
}

// /dev/stdout is the process's standard output: a closed one is a failed
// write (exit 2), a file behind it is written, not replaced.
TEST(ExplainOutputTest, StandardOutputByNameIsItsDescriptor) {
  TempDir dir;
  const std::string hlo = dir.Write("m.hlo", kModuleHlo);
  const std::string cd = "cd " + ShellQuote(dir.path()) + " && ";
  const std::string run =
      ShellQuote(TOPOLINT_BINARY) + " explain -o /dev/stdout m.hlo";
  EXPECT_EQ(WEXITSTATUS(std::system((cd + run + " >&- 2>err.txt").c_str())), 2);
  EXPECT_THAT(ReadAll(dir.path() + "/err.txt"),
              HasSubstr("/dev/stdout: write failed: Bad file descriptor"));
  EXPECT_EQ(WEXITSTATUS(std::system(
                (cd + "(echo first; " + run + ") >out.txt").c_str())),
            0);
  const std::string out = ReadAll(dir.path() + "/out.txt");
  EXPECT_EQ(out.rfind("first\n", 0), 0u) << out;
  EXPECT_GT(out.size(), 6u);
}

TEST(ExplainOutputTest, OutputFileIsReplacedWhole) {
  TempDir dir;
  const std::string hlo = dir.Write("m.hlo", kModuleHlo);
  const std::string out = dir.Write("out.txt", std::string(200000, 'x'));
  CliResult r = RunTopolint({"explain", "-o", out, hlo});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string text = ReadAll(out);
  EXPECT_NE(text, "");
  EXPECT_EQ(text.find("xxxx"), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename().string().find(".topolint-"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace topolint::testing
