// Issue 47 §4: one finding, one path and one fingerprint in every
// machine-read format, whichever directory topolint runs from.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBadDef[] = R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})"
                           "\n";

class OnePathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = d_.path() + "/repo";
    fs::create_directories(root_ + "/.git");  // what the root finder seeks
    WriteAll(root_ + "/llama/def.json", kBadDef);
  }
  TempDir d_;
  std::string root_;
};

TEST_F(OnePathTest, SarifFingerprintIsTheSameFromAnyDirectory) {
  auto fingerprint = [&](const std::string& cwd, const std::string& path) {
    const CliResult r = RunTopolint({"check", "--format", "sarif", path}, cwd);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const nlohmann::json log = nlohmann::json::parse(r.out);
    const nlohmann::json& result = log["runs"][0]["results"][0];
    EXPECT_EQ(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "llama/def.json");
    return result["partialFingerprints"]["topolint/v1"].get<std::string>();
  };
  const std::string from_root = fingerprint(root_, ".");
  EXPECT_EQ(fingerprint(root_, "llama"), from_root);
  EXPECT_EQ(fingerprint(root_ + "/llama", "."), from_root);
  EXPECT_EQ(fingerprint(root_ + "/llama", "def.json"), from_root);
}

TEST_F(OnePathTest, EveryFingerprintIsSarifsFromAnyDirectory) {
  const CliResult sarif =
      RunTopolint({"check", "--format", "sarif", "."}, root_);
  const std::string want = nlohmann::json::parse(
      sarif.out)["runs"][0]["results"][0]["partialFingerprints"]["topolint/v1"];
  for (const auto& [cwd, path] :
       std::vector<std::pair<std::string, std::string>>{
           {root_, "."},
           {root_ + "/llama", "."},
           {root_ + "/llama", "def.json"},
           {d_.path(), "repo/llama"}}) {
    CliResult r = RunTopolint({"check", "--format", "json", path}, cwd);
    EXPECT_EQ(nlohmann::json::parse(r.out)[0]["fingerprint"], want) << cwd;
    r = RunTopolint({"check", "--format", "gitlab", path}, cwd);
    EXPECT_EQ(nlohmann::json::parse(r.out)[0]["fingerprint"], want) << cwd;
  }
}

TEST_F(OnePathTest, ABaselineWrittenInOneDirectoryAppliesFromAnother) {
  const std::string baseline = d_.path() + "/baseline.json";
  CliResult r = RunTopolint({"check", "--write-baseline", baseline, "."},
                            root_ + "/llama");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const nlohmann::json written = nlohmann::json::parse(ReadAll(baseline));
  ASSERT_EQ(written["findings"].size(), 1u) << written.dump();
  EXPECT_EQ(written["findings"][0]["file"], "llama/def.json");
  for (const auto& [cwd, path] :
       std::vector<std::pair<std::string, std::string>>{
           {root_, "."}, {root_, "llama/def.json"}, {d_.path(), "repo"}}) {
    r = RunTopolint({"check", "--baseline", baseline, path}, cwd);
    EXPECT_EQ(r.exit_code, 0) << cwd << " " << path << "\n" << r.out << r.err;
  }
}

TEST_F(OnePathTest, TheRootIsNamedWithoutDotSlash) {
  // pre-commit runs `topolint check .` from the root: "llama/def.json" in
  // text, JSON and JUnit alike, as SARIF and GitLab name it.
  CliResult r = RunTopolint({"check", "--color", "never", "."}, root_);
  EXPECT_EQ(r.out.rfind("llama/def.json:1:", 0), 0u) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("./llama")));
  r = RunTopolint({"check", "--format", "json", "."}, root_);
  EXPECT_THAT(r.out, HasSubstr("\"file\": \"llama/def.json\""));
  r = RunTopolint({"check"}, root_);
  EXPECT_THAT(r.out, HasSubstr("llama/def.json:1:"));
  EXPECT_THAT(r.out, Not(HasSubstr("./llama")));
}

TEST_F(OnePathTest, JunitNamesFilesFromTheRoot) {
  const CliResult r =
      RunTopolint({"check", "--format", "junit", "."}, root_ + "/llama");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("file=\"llama/def.json\""));
  EXPECT_THAT(r.out, HasSubstr("name=\"llama/def.json:1:"));
}

