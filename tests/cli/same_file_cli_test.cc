// One file, one identity (issue 43, section 8), end to end: a module
// hard-linked or symlinked under a second name in its unit is checked once
// and still compared with its def.json; a file named twice is checked once.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kMismatch = fs::path(TOPOLINT_SOURCE_DIR) /
                           "fixtures/xref-topology-mismatch/fail-group-differs";

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// d/u: model.hlo, its second name `copy.hlo` (made by `link`), def.json
// whose topology differs from the module's groups.
void WriteUnit(const TempDir& d, bool symlink) {
  const std::string model =
      d.Write("u/model.hlo", ReadAll((kMismatch / "model.hlo").string()));
  d.Write("u/def.json", ReadAll((kMismatch / "def.json").string()));
  const std::string copy = d.path() + "/u/copy.hlo";
  if (symlink) {
    fs::create_symlink("model.hlo", copy);
  } else {
    ASSERT_EQ(::link(model.c_str(), copy.c_str()), 0);
  }
}

TEST(SameFileCliTest, AHardLinkedModuleIsStillComparedWithItsDefJson) {
  for (const bool symlink : {false, true}) {
    TempDir d;
    WriteUnit(d, symlink);
    // Streamed (one directory) and planned (the directory named twice).
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"check", "u"},
          std::vector<std::string>{"check", "u", "u"}}) {
      CliResult r = RunTopolint(args, d.path());
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 1u) << r.out;
      EXPECT_THAT(r.out, Not(HasSubstr("unchecked-input")));
      EXPECT_THAT(r.err, HasSubstr("(1 unit, 2 files checked, 1 skipped)"));
      std::vector<std::string> verbose = args;
      verbose.push_back("-v");
      r = RunTopolint(verbose, d.path());
      EXPECT_THAT(r.err,
                  HasSubstr(symlink ? "copy.hlo is model.hlo (same file"
                                    : "model.hlo is copy.hlo (same file"))
          << r.err;
      EXPECT_THAT(r.err, HasSubstr("checked once"));
    }
  }
}

TEST(SameFileCliTest, AFileNamedTwiceIsCheckedOnce) {
  TempDir d;
  WriteUnit(d, /*symlink=*/false);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"check", "u/model.hlo", "./u/model.hlo"},
        std::vector<std::string>{"check", "u/model.hlo", "u//model.hlo",
                                 d.path() + "/u/model.hlo"},
        std::vector<std::string>{"check", "u/model.hlo", "u/copy.hlo"}}) {
    const CliResult r = RunTopolint(args, d.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("1 file checked")) << args[2];
  }
  // A file and its directory: the directory's unit, once, compared.
  const CliResult r = RunTopolint({"check", "u/def.json", "u"}, d.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, "[xref-topology-mismatch]"), 1u) << r.out;
  EXPECT_THAT(r.err, HasSubstr("2 files checked"));
}

}  // namespace
}  // namespace topolint::testing
