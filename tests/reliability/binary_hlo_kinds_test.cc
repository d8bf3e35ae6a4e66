// Binary HLO goes through the same file-kind checks and limits as text:
// devices, named FIFOs and sockets are refused (exit 2) without blocking, a
// symlink is read as its target, and a binary module (plain or gzip) given
// through a pipe, process substitution or standard input is recognised by
// its content.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reliability/environment_util.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

const char kPlain[] =
    "fixtures/hlo-duplicate-device-id/fail-binary-module/model.hlo_module.pb";
const char kGzip[] =
    "fixtures/hlo-duplicate-device-id/fail-binary-gzip/"
    "model.pb.gz";
const char kFinding[] = "replica 0 is repeated in %ar's replica groups";

std::string Src(const char* rel) {
  return std::string(TOPOLINT_SOURCE_DIR) + "/" + rel;
}

TEST(BinaryHloKindsTest, DevicesFifosAndSocketsAreRefused) {
  TempDir dir;
  std::filesystem::create_symlink("/dev/zero", dir.path() + "/z.hlo_module.pb");
  const std::string fifo = dir.path() + "/f.hlo_module.pb";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string sock = dir.path() + "/s.hlo_module.pb";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof(addr.sun_path));
  std::copy(sock.begin(), sock.end(), addr.sun_path);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {{"z.hlo_module.pb"}, "is a character device"},
           {{"--hlo", "z.hlo_module.pb"}, "is a character device"},
           {{"f.hlo_module.pb"}, "named pipe (FIFO)"},
           {{"--hlo", "f.hlo_module.pb"}, "named pipe (FIFO)"},
           {{"s.hlo_module.pb"}, "is a socket"},
           {{"--hlo", "s.hlo_module.pb"}, "is a socket"}}) {
    const CliResult r = RunTopolint(c.args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.says)) << c.args.back();
  }
  close(fd);
}

TEST(BinaryHloKindsTest, SymlinkIsReadAsItsTarget) {
  TempDir dir;
  std::filesystem::create_symlink(Src(kPlain), dir.path() + "/link.hlo");
  std::filesystem::create_symlink(Src(kGzip), dir.path() + "/gz.hlo");
  for (const char* name : {"link.hlo", "gz.hlo"}) {
    for (bool explicit_flag : {false, true}) {
      std::vector<std::string> args;
      if (explicit_flag) args.push_back("--hlo");
      args.push_back(name);
      const CliResult r = RunTopolint(args, dir.path());
      EXPECT_EQ(r.exit_code, 1) << name << "\n" << r.err;
      EXPECT_THAT(r.out, HasSubstr(kFinding)) << name;
    }
  }
}

TEST(BinaryHloKindsTest, PipesAndStandardInputAreToldByContent) {
  for (const char* file : {kPlain, kGzip}) {
    const std::string f(file);
    for (const std::string& script :
         {"\"$TL\" <(cat " + f + ")", "\"$TL\" --hlo <(cat " + f + ")",
          "cat " + f + " | \"$TL\" --stdin-filename x.hlo_module.pb -",
          "cat " + f + " | \"$TL\" --stdin-filename x.hlo -",
          "cat " + f + " | \"$TL\" --stdin-filename model -"}) {
      const CliResult r = RunShell(script);
      EXPECT_EQ(r.exit_code, 1) << script << "\n" << r.err;
      EXPECT_THAT(r.out, HasSubstr(kFinding)) << script;
      EXPECT_THAT(r.out, HasSubstr("in computation %main, op %ar")) << script;
    }
  }
  // Binary garbage through a pipe is still "cannot tell", not a crash.
  const CliResult r = RunShell("\"$TL\" <(printf '\\001\\002\\003garbage')");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cannot tell what kind of input"));
}

}  // namespace
}  // namespace topolint::testing
