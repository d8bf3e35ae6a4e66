// Streaming, hand-written parser for XLA HLO text.
#ifndef TOPOLINT_CHECKER_HLO_HLO_PARSER_H_
#define TOPOLINT_CHECKER_HLO_HLO_PARSER_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

// Parses HLO text held in memory. Never throws; problems become
// `Module::syntax_errors`.
Module ParseHloText(std::string_view text, const std::string& display_name);

// Parses the file at `path` in bounded windows (the file is never held whole).
// Returns a non-OK status only when the file cannot be opened or read; the
// module is filled in `*module` otherwise.
absl::Status ParseHloFile(const std::string& path,
                          const std::string& display_name, Module* module);

// True when `text` (the first bytes of a file) starts, after whitespace and
// comments, with the token `HloModule`.
bool LooksLikeHlo(std::string_view text);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_HLO_PARSER_H_
