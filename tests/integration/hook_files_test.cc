// The `files` pattern of every hook in .pre-commit-hooks.yaml selects
// exactly the names topolint reads by name (ClassifyName in checker/core):
// a binary HLO module or any other input kind must not be "Skipped" by
// pre-commit. The pattern is applied by Python's `re.search`, as
// pre-commit applies it.
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "checker/core/discovery.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

// Names of every kind discovery knows, and near misses.
const std::vector<std::string>& CandidateNames() {
  static const std::vector<std::string> kNames = {
      "model.hlo",
      "m/model.hlo.txt",
      "neuronxcc-2.21/MODULE_1+d41d8cd9/model.hlo_module.pb",
      "MODULE_2+abc/model.hlo.pb",
      "dump/module_0001.jit_f.after_optimizations.hlo.pb",
      "dump/module_0001.jit_f.pb",
      "x/module.pb.gz",
      "bucket/_tp0_bk0/model/graph.hlo",
      "bucket/_tp0_bk0/graph.neff",
      "MODULE_1+d41d8cd9/model.neff",
      "def.json",
      "neuron_config.json",
      "MODULE_1+d41d8cd9/compile_flags.json",
      "vllm/engine.json",
      "jax/jit_train_step.mlir",
      "stablehlo/all_gather.mlir",
      // Not read by name.
      "README.md",
      "notes.txt",
      "model.hlo.bak",
      "model.hlo.gz",
      "model.pbtxt",
      "model.mlirbc",
      "model.mlir.bak",
      "settings.json5",
      "model.neff.old",
      "model.done",
      "model.log",
      "model.hlo_module.pb.lock",
      "archive.tar.gz",
      "hlo",
      "json",
  };
  return kNames;
}

TEST(HookFilesTest, EveryHookPatternSelectsExactlyTheNamesTopolintReads) {
  TempDir d;
  std::string names;
  for (const std::string& n : CandidateNames()) names += n + "\n";
  const std::string names_path = d.Write("names.txt", names);
  const std::string script = d.Write("match.py", R"(import re, sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
names = open(sys.argv[2]).read().split()
for hook in hooks:
    pattern = re.compile(hook["files"])
    for name in names:
        print(hook["id"], name, 1 if pattern.search(name) else 0)
)");
  const std::string out_path = d.path() + "/out.txt";
  const std::string cmd =
      "python3 " + ShellQuote(script) + " " +
      ShellQuote(std::string(TOPOLINT_SOURCE_DIR) + "/.pre-commit-hooks.yaml") +
      " " + ShellQuote(names_path) + " >" + ShellQuote(out_path) + " 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string out = ReadAll(out_path);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;

  size_t lines = 0;
  for (size_t pos = 0; pos < out.size();) {
    const size_t nl = out.find('\n', pos);
    const std::string line = out.substr(pos, nl - pos);
    pos = nl == std::string::npos ? out.size() : nl + 1;
    const size_t a = line.find(' '), b = line.rfind(' ');
    ASSERT_NE(a, b) << line;
    const std::string hook = line.substr(0, a);
    const std::string name = line.substr(a + 1, b - a - 1);
    const bool matched = line.substr(b + 1) == "1";
    InputKind kind;
    EXPECT_EQ(matched, ClassifyName(name, &kind))
        << "hook " << hook << ": " << name
        << (matched ? " is passed to topolint, which does not read it by name"
                    : " is read by topolint but pre-commit would skip it");
    ++lines;
  }
  // Both hooks, every name.
  EXPECT_EQ(lines, 2 * CandidateNames().size()) << out;
}

}  // namespace
}  // namespace topolint::testing
