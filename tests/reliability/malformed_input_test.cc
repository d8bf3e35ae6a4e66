// Malformed versions of real inputs: every prefix (truncation at each byte)
// and a few hundred random byte flips of fixture HLO, def.json and config
// files. Each variant is checked in process (parse + every rule), and a
// sample through the CLI: never a crash, every finding inside its file, a
// truncated document always reported, and the CLI exits 0 or 1 (never 2 for
// a readable file, never a signal).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/reliability/reliability_util.h"

namespace topolint::testing {
namespace {

using ::testing::AnyOf;

struct Case {
  std::string dir;  // fixture directory, relative to the source tree
  std::vector<std::string> files;
};

// Units with an HLO module and a def.json, and with a config.
const Case kCases[] = {
    {"fixtures/xref-topology-mismatch/fail-group-differs",
     {"model.hlo", "def.json"}},
    {"fixtures/xref-config-groups/pass-vllm-families",
     {"model.hlo", "vllm_config.json"}},
};

// Lines as an editor counts them (HLO counts so: a lone '\r' ends a line
// too; JSON, which counts '\n' only, stays within this bound).
int64_t Lines(const std::string& s) {
  int64_t n = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    n += s[i] == '\n' ||
         (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n'));
  }
  return n;
}

// Checks the unit with `inputs` in process; every finding must be located
// inside one of the inputs.
std::vector<Finding> CheckInProcess(const std::vector<InMemoryInput>& inputs) {
  std::vector<Finding> findings = CheckTexts(inputs);
  for (const Finding& f : findings) {
    bool known = false;
    for (const InMemoryInput& in : inputs) {
      if (in.name != f.loc.file) continue;
      known = true;
      EXPECT_GE(f.loc.line, 0) << f.message;
      EXPECT_LE(f.loc.line, Lines(in.text)) << f.rule << ": " << f.message;
    }
    EXPECT_TRUE(known) << f.loc.file << " is not an input";
    EXPECT_FALSE(f.message.empty()) << f.rule;
  }
  return findings;
}

std::vector<InMemoryInput> ReadCase(const Case& c) {
  std::vector<InMemoryInput> inputs;
  for (const std::string& f : c.files) {
    inputs.push_back(
        {f, ReadAll(std::string(TOPOLINT_SOURCE_DIR) + "/" + c.dir + "/" + f)});
    EXPECT_FALSE(inputs.back().text.empty()) << c.dir << "/" << f;
  }
  return inputs;
}

// Runs the CLI over `inputs` written to a fresh directory; returns the wall
// time in seconds.
double CheckWithCli(const std::vector<InMemoryInput>& inputs) {
  TempDir d;
  for (const InMemoryInput& in : inputs) d.Write(in.name, in.text);
  const auto start = std::chrono::steady_clock::now();
  CliResult r = RunTopolintWithin({"check", "--format", "json", d.path()});
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_THAT(r.exit_code, AnyOf(0, 1)) << r.err;
  return secs;
}

// Each variant is checked in a child process (RunIsolated): a variant that
// crashes or hangs fails the test with its name instead of stopping it.
constexpr int kVariantTimeoutSeconds = 10;

class MalformedInputTest : public ::testing::TestWithParam<Case> {};

TEST_P(MalformedInputTest, EveryTruncationIsHandled) {
  const std::vector<InMemoryInput> base = ReadCase(GetParam());
  double slowest = 0;
  int cli_runs = 0;
  for (size_t which = 0; which < base.size(); ++which) {
    const std::string& full = base[which].text;
    const bool is_json =
        base[which].name.size() > 5 &&
        base[which].name.substr(base[which].name.size() - 5) == ".json";
    // The last byte that matters: a JSON prefix shorter than this is
    // incomplete; an HLO prefix cut before the final '}' leaves the entry
    // computation open.
    const size_t last = full.find_last_not_of(" \n\r\t");
    const size_t entry = full.find("ENTRY");
    for (size_t n = 0; n < full.size(); ++n) {
      SCOPED_TRACE(base[which].name + " cut at " + std::to_string(n));
      std::vector<InMemoryInput> inputs = base;
      inputs[which].text = full.substr(0, n);
      const char* syntax = is_json ? "json-syntax" : "hlo-syntax";
      const bool must_fail =
          is_json ? n <= last
                  : entry != std::string::npos && n > entry + 5 && n <= last;
      IsolatedRun run = RunIsolated(
          [&] {
            std::vector<Finding> findings = CheckInProcess(inputs);
            if (must_fail) {
              EXPECT_NE(FindRuleFinding(findings, syntax), nullptr)
                  << Describe(findings);
            }
          },
          kVariantTimeoutSeconds);
      EXPECT_TRUE(run.Clean()) << run.Describe();
      if (n % 41 == 0) {
        slowest = std::max(slowest, CheckWithCli(inputs));
        ++cli_runs;
      }
    }
  }
  RecordProperty("cli_runs", cli_runs);
  RecordProperty("slowest_cli_run_ms", static_cast<int>(slowest * 1000));
  // Not a timing test: a guard against a hang (each run is a few ms).
  EXPECT_LT(slowest, 30.0);
}

TEST_P(MalformedInputTest, RandomByteFlipsAreHandled) {
  const std::vector<InMemoryInput> base = ReadCase(GetParam());
  std::mt19937 rng(0x70b0);
  const std::string interesting = "{}[](),=:\"%<>-0123456789\n \x00\xff\x80";
  double slowest = 0;
  int cli_runs = 0;
  for (int variant = 0; variant < 300; ++variant) {
    std::vector<InMemoryInput> inputs = base;
    const size_t which = rng() % inputs.size();
    std::string& text = inputs[which].text;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < flips && !text.empty(); ++i) {
      const size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0:
          text[at] = static_cast<char>(rng() & 0xff);
          break;
        case 1:
          text[at] = interesting[rng() % interesting.size()];
          break;
        case 2:
          text.erase(at, 1 + rng() % 16);
          break;
        default:
          text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 32));
      }
    }
    SCOPED_TRACE("variant " + std::to_string(variant) + " of " +
                 inputs[which].name + ":\n" + text);
    IsolatedRun run =
        RunIsolated([&] { CheckInProcess(inputs); }, kVariantTimeoutSeconds);
    EXPECT_TRUE(run.Clean()) << run.Describe();
    if (variant % 15 == 0) {
      slowest = std::max(slowest, CheckWithCli(inputs));
      ++cli_runs;
    }
  }
  RecordProperty("cli_runs", cli_runs);
  RecordProperty("slowest_cli_run_ms", static_cast<int>(slowest * 1000));
  EXPECT_LT(slowest, 30.0);
}

