// Issue 15, classes 2, 3 and 7: every file kind is handled (devices, FIFOs,
// sockets refused with the kind named; pipes and process substitution
// read), every read is bounded, deep JSON is refused in every reader, and
// option values and messages say what is wrong.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kFailingHlo[] =
    "fixtures/hlo-device-id-range/fail-id-beyond-listed/model.hlo";

TEST(InputKindsTest, DevicesAreRefusedNotReadForever) {
  TempDir dir;
  std::filesystem::create_symlink("/dev/zero", dir.path() + "/zero.hlo");
  std::filesystem::create_symlink("/dev/urandom", dir.path() + "/r.json");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"/dev/zero"},
           {"/dev/urandom"},
           {"zero.hlo"},
           {"r.json"},
           {"--hlo", "/dev/zero"},
           {"--neff", "/dev/urandom"},
           {"--neuron-config", "zero.hlo"},
           {"--config", "/dev/zero", kFailingHlo},
           {"--baseline", "/dev/urandom", kFailingHlo},
           {"--config", "zero.hlo", kFailingHlo}}) {
    std::vector<std::string> full = args;
    for (std::string& a : full) {
      if (a == kFailingHlo) a = std::string(TOPOLINT_SOURCE_DIR) + "/" + a;
    }
    const CliResult r = RunTopolint(full, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args.back();
    EXPECT_THAT(r.err, HasSubstr("is a character device")) << r.err;
  }
}

TEST(InputKindsTest, NamedFifosAreRefusedWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path() + "/model.hlo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string json_fifo = dir.path() + "/cfg.json";
  ASSERT_EQ(mkfifo(json_fifo.c_str(), 0600), 0);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"model.hlo"},
                                             {"--hlo", "model.hlo"},
                                             {"--config", "cfg.json", "."},
                                             {"--baseline", "cfg.json", "."},
                                             {"cfg.json"}}) {
    const CliResult r = RunTopolint(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_THAT(r.err, HasSubstr("named pipe (FIFO)")) << r.err;
  }
  // Met while searching a directory, a FIFO is skipped (not opened).
  std::filesystem::copy_file(
      std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailingHlo,
      dir.path() + "/real.hlo");
  const CliResult r = RunTopolint({"--config", "/dev/null", "."}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;  // /dev/null is a device too
  const CliResult search = RunTopolint({"."}, dir.path());
  EXPECT_EQ(search.exit_code, 1) << search.err;
  EXPECT_THAT(search.out, HasSubstr("real.hlo"));
}

TEST(InputKindsTest, SocketsAreRefused) {
  TempDir dir;
  const std::string path = dir.path() + "/s.hlo";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(addr.sun_path));
  std::copy(path.begin(), path.end(), addr.sun_path);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const CliResult r = RunTopolint({"s.hlo"}, dir.path());
  close(fd);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a socket"));
}

TEST(InputKindsTest, ProcessSubstitutionAndPipesAreRead) {
  const CliResult direct = RunTopolint({kFailingHlo});
  ASSERT_EQ(direct.exit_code, 1);
  // HLO without a telling name: the content says what it is, and nothing
  // the sniffing looked at is lost to the parser.
  CliResult r = RunShell(std::string("\"$TL\" <(cat ") + kFailingHlo + ")");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("replica 6 is out of range"));
  EXPECT_THAT(r.out, HasSubstr("ROOT %ar = f32[8,128]"));  // source shown
  r = RunShell(std::string("\"$TL\" --hlo <(cat ") + kFailingHlo + ")");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  r = RunShell(std::string("cat ") + kFailingHlo +
               " | \"$TL\" --stdin-filename m.hlo -");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // A JSON document through a pipe.
  r = RunShell(
      "\"$TL\" <(echo '{\"CCInfo\": {\"replica_groups\": [[[0,1],[1,2]]]}}')");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[neff-duplicate-rank]"));
  // Neither kind: a clear message.
  r = RunShell("\"$TL\" <(echo hello)");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(
      r.err,
      HasSubstr("neither HLO (text or a binary module) nor a JSON object"));
}

