// The fixes of one file: read it, resolve and choose the edits, write it.
#include <algorithm>
#include <utility>

#include "checker/diag/fix.h"
#include "checker/diag/input_file.h"
#include "checker/diag/output_file.h"
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

absl::StatusOr<FileFixPlan> PlanFileFixes(
    const std::string& file, const std::vector<const Fix*>& fixes) {
  FileFixPlan plan;
  plan.file = file;
  plan.applied.assign(fixes.size(), false);
  std::string why_not = NotFixableReason(file);
  if (why_not.empty()) {
    if (absl::Status st = ReadInputFile(file, kMaxFixedFileBytes,
                                        "files to fix", &plan.before);
        !st.ok()) {
      return st;
    }
    if (plan.before.find('\0') != std::string::npos) why_not = "a binary file";
  }
  if (!why_not.empty()) {
    for (const Fix* f : fixes) {
      plan.refused.push_back(
          fmt::format("{}: not fixable here: {}", Where(*f), why_not));
    }
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
    std::string error = fixes[i]->edits.empty() ? "it has no edit" : "";
    for (const TextEdit& e : fixes[i]->edits) {
      if (!error.empty()) break;
      if (e.file != file) {
        error = fmt::format("it also edits {}", e.file);
        break;
      }
      absl::StatusOr<ByteEdit> b = ResolveEdit(plan.before, e);
      if (!b.ok()) {
        error = fmt::format("{} (the file changed since it was read?)",
                            std::string(b.status().message()));
        break;
      }
      r.edits.push_back(*std::move(b));
    }
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
  for (const Resolved& r : resolved) {
    bool conflict = false;
    std::vector<ByteEdit> added;
    for (const ByteEdit& e : r.edits) {
      bool shared = false;
      for (const ByteEdit& a : plan.edits) {
        if (a == e) {
          shared = true;
        } else if (Overlaps(a, e)) {
          conflict = true;
        }
      }
      if (!shared) added.push_back(e);
    }
    for (size_t i = 0; i < added.size() && !conflict; ++i) {
      for (size_t j = i + 1; j < added.size(); ++j) {
        conflict = conflict || Overlaps(added[i], added[j]);
      }
    }
    if (conflict) {
      plan.refused.push_back(fmt::format(
          "{}: not applied: it overlaps another fix of the same text",
          Where(*fixes[r.index])));
      continue;
    }
    plan.applied[r.index] = true;
    for (ByteEdit& e : added) plan.edits.push_back(std::move(e));
  }
  std::sort(
      plan.edits.begin(), plan.edits.end(),
      [](const ByteEdit& a, const ByteEdit& b) { return a.begin < b.begin; });
  plan.after = ApplyEdits(plan.before, plan.edits);
  return plan;
}

absl::Status WriteFixedFile(const FileFixPlan& plan) {
  StagedOutput out;
  if (absl::Status st = out.Open(plan.file); !st.ok()) return st;
  if (absl::Status st = out.Write(plan.after); !st.ok()) return st;
  if (absl::Status st = out.Finish(); !st.ok()) return st;
  return out.Commit();
}

}  // namespace topolint
