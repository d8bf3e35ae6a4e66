#include "checker/core/path_filter.h"

#include <filesystem>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/core/project_config.h"
#include "checker/io/repo_paths.h"
#include "checker/io/status_macros.h"
#include "fmt/format.h"
#include "re2/re2.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

// The current directory, once per process (paths are made absolute
// lexically; the CLI never changes directory).
const std::string& CurrentDir() {
  static const std::string* cwd = [] {
    std::error_code ec;
    return new std::string(fs::current_path(ec).generic_string());
  }();
  return *cwd;
}

// Whether RE2 finds nothing wrong in `prefix`, a prefix of a pattern, but
// what cutting it left open: a group, a character class or an escape (the
// rest of the pattern closes them).
bool CleanPrefix(const std::string& prefix) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  const re2::RE2 re(prefix, options);
  return re.ok() || re.error_code() == re2::RE2::ErrorMissingParen ||
         re.error_code() == re2::RE2::ErrorMissingBracket ||
         re.error_code() == re2::RE2::ErrorTrailingBackslash;
}

// The 1-based column of RE2's error in `pattern`: where the fragment it
// quotes starts; 1 when it quotes nothing or is not found. The fragment may
// occur earlier without fault ("(?P" of a valid "(?P<n>x)" before a
// refused "(?P=n)"), and RE2 stops at its first error: the occurrence is
// the last one whose prefix RE2 finds clean, or the first of a run of
// overlapping ones ("**" in "a***").
size_t ErrorColumn(const std::string& pattern, const std::string& fragment) {
  if (fragment.empty()) return 1;
  constexpr int kMaxTries = 256;  // an error path: bounded work
  size_t best = std::string::npos;
  int tries = 0;
  for (size_t at = pattern.find(fragment);
       at != std::string::npos && tries < kMaxTries;
       at = pattern.find(fragment, at + 1), ++tries) {
    if (best != std::string::npos && at < best + fragment.size()) continue;
    if (CleanPrefix(pattern.substr(0, at))) best = at;
  }
  return best == std::string::npos ? 1 : best + 1;
}

// For "missing )", RE2 quotes the whole pattern: the column of the '(' left
// open (the outermost, as Python's re reports it). Escapes and character
// classes hold no group.
size_t UnclosedParenColumn(const std::string& pattern) {
  std::vector<size_t> open;
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
      // "[]...]" and "[^]...]": a ']' first is a member.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') ++i;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;
    } else if (c == '(') {
      open.push_back(i);
    } else if (c == ')' && !open.empty()) {
      open.pop_back();
    }
  }
  return open.empty() ? 1 : open.front() + 1;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const re2::RE2>> CompilePathPattern(
    const std::string& pattern, const std::string& origin) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // the error travels as a value
  auto re = std::make_shared<re2::RE2>(pattern, options);
  if (!re->ok()) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: invalid regular expression '{}' at column {}: {} (RE2 syntax: "
        "no backreferences, look-around or (?x))",
        origin, pattern,
        re->error_code() == re2::RE2::ErrorMissingParen
            ? UnclosedParenColumn(pattern)
            : ErrorColumn(pattern, re->error_arg()),
        re->error()));
  }
  return std::shared_ptr<const re2::RE2>(std::move(re));
}

std::string RelativeToRoot(const std::string& path, const std::string& root) {
  // A path below the root, both normal: what follows "root/" (every file
  // of a walk under the root, as strings).
  const std::string p = AbsoluteNormalPath(path, CurrentDir());
  const std::string r = AbsoluteNormalPath(root, CurrentDir());
  if (r.size() > 1 && r.back() != '/' && p.size() > r.size() + 1 &&
      p.compare(0, r.size(), r) == 0 && p[r.size()] == '/') {
    return p.substr(r.size() + 1);
  }
  std::string out =
      fs::path(p).lexically_relative(fs::path(r)).generic_string();
  return out.empty() ? p : out;
}

