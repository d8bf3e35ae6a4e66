#include "checker/hlo/open_error.h"

#include <string_view>

#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::hlo {

absl::Status OpenError(const absl::Status& opened, const std::string& path,
                       const std::string& display_name) {
  const std::string message(opened.message());
  std::string_view reason = message;
  if (reason.substr(0, path.size() + 2) == path + ": ") {
    reason.remove_prefix(path.size() + 2);
  }
  if (reason.substr(0, 13) == "cannot open: ") reason.remove_prefix(13);
  return absl::Status(opened.code(),
                      fmt::format("{}: cannot open: {}", display_name, reason));
}

absl::Status ReadModuleFile(const std::string& path,
                            const std::string& display_name,
                            const ParseOptions& options, Module* module,
                            absl::FunctionRef<void(InputWindow&)> read) {
  absl::StatusOr<std::FILE*> opened = OpenInputFile(path);
  if (!opened.ok()) return OpenError(opened.status(), path, display_name);
  *module = Module();
  module->file = display_name;
  bool read_error = false, too_large = false;
  {
    InputWindow window(*opened, options.window_bytes);
    window.set_limit(options.max_file_bytes);
    read(window);
    read_error = window.read_error();
    too_large = window.too_large();
  }
  std::fclose(*opened);
  if (read_error) {
    return absl::DataLossError(
        fmt::format("{}: cannot read the file", display_name));
  }
  if (too_large) {
    return absl::ResourceExhaustedError(fmt::format(
        "{}: more than {} bytes; the limit for HLO inputs is {} bytes",
        display_name, options.max_file_bytes, options.max_file_bytes));
  }
  return absl::OkStatus();
}

}  // namespace topolint::hlo
