// Discovery and loading classify HLO by content: binary modules under any
// of their real names, and other protobufs left alone.
#include <filesystem>
#include <string>

#include "checker/core/discovery.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

std::string SampleProto(bool gzip = false) {
  return SampleAllReduceProto({{0, 1}, {1, 2}}, gzip);
}

class ProtoDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("topolint-proto-disc-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Put(const std::string& name, const std::string& bytes) {
    const std::string p = (dir_ / name).string();
    WriteAll(p, bytes);
    return p;
  }
  bool Hlo(const std::string& path) {
    InputKind kind = InputKind::kJson;
    return ClassifyFile(path, &kind) && kind == InputKind::kHlo;
  }
  fs::path dir_;
};

TEST_F(ProtoDiscoveryTest, BinaryModulesUnderEveryName) {
  EXPECT_TRUE(Hlo(Put("model.hlo_module.pb", SampleProto())));
  EXPECT_TRUE(Hlo(Put("model.MODULE_1+ab.hlo.pb", SampleProto())));
  EXPECT_TRUE(Hlo(Put("graph.hlo", SampleProto())));  // NxD's binary .hlo
  EXPECT_TRUE(Hlo(Put("hlo_module.pb", SampleProto())));
  EXPECT_TRUE(Hlo(Put("dump.pb.gz", SampleProto(/*gzip=*/true))));
}

TEST_F(ProtoDiscoveryTest, OtherProtobufsAreNotInputs) {
  // A message whose field 1 is not an HLO name or module (metaneff.pb-like).
  std::string other;
  proto_writer::Varint(&other, 1, 7);
  proto_writer::Bytes(&other, 2, "tensor");
  EXPECT_FALSE(Hlo(Put("metaneff.pb", other)));
  EXPECT_FALSE(Hlo(Put("weights.pb", std::string("\x0a\x03\x01\x02\x03", 5))));
  EXPECT_FALSE(Hlo(Put("notes.pb", "just some text\n")));
}

TEST_F(ProtoDiscoveryTest, CheckReadsTheBinaryModuleByContent) {
  Put("model/graph.hlo", SampleProto());
  const CliResult r = RunTopolint({"check", "--color", "never", dir_.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("graph.hlo: error: replica 1 is repeated in %ar's"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  in computation %main, op %ar (byte "),
            std::string::npos)
      << r.out;
}

TEST_F(ProtoDiscoveryTest, ExplainWorksOnBinaryModules) {
  Put("model.hlo_module.pb", SampleProto());
  const CliResult r = RunTopolint({"explain", dir_.string()});
  EXPECT_NE(r.out.find("HLO module jit_f"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("%ar = all-reduce (byte "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace topolint::testing
