// The message of an input that cannot be opened or read through, worded
// alike by the front ends and the dispatcher, and the text front ends'
// one way of reading a file through an InputWindow.
#ifndef TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
#define TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_

#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/input_window.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo {

// The shared opener's "PATH: <reason>" (checker/io/input_file.h) as
// "DISPLAY: cannot open: <reason>", with the status code kept.
absl::Status OpenError(const absl::Status& opened, const std::string& path,
                       const std::string& display_name);

// Opens `path` (OpenError when it cannot be), makes `*module` an empty
// module of `display_name`, and has `read` read it through an InputWindow
// with `options`' window size and byte limit. Then how reading ended: OK,
// or the file could not be read, or passed ParseOptions::max_file_bytes.
absl::Status ReadModuleFile(const std::string& path,
                            const std::string& display_name,
                            const ParseOptions& options, Module* module,
                            absl::FunctionRef<void(InputWindow&)> read);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_OPEN_ERROR_H_
