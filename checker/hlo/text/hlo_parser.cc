#include "checker/hlo/text/hlo_parser.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "checker/hlo/input_window.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/module_parser.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::hlo {

Module ParseHloText(std::string_view text, const std::string& display_name) {
  return ParseHloText(text, display_name, ParseOptions{});
}

Module ParseHloText(std::string_view text, const std::string& display_name,
                    const ParseOptions& options) {
  Module module;
  ParseHloText(text, display_name, options, &module);
  return module;
}

void ParseHloText(std::string_view text, const std::string& display_name,
                  const ParseOptions& options, Module* module) {
  *module = Module();
  module->file = display_name;
  InputWindow window(text, options.window_bytes);
  ModuleParser(&window, module, options).Run();
}

absl::Status ParseHloFile(const std::string& path,
                          const std::string& display_name, Module* module) {
  return ParseHloFile(path, display_name, ParseOptions{}, module);
}

absl::Status ParseHloFile(const std::string& path,
                          const std::string& display_name,
                          const ParseOptions& options, Module* module) {
  return ReadModuleFile(path, display_name, options, module,
                        [&](InputWindow& window) {
                          ModuleParser(&window, module, options).Run();
                        });
}

absl::Status ParseHloTextStream(std::string_view head, std::FILE* rest,
                                const std::string& display_name,
                                const ParseOptions& options, Module* module) {
  *module = Module();
  module->file = display_name;
  bool read_error = false, too_large = false;
  {
    InputWindow window(head, rest, options.window_bytes);
    window.set_limit(options.max_file_bytes);
    ModuleParser(&window, module, options).Run();
    read_error = window.read_error();
    too_large = window.too_large();
  }
  if (read_error) {
    return absl::DataLossError(
        fmt::format("{}: cannot read the input", display_name));
  }
  if (too_large) {
    return absl::ResourceExhaustedError(fmt::format(
        "{}: more than {} bytes; the limit for HLO inputs is {} bytes",
        display_name, options.max_file_bytes, options.max_file_bytes));
  }
  return absl::OkStatus();
}

bool LooksLikeHlo(std::string_view text) {
  InputWindow window(text, text.size() + 1);
  HloLexer lx(&window, /*module=*/nullptr, ParseOptions{});
  if (!lx.SkipTrivia() || !IsIdentStart(lx.Peek())) return false;
  std::string word;
  return lx.ReadIdent(&word) && word == "HloModule";
}

}  // namespace topolint::hlo
