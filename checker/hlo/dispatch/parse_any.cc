#include "checker/hlo/dispatch/parse_any.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "checker/diag/input_file.h"
#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"

namespace topolint::hlo {

HloEncoding SniffHloEncoding(std::string_view head) {
  if (IsGzip(head)) return HloEncoding::kGzip;
  if (LooksLikeHlo(head)) return HloEncoding::kText;
  for (char ch : head) {
    const unsigned char u = static_cast<unsigned char>(ch);
    if (u < 0x20 && u != '\t' && u != '\n' && u != '\r') {
      return HloEncoding::kProto;
    }
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
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    // A pipe: sniffing its head would consume it, so it is read once,
    // bounded, and told apart in memory.
    std::string bytes;
    absl::Status read =
        ReadFdBounded(fd, display_name, kMaxStdinBytes, "pipes", &bytes);
    ::close(fd);
    if (!read.ok()) return read;
    ParseHloAny(bytes, display_name, options, module);
    return absl::OkStatus();
  }
  char head[4096];
  ssize_t n;
  do {
    n = ::pread(fd, head, sizeof(head), 0);
  } while (n < 0 && errno == EINTR);
  if (n > 0 && SniffHloEncoding(std::string_view(
                   head, static_cast<size_t>(n))) != HloEncoding::kText) {
    return ParseHloProtoFd(fd, display_name, options, module);
  }
  ::close(fd);
  return ParseHloFile(path, display_name, options, module);
}

void ParseHloAny(std::string_view bytes, const std::string& display_name,
                 const ParseOptions& options, Module* module) {
  if (SniffHloEncoding(bytes.substr(0, 4096)) != HloEncoding::kText) {
    ParseHloProto(bytes, display_name, options, module);
  } else {
    ParseHloText(bytes, display_name, options, module);
  }
}

}  // namespace topolint::hlo
