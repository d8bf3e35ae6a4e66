// What a check leaves out is a finding (rule unchecked-input, issue 43
// section 6): skipped compile-cache entries, modules and NEFFs that cannot be
// paired, and files of a known kind that are not read are shown by every
// output format, turn into a gate with --severity, can be turned off, and
// leave one line of counts on stderr (-v lists each).
#include <unistd.h>

#include <cstdint>
#include <filesystem>
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

const fs::path kPair =
    fs::path(TOPOLINT_SOURCE_DIR) / "fixtures/xref-topology-mismatch";

std::string Source(const std::string& rel) {
  return ReadAll((kPair / rel).string());
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// A cache of one finished entry and one entry in each skipped state.
struct Cache {
  TempDir d;
  std::string root, done, progress, incomplete, failed;
  Cache() {
    root = d.path() + "/cache";
    const std::string v = root + "/neuronxcc-2.21";
    done = v + "/MODULE_1+ab";
    progress = v + "/MODULE_2+ab";
    incomplete = v + "/MODULE_3+ab";
    failed = v + "/MODULE_4+ab";
    const std::string module = Source("pass-explicit/model.hlo");
    const std::string def = Source("pass-explicit/def.json");
    for (const std::string* e : {&done, &progress, &incomplete, &failed}) {
      WriteAll(*e + "/model.hlo", module);
    }
    WriteAll(done + "/def.json", def);
    WriteAll(done + "/model.done", "");
    WriteAll(progress + "/model.hlo.lock", "");
    WriteAll(incomplete + "/def.json", def);
    WriteAll(failed + "/model.log", "error\n");
  }
};

TEST(UncheckedInputCliTest, SkippedCacheEntriesAreFindingsNotesAndWarnings) {
  Cache c;
  const CliResult r = RunTopolint({"check", c.root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(c.progress +
                               ": note: compile-cache entry not checked: "
                               "compilation in progress (model.hlo.lock)"));
  EXPECT_THAT(r.out, HasSubstr(c.incomplete +
                               ": note: compile-cache entry not checked: "
                               "incomplete entry (no model.done)"));
  EXPECT_THAT(
      r.out,
      HasSubstr(c.failed + ": warning: compile-cache entry not checked: "
                           "failed compilation (model.log, no model.neff)"));
  EXPECT_EQ(Count(r.out, "[unchecked-input]"), 3u) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr(c.done)));
  // The summary counts them (and only the finished entry as a unit).
  EXPECT_THAT(r.err, HasSubstr("0 errors, 1 warning, 2 notes (1 unit, 2 files "
                               "checked"));
}

TEST(UncheckedInputCliTest, EveryFormatShowsThem) {
  Cache c;
  for (const char* format :
       {"json", "sarif", "junit", "github", "gitlab", "concise"}) {
    const CliResult r = RunTopolint({"check", "--format", format, c.root});
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    // (SARIF also lists the rule in its catalogue.)
    EXPECT_GE(Count(r.out, "unchecked-input"), 3u)
        << format << ": " << r.out.substr(0, 2000);
    EXPECT_THAT(r.out, HasSubstr("MODULE_4+ab")) << format;
  }
  const CliResult json = RunTopolint({"check", "--format", "json", c.root});
  const nlohmann::json findings = nlohmann::json::parse(json.out);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0]["rule"], "unchecked-input");
  EXPECT_EQ(findings[0]["file"], c.progress);
  EXPECT_EQ(findings[0]["severity"], "note");
  EXPECT_EQ(findings[2]["file"], c.failed);
  EXPECT_EQ(findings[2]["severity"], "warning");
}

