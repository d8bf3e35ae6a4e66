#include "checker/cli/streamed_units.h"

#include <algorithm>
#include <utility>

#include "checker/cli/output_guard.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::cli {

StreamedUnits::StreamedUnits(const Options& options,
                             std::function<void(SkippedPath)> on_skipped,
                             const std::vector<InMemoryInput>* reuse,
                             bool check_outputs)
    : options_(options),
      on_skipped_(std::move(on_skipped)),
      settings_(options),
      reuse_(reuse),
      check_outputs_(check_outputs),
      shared_([this](const InputFile& f, Unit* unit) {
        return LoadJsonInput(f, in_memory_, unit);
      }) {}

absl::Status StreamedUnits::Init() {
  const Options& o = options_;
  if (!o.config.empty()) {
    if (absl::Status st = CheckReadableKind(o.config); !st.ok()) {
      return absl::Status(st.code(), fmt::format("settings file {}",
                                                 std::string(st.message())));
    }
  }
  if (auto st = selector_.SetCommandLine(o.include, o.exclude); !st.ok()) {
    return st;
  }
  selector_.set_force_exclude(o.force_exclude);
  selector_.set_config(o.config);
  limits_.follow_symlinks = o.follow_symlinks;
  limits_.jobs = o.jobs;
  limits_.selector = &selector_;
  limits_.honour_gitignore = !o.no_ignore;
  std::vector<UnitSpec> formed;
  std::vector<std::string> disk_paths;
  if (auto st = CommandLineUnits(o, reuse_, &in_memory_, &formed, &disk_paths);
      !st.ok()) {
    return st;
  }
  sources_ = std::make_unique<UnitSources>(limits_, on_skipped_);
  for (UnitSpec& spec : formed) sources_->AddUnit(std::move(spec));
  std::vector<SkippedPath> unrecognised;
  if (auto st = sources_->AddPaths(disk_paths, o.whole_units, &unrecognised);
      !st.ok()) {
    return st;
  }
  if (!unrecognised.empty()) {
    const SkippedPath& s = unrecognised.front();
    return absl::InvalidArgumentError(
        fmt::format("{}: {}; name a file topolint reads, or its directory",
                    s.path, s.reason));
  }
  return sources_->Prime();
}

absl::StatusOr<bool> StreamedUnits::Take(std::unique_ptr<UnitJob>* job,
                                         std::optional<std::string>* frontier) {
  StreamedUnit unit;
  absl::StatusOr<bool> more = sources_->Next(&unit);
  if (!more.ok() || !*more) return more;
  auto made = std::make_unique<UnitJob>();
  made->spec = std::move(unit.spec);
  made->shared_files = std::move(unit.shared);
  made->new_files = unit.new_files;
  JobPlan one;  // this unit and a settings file met for the first time
  const SeenDir seen{unit.dir_has_settings, unit.dir_has_git};
  if (auto st =
          settings_.Apply(selector_.config_finder(), made.get(),
                          &one.config_paths, unit.dir_listed ? &seen : nullptr);
      !st.ok()) {
    return st;
  }
  config_paths_.insert(config_paths_.end(), one.config_paths.begin(),
                       one.config_paths.end());
  // Inputs other units list too (an inherited config): read once.
  for (const InputFile& f : made->spec.files) {
    if (std::find(made->shared_files.begin(), made->shared_files.end(),
                  f.path) != made->shared_files.end()) {
      shared_.Share(f);
    }
  }
  if (check_outputs_ &&
      (!options_.output.empty() || !options_.write_baseline.empty())) {
    one.jobs.push_back(*made);
    if (auto st = CheckOutputsAreNotInputs(options_, one); !st.ok()) {
      return st;
    }
  }
  if (!IsSkipUnit(made->spec)) ++units_;
  unchecked_.Add(made->spec);
  *frontier = sources_->PeekKey();
  *job = std::move(made);
  return true;
}

}  // namespace topolint::cli
