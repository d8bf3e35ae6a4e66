#include "checker/cli/output_guard.h"

#include <string>
#include <vector>

#include "checker/diag/input_file.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

struct Output {
  const char* flag;
  const std::string* path;
  FileId id;
};

}  // namespace

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