TEST_P(MalformedInputTest, ParsersAloneAcceptEveryPrefix) {
  // The parsers without the rules, on every prefix, including the
  // HLO parser's window invariance for a 7-byte window.
  for (const InMemoryInput& in : ReadCase(GetParam())) {
    for (size_t n = 0; n <= in.text.size(); ++n) {
      const std::string prefix = in.text.substr(0, n);
      SCOPED_TRACE(in.name + " cut at " + std::to_string(n));
      IsolatedRun run = RunIsolated(
          [&] {
            if (in.name == "model.hlo") {
              hlo::ParseOptions small;
              small.window_bytes = 7;
              hlo::Module a = hlo::ParseHloText(prefix, "m.hlo");
              hlo::Module b = hlo::ParseHloText(prefix, "m.hlo", small);
              ASSERT_EQ(a.syntax_errors.size(), b.syntax_errors.size())
                  << prefix;
              ASSERT_EQ(a.collectives.size(), b.collectives.size()) << prefix;
              for (const hlo::SyntaxError& e : a.syntax_errors) {
                EXPECT_GE(e.pos.line, 1);
                EXPECT_LE(e.pos.line, Lines(prefix));
                EXPECT_GE(e.pos.column, 1);
              }
            } else {
              json::ParseResult r = json::Parse(prefix);
              if (r.ok) {
                (void)neff::BuildDefJson(r.root, in.name);
              } else {
                EXPECT_LE(r.error.pos.line, Lines(prefix));
                EXPECT_GE(r.error.pos.column, 1);
              }
            }
          },
          kVariantTimeoutSeconds);
      EXPECT_TRUE(run.Clean()) << run.Describe();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, MalformedInputTest,
                         ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.index == 0 ? std::string("HloAndDefJson")
                                                  : std::string("HloAndConfig");
                         });

}  // namespace
}  // namespace topolint::testing
