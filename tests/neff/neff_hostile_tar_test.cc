// Hostile `.neff` tars (issue 27) beyond neff_archive_test.cc: a member
// whose header declares gigabytes it does not hold, 10^5 members, and
// entry names that point outside the archive. Each is a located problem
// (or a skipped member), never a crash, a hang or a file touched outside
// the input: the reader extracts nothing to disk.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/neff/neff_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/neff/neff_builder.h"

namespace topolint::neff {
namespace {

using ::testing::HasSubstr;
using testing::kDefJson;
using testing::MakeNeff;
using testing::MakeTar;
using testing::TarMember;
using testing::ValidMembers;
using testing::WriteTempFile;

std::string AllProblems(const NeffArchive& a) {
  std::string s;
  for (const auto& p : a.problems) s += p.message + "\n";
  return s;
}

// Sets the size field of the ustar header at `at` to `octal` (11 digits)
// and recomputes the header's checksum.
void SetDeclaredSize(std::string* tar, size_t at, const std::string& octal) {
  ASSERT_EQ(octal.size(), 11u);
  tar->replace(at + 124, 11, octal);
  (*tar)[at + 135] = '\0';
  std::fill(tar->begin() + at + 148, tar->begin() + at + 156, ' ');
  unsigned sum = 0;
  for (size_t i = 0; i < 512; ++i) {
    sum += static_cast<unsigned char>((*tar)[at + i]);
  }
  char field[8];
  std::snprintf(field, sizeof(field), "%06o", sum);
  tar->replace(at + 148, 7, std::string(field, 6) + '\0');
}

TEST(NeffHostileTarTest, AMemberDeclaringGigabytesItDoesNotHoldIsAProblem) {
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"sg01/def.json", kDefJson});
  std::string tar = MakeTar(m, /*gzip=*/false);
  // The third member's header (kelf, sg00, then sg01): each member is one
  // header block and its data rounded up to 512 bytes.
  size_t at = 0;
  for (int i = 0; i < 2; ++i) {
    const size_t size = std::stoul(tar.substr(at + 124, 11), nullptr, 8);
    at += 512 + (size + 511) / 512 * 512;
  }
  ASSERT_EQ(tar.compare(at, 13, "sg01/def.json"), 0);
  SetDeclaredSize(&tar, at, "40000000000");  // 4 GiB
  const NeffArchive a =
      ReadNeffArchive(WriteTempFile("model.neff", MakeNeff(tar)), "model.neff");
  EXPECT_FALSE(a.problems.empty());
  EXPECT_THAT(AllProblems(a), HasSubstr("sg01/def.json"));
  EXPECT_EQ(a.graphs.size(), 1u);  // the members before it are read
}

TEST(NeffHostileTarTest, AHundredThousandMembersStopAtTheMemberLimit) {
  std::vector<TarMember> m = ValidMembers(1);
  for (int i = 0; i < 100000; ++i) m.push_back({"f" + std::to_string(i), ""});
  const NeffArchive a = ReadNeffArchive(
      WriteTempFile("model.neff", MakeNeff(MakeTar(m))), "model.neff");
  EXPECT_THAT(AllProblems(a), HasSubstr("more than 4096 members"));
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffHostileTarTest, NothingIsWrittenOrReadOutsideTheArchive) {
  namespace fs = std::filesystem;
  const fs::path scratch =
      fs::path(::testing::TempDir()) /
      ("topolint-neff-outside-" + std::to_string(getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch / "in");
  // A file an entry name or link points at: its text must not be read.
  topolint::testing::WriteAll((scratch / "secret.json").string(),
                              "{\"CCInfo\": {\"replica_groups\": [[[7, 7]]]}}");
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"../secret.json", kDefJson});
  m.push_back({(scratch / "written.json").string(), kDefJson});
  m.push_back({"sg01/def.json", "", TarMember::kSymlink,
               (scratch / "secret.json").string()});
  m.push_back({"sg02/def.json", "", TarMember::kHardlink, "../secret.json"});
  const fs::path neff = scratch / "in" / "model.neff";
  topolint::testing::WriteAll(neff.string(), MakeNeff(MakeTar(m)));
  const fs::path cwd = fs::current_path();
  fs::current_path(scratch / "in");
  const NeffArchive a = ReadNeffArchive("model.neff", "model.neff");
  fs::current_path(cwd);
  std::vector<std::string> after;
  for (const auto& e : fs::recursive_directory_iterator(scratch)) {
    after.push_back(fs::relative(e.path(), scratch).string());
  }
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after,
            (std::vector<std::string>{"in", "in/model.neff", "secret.json"}));
  for (const auto& [name, text] : a.member_texts) {
    EXPECT_EQ(text.find("[[[7, 7]]]"), std::string::npos) << name;
  }
  EXPECT_EQ(a.graphs.size(), 1u);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace topolint::neff
