// Replays every input under fuzz/regressions/<target>/ (inputs that once
// crashed, hung or broke an invariant) through the same code as the fuzz
// target, in the normal test suite, so that a fixed bug stays fixed without
// a libFuzzer build. Also replays the fixture inputs, which the fuzzers'
// seed corpora are made of, through the same invariant checks.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_targets.h"
#include "fuzz/gzip_stream_target.h"
#include "fuzz/stdin_target.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using Target = std::function<void(std::string_view)>;

const std::map<std::string, Target>& Targets() {
  static const auto* const targets = new std::map<std::string, Target>{
      {"hlo_parser_fuzz", fuzz::RunHloParserTarget},
      {"hlo_proto_fuzz", fuzz::RunHloProtoTarget},
      {"def_json_fuzz", fuzz::RunDefJsonTarget},
      {"config_fuzz", fuzz::RunConfigTarget},
      {"neff_archive_fuzz", fuzz::RunNeffArchiveTarget},
      {"unit_fuzz", fuzz::RunUnitTarget},
      {"baseline_fuzz", fuzz::RunBaselineTarget},
      {"project_config_fuzz", fuzz::RunProjectConfigTarget},
      {"gzip_stream_fuzz", fuzz::RunGzipStreamTarget},
      // The CLI's standard-input path: it takes over fd 0, which each
      // replay may, in its own child process (RunIsolated).
      {"stdin_fuzz", fuzz::RunStdinTarget},
  };
  return *targets;
}

// Routes fuzz::Fail to a test failure for the current input.
class FailToTestFailure {
 public:
  FailToTestFailure() {
    fuzz::FailHook() = [](const std::string& what) {
      ADD_FAILURE() << "invariant broken: " << what;
    };
  }
  ~FailToTestFailure() { fuzz::FailHook() = nullptr; }
};

std::vector<fs::path> FilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.' &&
        e.path().filename() != "README.md") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzRegressionsTest, EveryRegressionDirectoryNamesATarget) {
  const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fuzz" / "regressions";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) GTEST_SKIP() << "no fuzz/regressions";
  for (const auto& e : fs::directory_iterator(root)) {
    if (!e.is_directory()) continue;
    EXPECT_EQ(Targets().count(e.path().filename().string()), 1u)
        << e.path() << " is not a fuzz target's name";
  }
}

// Replays the regression inputs of every target, each in a child process
// (RunIsolated) with a generous time limit, so that an input that crashes or
// hangs again fails here, by name, instead of taking the test binary down or
// stalling the suite.
TEST(FuzzRegressionsTest, RegressionInputsRunClean) {
  const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fuzz" / "regressions";
  int replayed = 0;
  for (const auto& [name, run] : Targets()) {
    for (const fs::path& p : FilesUnder(root / name)) {
      const std::string input = ReadAll(p.string());
      IsolatedRun result = RunIsolated(
          [&, run = run] {
            FailToTestFailure hook;
            run(input);
          },
          /*timeout_seconds=*/60);
      EXPECT_TRUE(result.Clean()) << p.string() << ": " << result.Describe();
      ++replayed;
    }
  }
  ::testing::Test::RecordProperty("replayed", replayed);
  EXPECT_GT(replayed, 0) << "no input under " << root;
}

TEST(FuzzRegressionsTest, FixtureInputsKeepTheInvariants) {
  FailToTestFailure hook;
  const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  int replayed = 0;
  for (const fs::path& p : FilesUnder(root)) {
    const std::string name = p.filename().string();
    SCOPED_TRACE(p.string());
    if (p.extension() == ".hlo") {
      fuzz::RunHloParserTarget(ReadAll(p.string()));
    } else if (p.extension() == ".pb" || p.extension() == ".gz") {
      fuzz::RunHloProtoTarget(ReadAll(p.string()));
    } else if (name == "def.json") {
      fuzz::RunDefJsonTarget(ReadAll(p.string()));
    } else if (name == "neuron_config.json" || name == "vllm_config.json") {
      fuzz::RunConfigTarget(ReadAll(p.string()));
    } else if (p.extension() == ".neff") {
      fuzz::RunNeffArchiveTarget(ReadAll(p.string()));

    } else {
      continue;
    }
    ++replayed;
  }
  EXPECT_GT(replayed, 50);
}

}  // namespace
}  // namespace topolint::testing
