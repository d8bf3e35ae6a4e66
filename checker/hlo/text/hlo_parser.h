// Streaming, hand-written parser for XLA HLO text.
//
// The parser reads the text once, front to back, through a bounded window: it
// never holds a whole file, never builds a token list, and keeps nothing of a
// non-collective instruction except (per computation, within a byte budget)
// its name and shape text, so that a collective whose operands are written
// without shapes can be resolved. Memory therefore grows with the number and
// size of the collectives, not with the file. Time is linear in the input.
//
// Grammar accepted: see docs/rules/hlo-syntax.md. Problems become
// `Module::syntax_errors` (reported as `hlo-syntax`); the parser never throws
// and never aborts the process.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_HLO_PARSER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_HLO_PARSER_H_

#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

// Parses HLO text held in memory. Never throws; problems become
// `Module::syntax_errors`. `Module::file` is set to `display_name`.
Module ParseHloText(std::string_view text, const std::string& display_name);
Module ParseHloText(std::string_view text, const std::string& display_name,
                    const ParseOptions& options);
// The same, filling `*module` in place (so that its address, which a
// CollectiveSink sees, stays valid after the call).
void ParseHloText(std::string_view text, const std::string& display_name,
                  const ParseOptions& options, Module* module);

// Parses the file at `path` in bounded windows (the file is never held whole;
// pipes and other unseekable files work; a file that shrinks meanwhile is
// read as it now is). Returns a non-OK status only when
// the file cannot be opened or read; the module is filled in `*module`
// otherwise. The result equals ParseHloText on the same bytes, whatever the
// window size.
absl::Status ParseHloFile(const std::string& path,
                          const std::string& display_name, Module* module);
absl::Status ParseHloFile(const std::string& path,
                          const std::string& display_name,
                          const ParseOptions& options, Module* module);

// Parses HLO text whose first bytes, `head`, were read already (to tell its
// kind) and whose rest comes from `rest` (a pipe: standard input), in
// bounded windows as ParseHloFile does: the input is never held whole.
// Errors as ParseHloFile's (a read error, more than max_file_bytes).
absl::Status ParseHloTextStream(std::string_view head, std::FILE* rest,
                                const std::string& display_name,
                                const ParseOptions& options, Module* module);

// True when `text` (the first bytes of a file) starts, after whitespace and
// comments, with the token `HloModule`.
bool LooksLikeHlo(std::string_view text);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_HLO_PARSER_H_
