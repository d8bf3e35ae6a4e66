#include "checker/cli/output_guard.h"

#include <filesystem>
#include <string>
#include <vector>

#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

struct Output {
  const char* flag;
  const std::string* path;
  FileId id;
};

// `path` made absolute, with the symlinks of its existing part resolved:
// two names of a file that may not exist yet compare equal.
std::string NormalName(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return path;
  const fs::path normal = fs::weakly_canonical(absolute, ec);
  return (ec ? absolute.lexically_normal() : normal).string();
}

}  // namespace

absl::Status CheckOutputIsNoneOf(const std::string& flag,
                                 const std::string& output,
                                 const std::vector<GuardedFile>& files) {
  if (output.empty()) return absl::OkStatus();
  FileId out_id;
  const bool exists = IdOfPath(output, &out_id);
  const std::string out_name = NormalName(output);
  for (const GuardedFile& f : files) {
    if (f.path.empty()) continue;
    FileId id;
    const bool same = (exists && IdOfPath(f.path, &id) && id == out_id) ||
                      (f.by_name && NormalName(f.path) == out_name);
    if (same) {
      return absl::InvalidArgumentError(
          fmt::format("{} {}: is {} {}; refusing to overwrite it", flag, output,
                      f.what, f.path));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutputsAreNotInputs(const Options& options,
                                      const JobPlan& plan) {
  std::vector<Output> outputs;
  for (Output o : {Output{"-o", &options.output, {}},
                   Output{"--write-baseline", &options.write_baseline, {}}}) {
    // An output that does not exist yet cannot be an input.
    if (!o.path->empty() && IdOfPath(*o.path, &o.id)) outputs.push_back(o);
  }
  if (outputs.empty()) return absl::OkStatus();
  auto refuse = [](const Output& o, const std::string& what) {
    return absl::InvalidArgumentError(fmt::format(
        "{} {}: is {}; refusing to overwrite it", o.flag, *o.path, what));
  };
  if (outputs.size() == 2 && outputs[0].id == outputs[1].id) {
    return refuse(outputs[0], "also the --write-baseline file");
  }
  auto check = [&](const std::string& input,
                   const std::string& what) -> absl::Status {
    FileId id;
    if (input.empty() || !IdOfPath(input, &id)) return absl::OkStatus();
    for (const Output& o : outputs) {
      if (o.id == id) return refuse(o, fmt::format("{} {}", what, input));
    }
    return absl::OkStatus();
  };
  for (const UnitJob& job : plan.jobs) {
    for (const InputFile& f : job.spec.files) {
      if (f.from_stdin) continue;  // read into memory; its name is a label
      if (auto st = check(f.path, "the input"); !st.ok()) return st;
    }
  }
  for (const std::string& cfg : plan.config_paths) {
    if (auto st = check(cfg, "the settings file"); !st.ok()) return st;
  }
  FileId baseline;
  if (!options.baseline.empty() && !options.output.empty() &&
      IdOfPath(options.baseline, &baseline) && outputs[0].flag[1] == 'o' &&
      outputs[0].id == baseline) {
    return refuse(outputs[0], "the --baseline file");
  }
  return absl::OkStatus();
}

}  // namespace topolint::cli
