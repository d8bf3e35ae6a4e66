#include "checker/cli/unit_jobs.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/strings/str_split.h"
#include "checker/cli/streamed_units.h"
#include "checker/cli/unit_check.h"
#include "checker/core/project_config.h"
#include "checker/core/worker_thread.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"

namespace topolint::cli {
namespace {

absl::Status ApplyFlags(const Options& o, UnitJob* job) {
  for (const std::string& g : o.rule_globs) {
    if (auto st = job->selection.ApplyGlobs(g); !st.ok()) {
      return absl::InvalidArgumentError(
          fmt::format("--rules: {}", std::string(st.message())));
    }
  }
  for (const std::string& list : o.severities) {
    for (const std::string& entry :
         std::vector<std::string>(absl::StrSplit(list, ','))) {
      const size_t eq = entry.find('=');
      if (eq == std::string::npos || eq == 0) {
        return absl::InvalidArgumentError(fmt::format(
            "--severity: expected RULE=LEVEL (error, warning, note or off), "
            "got '{}'",
            entry));
      }
      if (auto st = job->selection.SetSeverity(
              std::string_view(entry).substr(0, eq),
              std::string_view(entry).substr(eq + 1));
          !st.ok()) {
        return absl::InvalidArgumentError(
            fmt::format("--severity: {}", std::string(st.message())));
      }
    }
  }
  if (o.werror) job->selection.set_werror(true);
  if (o.lnc) {
    job->check.lnc = *o.lnc;
    job->check.lnc_given = true;
    job->check.lnc_origin = o.lnc_origin.empty() ? "--lnc" : o.lnc_origin;
  }
  if (o.num_cores) job->check.num_cores = o.num_cores;
  job->check.target = o.target;
  job->check.target_origin = o.target_origin;
  if (o.replica_count) job->check.replica_count = o.replica_count;
  if (o.num_partitions) job->check.num_partitions = o.num_partitions;
  if (o.data_parallel_size) {
    job->check.data_parallel_size = o.data_parallel_size;
    job->check.data_parallel_size_origin = "--data-parallel-size";
  }
  if (o.max_findings) job->check.max_findings = *o.max_findings;
  return absl::OkStatus();
}

absl::Status AddExplicitUnit(const Options& o, std::vector<UnitSpec>* specs) {
  UnitSpec spec;
  auto add = [&](const std::string& path, InputKind kind, bool def_json) {
    if (path.empty()) return absl::OkStatus();
    if (absl::Status st = CheckReadableKind(path); !st.ok()) return st;
    if (spec.directory.empty()) spec.directory = ParentDirectory(path);
    InputFile f{path, kind, true, false, def_json};
    spec.files.push_back(f);
    return absl::OkStatus();
  };
  if (auto st = add(o.hlo, InputKind::kHlo, false); !st.ok()) return st;
  bool neff_is_archive =
      o.neff.size() > 5 && o.neff.compare(o.neff.size() - 5, 5, ".neff") == 0;
  if (auto st =
          add(o.neff, neff_is_archive ? InputKind::kNeff : InputKind::kJson,
              !neff_is_archive);
      !st.ok()) {
    return st;
  }
  if (auto st = add(o.neuron_config, InputKind::kJson, false); !st.ok()) {
    return st;
  }
  if (!spec.files.empty()) specs->push_back(std::move(spec));
  return absl::OkStatus();
}

// One unit of an input already read into memory (standard input or a
// pipe), named `name`. Its kind comes from the name, else from the content.
absl::Status AddInMemoryUnit(const std::string& name, std::string text,
                             std::vector<InMemoryInput>* in_memory,
                             std::vector<UnitSpec>* specs) {
  InputKind kind;
  if (!ClassifyInMemory(name, text, &kind)) {
    return absl::InvalidArgumentError(fmt::format(
        "cannot tell what kind of input '{}' is: it is neither HLO (text or "
        "a binary module) nor a JSON object, nor StableHLO text; name it "
        ".hlo, .hlo.txt, .hlo_module.pb, .mlir or .json",
        name));
  }
  if (kind == InputKind::kNeff) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: a .neff archive cannot be read from standard input or a pipe",
        name));
  }
  in_memory->push_back({name, std::move(text)});
  UnitSpec spec;
  spec.directory = ParentDirectory(name);
  spec.files.push_back(InputFile{name, kind, true, true, false});
  specs->push_back(std::move(spec));
  return absl::OkStatus();
}

