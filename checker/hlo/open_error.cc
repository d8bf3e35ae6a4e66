#include "checker/hlo/open_error.h"

#include <string_view>

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

absl::Status ReadEndStatus(bool shrank, bool read_error, bool too_large,
                           const std::string& display_name,
                           int64_t max_file_bytes) {
  if (shrank) {
    return absl::DataLossError(fmt::format(
        "{}: the file shrank while it was read (truncated by another "
        "process?); check it again",
        display_name));
  }
  if (read_error) {
    return absl::DataLossError(
        fmt::format("{}: cannot read the file", display_name));
  }
  if (too_large) {
    return absl::ResourceExhaustedError(fmt::format(
        "{}: more than {} bytes; the limit for HLO inputs is {} bytes",
        display_name, max_file_bytes, max_file_bytes));
  }
  return absl::OkStatus();
}

}  // namespace topolint::hlo
