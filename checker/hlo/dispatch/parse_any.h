// Text or binary HLO, told apart by content (never by name): the one entry
// point the loader (checker/core/runner.cc), discovery and the APIs call for
// an HLO input. It sniffs the first bytes and hands the input to the text
// front end (text/hlo_parser.h) or the binary one (proto/hlo_proto_reader.h);
// both fill the same hlo::Module and feed the same ParseOptions sink.
#ifndef TOPOLINT_CHECKER_HLO_DISPATCH_PARSE_ANY_H_
#define TOPOLINT_CHECKER_HLO_DISPATCH_PARSE_ANY_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

enum class HloEncoding { kText, kProto, kGzip };

// Tells text from binary by the first bytes of a file (4 KiB is plenty):
// gzip magic -> kGzip; HLO text (LooksLikeHlo) -> kText; control bytes
// that text never holds -> kProto; anything else -> kText (the text parser
// then says what it expected).
// HLO text written as UTF-16 or UTF-32 (a BOM, or ASCII with NULs between
// its bytes) is kText here; WideTextEncoding names its encoding
// ("UTF-16LE", ...; "" for anything else), and ParseHloAny / ParseHloAnyFile
// report it as one syntax error instead of parsing it.
HloEncoding SniffHloEncoding(std::string_view head);
std::string_view WideTextEncoding(std::string_view head);

// Text or binary, by content: what the loader calls for every HLO input.
// A non-OK status only when the file cannot be opened or read (as
// ParseHloFile and ParseHloProtoFile say).
absl::Status ParseHloAnyFile(const std::string& path,
                             const std::string& display_name,
                             const ParseOptions& options, Module* module);
void ParseHloAny(std::string_view bytes, const std::string& display_name,
                 const ParseOptions& options, Module* module);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_DISPATCH_PARSE_ANY_H_