absl::StatusOr<PathFilterLevel> PathFilterLevel::Make(
    std::string root, const std::vector<std::string>& include,
    const std::vector<std::string>& exclude, const std::string& origin) {
  PathFilterLevel level;
  level.root_ = std::move(root);
  level.origin_ = origin;
  for (const auto& [patterns, out, flag] :
       {std::make_tuple(&include, &level.include_, "include"),
        std::make_tuple(&exclude, &level.exclude_, "exclude")}) {
    for (const std::string& p : *patterns) {
      const std::string where = origin.empty()
                                    ? fmt::format("--{}", flag)
                                    : fmt::format("{}: \"{}\"", origin, flag);
      TOPOLINT_ASSIGN_OR_RETURN(std::shared_ptr<const re2::RE2> re,
                                CompilePathPattern(p, where));
      out->push_back(Pattern{p, std::move(re)});
    }
  }
  return level;
}

std::string PathFilterLevel::Reject(std::string_view relative) const {
  const re2::StringPiece subject(relative.data(), relative.size());
  auto where = [&](const char* flag) {
    return origin_.empty() ? fmt::format("--{}", flag)
                           : fmt::format("\"{}\" of {}", flag, origin_);
  };
  for (const Pattern& p : exclude_) {
    if (re2::RE2::PartialMatch(subject, *p.re)) {
      return fmt::format("excluded by {} '{}' (matched '{}')", where("exclude"),
                         p.text, relative);
    }
  }
  if (include_.empty()) return "";
  for (const Pattern& p : include_) {
    if (re2::RE2::PartialMatch(subject, *p.re)) return "";
  }
  return fmt::format("matches no {} pattern ('{}')", where("include"),
                     relative);
}

absl::Status PathSelector::SetCommandLine(
    const std::vector<std::string>& include,
    const std::vector<std::string>& exclude) {
  std::string root = FindGitRoot(CurrentDir());
  if (root.empty()) root = CurrentDir();
  TOPOLINT_ASSIGN_OR_RETURN(command_line_,
                            PathFilterLevel::Make(root, include, exclude, ""));
  return absl::OkStatus();
}

absl::StatusOr<const PathFilterLevel*> PathSelector::ConfigLevel(
    const std::string& dir) {
  const std::string path =
      fixed_config_.empty()
          ? finder_.Find(dir, dir == hint_dir_ ? &hint_seen_ : nullptr)
          : fixed_config_;
  if (path.empty()) return nullptr;
  auto it = levels_.find(path);
  if (it == levels_.end()) {
    TOPOLINT_ASSIGN_OR_RETURN(const ProjectConfig cfg, LoadProjectConfig(path));
    std::unique_ptr<PathFilterLevel> level;
    if (!cfg.include.empty() || !cfg.exclude.empty()) {
      const std::string cfg_dir(
          ParentView(AbsoluteNormalPath(path, CurrentDir())));
      std::string root = FindGitRoot(cfg_dir);
      if (root.empty()) root = cfg_dir;
      TOPOLINT_ASSIGN_OR_RETURN(
          PathFilterLevel made,
          PathFilterLevel::Make(root, cfg.include, cfg.exclude, path));
      level = std::make_unique<PathFilterLevel>(std::move(made));
    }
    it = levels_.emplace(path, std::move(level)).first;
  }
  return it->second.get();
}

absl::StatusOr<std::string> PathSelector::Reject(const FoundFile& file) {
  if (file.named && !force_exclude_) return std::string();
  if (!command_line_.empty()) {
    std::string why =
        command_line_.Reject(RelativeToRoot(file.path, command_line_.root()));
    if (!why.empty()) return why;
  }
  const std::string_view dir = ParentView(file.path);
  // Files come sorted by directory: one look-up per directory.
  if (!last_dir_valid_ || dir != last_dir_) {
    TOPOLINT_ASSIGN_OR_RETURN(last_level_, ConfigLevel(std::string(dir)));
    last_dir_.assign(dir.data(), dir.size());
    last_dir_valid_ = true;
  }
  if (last_level_ == nullptr) return std::string();
  return last_level_->Reject(RelativeToRoot(file.path, last_level_->root()));
}

}  // namespace topolint
