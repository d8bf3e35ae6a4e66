// The GitHub Actions renderer: one workflow command per finding, which the
// runner turns into an annotation on the pull request.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/render.h"
#include "checker/diag/repo_paths.h"

namespace topolint {
namespace {

// A byte as is, or a control byte (ESC, BEL, ...) percent-encoded: an op or
// file name must not reach the log, or a terminal, as an escape sequence.
void AppendPlain(char c, std::string* out) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || u == 0x7f) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    *out += '%';
    *out += kHex[u >> 4];
    *out += kHex[u & 15];
    return;
  }
  out->push_back(c);
}

// As @actions/core `escapeData`: the message part of a command.
std::string EscapeData(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        AppendPlain(c, &out);
    }
  }
  return out;
}

// As @actions/core `escapeProperty`: a `key=value` property value.
std::string EscapeProperty(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += "%3A";
        break;
      case ',':
        out += "%2C";
        break;
      default:
        AppendPlain(c, &out);
    }
  }
  return out;
}

std::string_view Command(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "notice";
  }
  return "error";
}

std::string LocationLabel(const Location& loc) {
  std::string out = loc.file;
  if (loc.line > 0) {
    out += ":" + std::to_string(loc.line);
    if (loc.column > 0) out += ":" + std::to_string(loc.column);
  }
  if (loc.byte_offset >= 0) out += " (" + BinaryPlace(loc) + ")";
  return out;
}

// The annotation's file: relative to the repository root (GitHub places
// annotations by repository path) when `roots` is given, else as given.
std::string AnnotationFile(const std::string& file, const SarifRoots* roots) {
  if (roots == nullptr) return file;
  std::string path;
  PathUnderRoot(file, roots->root, roots->cwd, &path);
  return path;
}

void AppendCommand(const Finding& f, const SarifRoots* roots,
                   std::string* out) {
  *out += "::";
  *out += Command(f.severity);
  *out += " file=" + EscapeProperty(AnnotationFile(f.loc.file, roots));
  if (f.loc.line > 0) {
    *out += ",line=" + std::to_string(f.loc.line);
    if (f.loc.column > 0) *out += ",col=" + std::to_string(f.loc.column);
  }
  // Notes have no place of their own in an annotation: they become further
  // lines of its message.
  std::string message = f.message;
  if (f.loc.byte_offset >= 0) message += " (" + BinaryPlace(f.loc) + ")";
  for (const Note& n : f.notes) {
    message += "\n" + LocationLabel(n.loc) + ": note: " + n.message;
  }
  *out +=
      ",title=" + EscapeProperty(f.rule) + "::" + EscapeData(message) + "\n";
}

class GithubReport : public ReportWriter {
 public:
  explicit GithubReport(const SarifRoots* roots) : roots_(roots) {}
  void Begin(std::string* /*out*/) override {}
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    for (const Finding& f : findings) AppendCommand(f, roots_, out);
  }
  void End(std::string* /*out*/) override {}

 private:
  const SarifRoots* roots_;
};

}  // namespace

std::unique_ptr<ReportWriter> MakeGithubReport(const SarifRoots* roots) {
  return std::make_unique<GithubReport>(roots);
}

std::string RenderGithub(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) AppendCommand(f, nullptr, &out);
  return out;
}

std::string RenderGithub(const std::vector<Finding>& findings,
                         const SarifRoots& roots) {
  std::string out;
  for (const Finding& f : findings) AppendCommand(f, &roots, &out);
  return out;
}

}  // namespace topolint