// Standard input read ahead of its kind: a module up to this size is held
// whole (its source lines shown as a file's); a longer one is streamed.
constexpr size_t kStdinHeadBytes = size_t{1} << 20;

// Reads up to `limit` bytes of `fd` into `out`; `eof` says whether the end
// came first.
absl::Status ReadHead(int fd, size_t limit, std::string* out, bool* eof) {
  out->resize(limit);
  size_t got = 0;
  *eof = false;
  while (got < limit) {
    const ssize_t n = read(fd, out->data() + got, limit - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::DataLossError(
          fmt::format("standard input: read error: {}", std::strerror(errno)));
    }
    if (n == 0) {
      *eof = true;
      break;
    }
    got += static_cast<size_t>(n);
  }
  out->resize(got);
  return absl::OkStatus();
}

// Standard input (`-`): HLO text is parsed from the pipe as it is read
// (bounded memory: the first kStdinHeadBytes plus the parser's window);
// JSON is held whole up to the JSON file limit, a binary module up to the
// standard-input limit (issue 27, defect 2).
absl::Status AddStdinUnit(const Options& o,
                          std::vector<InMemoryInput>* in_memory,
                          std::vector<UnitSpec>* specs) {
  std::string text;
  bool eof = false;
  if (auto st = ReadHead(0, kStdinHeadBytes, &text, &eof); !st.ok()) {
    return st;
  }
  if (!eof) {
    InputKind kind;
    const bool named = ClassifyName(o.stdin_filename, &kind);
    const std::string_view head = std::string_view(text).substr(0, 4096);
    // Bytes that are no binary module (no gzip, no plausible
    // HloModuleProto head: /dev/zero) go to the text parser, which reports
    // them at 1:1 and stops reading.
    const bool binary = LooksLikeHloBinaryHead(head);
    // StableHLO is read whole (up to the standard-input limit), as a binary
    // module: its reader takes two passes (location aliases and meshes may
    // follow the ops that use them). By content or by a `.mlir` name, as
    // the dispatcher tells it (checker/hlo/dispatch/parse_any.cc).
    const bool mlir =
        LooksLikeMlirHead(head) ||
        (!hlo::LooksLikeHlo(head) && named &&
         std::filesystem::path(o.stdin_filename).extension() == ".mlir");
    const bool hlo_text = !binary && !mlir &&
                          ((named && kind == InputKind::kHlo) ||
                           (!named && hlo::LooksLikeHlo(head)));
    if (hlo_text && o.verb == Verb::kCheck) {
      if (auto st = AddInMemoryUnit(o.stdin_filename, std::move(text),
                                    in_memory, specs);
          !st.ok()) {
        return st;
      }
      in_memory->back().stream_fd = 0;
      return absl::OkStatus();
    }
    const bool json = named ? kind == InputKind::kJson
                            : !binary && !mlir && !hlo::LooksLikeHlo(head);
    const size_t limit = json ? kMaxJsonFileBytes : kMaxStdinBytes;
    std::string rest;
    if (auto st = ReadFdBounded(0, "standard input", limit - text.size(),
                                json ? "JSON inputs" : "standard input", &rest);
        !st.ok()) {
      if (st.code() != absl::StatusCode::kResourceExhausted) return st;
      return absl::ResourceExhaustedError(fmt::format(
          "standard input: more than {} bytes; the limit for {} is {} bytes",
          limit, json ? "JSON inputs" : "standard input", limit));
    }
    text.reserve(text.size() + rest.size());
    text += rest;
  }
  return AddInMemoryUnit(o.stdin_filename, std::move(text), in_memory, specs);
}

}  // namespace

