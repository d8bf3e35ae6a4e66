// The message of an input that cannot be opened, worded alike by both front
// ends and the dispatcher.
#ifndef TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
#define TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_

#include <string>

#include "absl/status/status.h"

namespace topolint::hlo {

// The shared opener's "PATH: <reason>" (checker/diag/input_file.h) as
// "DISPLAY: cannot open: <reason>", with the status code kept.
absl::Status OpenError(const absl::Status& opened, const std::string& path,
                       const std::string& display_name);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
