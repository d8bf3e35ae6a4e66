// The syntax corpus: fixtures/corpus/*/model.hlo are modules written for
// topolint that use, between them, every HLO text form found in openxla/xla's
// parser, verifier and collective-pass tests (see docs/verifier-cases.md and
// the comment at the top of each module). Every one must parse with no
// syntax error, and parse the same through windows of any size.
#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using testing::Errors;
using testing::Parse;
using testing::ParseViaFile;
using testing::ReadFile;

std::string CorpusDir() {
  return std::string(TOPOLINT_SOURCE_DIR) + "/fixtures/corpus";
}

// Case directory name -> module text.
std::map<std::string, std::string> Corpus() {
  std::map<std::string, std::string> out;
  DIR* d = opendir(CorpusDir().c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string path = CorpusDir() + "/" + e->d_name + "/model.hlo";
    if (std::ifstream(path).good()) out[e->d_name] = ReadFile(path);
  }
  closedir(d);
  return out;
}

using testing::DumpWithWindow;

const Module& ParsedCase(const std::string& name) {
  static std::map<std::string, Module>* cache =
      new std::map<std::string, Module>();
  auto it = cache->find(name);
  if (it == cache->end()) {
    const std::string text = ReadFile(CorpusDir() + "/" + name + "/model.hlo");
    it = cache->emplace(name, Parse(text)).first;
  }
  return it->second;
}

std::vector<std::string> CollectiveNames(const Module& m) {
  std::vector<std::string> names;
  for (const Collective& c : m.collectives) names.push_back(c.name);
  return names;
}

TEST(CorpusTest, HasBreadth) { EXPECT_GE(Corpus().size(), 30u); }

TEST(CorpusTest, EveryModuleParsesWithoutSyntaxErrors) {
  for (const auto& [name, text] : Corpus()) {
    const Module m = Parse(text);
    EXPECT_EQ(Errors(m), "") << name;
    EXPECT_GE(m.computation_count, 1) << name;
    EXPECT_FALSE(m.entry_computation.empty()) << name;
  }
}

TEST(CorpusTest, EveryModuleParsesTheSameThroughAnyWindow) {
  for (const auto& [name, text] : Corpus()) {
    const std::string expected = ModuleDebugString(Parse(text));
    for (size_t window : {1, 2, 7, 64, 4096}) {
      EXPECT_EQ(DumpWithWindow(text, window), expected)
          << name << " window " << window;
    }
  }
}

TEST(CorpusTest, EveryModuleParsesTheSameFromAFile) {
  for (const auto& [name, text] : Corpus()) {
    const std::string expected = ModuleDebugString(Parse(text));
    EXPECT_EQ(ModuleDebugString(ParseViaFile(text, 13)), expected) << name;
  }
}

// Spot checks that the forms were understood, not merely skipped.

TEST(CorpusTest, ShortFormCollectivesAreAllFound) {
  const Module& m = ParsedCase("pass-short-form-collectives");
  EXPECT_THAT(CollectiveNames(m),
              ::testing::ElementsAre("ar.all", "ar.sub", "ar.iota", "ar.start",
                                     "rs", "ag", "ag.start", "a2a.tuple",
                                     "a2a.split", "cb", "cp", "cp.start",
                                     "cp.none", "ragged", "ragged.iota"));
  EXPECT_EQ(*m.replica_count, 8);
  const Collective& sub = m.collectives[1];
  EXPECT_THAT(sub.replica_groups.GroupVectors(),
              ::testing::ElementsAre(::testing::ElementsAre(0, 1, 2, 3),
                                     ::testing::ElementsAre(4, 5, 6, 7)));
  EXPECT_EQ(m.collectives[12].source_target_pairs.pairs.size(), 0u);
  EXPECT_TRUE(m.collectives[12].source_target_pairs.present);
}

TEST(CorpusTest, HeaderWithColonAndBlockComments) {
  const Module& m = ParsedCase("pass-comments-block");
  EXPECT_EQ(m.name, "block_comments");
  // The all-reduce inside the block comment is not an instruction.
  EXPECT_THAT(CollectiveNames(m), ::testing::ElementsAre("ag"));
  EXPECT_THAT(m.collectives[0].replica_groups.GroupVectors(),
              ::testing::ElementsAre(::testing::ElementsAre(0, 1)));
}

