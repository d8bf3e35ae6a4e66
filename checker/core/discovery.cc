#include "checker/core/discovery.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "checker/diag/input_file.h"
#include "checker/hlo/hlo_parser.h"
#include "checker/hlo/hlo_proto_reader.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

std::string ParentDisplay(const std::string& path) {
  fs::path p(path);
  std::string parent = p.parent_path().generic_string();
  return parent.empty() ? "." : parent;
}

// "Permission denied" -> "permission denied", to fit inside a message.
std::string LowercaseFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z')
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

struct Walker {
  const DiscoveryLimits& limits;
  std::map<std::string, UnitSpec>* by_dir;
  std::vector<std::string>* warnings;  // may be null
  std::set<std::string> seen_dirs;     // canonical, to break symlink loops
  size_t files = 0;

  void Unreadable(const fs::path& dir, const std::error_code& ec) {
    if (warnings == nullptr) return;
    warnings->push_back(fmt::format("cannot read directory {}: {}; skipped",
                                    dir.generic_string(),
                                    LowercaseFirst(ec.message())));
  }

  absl::Status AddFile(const std::string& display, bool named) {
    InputKind kind;
    if (!ClassifyFile(display, &kind)) return absl::OkStatus();
    if (++files > limits.max_files) {
      return absl::ResourceExhaustedError(fmt::format(
          "more than {} input files under the given paths; narrow the "
          "search",
          limits.max_files));
    }
    std::string dir = ParentDisplay(display);
    UnitSpec& u = (*by_dir)[dir];
    u.directory = dir;
    u.files.push_back(InputFile{display, kind, named, false});
    return absl::OkStatus();
  }

