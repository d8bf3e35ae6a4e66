#include "checker/hlo/hlo_parser.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "checker/hlo/hlo_lexer.h"
#include "checker/hlo/input_window.h"
#include "checker/hlo/module_parser.h"
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
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    const int err = errno;
    const std::string message =
        fmt::format("{}: cannot open: {}", display_name, std::strerror(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  *module = Module();
  module->file = display_name;
  bool read_error = false;
  {
    InputWindow window(file, options.window_bytes);
    ModuleParser(&window, module, options).Run();
    read_error = window.read_error();
  }
  std::fclose(file);
  if (read_error) {
    return absl::DataLossError(
        fmt::format("{}: cannot read the file", display_name));
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
