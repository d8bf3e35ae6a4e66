// Start-up cost (docs/reference/quality.md: start-up plus a small file under
// 10 ms): the
// `topolint` executable must not load libarchive and its 17 dependencies at
// start; the .neff reader dlopens it on first use
// (checker/neff/libarchive_api.h). The .neff golden fixtures check that the
// loaded path works; this checks that the executable does not need it. Nor,
// when Abseil's static archives are linked (TOPOLINT_STATIC_ABSEIL,
// cmake/StaticAbseil.cmake), any of Abseil's ~25 shared libraries.
#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint {
namespace {

std::string Shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST(StartupTest, ExecutableDoesNotNeedLibarchive) {
  if (Shell("command -v readelf").empty()) GTEST_SKIP() << "no readelf";
  const std::string needed =
      Shell(std::string("readelf -d '") + TOPOLINT_BINARY + "' | grep NEEDED");
  ASSERT_THAT(needed, ::testing::HasSubstr("libc.so"));
  EXPECT_THAT(needed, ::testing::Not(::testing::HasSubstr("libarchive")));
}

TEST(StartupTest, ExecutableDoesNotNeedAbseilWhenLinkedStatically) {
  if (!TOPOLINT_ABSEIL_STATIC) GTEST_SKIP() << "Abseil is linked shared";
  if (Shell("command -v readelf").empty()) GTEST_SKIP() << "no readelf";
  const std::string needed =
      Shell(std::string("readelf -d '") + TOPOLINT_BINARY + "' | grep NEEDED");
  ASSERT_THAT(needed, ::testing::HasSubstr("libc.so"));
  EXPECT_THAT(needed, ::testing::Not(::testing::HasSubstr("libabsl")));
}

// With TOPOLINT_STATIC_RUNTIME (cmake/StaticRuntime.cmake) the command loads
// nothing but the C library at start: every other library the dynamic loader
// would map and relocate before main() is linked in.
TEST(StartupTest, ExecutableNeedsOnlyTheCLibraryWhenTheRuntimeIsStatic) {
  if (!TOPOLINT_RUNTIME_STATIC) GTEST_SKIP() << "the run time is linked shared";
  if (Shell("command -v readelf").empty()) GTEST_SKIP() << "no readelf";
  const std::string needed =
      Shell(std::string("readelf -d '") + TOPOLINT_BINARY +
            "' | sed -n 's/.*NEEDED.*\\[\\(.*\\)\\]/\\1/p'");
  ASSERT_THAT(needed, ::testing::HasSubstr("libc.so"));
  std::string others;
  size_t begin = 0;
  while (begin < needed.size()) {
    size_t end = needed.find('\n', begin);
    if (end == std::string::npos) end = needed.size();
    const std::string lib = needed.substr(begin, end - begin);
    if (!lib.empty() && lib.rfind("libc.so", 0) != 0 &&
        lib.rfind("libm.so", 0) != 0 && lib.rfind("ld-linux", 0) != 0) {
      others += lib + " ";
    }
    begin = end + 1;
  }
  EXPECT_EQ(others, "") << "NEEDED:\n" << needed;
}

}  // namespace
}  // namespace topolint