TEST(UncheckedInputCliTest, SeverityErrorMakesAGate) {
  Cache c;
  CliResult r =
      RunTopolint({"check", "--severity", "unchecked-input=error", c.root});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, ": error: compile-cache entry not checked"), 3u)
      << r.out;
  // The same from .topolint.json.
  WriteAll(c.d.path() + "/.topolint.json",
           R"({"severity": {"unchecked-input": "error"}})");
  r = RunTopolint({"check", c.root});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // An explicit warning raises the notes too.
  r = RunTopolint({"check", "--severity", "unchecked-input=warning", c.root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Count(r.out, ": warning: compile-cache entry not checked"), 3u);
  // --werror counts the warning (the failed entry), not the notes.
  fs::remove(c.d.path() + "/.topolint.json");
  r = RunTopolint({"check", "--werror", c.root});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.out, ": error: "), 1u) << r.out;
  // A misspelt rule or level is a usage error.
  r = RunTopolint({"check", "--severity", "unchecked-inputs=error", c.root});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean 'unchecked-input'"));
  r = RunTopolint({"check", "--severity", "unchecked-input", c.root});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(UncheckedInputCliTest, RulesCanTurnItOff) {
  Cache c;
  const CliResult r =
      RunTopolint({"check", "--rules", "-unchecked-input", c.root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("unchecked-input")));
  EXPECT_THAT(r.err, HasSubstr("no findings"));
}

TEST(UncheckedInputCliTest, StderrGetsOneLineOfCountsAndVerboseListsAll) {
  TempDir d;
  const std::string module = Source("pass-explicit/model.hlo");
  for (int i = 0; i < 120; ++i) {
    const std::string e =
        d.path() + "/v/MODULE_" + std::to_string(1000 + i) + "+ab";
    WriteAll(e + "/model.hlo", module);
    WriteAll(e + (i % 3 == 0 ? "/model.log" : "/model.hlo.lock"), "");
  }
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, {d.path() + "/v"}}) {
    // Streamed (one directory) and planned (named twice) alike.
    std::vector<std::string> args = {"check", d.path() + "/v"};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = RunTopolint(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Count(r.out, "[unchecked-input]"), 120u);
    EXPECT_EQ(Count(r.err, "\n"), 2u) << r.err;
    EXPECT_THAT(r.err,
                HasSubstr("topolint: 120 compile-cache entries skipped (80 in "
                          "progress, 40 failed); see the unchecked-input "
                          "findings or -v\n"));
    EXPECT_THAT(r.err, Not(HasSubstr("warning: skipped compile-cache")));
    args.push_back("-v");
    r = RunTopolint(args);
    EXPECT_EQ(Count(r.err, ": compile-cache entry: compilation in progress"),
              80u);
    EXPECT_EQ(Count(r.err, ": compile-cache entry: failed compilation"), 40u);
  }
  // --quiet: nothing on stderr.
  const CliResult q = RunTopolint({"check", "--quiet", d.path() + "/v"});
  EXPECT_EQ(q.err, "");
}

TEST(UncheckedInputCliTest, UnpairedModulesAreAWarningAtTheirDirectory) {
  TempDir d;
  d.Write("w/model.hlo", Source("fail-group-differs/model.hlo"));
  d.Write("w/other.hlo", Source("fail-group-differs/model.hlo"));
  d.Write("w/def.json", Source("fail-group-differs/def.json"));
  const CliResult r = RunTopolint({"check", "w"}, d.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("w: warning: cross-file rules not run: cannot "
                               "tell which module each NEFF belongs to "
                               "(modules model.hlo, other.hlo; NEFF files "
                               "def.json)"));
  EXPECT_EQ(Count(r.out, "[unchecked-input]"), 1u);
  EXPECT_THAT(r.err, HasSubstr("1 directory whose modules and NEFFs could "
                               "not be paired"));
  const CliResult gate = RunTopolint(
      {"check", "--severity", "unchecked-input=error", "w"}, d.path());
  EXPECT_EQ(gate.exit_code, 1);
}

