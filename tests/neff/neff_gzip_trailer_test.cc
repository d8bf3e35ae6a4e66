// A .neff whose gzip payload is corrupt only in its trailer (bad CRC, bad
// length, trailer missing) is a neff-schema problem at the archive, from a
// file and from memory. libarchive stops at the tar's end-of-archive blocks
// and never reads the trailer, so these were accepted silently (issue 31,
// item 5). The members are all read first: the damage is reported, the
// def.json members still checked.
#include <string>
#include <vector>

#include "checker/neff/neff_archive.h"
#include "checker/neff/neff_gzip_check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/neff/neff_builder.h"

namespace topolint::neff {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::MakeNeff;
using testing::MakeTar;
using testing::ValidMembers;
using testing::WriteTempFile;

std::vector<std::string> Messages(const NeffArchive& a) {
  std::vector<std::string> out;
  for (const ArchiveProblem& p : a.problems) out.push_back(p.message);
  return out;
}

// The archive's problems, read from a file and from memory (the same).
std::vector<std::string> Problems(const std::string& payload,
                                  size_t graphs_read = 2) {
  const std::string bytes = MakeNeff(payload);
  const NeffArchive from_file =
      ReadNeffArchive(WriteTempFile("trailer.neff", bytes), "trailer.neff");
  const NeffArchive from_memory =
      ReadNeffArchiveFromMemory(bytes, "trailer.neff");
  EXPECT_EQ(Messages(from_file), Messages(from_memory));
  EXPECT_EQ(from_file.graphs.size(), graphs_read);
  for (const ArchiveProblem& p : from_file.problems) {
    EXPECT_EQ(p.loc.file, "trailer.neff");
  }
  return Messages(from_file);
}

// Two graphs plus 512 KiB that do not compress, so that the gzip stream
// is much longer than one read: libarchive reaches the tar's end long
// before the gzip trailer (in a tiny archive its first read-ahead inflates
// everything, and a cut trailer already fails the open).
std::string GoodGzip() {
  std::vector<testing::TarMember> members;
  std::string noise(size_t{512} << 10, '\0');
  uint64_t x = 88172645463325252ull;  // xorshift64
  for (char& c : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  members.emplace_back("weights.bin", std::move(noise));
  for (testing::TarMember& m : ValidMembers(2)) members.push_back(m);
  return MakeTar(members);
}

TEST(NeffGzipTrailerTest, SoundGzipHasNoProblem) {
  EXPECT_THAT(Problems(GoodGzip()), IsEmpty());
  // Two concatenated members are one stream, as gzip(1) reads them.
  const std::string g = GoodGzip();
  EXPECT_THAT(Problems(g + MakeTar({}, /*gzip=*/true)), IsEmpty());
}

TEST(NeffGzipTrailerTest, BadCrcIsReported) {
  std::string g = GoodGzip();
  g[g.size() - 8] = static_cast<char>(g[g.size() - 8] ^ 0x01);  // CRC-32
  EXPECT_THAT(Problems(g), ::testing::ElementsAre(AllOf(
                               HasSubstr("gzip-compressed payload is corrupt"),
                               HasSubstr("CRC does not match"))));
}

TEST(NeffGzipTrailerTest, BadLengthIsReported) {
  std::string g = GoodGzip();
  g[g.size() - 4] = static_cast<char>(g[g.size() - 4] ^ 0x01);  // ISIZE
  EXPECT_THAT(Problems(g), ::testing::ElementsAre(AllOf(
                               HasSubstr("gzip-compressed payload is corrupt"),
                               HasSubstr("recorded size does not match"))));
}

TEST(NeffGzipTrailerTest, MissingTrailerIsReported) {
  for (size_t cut : {8, 4, 1}) {
    std::string g = GoodGzip();
    g.resize(g.size() - cut);
    // libarchive fails here too (its read-ahead meets the cut end), but
    // with "Truncated input file (needed 524288 bytes, only 0 available)"
    // and the members after that point are unknown: the gzip check says
    // what is wrong.
    EXPECT_THAT(Problems(g, /*graphs_read=*/0),
                ::testing::Contains(
                    HasSubstr("the gzip trailer (CRC and length) is missing")))
        << "cut " << cut;
  }
}

TEST(NeffGzipTrailerTest, PlainTarAndInflateLimit) {
  EXPECT_THAT(Problems(MakeTar(ValidMembers(2), /*gzip=*/false)), IsEmpty());
  const std::string g = GoodGzip();
  std::string_view rest = g;
  const std::string msg =
      CheckGzipPayload(MemoryPayloadReader(&rest), /*max_output_bytes=*/100);
  EXPECT_THAT(msg, HasSubstr("more than 100 bytes (the limit)"));
}

}  // namespace
}  // namespace topolint::neff
