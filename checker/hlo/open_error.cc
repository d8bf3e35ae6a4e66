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

}  // namespace topolint::hlo