TEST(UncheckedInputCliTest, AFileOfAKnownKindNotReadIsAWarning) {
  TempDir d;
  d.Write("m/model.hlo", Source("pass-explicit/model.hlo"));
  // MLIR bytecode (a StableHLO portable artifact) and MLIR of a dialect
  // topolint does not read.
  d.Write("m/model.mlirbc", std::string("ML\xefR\x01StableHLO_v1.9.0", 21));
  d.Write("m/ttir.mlir",
          "module @m {\n  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> "
          "{\n    %0 = \"ttir.all_gather\"(%a) : (tensor<2xf32>) -> "
          "tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n");
  d.Write("m/README.md", "# notes\n");
  d.Write("m/make.py", "print(1)\n");
  const CliResult r = RunTopolint({"check", "-v", "m"}, d.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("m/model.mlirbc: warning: MLIR bytecode"));
  EXPECT_THAT(r.out, HasSubstr("stablehlo-translate --deserialize"));
  EXPECT_THAT(r.out, HasSubstr("m/ttir.mlir: warning: MLIR text of a "
                               "dialect topolint does not read"));
  EXPECT_THAT(r.out, HasSubstr("jax.jit(f).lower(x).as_text()"));
  // Ordinary files are no finding (-v lists them).
  EXPECT_EQ(Count(r.out, "[unchecked-input]"), 2u) << r.out;
  EXPECT_THAT(r.err, HasSubstr("skipped m/README.md: not a recognised"));
  EXPECT_THAT(r.err, HasSubstr("skipped m/model.mlirbc: MLIR bytecode"));
  EXPECT_THAT(r.err, HasSubstr("1 file checked, 4 skipped"));
  // Named, each is refused as any file topolint does not read.
  for (const char* f : {"m/model.mlirbc", "m/ttir.mlir"}) {
    const CliResult named = RunTopolint({"check", f}, d.path());
    EXPECT_EQ(named.exit_code, 2) << f;
    EXPECT_THAT(named.err, HasSubstr(std::string(f) + ": MLIR "));
  }
}

TEST(UncheckedInputCliTest, StableHloTextIsChecked) {
  TempDir d;
  d.Write("m/model.mlir",
          "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
          "  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
          "    %0 = \"stablehlo.collective_permute\"(%a) {channel_handle = "
          "#stablehlo.channel_handle<handle = 1, type = 1>, "
          "source_target_pairs = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} "
          ": (tensor<2xf32>) -> tensor<2xf32>\n"
          "    return %0 : tensor<2xf32>\n  }\n}\n");
  for (const char* path : {"m", "m/model.mlir"}) {
    const CliResult r = RunTopolint({"check", path}, d.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.out, HasSubstr("m/model.mlir:3:"));
    EXPECT_THAT(r.out, HasSubstr("[hlo-permute-pairs]"));
    EXPECT_EQ(Count(r.out, "[unchecked-input]"), 0u) << r.out;
  }
}

TEST(UncheckedInputCliTest, AJsonThatCannotBeReadIsAWarning) {
  TempDir d;
  d.Write("m/model.hlo", Source("pass-explicit/model.hlo"));
  // Over the 64 MiB JSON limit (sparse: nothing is written).
  const std::string big = d.Write("m/model.def.json", "{");
  fs::resize_file(big, (std::uintmax_t{64} << 20) + 10);
  CliResult r = RunTopolint({"check", "m"}, d.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("m/model.def.json: warning: a .json that was "
                               "not read (more than 67108864 bytes"));
  EXPECT_THAT(r.err, HasSubstr("1 file of a known kind not read"));
  if (::geteuid() == 0) return;  // root reads any file
  fs::resize_file(big, 2);
  fs::permissions(big, fs::perms::none);
  r = RunTopolint({"check", "m"}, d.path());
  fs::permissions(big, fs::perms::owner_all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("m/model.def.json: warning: a .json that was "
                               "not read (cannot be opened"));
}

TEST(UncheckedInputCliTest, ExplainKeepsWarningsAndDrawsNoSkippedEntry) {
  Cache c;
  const CliResult r = RunTopolint({"explain", c.root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(c.failed + ": compile-cache entry not checked: "
                                          "failed compilation"));
  EXPECT_THAT(r.out, Not(HasSubstr(c.failed)));
}

}  // namespace
}  // namespace topolint::testing