absl::Status CommandLineUnits(const Options& o,
                              const std::vector<InMemoryInput>* reuse,
                              std::vector<InMemoryInput>* in_memory,
                              std::vector<UnitSpec>* specs,
                              std::vector<std::string>* disk_paths) {
  if (auto st = AddExplicitUnit(o, specs); !st.ok()) return st;
  if (reuse != nullptr) {
    // Standard input and pipes cannot be read twice: what the first pass
    // read (the fix's check of what remains).
    for (const InMemoryInput& m : *reuse) {
      if (auto st = AddInMemoryUnit(m.name, m.text, in_memory, specs);
          !st.ok()) {
        return st;
      }
      in_memory->back().stream_fd = m.stream_fd;
    }
  }
  for (const std::string& p : o.paths) {
    if (p != "-") {
      // Pipes (`<(cat model.hlo)`) are read once, into memory, so that
      // telling their kind consumes nothing; devices, FIFOs and sockets
      // are refused here, before anything could block on them.
      switch (KindOfPath(p)) {
        case FileKind::kRegular:
        case FileKind::kDirectory:
          disk_paths->push_back(p);
          continue;
        case FileKind::kPipe: {
          if (reuse != nullptr) continue;
          std::string text;
          if (auto st = ReadInputFile(p, kMaxStdinBytes, "pipes", &text);
              !st.ok()) {
            return st;
          }
          if (auto st = AddInMemoryUnit(p, std::move(text), in_memory, specs);
              !st.ok()) {
            return st;
          }
          continue;
        }
        default:
          return CheckReadableKind(p);
      }
    }
    if (reuse != nullptr) continue;
    if (auto st = AddStdinUnit(o, in_memory, specs); !st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::Status PlanJobs(const Options& o, JobPlan* plan) {
  StreamedUnits source(
      o, [](SkippedPath) {}, /*reuse=*/nullptr, /*check_outputs=*/false);
  if (absl::Status st = source.Init(); !st.ok()) return st;
  for (;;) {
    std::unique_ptr<UnitJob> job;
    std::optional<std::string> frontier;
    absl::StatusOr<bool> more = source.Take(&job, &frontier);
    if (!more.ok()) return more.status();
    if (!*more) break;
    UnitJob& taken = *job;
    if (o.verb != Verb::kCheck) {
      // `explain` draws units, not findings: what was left out is a
      // warning there, and a skipped compile-cache entry no unit.
      for (const UncheckedInput& u : taken.spec.unchecked) {
        plan->warnings.push_back(fmt::format("{}: {}", u.path, u.message));
      }
      taken.spec.unchecked.clear();
      if (taken.spec.files.empty()) continue;
    }
    plan->jobs.push_back(std::move(taken));
  }
  plan->in_memory = source.in_memory();
  plan->config_paths = source.config_paths();
  return absl::OkStatus();
}

absl::Status UnitSettings::Apply(ProjectConfigFinder* finder, UnitJob* job,
                                 std::vector<std::string>* new_configs,
                                 const SeenDir* seen) {
  const Options& o = options_;
  std::string cfg_path =
      o.config.empty() ? finder->Find(job->spec.directory, seen) : o.config;
  if (!cfg_path.empty()) {
    auto it = configs_.find(cfg_path);
    if (it == configs_.end()) {
      auto cfg = LoadProjectConfig(cfg_path);
      if (!cfg.ok()) return cfg.status();
      it = configs_.emplace(cfg_path, *std::move(cfg)).first;
      new_configs->push_back(cfg_path);
    }
    if (auto st = ApplyProjectConfig(it->second, &job->selection, &job->check);
        !st.ok()) {
      return st;
    }
  }
  return ApplyFlags(o, job);
}

absl::Status LoadUnits(const JobPlan& plan, int jobs,
                       std::vector<Unit>* units) {
  units->assign(plan.jobs.size(), Unit{});
  std::vector<absl::Status> status(plan.jobs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < plan.jobs.size(); i = next++) {
      status[i] = LoadUnit(plan.jobs[i].spec, plan.in_memory, &(*units)[i]);
    }
  };
  const int threads =
      std::max(1, std::min<int>(jobs, static_cast<int>(plan.jobs.size())));
  // The calling thread is one of them (and does it all when the system
  // refuses the others).
  std::vector<WorkerThread> pool = StartWorkers(threads - 1, worker);
  worker();
  for (WorkerThread& t : pool) t.join();
  // The first failure in plan order.
  for (const absl::Status& st : status) {
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::Status CheckOneUnit(const UnitJob& job,
                          const std::vector<InMemoryInput>& in_memory,
                          const SharedInputs* shared, UnitOutcome* out) {
  Unit unit;
  absl::Status st =
      LoadAndCheckUnit(job.spec, in_memory, job.check, job.selection, &unit,
                       &out->findings, shared);
  if (!st.ok()) return st;
  out->shared_files = job.shared_files;
  out->new_files = job.new_files;
  for (neff::NeffArchive& a : unit.neff_archives) {
    for (auto& member : a.member_texts) {
      out->member_texts.push_back(std::move(member));
    }
  }
  return absl::OkStatus();
}

}  // namespace topolint::cli
