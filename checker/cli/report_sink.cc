#include "checker/cli/report_sink.h"

#include <unistd.h>

namespace topolint::cli {

absl::Status ReportSink::Open(const std::string& path) {
  to_stdout_ = path.empty();
  if (to_stdout_) return absl::OkStatus();
  return staged_.Open(path);
}

absl::Status ReportSink::Write(std::string* text) {
  if (text->empty()) return absl::OkStatus();
  if (to_stdout_) {
    absl::Status st = WriteAllFd(STDOUT_FILENO, *text, "standard output");
    text->clear();
    return st;
  }
  buffer_ += *text;
  text->clear();
  if (buffer_.size() < kBufferBytes) return absl::OkStatus();
  absl::Status st = staged_.Write(buffer_);
  buffer_.clear();
  return st;
}

absl::Status ReportSink::Finish() {
  if (to_stdout_) return absl::OkStatus();
  if (!buffer_.empty()) {
    if (absl::Status st = staged_.Write(buffer_); !st.ok()) return st;
    buffer_.clear();
  }
  return staged_.Finish();
}

absl::Status ReportSink::Commit() {
  return to_stdout_ ? absl::OkStatus() : staged_.Commit();
}

}  // namespace topolint::cli
