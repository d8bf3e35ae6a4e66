#include "checker/hlo/dispatch/parse_any.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <utility>

#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/mlir/mlir_reader.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/io/input_file.h"
#include "checker/io/text_encoding.h"
#include "fmt/format.h"

namespace topolint::hlo {

std::string_view WideTextEncoding(std::string_view head) {
  // Shared with the JSON loader (checker/io/text_encoding.h).
  return topolint::WideEncodingOf(head);
}

namespace {

// A binary module whose name (field 1) is longer than the sniffed head:
// tag 0x0a, a varint length of two bytes or more reaching past the head,
// then printable bytes. Text HLO never starts with a line break followed by
// a byte >= 0x80.
bool IsLongNamedProto(std::string_view head) {
  if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x0a ||
      (static_cast<unsigned char>(head[1]) & 0x80) == 0) {
    return false;
  }
  uint64_t len = 0;
  size_t p = 1;
  for (int shift = 0; p < head.size() && shift < 35; shift += 7) {
    const unsigned char b = static_cast<unsigned char>(head[p++]);
    len |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  return len >= head.size() - p && len > 0;
}

// A syntax error at byte 0 for HLO text in a wide encoding.
void ReportWideText(std::string_view encoding, const std::string& display_name,
                    Module* module) {
  *module = Module();
  module->file = display_name;
  SyntaxError e;
  e.pos = TextPos::AtByte(0);
  e.message = fmt::format(
      "expected UTF-8 HLO text, found {} text; convert it (iconv -f {} -t "
      "UTF-8)",
      encoding, encoding);
  module->syntax_errors.push_back(std::move(e));
}

// A syntax error at byte 0 for MLIR bytecode: what it is, how to get text.
void ReportMlirBytecode(const std::string& display_name, Module* module) {
  *module = Module();
  module->file = display_name;
  SyntaxError e;
  e.pos = TextPos::AtByte(0);
  e.message = "expected StableHLO text, found " + MlirBytecodeAdvice();
  module->syntax_errors.push_back(std::move(e));
}

// StableHLO / MHLO text rather than HLO text (HLO's own head wins). A
// `.mlir` file is MLIR whatever its head (a test file may open with more
// than 4 KiB of comments): the one place a name counts.
bool IsStableHloText(std::string_view head, std::string_view name) {
  if (LooksLikeHlo(head)) return false;
  return LooksLikeMlirText(head) ||
         (name.size() > 5 && name.substr(name.size() - 5) == ".mlir");
}

}  // namespace

HloEncoding SniffHloEncoding(std::string_view head) {
  if (IsGzip(head)) return HloEncoding::kGzip;
  if (!WideTextEncoding(head).empty()) return HloEncoding::kText;
  if (IsLongNamedProto(head)) return HloEncoding::kProto;
  if (LooksLikeHlo(head)) return HloEncoding::kText;
  // A control byte is one the text parser refuses (byte_classes.h): the
  // one definition, so that what is sniffed as text never stops there.
  for (char ch : head) {
    if (IsControlByte(ch)) return HloEncoding::kProto;
  }
  return HloEncoding::kText;
}

absl::Status ParseHloAnyFile(const std::string& path,
                             const std::string& display_name,
                             const ParseOptions& options, Module* module) {
  // The shared opener refuses directories, devices, named FIFOs and sockets
  // (without blocking on them) and follows symlinks, as for text.
  absl::StatusOr<int> opened = OpenInputFd(path);
  if (!opened.ok()) return OpenError(opened.status(), path, display_name);
  const int fd = *opened;
  // A pipe: sniffing its head would consume it, so it is read once,
  // bounded, and told apart in memory.
  std::string bytes;
  absl::StatusOr<bool> piped = ReadIfPipe(fd, display_name, &bytes);
  if (!piped.ok()) return piped.status();
  if (*piped) {
    ParseHloAny(bytes, display_name, options, module);
    return absl::OkStatus();
  }
  char head[4096];
  ssize_t n;
  do {
    n = ::pread(fd, head, sizeof(head), 0);
  } while (n < 0 && errno == EINTR);
  const std::string_view sniffed(head, n > 0 ? static_cast<size_t>(n) : 0);
  if (IsMlirBytecode(sniffed)) {
    ::close(fd);
    ReportMlirBytecode(display_name, module);
    return absl::OkStatus();
  }
  if (n > 0 && SniffHloEncoding(sniffed) != HloEncoding::kText) {
    return ParseHloProtoFd(fd, display_name, options, module);
  }
  ::close(fd);
  if (IsStableHloText(sniffed, path)) {
    return ParseStableHloFile(path, display_name, options, module);
  }
  if (n > 0) {
    const std::string_view wide =
        WideTextEncoding(std::string_view(head, static_cast<size_t>(n)));
    if (!wide.empty()) {
      ReportWideText(wide, display_name, module);
      return absl::OkStatus();
    }
  }
  return ParseHloFile(path, display_name, options, module);
}

void ParseHloAny(std::string_view bytes, const std::string& display_name,
                 const ParseOptions& options, Module* module) {
  if (IsMlirBytecode(bytes)) {
    ReportMlirBytecode(display_name, module);
  } else if (IsStableHloText(bytes.substr(0, 4096), display_name)) {
    ParseStableHlo(bytes, display_name, options, module);
  } else if (SniffHloEncoding(bytes.substr(0, 4096)) != HloEncoding::kText) {
    ParseHloProto(bytes, display_name, options, module);
  } else if (const std::string_view wide =
                 WideTextEncoding(bytes.substr(0, 4096));
             !wide.empty()) {
    ReportWideText(wide, display_name, module);
  } else {
    ParseHloText(bytes, display_name, options, module);
  }
}

}  // namespace topolint::hlo
