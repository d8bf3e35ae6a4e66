// The .neff payload inflated once (NeffArchiveLimits::single_inflate,
// GzipInflater) against the general reader (libarchive's gzip filter, then
// CheckGzipPayload inflating it again): the same members, texts, problems
// and end state for every payload, sound or damaged, from a file and from
// memory; and the single pass really taken for sound gzip payloads.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/neff/neff_archive.h"
#include "checker/neff/neff_gzip_check.h"
#include "checker/neff/neff_tar.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/neff/neff_builder.h"

namespace topolint::neff {
namespace {

using testing::MakeTar;
using testing::TarMember;
using testing::ValidMembers;
using testing::WriteTempFile;

std::string Noise(size_t n, uint64_t seed) {
  std::string s(n, '\0');
  uint64_t x = seed;  // xorshift64
  for (char& c : s) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  return s;
}

// A sound payload of two graphs and `noise` incompressible bytes, so that
// the gzip stream spans several 64 KiB reads when `noise` is large.
std::string SoundGzip(size_t noise) {
  std::vector<TarMember> members = ValidMembers(2);
  if (noise > 0) members.push_back({"weights.bin", Noise(noise, 88172645)});
  return MakeTar(members);
}

bool IsSinglePass(const TarScan& s) { return s.single_pass; }

// Both readers over `payload`, from memory and from a file, with `limits`:
// everything but single_pass must be equal. Returns the single-inflate
// scans (memory, file).
std::pair<TarScan, TarScan> Compare(const std::string& name,
                                    const std::string& payload,
                                    NeffArchiveLimits limits = {}) {
  auto want = [](const std::string& m) {
    const std::string def = "/def.json";
    return m == "kelf-0.json" ||
           (m.size() > def.size() &&
            m.compare(m.size() - def.size(), def.size(), def) == 0);
  };
  const std::string path =
      WriteTempFile(name + ".bin", "0123456789" + payload + "tail");
  TarScan got[2][2];  // [single_inflate][memory, file]
  for (int single = 0; single < 2; ++single) {
    limits.single_inflate = single == 1;
    got[single][0] = ScanNeffTarMemory(payload, want, limits);
    got[single][1] = ScanNeffTar(path, 10, payload.size(), want, limits);
  }
  for (int from = 0; from < 2; ++from) {
    SCOPED_TRACE(name + (from == 0 ? " (memory)" : " (file)"));
    const TarScan& general = got[0][from];
    const TarScan& single = got[1][from];
    EXPECT_FALSE(general.single_pass);
    EXPECT_EQ(single.members, general.members);
    EXPECT_EQ(single.texts, general.texts);
    EXPECT_EQ(single.problems, general.problems);
    EXPECT_EQ(single.complete, general.complete);
    EXPECT_EQ(single.read_failed, general.read_failed);
  }
  return {std::move(got[1][0]), std::move(got[1][1])};
}

TEST(NeffSingleInflateTest, SoundPayloadsAreInflatedOnce) {
  for (size_t noise : {size_t{0}, size_t{100}, size_t{300} << 10}) {
    const auto [memory, file] =
        Compare("sound" + std::to_string(noise), SoundGzip(noise));
    EXPECT_TRUE(IsSinglePass(memory)) << noise;
    EXPECT_TRUE(IsSinglePass(file)) << noise;
    EXPECT_EQ(memory.texts.size(), 3u);
    EXPECT_TRUE(memory.complete);
    EXPECT_THAT(memory.problems, ::testing::IsEmpty());
  }
}

TEST(NeffSingleInflateTest, PlainTarIsReadAsBefore) {
  const auto [memory, file] =
      Compare("plain", MakeTar(ValidMembers(2), /*gzip=*/false));
  EXPECT_FALSE(IsSinglePass(memory));
  EXPECT_FALSE(IsSinglePass(file));
  EXPECT_EQ(memory.texts.size(), 3u);
}

// Every damaged form goes back to the general reader, which says what is
// wrong: the messages are the ones users saw before.
TEST(NeffSingleInflateTest, DamagedGzipFallsBackToTheGeneralReader) {
  const std::string g = SoundGzip(size_t{300} << 10);
  std::vector<std::pair<std::string, std::string>> cases;
  std::string crc = g;
  crc[crc.size() - 8] = static_cast<char>(crc[crc.size() - 8] ^ 1);
  cases.emplace_back("bad-crc", crc);
  std::string isize = g;
  isize[isize.size() - 4] = static_cast<char>(isize[isize.size() - 4] ^ 1);
  cases.emplace_back("bad-length", isize);
  for (size_t cut : {1, 4, 8, 5000, 200000}) {
    cases.emplace_back("cut" + std::to_string(cut),
                       g.substr(0, g.size() - cut));
  }
  std::string flipped = g;
  flipped[g.size() / 2] = static_cast<char>(flipped[g.size() / 2] ^ 0x55);
  cases.emplace_back("flipped-middle", flipped);
  std::string header = g;
  header[3] = static_cast<char>(0xe0);  // reserved FLG bits
  cases.emplace_back("bad-header", header);
  cases.emplace_back("concatenated", g + MakeTar({}, /*gzip=*/true));
  cases.emplace_back("trailing-bytes", g + "garbage");
  cases.emplace_back("trailing-zeros", g + std::string(512, '\0'));
  cases.emplace_back("magic-only", g.substr(0, 2));
  for (const auto& [name, payload] : cases) {
    const auto [memory, file] = Compare(name, payload);
    EXPECT_FALSE(IsSinglePass(memory)) << name;
    EXPECT_FALSE(IsSinglePass(file)) << name;
  }
}

TEST(NeffSingleInflateTest, LimitsStopBothReadersAlike) {
  const std::string g = SoundGzip(size_t{300} << 10);
  NeffArchiveLimits members;
  members.max_members = 2;
  Compare("max-members", g, members);
  NeffArchiveLimits total;
  total.max_total_bytes = 100 << 10;  // below the 300 KiB member
  Compare("max-total", g, total);
  NeffArchiveLimits member;
  member.max_member_bytes = 64;
  Compare("max-member", g, member);
  NeffArchiveLimits held;
  held.max_held_bytes = 100;
  Compare("max-held", g, held);
  // More output than the limit after the tar's end (a bomb of zeros after
  // the end-of-archive blocks): the single pass gives up, the general reader
  // reports it.
  std::string bomb_tar = MakeTar(ValidMembers(1), /*gzip=*/false);
  bomb_tar += std::string(size_t{4} << 20, '\0');
  NeffArchiveLimits small;
  small.max_total_bytes = 1 << 20;
  const auto [memory, file] =
      Compare("bomb", ::topolint::testing::proto_writer::Gzip(bomb_tar), small);
  EXPECT_FALSE(IsSinglePass(memory));
  EXPECT_THAT(memory.problems,
              ::testing::Contains(::testing::HasSubstr("(the limit)")));
}

TEST(GzipInflaterTest, InflatesOneSoundMemberAndRefusesWhatFollowsIt) {
  const std::string tar = MakeTar(ValidMembers(1), /*gzip=*/false);
  const std::string g = ::topolint::testing::proto_writer::Gzip(tar);
  {
    std::string_view rest = g;
    GzipInflater inf(MemoryPayloadReader(&rest), 1 << 20);
    std::string out;
    const char* data = nullptr;
    for (int64_t n; (n = inf.Read(&data)) > 0;) out.append(data, n);
    EXPECT_EQ(out, tar);
    EXPECT_TRUE(inf.Finish());
  }
  {
    const std::string two = g + g;
    std::string_view rest = two;
    GzipInflater inf(MemoryPayloadReader(&rest), 1 << 20);
    EXPECT_FALSE(inf.Finish());
  }
  {
    std::string_view rest = g;
    GzipInflater inf(MemoryPayloadReader(&rest), 100);  // less than the tar
    EXPECT_FALSE(inf.Finish());
    EXPECT_TRUE(inf.failed());
  }
}

}  // namespace
}  // namespace topolint::neff
