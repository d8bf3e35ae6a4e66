// Runs tests/integration/install_test.sh: `cmake --install` of this build
// into a temporary prefix, then a consumer project using find_package(topolint)
// builds against it and reports a finding through the C++ and the C API.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

// A clang-sanitized libtopolint_c.so takes the sanitizer runtimes from the
// executable, so the consumer's executables (one of them linked as C) must
// link them, with UBSan's C++ part. GCC's sanitized library loads its own.
std::string ConsumerLinkFlags() {
  if (!TOPOLINT_SANITIZE_BUILD) return "";
  if (std::string(TOPOLINT_SANITIZER_RUNTIME) == "libasan.so") return "";
  return "-fsanitize=address,undefined -fsanitize-link-c++-runtime -lstdc++";
}

TEST(InstallTest, ConsumerBuildsAgainstTheInstalledPackage) {
  TempDir d;
  std::string log = d.path() + "/install.log";
  std::string cmd = "bash " +
                    ShellQuote(std::string(TOPOLINT_SOURCE_DIR) +
                               "/tests/integration/install_test.sh") +
                    " " + ShellQuote(TOPOLINT_BUILD_DIR) + " " +
                    ShellQuote(TOPOLINT_SOURCE_DIR) + " " +
                    ShellQuote(TOPOLINT_CMAKE_COMMAND) + " " +
                    ShellQuote(TOPOLINT_CMAKE_GENERATOR) + " " +
                    ShellQuote(TOPOLINT_CXX_COMPILER) + " " +
                    ShellQuote(TOPOLINT_C_COMPILER) + " " +
                    ShellQuote(ConsumerLinkFlags()) + " >" + ShellQuote(log) +
                    " 2>&1";
  int status = std::system(cmd.c_str());
  std::string out = ReadAll(log);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  // The consumer's own output, echoed by the script.
  EXPECT_THAT(out, HasSubstr("out/def.json:1:41: error: Empty topology found "
                             "at index 1, possible MPMD neff file"));
  EXPECT_THAT(out, HasSubstr("\"rule\": \"neff-empty-topology\""));
  EXPECT_THAT(out, HasSubstr("install_test: OK"));
}

}  // namespace
}  // namespace topolint::testing