TEST(InputKindsTest, DeepJsonIsRefusedByEveryReader) {
  TempDir dir;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  dir.Write("model.hlo",
            ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailingHlo));
  // Baseline: in the version, in an entry, at the top.
  for (const std::string& text :
       {"{\"version\": " + deep + ", \"findings\": []}",
        "{\"version\": 1, \"findings\": [{\"fingerprint\": \"a\", \"x\": " +
            deep + "}]}",
        "{\"version\": 1, \"x\": " + deep + ", \"findings\": []}", deep}) {
    dir.Write("b.json", text);
    const CliResult r =
        RunTopolint({"--baseline", "b.json", "model.hlo"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("b.json: ")) << r.err;
  }
  // .topolint.json (named and found).
  dir.Write("sub/.topolint.json", "{\"rules\": " + deep + "}");
  dir.Write("sub/model.hlo", "HloModule m\n");
  CliResult r = RunTopolint({"sub"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(".topolint.json"));
  r = RunTopolint({"--config", "sub/.topolint.json", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // def.json and component configs: a located json-syntax finding.
  dir.Write("d/def.json", "{\"CCInfo\": " + deep + "}");
  dir.Write("c/neuron_config.json", "{\"neuron_config\": " + deep + "}");
  for (const char* path : {"d/def.json", "c/neuron_config.json"}) {
    r = RunTopolint({path}, dir.path());
    EXPECT_EQ(r.exit_code, 1) << path << r.err;
    EXPECT_THAT(r.out, HasSubstr("[json-syntax]")) << path;
  }
}

TEST(InputKindsTest, EmptyOptionValuesAreUsageErrors) {
  // In a scratch directory: `-o=` is `-o` with the value "=", a report
  // file named "=" (it was written into the source tree).
  TempDir scratch;
  for (const char* flag :
       {"-o", "--output", "--config", "--baseline", "--write-baseline", "--hlo",
        "--neff", "--neuron-config", "--stdin-filename"}) {
    const CliResult r = RunTopolint({flag, "", kFailingHlo});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_THAT(r.err, HasSubstr("needs a file name")) << flag;
    const CliResult inline_form =
        RunTopolint({std::string(flag) + "=",
                     std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailingHlo},
                    scratch.path());
    if (flag[1] == '-') {
      EXPECT_EQ(inline_form.exit_code, 2) << flag;
      EXPECT_THAT(inline_form.err, HasSubstr("needs a file name")) << flag;
    }
  }
}

TEST(InputKindsTest, MessagesStateTheRealReason) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/d.json");
  dir.Write("d/model.hlo", "HloModule m\n");
  CliResult r = RunTopolint({"--hlo", "d"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("d: is a directory, not a file"));
  r = RunTopolint({"--config", "d.json", "d"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a directory"));
  EXPECT_THAT(r.err, Not(HasSubstr("not valid JSON")));
  r = RunTopolint({"--baseline", "d.json", "d"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a directory"));
  r = RunTopolint({"--baseline", "missing.json", "d"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.json: no such file"));
}

TEST(InputKindsTest, RanksNearInt64MaxDoNotOverflowIntoNegativeCores) {
  TempDir dir;
  std::string hlo = ManyDuplicateIdOps(1);
  const size_t at = hlo.find("{{0,0}}");
  ASSERT_NE(at, std::string::npos);
  hlo.replace(at, 7, "{{0,9223372036854775806}}");
  dir.Write("model.hlo", hlo);
  const CliResult r = RunTopolint(
      {"--lnc", "2", "--num-cores", "8", "--rules", "lnc-*", "model.hlo"},
      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[lnc-rank-range]"));
  EXPECT_THAT(r.out, HasSubstr("beyond 2^63"));
  EXPECT_THAT(r.out, Not(HasSubstr("cores -")));
  // The largest LNC: every rank but 0 is out of range; no product wraps.
  const CliResult big_lnc =
      RunTopolint({"--lnc", "9223372036854775807", "--num-cores", "8",
                   "--rules", "lnc-*", "model.hlo"},
                  dir.path());
  EXPECT_EQ(big_lnc.exit_code, 1) << big_lnc.err;
  EXPECT_THAT(big_lnc.out, Not(HasSubstr("cores -")));
  // In range, the cores are shown exactly.
  hlo.replace(hlo.find("9223372036854775806"), 19, "5");
  dir.Write("model.hlo", hlo);
  const CliResult small = RunTopolint(
      {"--lnc", "2", "--num-cores", "8", "--rules", "lnc-*", "model.hlo"},
      dir.path());
  EXPECT_THAT(small.out, HasSubstr("physical cores 10..11 do not exist"));
}

TEST(InputKindsTest, CarriageReturnOnlyLineEndsParseAsXlaDoes) {
  // XLA's lexer treats '\r' as whitespace, so a module saved with old Mac
  // line ends parses there; it must here too, with the same findings.
  std::string hlo =
      ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + kFailingHlo);
  for (char& c : hlo) {
    if (c == '\n') c = '\r';
  }
  TempDir dir;
  dir.Write("model.hlo", hlo);
  const CliResult r =
      RunTopolint({"--format", "json", "model.hlo"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("hlo-device-id-range"));
  EXPECT_THAT(r.out, Not(HasSubstr("hlo-syntax")));
}

TEST(InputKindsTest, FindingsAreCappedPerRuleAndUnit) {
  TempDir dir;
  dir.Write("model.hlo", ManyDuplicateIdOps(1500));
  const CliResult r = RunTopolint({"--format", "github", "--rules",
                                   "-*,hlo-duplicate-device-id", "model.hlo"},
                                  dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  size_t errors = 0, pos = 0;
  while ((pos = r.out.find("::error ", pos)) != std::string::npos) {
    ++errors;
    ++pos;
  }
  EXPECT_EQ(errors, 1000u);
  EXPECT_THAT(r.out, HasSubstr("500 more hlo-duplicate-device-id findings in "
                               "this unit not shown (at most 1000"));
}

}  // namespace
}  // namespace topolint::testing