  absl::Status Walk(const fs::path& dir, int depth) {
    if (depth > limits.max_depth) return absl::OkStatus();
    std::error_code ec;
    fs::path canon = fs::canonical(dir, ec);
    if (ec || !seen_dirs.insert(canon.string()).second) {
      return absl::OkStatus();  // unreadable or already visited (loop)
    }
    std::vector<fs::directory_entry> entries;
    // No skip_permission_denied: it turns a directory that cannot be opened
    // into an empty one, silently.
    fs::directory_iterator it(dir, ec);
    if (ec) {
      if (depth == 0) {  // named on the command line: an unreadable input
        return absl::PermissionDeniedError(
            fmt::format("{}: cannot read directory: {}", dir.generic_string(),
                        LowercaseFirst(ec.message())));
      }
      Unreadable(dir, ec);
      return absl::OkStatus();
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        Unreadable(dir, ec);
        break;
      }
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path() < b.path(); });
    for (const fs::directory_entry& e : entries) {
      std::string name = e.path().filename().string();
      if (!name.empty() && name[0] == '.') continue;  // .git, .topolint.json
      std::error_code sec;
      if (e.is_directory(sec)) {
        if (auto st = Walk(e.path(), depth + 1); !st.ok()) return st;
      } else if (e.is_regular_file(sec)) {
        if (auto st = AddFile(e.path().generic_string(), false); !st.ok()) {
          return st;
        }
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

bool ClassifyName(const std::string& name, InputKind* kind) {
  if (absl::EndsWith(name, ".hlo") || absl::EndsWith(name, ".hlo.txt") ||
      absl::EndsWith(name, ".hlo_module.pb") ||
      absl::EndsWith(name, ".hlo.pb") || absl::EndsWith(name, ".pb") ||
      absl::EndsWith(name, ".pb.gz")) {
    *kind = InputKind::kHlo;
  } else if (absl::EndsWith(name, ".json")) {
    *kind = InputKind::kJson;
  } else if (absl::EndsWith(name, ".neff")) {
    *kind = InputKind::kNeff;
  } else {
    return false;
  }
  return true;
}

namespace {

// Binary HLO names: a proto (or gzip of one) is only an input when its
// content says so; other `.pb` files (metaneff.pb, TensorFlow graphs) are
// not ours. `.hlo_module.pb` / `.hlo.pb` are always HLO.
bool IsGenericProtoName(const std::string& path) {
  return (absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".pb.gz")) &&
         !absl::EndsWith(path, ".hlo_module.pb") &&
         !absl::EndsWith(path, ".hlo.pb");
}

// A generic `.pb` is HLO when its head reads as an HloModuleProto, bare or
// inside up to two wrappers (HloProto, HloSnapshot, ...; each puts the
// module, or the next wrapper, in field 1): the module's first field is its
// name (printable), followed by entry_computation_name (2) or computations
// (3); or it starts with computations. Other `.pb` files (metaneff.pb,
// TensorFlow graphs) fail this and are left alone.
bool LooksLikeHloProtoHead(std::string_view head) {
  size_t p = 0;
  for (int level = 0; level < 3; ++level) {
    if (p >= head.size()) return false;
    const unsigned char tag = static_cast<unsigned char>(head[p]);
    if (tag == 0x1a) return true;  // computations first (no name)
    if (tag != 0x0a) return false;
    ++p;
    uint64_t len = 0;
    int shift = 0;
    while (p < head.size() && shift < 35) {
      const unsigned char b = static_cast<unsigned char>(head[p++]);
      len |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (p >= head.size() || len == 0) return false;
    const unsigned char first = static_cast<unsigned char>(head[p]);
    if (first < 0x20) continue;  // a wrapper: the module is inside
    // The module's name: printable, then field 2 or 3.
    for (uint64_t i = 0; i < len; ++i) {
      if (p + i >= head.size()) return true;  // a long name: plausible
      const unsigned char c = static_cast<unsigned char>(head[p + i]);
      if (c < 0x20 || c == 0x7f) return false;
    }
    if (p + len >= head.size()) return true;
    const unsigned char next = static_cast<unsigned char>(head[p + len]);
    return next == 0x12 || next == 0x1a;
  }
  return false;
}

}  // namespace

bool ClassifyFile(const std::string& path, InputKind* kind) {
  const bool named_hlo = ClassifyName(path, kind);
  if (named_hlo && !IsGenericProtoName(path)) return true;
  // Any other file whose content is HLO: text whose first token (after
  // comments) is HloModule, or a binary module.
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  char buf[4096];
  in.read(buf, sizeof(buf));
  std::string_view head(buf, static_cast<size_t>(in.gcount()));
  if (named_hlo) {  // *.pb, *.pb.gz
    switch (hlo::SniffHloEncoding(head)) {
      case hlo::HloEncoding::kGzip:
        return true;
      case hlo::HloEncoding::kProto:
        return LooksLikeHloProtoHead(head);
      case hlo::HloEncoding::kText:
        return hlo::LooksLikeHlo(head);
    }
  }
  if (hlo::LooksLikeHlo(head)) {
    *kind = InputKind::kHlo;
    return true;
  }
  return false;
}

absl::Status DiscoverUnits(const std::vector<std::string>& paths,
                           const DiscoveryLimits& limits,
                           std::vector<UnitSpec>* units,
                           std::vector<std::string>* skipped,
                           std::vector<std::string>* warnings) {
  std::map<std::string, UnitSpec> by_dir;
  Walker walker{limits, &by_dir, warnings, {}, 0};
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return CheckReadableKind(p);
    if (fs::is_directory(st)) {
      if (auto s = walker.Walk(fs::path(p), 0); !s.ok()) return s;
      continue;
    }
    // Refuses devices, FIFOs and sockets before anything could block.
    if (absl::Status st = CheckReadableKind(p); !st.ok()) return st;
    InputKind kind;
    if (!ClassifyFile(p, &kind)) {
      skipped->push_back(p);
      continue;
    }
    std::string dir = ParentDisplay(p);
    UnitSpec& u = by_dir[dir];
    u.directory = dir;
    // Named twice (e.g. a file and its directory): keep one.
    bool dup = false;
    for (InputFile& f : u.files) {
      if (f.path == p) {
        f.named = true;
        dup = true;
      }
    }
    if (!dup) u.files.push_back(InputFile{p, kind, true, false});
  }
  for (auto& [dir, unit] : by_dir) {
    // Directory walks may have found a file also named explicitly.
    std::sort(
        unit.files.begin(), unit.files.end(),
        [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
    unit.files.erase(std::unique(unit.files.begin(), unit.files.end(),
                                 [](const InputFile& a, const InputFile& b) {
                                   return a.path == b.path;
                                 }),
                     unit.files.end());
    units->push_back(std::move(unit));
  }
  return absl::OkStatus();
}

absl::Status DiscoverWholeUnits(const std::vector<std::string>& paths,
                                const DiscoveryLimits& limits,
                                std::vector<UnitSpec>* units,
                                std::vector<std::string>* warnings) {
  std::vector<std::string> dirs;
  std::set<std::string> file_dirs;
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      return absl::NotFoundError(
          fmt::format("{}: no such file or directory", p));
    }
    if (fs::is_directory(st)) {
      dirs.push_back(p);
    } else {
      file_dirs.insert(ParentDisplay(p));
    }
  }
  std::vector<std::string> skipped;  // none: directories only
  std::vector<UnitSpec> searched;
  if (!dirs.empty()) {
    if (auto st = DiscoverUnits(dirs, limits, &searched, &skipped, warnings);
        !st.ok()) {
      return st;
    }
  }
  std::map<std::string, UnitSpec> by_dir;
  for (UnitSpec& u : searched) by_dir[u.directory] = std::move(u);
  Walker walker{limits, &by_dir, warnings, {}, 0};
  for (const std::string& dir : file_dirs) {
    if (by_dir.count(dir) != 0) continue;  // searched already
    std::error_code ec;
    std::vector<fs::directory_entry> entries;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      return absl::PermissionDeniedError(fmt::format(
          "{}: cannot read directory: {}", dir, LowercaseFirst(ec.message())));
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path() < b.path(); });
    for (const fs::directory_entry& e : entries) {
      const std::string name = e.path().filename().string();
      std::error_code sec;
      if (name.empty() || name[0] == '.' || !e.is_regular_file(sec)) continue;
      const std::string display = dir == "." ? name : dir + "/" + name;
      if (auto st = walker.AddFile(display, false); !st.ok()) return st;
    }
  }
  for (auto& [dir, unit] : by_dir) {
    if (!unit.files.empty()) units->push_back(std::move(unit));
  }
  return absl::OkStatus();
}

}  // namespace topolint