TEST(CorpusTest, OldMacLineEndsEndLineComments) {
  const Module& m = ParsedCase("pass-comments-cr-only");
  EXPECT_EQ(m.name, "mac_endings");
  EXPECT_EQ(m.entry_computation, "c1");
}

TEST(CorpusTest, CrlfModuleFindsItsCollective) {
  const Module& m = ParsedCase("pass-comments-crlf");
  EXPECT_THAT(CollectiveNames(m), ::testing::ElementsAre("r"));
  EXPECT_EQ(m.collectives[0].to_apply, "sum2");
}

TEST(CorpusTest, RecoveryTableModuleIsNotParsedAsCode) {
  const Module& m = ParsedCase("pass-recovery-table");
  EXPECT_THAT(CollectiveNames(m), ::testing::ElementsAre("%ar.o"));
  EXPECT_EQ(*m.num_partitions, 2);
}

TEST(CorpusTest, BufferShapesAreModelledAsTheirArray) {
  const Module& m = ParsedCase("pass-buffer-shapes");
  ASSERT_THAT(CollectiveNames(m), ::testing::ElementsAre("ar"));
  ASSERT_EQ(m.collectives[0].operand_shapes.size(), 1u);
  EXPECT_EQ(ShapeToString(m.collectives[0].operand_shapes[0]), "f32[16]");
}

TEST(CorpusTest, InlineComputationBodiesAreSkippedWhole) {
  const Module& custom = ParsedCase("pass-custom-call-configs");
  ASSERT_THAT(CollectiveNames(custom), ::testing::ElementsAre("%ar"));
  EXPECT_EQ(custom.collectives[0].to_apply, "");
  EXPECT_EQ(custom.computation_count, 1);
  const Module& nested = ParsedCase("pass-inline-computations");
  EXPECT_EQ(nested.computation_count, 1);
}

TEST(CorpusTest, SplitInstructionsKeepTheirAttributes) {
  const Module& m = ParsedCase("pass-split-lines");
  ASSERT_THAT(CollectiveNames(m), ::testing::ElementsAre("%rs", "%ag"));
  const Collective& rs = m.collectives[0];
  EXPECT_TRUE(rs.has_channel_id);
  EXPECT_TRUE(rs.use_global_device_ids);
  EXPECT_EQ(rs.replica_groups.form, ReplicaGroups::Form::kIota);
  EXPECT_THAT(rs.dimensions, ::testing::ElementsAre(0));
  EXPECT_EQ(rs.to_apply, "sum");
  EXPECT_EQ(ShapeToString(rs.result_shape), "f32[2,320]");
}

TEST(CorpusTest, SendRecvPairsComeFromFrontendAttributes) {
  const Module& m = ParsedCase("pass-pipelined-send-recv");
  // Only the send/recv that carry `_xla_send_recv_source_target_pairs`
  // (quoted or raw) are recorded.
  ASSERT_THAT(CollectiveNames(m),
              ::testing::ElementsAre("recv.next", "send.next", "recv.first",
                                     "send.first"));
  for (const Collective& c : m.collectives) {
    EXPECT_EQ(c.source_target_pairs.pairs.size(), 3u) << c.name;
  }
}

TEST(CorpusTest, AsyncWrappersRecordTheWrappedCollectives) {
  const Module& m = ParsedCase("pass-async-collective-creator");
  EXPECT_THAT(CollectiveNames(m),
              ::testing::ElementsAre("%rs.w", "%ars", "%rss", "%ags", "%a2as",
                                     "%cbs", "%cps", "%out"));
}

TEST(CorpusTest, LiteralsAndShardingsHoldNoCollectives) {
  EXPECT_TRUE(ParsedCase("pass-literals").collectives.empty());
  EXPECT_THAT(CollectiveNames(ParsedCase("pass-sharding-forms")),
              ::testing::ElementsAre("%ar"));
}

}  // namespace
}  // namespace topolint::hlo