// The files a report names, read the way each format writes them.
std::set<std::string> PathsIn(const std::string& format,
                              const std::string& out) {
  std::set<std::string> paths;
  auto lines = [&](const std::string& text, const std::string& sep) {
    std::vector<std::string> v;
    size_t at = 0;
    while (at <= text.size()) {
      size_t end = text.find(sep, at);
      if (end == std::string::npos) end = text.size();
      v.push_back(text.substr(at, end - at));
      at = end + sep.size();
    }
    return v;
  };
  // "path:line:col: severity: ..." (text, concise, GitHub's note lines).
  auto headline = [&](const std::string& line) {
    for (const char* sev : {": error: ", ": warning: ", ": note: "}) {
      const size_t at = line.find(sev);
      if (at == std::string::npos || line.empty() || line[0] == ' ') continue;
      std::string place = line.substr(0, at);
      for (int i = 0; i < 2 && place.rfind(':') != std::string::npos; ++i) {
        place.resize(place.rfind(':'));
      }
      paths.insert(place);
    }
  };
  if (format == "text" || format == "concise") {
    for (const std::string& l : lines(out, "\n")) headline(l);
  } else if (format == "github") {
    for (const std::string& l : lines(out, "\n")) {
      const size_t file = l.find(" file=");
      if (file == std::string::npos) continue;
      paths.insert(l.substr(file + 6, l.find(',', file) - file - 6));
      const std::vector<std::string> parts = lines(l, "%0A");
      for (size_t i = 1; i < parts.size(); ++i) headline(parts[i]);
    }
  } else if (format == "junit") {
    for (const std::string& l : lines(out, "\n")) headline(l);  // notes
    for (const char* attr : {" file=\"", " name=\""}) {
      for (size_t at = out.find(attr); at != std::string::npos;
           at = out.find(attr, at + 1)) {
        const size_t begin = at + std::string(attr).size();
        std::string v = out.substr(begin, out.find('"', begin) - begin);
        if (std::string(attr) == " name=\"") {
          if (v.find(".hlo") == std::string::npos &&
              v.find(".json") == std::string::npos) {
            continue;  // the suite's name
          }
          v.resize(v.find(':'));
        }
        paths.insert(v);
      }
    }
  } else {
    const nlohmann::json doc = nlohmann::json::parse(out);
    if (format == "json") {
      for (const auto& f : doc) {
        paths.insert(f["file"].get<std::string>());
        for (const auto& n : f["notes"]) paths.insert(n["file"]);
      }
    } else if (format == "gitlab") {
      for (const auto& f : doc) paths.insert(f["location"]["path"]);
    } else if (format == "sarif") {
      for (const auto& r : doc["runs"][0]["results"]) {
        for (const char* key : {"locations", "relatedLocations"}) {
          if (!r.contains(key)) continue;
          for (const auto& l : r[key]) {
            paths.insert(l["physicalLocation"]["artifactLocation"]["uri"]
                             .get<std::string>());
          }
        }
      }
    }
  }
  return paths;
}

// Issue 47 §4: a finding and its notes are named by the same root-relative
// path in every format, from the root and from a subdirectory alike.
TEST_F(OnePathTest, EveryFormatNamesTheSameFiles) {
  const std::string fixture = std::string(TOPOLINT_SOURCE_DIR) +
                              "/fixtures/xref-topology-mismatch/"
                              "fail-group-differs/";
  fs::remove(root_ + "/llama/def.json");
  fs::copy_file(fixture + "model.hlo", root_ + "/llama/model.hlo");
  fs::copy_file(fixture + "def.json", root_ + "/llama/def.json");
  const std::set<std::string> expected = {"llama/def.json", "llama/model.hlo"};
  for (const char* format :
       {"text", "concise", "json", "github", "junit", "gitlab", "sarif"}) {
    for (const auto& [cwd, path] :
         std::vector<std::pair<std::string, std::string>>{
             {root_, "."},
             {root_, "llama"},
             {root_ + "/llama", "."},
             {root_ + "/llama", "../llama/model.hlo"}}) {
      std::vector<std::string> args = {"check",    "--color", "never",
                                       "--format", format,    path};
      if (path.find(".hlo") != std::string::npos) {
        args = {"check", "--color", "never",  "--format", format,
                "--hlo", path,      "--neff", "def.json"};
      }
      const CliResult r = RunTopolint(args, cwd);
      EXPECT_EQ(r.exit_code, 1) << format << " " << r.err;
      // The concise and GitLab formats show no notes.
      const bool notes =
          std::string(format) != "concise" && std::string(format) != "gitlab";
      EXPECT_EQ(PathsIn(format, r.out),
                notes ? expected : std::set<std::string>{"llama/model.hlo"})
          << format << " from " << cwd << ":\n"
          << r.out;
    }
  }
}

}  // namespace
}  // namespace topolint::testing
