// ReadNeffArchiveFromMemory: an archive held in memory reads exactly as the
// same bytes in a file (members, graphs, problems, limits).
#include <string>
#include <vector>

#include "checker/neff/neff_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
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

// "file:line:col: message" of every problem, in order.
std::vector<std::string> Describe(const std::vector<ArchiveProblem>& ps) {
  std::vector<std::string> out;
  for (const ArchiveProblem& p : ps) {
    out.push_back(p.loc.file + ":" + std::to_string(p.loc.line) + ":" +
                  std::to_string(p.loc.column) + ": " + p.message);
  }
  return out;
}

// Reads `bytes` both ways and expects the same archive; returns it.
NeffArchive ExpectSameBothWays(const std::string& bytes,
                               const NeffArchiveLimits& limits = {}) {
  NeffArchive file =
      ReadNeffArchive(WriteTempFile("model.neff", bytes), "model.neff", limits);
  NeffArchive mem = ReadNeffArchiveFromMemory(bytes, "model.neff", limits);
  EXPECT_EQ(mem.header_ok, file.header_ok);
  EXPECT_EQ(mem.lnc_size, file.lnc_size);
  EXPECT_EQ(mem.graph_names, file.graph_names);
  EXPECT_EQ(mem.graph_definitions, file.graph_definitions);
  EXPECT_EQ(mem.graphs.size(), file.graphs.size());
  for (size_t i = 0; i < mem.graphs.size() && i < file.graphs.size(); ++i) {
    EXPECT_EQ(mem.graphs[i].file, file.graphs[i].file);
  }
  EXPECT_EQ(mem.member_texts, file.member_texts);
  EXPECT_EQ(Describe(mem.json_syntax), Describe(file.json_syntax));
  // Only the short-header problem differs: "the file is 10 bytes" from a
  // file, "the archive is 10 bytes" from memory.
  std::vector<std::string> m = Describe(mem.problems);
  std::vector<std::string> f = Describe(file.problems);
  if (bytes.size() < kNeffHeaderBytes) {
    EXPECT_EQ(m.size(), f.size()) << ::testing::PrintToString(m);
  } else {
    EXPECT_EQ(m, f);
  }
  return mem;
}

TEST(NeffMemoryTest, ValidArchivesReadAsFromAFile) {
  NeffArchive gz = ExpectSameBothWays(MakeNeff(MakeTar(ValidMembers(2))));
  EXPECT_TRUE(gz.problems.empty());
  EXPECT_EQ(gz.graphs.size(), 2u);
  NeffArchive plain =
      ExpectSameBothWays(MakeNeff(MakeTar(ValidMembers(3), /*gzip=*/false)));
  EXPECT_EQ(plain.graphs.size(), 3u);
}

TEST(NeffMemoryTest, SecondPassForUnusualDefinitionNames) {
  std::vector<TarMember> m = {
      {"sg00/graph.json", kDefJson},
      {"kelf-0.json", "{\"graphs\": [{\"definition\": \"sg00/graph.json\"}]}"},
  };
  NeffArchive a = ExpectSameBothWays(MakeNeff(MakeTar(m)));
  ASSERT_EQ(a.graphs.size(), 1u);
  EXPECT_EQ(a.graphs[0].file, "model.neff:sg00/graph.json");
}

TEST(NeffMemoryTest, BrokenArchivesGiveTheSameProblems) {
  std::string full = MakeNeff(MakeTar(ValidMembers(2)));
  for (size_t cut :
       {size_t{10}, size_t{1024}, size_t{1100}, full.size() - 40}) {
    SCOPED_TRACE(cut);
    NeffArchive a = ExpectSameBothWays(full.substr(0, cut));
    EXPECT_FALSE(a.problems.empty());
  }
  NeffArchive short_one = ReadNeffArchiveFromMemory("x", "m.neff");
  ASSERT_EQ(short_one.problems.size(), 1u);
  EXPECT_THAT(short_one.problems[0].message,
              HasSubstr("the archive is 1 bytes, shorter than the 1024-byte"));
  EXPECT_EQ(short_one.problems[0].loc.file, "m.neff");
  ExpectSameBothWays(MakeNeff(std::string(3000, '\x7f')));
}

TEST(NeffMemoryTest, LimitsApply) {
  std::vector<TarMember> m = ValidMembers(2);
  for (int i = 0; i < 20; ++i) m.push_back({"f/" + std::to_string(i), "x"});
  NeffArchiveLimits limits;
  limits.max_members = 8;
  NeffArchive a = ExpectSameBothWays(MakeNeff(MakeTar(m)), limits);
  EXPECT_THAT(Describe(a.problems),
              ::testing::Contains(HasSubstr("more than 8 members")));
  limits = NeffArchiveLimits{};
  limits.max_member_bytes = 20;
  a = ExpectSameBothWays(MakeNeff(MakeTar(ValidMembers(2))), limits);
  EXPECT_THAT(Describe(a.problems),
              ::testing::Contains(HasSubstr("limit for one member")));
}

}  // namespace
}  // namespace topolint::neff
