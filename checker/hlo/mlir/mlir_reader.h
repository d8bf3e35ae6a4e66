// The StableHLO / MHLO text front end: reads the collectives of MLIR text
// (`.mlir`, `jax.jit(f).lower(x).as_text()`, torch_xla exports, MLIR test
// files) into the same hlo::Module / hlo::Collective model as the HLO text
// and binary front ends, and feeds the same ParseOptions sink, so that every
// HLO rule runs unchanged. docs/reference/inputs.md states the subset read.
//
// One streaming pass through a bounded InputWindow, as the HLO text parser:
// the file is never held whole; everything but a collective op (other
// dialects, regions, function bodies, comments that quote op text) is
// skipped by bytes. A file split by `// -----` lines holds several modules:
// each is a module of its own (its counts, its collectives), handed to
// ParseOptions::on_module_split as it ends; the last stays in `*module`.
//
// Positions are line and byte column in the .mlir file. Problems become
// Module::syntax_errors; the reader never throws and never aborts.
#ifndef TOPOLINT_CHECKER_HLO_MLIR_MLIR_READER_H_
#define TOPOLINT_CHECKER_HLO_MLIR_MLIR_READER_H_

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

// What the first bytes of a file say about MLIR.
enum class MlirSniff {
  kNotMlir,      // neither MLIR text nor MLIR bytecode
  kStableHlo,    // MLIR text of StableHLO / MHLO / Shardy, or undecided
  kBytecode,     // MLIR bytecode (`ML\xefR`): a portable artifact
  kOtherDialect  // MLIR text with ops, none of them StableHLO / MHLO / Shardy
};
// `head` is the file's first bytes (discovery reads 64 KiB). Text is
// kOtherDialect only when ops of another dialect are seen in it and none of
// StableHLO, MHLO, CHLO or Shardy (a head with neither is kStableHlo: the
// reader finds what there is).
MlirSniff SniffMlir(std::string_view head);
bool IsMlirBytecode(std::string_view head);
// MLIR text, broadly: after blanks, `//` comments and `#alias = ...` /
// `!alias = ...` lines, the first token is `module`, `func.func`,
// `"builtin.module"`, `"func.func"` or `sdy.mesh` (what .mlir files and
// test files start with).
bool LooksLikeMlirText(std::string_view head);
// Strictly: the first op is an MLIR `module` (`module`, `"builtin.module"`):
// what makes a file of any other name a StableHLO input.
bool LooksLikeMlirModule(std::string_view head);
// The words of an error for bytecode and for other dialects: what the file
// is and how to get StableHLO text from it.
std::string MlirBytecodeAdvice();
std::string MlirOtherDialectAdvice();

// Reads StableHLO text held in memory; `Module::file` is `display_name`.
void ParseStableHlo(std::string_view text, const std::string& display_name,
                    const ParseOptions& options, Module* module);
// Reads the file at `path` in bounded windows, as ParseHloFile
// (ReadModuleFile). A non-OK status only when it cannot be opened or read.
absl::Status ParseStableHloFile(const std::string& path,
                                const std::string& display_name,
                                const ParseOptions& options, Module* module);
// Every module of `text` (one per `// -----` part), in order: for tests and
// callers that set no ParseOptions::on_module_split.
std::vector<Module> ParseStableHloModules(std::string_view text,
                                          const std::string& display_name,
                                          ParseOptions options);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_MLIR_MLIR_READER_H_
