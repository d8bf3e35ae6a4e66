// The version has one source, VERSION at the repository root: CMake's
// project version (and so `topolint --version`, api::Version() and the C
// library) and the Python package's build backend
// (python/build_backend/topolint_build.py) read it; the copies that cannot
// read it (the C header's macros, the tags the README and docs tell users to
// pin, the CHANGELOG's latest release) must equal it. A release bumps VERSION,
// then whatever this test names.
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

// The wheel's metadata (written by the build backend) and
// topolint.__version__ of the package imported from the checkout.
TEST(VersionTest, PythonPackageReadsIt) {
  TempDir d;
  const std::string out = d.path() + "/v.txt";
  const std::string script = d.Write("v.py", R"(import os, sys
sys.path[:0] = [os.path.join(sys.argv[1], "python", "build_backend"),
                os.path.join(sys.argv[1], "python")]
import topolint, topolint_build
meta = os.path.join(sys.argv[2], "meta")
name = topolint_build.prepare_metadata_for_build_wheel(meta)
with open(os.path.join(meta, name, "METADATA")) as f:
    print([l for l in f.read().splitlines() if l.startswith("Version: ")][0])
print(name)
print(topolint.__version__)
)");
  const std::string cmd =
      "python3 " + ShellQuote(script) + " " + ShellQuote(TOPOLINT_SOURCE_DIR) +
      " " + ShellQuote(d.path()) + " >" + ShellQuote(out) + " 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string printed = ReadAll(out);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << printed;
  const std::string v = TheVersion();
  EXPECT_EQ(printed,
            "Version: " + v + "\ntopolint-" + v + ".dist-info\n" + v + "\n");
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
