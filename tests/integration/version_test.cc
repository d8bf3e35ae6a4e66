// The version has one source, VERSION at the repository root: CMake's
// project version (and so `topolint --version`, api::Version() and the C
// library) and python/setup.py read it; the copies that cannot read it (the
// C header's macros, the tags the README and docs tell users to pin, the
// CHANGELOG's latest release) must equal it. A release bumps VERSION, then
// whatever this test names.
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "topolint/topolint.h"
#include "topolint/topolint_c.h"

namespace topolint::testing {
namespace {

std::string Source(const std::string& rel) {
  return std::string(TOPOLINT_SOURCE_DIR) + "/" + rel;
}

std::string TheVersion() {
  return std::string(absl::StripAsciiWhitespace(ReadAll(Source("VERSION"))));
}

// The version-like token after each occurrence of `marker` in `text`.
std::vector<std::string> TokensAfter(const std::string& text,
                                     const std::string& marker) {
  std::vector<std::string> out;
  for (size_t p = text.find(marker); p != std::string::npos;
       p = text.find(marker, p + 1)) {
    size_t b = p + marker.size(), e = b;
    while (e < text.size() &&
           (absl::ascii_isalnum(text[e]) || text[e] == '.' || text[e] == '-')) {
      ++e;
    }
    out.push_back(text.substr(b, e - b));
  }
  return out;
}

TEST(VersionTest, VersionFileHoldsOneSemanticVersion) {
  const std::string v = TheVersion();
  std::vector<std::string> parts = absl::StrSplit(v, '.');
  ASSERT_EQ(parts.size(), 3u) << v;
  for (const std::string& p : parts) {
    int n;
    EXPECT_TRUE(absl::SimpleAtoi(p, &n) && n >= 0) << v;
  }
}

TEST(VersionTest, BuildAndLibrariesCarryIt) {
  const std::string v = TheVersion();
  EXPECT_EQ(std::string(api::Version()), v);
  const CliResult r = RunTopolint({"--version"});
  EXPECT_EQ(r.out, "topolint " + v + "\n");
  EXPECT_EQ(std::string(TOPOLINT_VERSION_STRING), v);
  std::vector<std::string> parts = absl::StrSplit(v, '.');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(std::to_string(TOPOLINT_VERSION_MAJOR), parts[0]);
  EXPECT_EQ(std::to_string(TOPOLINT_VERSION_MINOR), parts[1]);
  EXPECT_EQ(std::to_string(TOPOLINT_VERSION_PATCH), parts[2]);
}

TEST(VersionTest, PythonPackageReadsIt) {
  TempDir d;
  const std::string out = d.path() + "/v.txt";
  const std::string cmd = "cd " + ShellQuote(Source("python")) +
                          " && python3 setup.py --version >" + ShellQuote(out) +
                          " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::string printed = ReadAll(out);
  // setuptools may print warnings first: the version is the last line.
  printed = std::string(absl::StripAsciiWhitespace(printed));
  printed = printed.substr(printed.rfind('\n') + 1);
  EXPECT_EQ(printed, TheVersion());
}

TEST(VersionTest, DocumentedTagsAreTheVersion) {
  const std::string tag = "v" + TheVersion();
  struct Place {
    std::string file, marker;
  };
  const std::vector<Place> places = {
      {"README.md", "rev: "},
      {"docs/integration.md", "rev: "},
      {"docs/integration.md", "--branch "},
      {".pre-commit-hooks.yaml", "rev: "},
  };
  for (const Place& p : places) {
    const std::vector<std::string> tokens =
        TokensAfter(ReadAll(Source(p.file)), p.marker);
    EXPECT_FALSE(tokens.empty()) << p.file << " no longer has " << p.marker;
    for (const std::string& t : tokens) {
      EXPECT_EQ(t, tag) << p.file << ": `" << p.marker << t << "`";
    }
  }
}

TEST(VersionTest, ChangelogsLatestReleaseIsTheVersion) {
  const std::string log = ReadAll(Source("CHANGELOG.md"));
  EXPECT_NE(log.find("\n## [Unreleased]\n"), std::string::npos);
  const std::vector<std::string> releases = TokensAfter(log, "\n## [");
  ASSERT_GE(releases.size(), 2u);
  EXPECT_EQ(releases[0], "Unreleased");
  EXPECT_EQ(releases[1], TheVersion());
  // Each release heading has its link reference at the end.
  EXPECT_NE(log.find("\n[" + TheVersion() + "]: "), std::string::npos);
}

}  // namespace
}  // namespace topolint::testing
