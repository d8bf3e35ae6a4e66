// The message of an input that cannot be opened or read through, worded
// alike by the front ends and the dispatcher.
#ifndef TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
#define TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace topolint::hlo {

// The shared opener's "PATH: <reason>" (checker/io/input_file.h) as
// "DISPLAY: cannot open: <reason>", with the status code kept.
absl::Status OpenError(const absl::Status& opened, const std::string& path,
                       const std::string& display_name);

// How reading a file through an InputWindow ended: OK, or the file shrank
// while read, could not be read, or passed `max_file_bytes`.
absl::Status ReadEndStatus(bool shrank, bool read_error, bool too_large,
                           const std::string& display_name,
                           int64_t max_file_bytes);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
