// The fixes of one file: read it, resolve and choose the edits, write it.
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <utility>

#include "checker/diag/fix.h"
#include "checker/io/input_file.h"
#include "checker/io/output_file.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// Files fixed are held whole: HLO text up to this size.
constexpr size_t kMaxFixedFileBytes = size_t{1} << 30;

bool Overlaps(const ByteEdit& a, const ByteEdit& b) {
  if (a.begin == a.end || b.begin == b.end) {
    // An insertion overlaps what it stands in or next to.
    return a.begin <= b.end && b.begin <= a.end;
  }
  return a.begin < b.end && b.begin < a.end;
}

std::string Where(const Fix& fix) {
  if (fix.edits.empty()) return fix.title;
  const TextEdit& e = fix.edits.front();
  return fmt::format("{}:{}:{}: {}", e.file, e.line, e.column, fix.title);
}

}  // namespace

bool StatFileState(const std::string& path, FileState* state) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  state->dev = static_cast<uint64_t>(st.st_dev);
  state->ino = static_cast<uint64_t>(st.st_ino);
  state->size = static_cast<int64_t>(st.st_size);
  state->mtime_sec = static_cast<int64_t>(st.st_mtim.tv_sec);
  state->mtime_nsec = static_cast<int64_t>(st.st_mtim.tv_nsec);
  return true;
}

namespace {

// Reads `file` into plan->before and its state; returns why it cannot be
// fixed ("" when it can). An error is a file that cannot be read.
absl::StatusOr<std::string> ReadFileToFix(const std::string& file,
                                          FileFixPlan* plan) {
  std::string why_not = NotFixableReason(file);
  if (why_not.empty()) why_not = NotRegularFileReason(file);
  if (!why_not.empty()) return why_not;
  const bool stated = StatFileState(file, &plan->state);
  if (absl::Status st = ReadInputFile(file, kMaxFixedFileBytes, "files to fix",
                                      &plan->before);
      !st.ok()) {
    return st;
  }
  FileState after_read;
  if (!stated || !StatFileState(file, &after_read) ||
      after_read != plan->state) {
    return std::string("the file changed while it was read");
  }
  if (plan->before.find('\0') != std::string::npos) {
    return std::string("a binary file");
  }
  return std::string();
}

// The byte edits of `fix` in `before` (the text of `file`, also named by
// `aliases`); returns why it cannot be applied ("" when it can).
std::string ResolveFix(const Fix& fix, const std::string& file,
                       const std::vector<std::string>& aliases,
                       const std::string& before,
                       std::vector<ByteEdit>* edits) {
  if (fix.edits.empty()) return "it has no edit";
  for (const TextEdit& e : fix.edits) {
    if (e.file != file &&
        std::find(aliases.begin(), aliases.end(), e.file) == aliases.end()) {
      return fmt::format("it also edits {}", e.file);
    }
    absl::StatusOr<ByteEdit> b = ResolveEdit(before, e);
    if (!b.ok()) {
      return fmt::format("{} (the file changed since it was read?)",
                         std::string(b.status().message()));
    }
    edits->push_back(*std::move(b));
  }
  return "";
}

}  // namespace

absl::StatusOr<FileFixPlan> PlanFileFixes(
    const std::string& file, const std::vector<const Fix*>& fixes,
    const std::vector<std::string>& aliases) {
  FileFixPlan plan;
  plan.file = file;
  plan.applied.assign(fixes.size(), false);
  absl::StatusOr<std::string> read = ReadFileToFix(file, &plan);
  if (!read.ok()) return read.status();
  const std::string why_not = *std::move(read);
  if (!why_not.empty()) {
    for (const Fix* f : fixes) {
      plan.refused.push_back(
          fmt::format("{}: not fixable here: {}", Where(*f), why_not));
    }
    plan.before.clear();
    return plan;
  }
  // Resolve every fix; then accept them in order of position.
  struct Resolved {
    size_t index;
    std::vector<ByteEdit> edits;
  };
  std::vector<Resolved> resolved;
  for (size_t i = 0; i < fixes.size(); ++i) {
    Resolved r{i, {}};
    const std::string error =
        ResolveFix(*fixes[i], file, aliases, plan.before, &r.edits);
    if (!error.empty()) {
      plan.refused.push_back(
          fmt::format("{}: not applied: {}", Where(*fixes[i]), error));
      continue;
    }
    std::sort(
        r.edits.begin(), r.edits.end(),
        [](const ByteEdit& a, const ByteEdit& b) { return a.begin < b.begin; });
    resolved.push_back(std::move(r));
  }
  std::stable_sort(resolved.begin(), resolved.end(),
                   [](const Resolved& a, const Resolved& b) {
                     return a.edits.front().begin < b.edits.front().begin;
                   });
  // The accepted edits by begin. They never overlap, so no two share a
  // begin (an insertion overlaps what starts or ends where it stands), and
  // ordered by begin they are ordered by end: an edit can only overlap the
  // accepted edit before it or the ones from its begin to its end, and the
  // first of those decides.
  std::map<size_t, ByteEdit> accepted;
  for (const Resolved& r : resolved) {
    bool conflict = false;
    std::vector<const ByteEdit*> added;
    for (size_t i = 0; i < r.edits.size() && !conflict; ++i) {
      const ByteEdit& e = r.edits[i];
      if (i > 0 && Overlaps(r.edits[i - 1], e)) {
        conflict = true;
        break;
      }
      bool shared = false;
      auto it = accepted.upper_bound(e.begin);
      if (it != accepted.begin()) --it;
      for (; it != accepted.end() && it->first <= e.end; ++it) {
        if (it->second == e) {
          shared = true;
        } else if (Overlaps(it->second, e)) {
          conflict = true;
          break;
        }
      }
      if (!shared) added.push_back(&e);
    }
    if (conflict) {
      plan.refused.push_back(fmt::format(
          "{}: not applied: it overlaps another fix of the same text",
          Where(*fixes[r.index])));
      continue;
    }
    plan.applied[r.index] = true;
    for (const ByteEdit* e : added) accepted.emplace(e->begin, *e);
  }
  plan.edits.reserve(accepted.size());
  for (auto& [begin, e] : accepted) plan.edits.push_back(std::move(e));
  plan.after = ApplyEdits(plan.before, plan.edits);
  return plan;
}

absl::Status WriteFixedFile(const FileFixPlan& plan) {
  StagedOutput out;
  if (absl::Status st = out.Open(plan.file); !st.ok()) return st;
  if (absl::Status st = out.Write(plan.after); !st.ok()) return st;
  if (absl::Status st = out.Finish(); !st.ok()) return st;
  // Between the read and now an editor (or a second --fix) may have
  // written the file: then the plan is for other bytes; leave the file.
  FileState now;
  if (!StatFileState(plan.file, &now) || now != plan.state) {
    return absl::FailedPreconditionError(fmt::format(
        "{}: not written: the file changed since it was read for fixing; "
        "run --fix again",
        plan.file));
  }
  return out.Commit();
}

}  // namespace topolint
