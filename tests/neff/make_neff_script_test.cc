// scripts/make-neff.py writes archives ReadNeffArchive accepts, and the
// committed fixture archives are what their member trees generate.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/neff/neff_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::neff {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kSource = TOPOLINT_SOURCE_DIR;

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

class MakeNeffScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("python3 -c 'import tarfile' >/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "python3 is not available";
    }
    const ::testing::TestInfo* t =
        ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("topolint_make_neff_") + t->name() + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  // Runs the script on `members` (a directory) writing `out`.
  void MakeNeff(const fs::path& members, const fs::path& out,
                const std::string& flags) {
    const std::string cmd = "python3 '" + kSource + "/scripts/make-neff.py' '" +
                            members.string() + "' '" + out.string() + "' " +
                            flags;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }

  fs::path dir_;
};

TEST_F(MakeNeffScriptTest, WritesAReadableLnc2Archive) {
  const fs::path members = kSource + "/tests/neff/fixture-src/lnc2";
  for (const char* flags : {"--lnc 2", "--lnc 2 --plain"}) {
    SCOPED_TRACE(flags);
    MakeNeff(members, dir_ / "model.neff", flags);
    NeffArchive a = ReadNeffArchive((dir_ / "model.neff").string(), "m.neff");
    EXPECT_TRUE(a.header_ok);
    EXPECT_EQ(a.lnc_size, 2);
    EXPECT_THAT(a.problems, IsEmpty());
    EXPECT_THAT(a.graph_names, ElementsAre("sg00", "sg01"));
    EXPECT_EQ(a.graphs.size(), 2u);
  }
}

TEST_F(MakeNeffScriptTest, CorruptionOptions) {
  const fs::path members = kSource + "/tests/neff/fixture-src/lnc1";
  const fs::path out = dir_ / "model.neff";
  MakeNeff(members, out, "--data-size 5");
  EXPECT_THAT(ReadNeffArchive(out.string(), "m.neff").problems,
              ElementsAre(::testing::Field(&ArchiveProblem::message,
                                           HasSubstr("data_size is 5"))));
  MakeNeff(members, out, "--header-size 99999");
  EXPECT_FALSE(ReadNeffArchive(out.string(), "m.neff").header_ok);
  MakeNeff(members, out, "--truncate 1100");
  NeffArchive t = ReadNeffArchive(out.string(), "m.neff");
  EXPECT_TRUE(t.header_ok);
  EXPECT_GE(t.problems.size(), 2u);
}

// The fixtures are binary: prove they hold exactly their member trees
// (regenerate with tests/neff/fixture-src/make-fixtures.sh).
TEST(NeffFixturesTest, CommittedFixturesMatchTheirSources) {
  struct Case {
    const char* members;
    int64_t lnc;
    const char* fixture;
  };
  for (const Case& c : {
           Case{"lnc2-one-graph", 2, "neff-lnc-mismatch/fail-kelf-one-graph"},
           Case{"lnc2", 2, "neff-lnc-mismatch/fail-config-lnc"},
           Case{"lnc2", 2, "neff-lnc-mismatch/fail-cli-lnc"},
           Case{"lnc2", 2, "neff-lnc-mismatch/pass-lnc2"},
           Case{"lnc1", 1, "neff-lnc-mismatch/pass-lnc1"},
           Case{"rank-differs", 2, "neff-graphs-disagree/fail-rank-differs"},
           Case{"world-size-differs", 2,
                "neff-graphs-disagree/fail-world-size-differs"},
           Case{"lnc2", 2, "neff-graphs-disagree/pass-identical-graphs"},
       }) {
    SCOPED_TRACE(c.fixture);
    const NeffArchive a = ReadNeffArchive(
        kSource + "/fixtures/" + c.fixture + "/model.neff", "m.neff");
    EXPECT_TRUE(a.header_ok);
    EXPECT_THAT(a.problems, IsEmpty());
    EXPECT_EQ(a.lnc_size, c.lnc);
    const fs::path src =
        fs::path(kSource) / "tests/neff/fixture-src" / c.members;
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(src)) {
      files += e.is_regular_file() ? 1 : 0;
    }
    EXPECT_EQ(a.member_texts.size(), files);
    for (const auto& [name, text] : a.member_texts) {
      EXPECT_EQ(text, Slurp(src / name.substr(std::string("m.neff:").size())))
          << name;
    }
  }
}

}  // namespace
}  // namespace topolint::neff
