// The body of stdin_fuzz: bytes fed through the CLI's standard-input path
// (`topolint check --stdin-filename NAME -`): PlanJobs reads fd 0 (the
// first 1 MiB to tell the kind, HLO text then streamed from the pipe
// through the parser's window, JSON read up to its limit) and CheckOneUnit
// checks the unit, exactly as `topolint check` does. Invariants besides "no
// crash": a refusal carries a message; findings name registered rules and
// point inside the input; and streaming changes nothing: the same bytes
// given whole in memory (stream_fd -1) give the same findings. Header-only
// so a regression test can replay inputs through the same code.
#ifndef TOPOLINT_FUZZ_STDIN_TARGET_H_
#define TOPOLINT_FUZZ_STDIN_TARGET_H_

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "checker/cli/options.h"
#include "checker/cli/unit_check.h"
#include "checker/cli/unit_jobs.h"
#include "fmt/format.h"
#include "fuzz/fuzz_util.h"

namespace topolint::fuzz {

// The first byte picks the --stdin-filename (its kind decides the path).
// For a named kind, the second byte places the rest just across the 1 MiB
// the CLI reads ahead (kStdinHeadBytes): it is preceded by blank lines
// (whitespace to HLO and JSON alike) so that the fuzzed bytes straddle the
// head and the part streamed from the pipe. The rest is standard input.
inline constexpr const char* kStdinNames[] = {
    "model.hlo",  "def.json", "neuron_config.json", "model.hlo.txt",
    "model.mlir",  // StableHLO by name: read whole, two passes
    "stdin",       // no kind by name: told by content, so never padded
};
inline constexpr size_t kStdinHeadBytes = size_t{1} << 20;  // unit_jobs.cc

// Puts `bytes` on fd 0 as a pipe, written by `*writer` (joined by the
// caller after closing fd 0; SIGPIPE is ignored so an early reader stop
// ends the writer). False when no pipe is to be had.
inline bool PutOnStdin(const std::string& bytes, std::thread* writer) {
  static const bool ignored = [] {
    std::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)ignored;
  int fds[2];
  if (pipe(fds) != 0) return false;
  // The previous input closed fd 0, so the pipe may have taken it.
  if (fds[0] != 0) {
    if (dup2(fds[0], 0) != 0) {
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    close(fds[0]);
  }
  const int w = fds[1];
  *writer = std::thread([w, &bytes] {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(w, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(w);
  });
  return true;
}

inline std::string Describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += fmt::format("{}:{}:{} {} {}\n", f.loc.file, f.loc.line, f.loc.column,
                       f.rule, f.message);
  }
  return out;
}

inline void RunStdinTarget(std::string_view input) {
  if (input.size() < 2) return;
  constexpr size_t kNames = sizeof(kStdinNames) / sizeof(kStdinNames[0]);
  const size_t pick = static_cast<unsigned char>(input[0]) % kNames;
  const std::string name = kStdinNames[pick];
  std::string bytes;
  if (pick + 1 != kNames) {
    bytes.assign(kStdinHeadBytes - 16 * static_cast<unsigned char>(input[1]),
                 '\n');
  }
  bytes.append(input.substr(2));
  std::thread writer;
  if (!PutOnStdin(bytes, &writer)) return;
  cli::Options options;
  options.verb = cli::Verb::kCheck;
  options.paths = {"-"};
  options.stdin_filename = name;
  cli::JobPlan plan;
  const absl::Status planned = cli::PlanJobs(options, &plan);
  std::vector<std::vector<Finding>> streamed;
  if (planned.ok()) {
    const std::vector<Document> docs = {{name, bytes}};
    for (const cli::UnitJob& job : plan.jobs) {
      cli::UnitOutcome out;
      const absl::Status st =
          cli::CheckOneUnit(job, plan.in_memory, nullptr, &out);
      if (!st.ok() && st.message().empty()) {
        Fail("a failed check says nothing");
      }
      CheckFindings(out.findings, docs);
      streamed.push_back(std::move(out.findings));
    }
  }
  close(0);
  writer.join();
  if (!planned.ok()) {
    if (planned.message().empty()) {
      Fail("a refused standard input says nothing");
    }
    return;
  }
  // The same bytes whole in memory, never streamed.
  std::vector<InMemoryInput> whole = plan.in_memory;
  for (InMemoryInput& m : whole) {
    if (m.stream_fd < 0) continue;
    m.stream_fd = -1;
    m.text = bytes;
  }
  for (size_t i = 0; i < plan.jobs.size(); ++i) {
    cli::UnitOutcome out;
    if (!cli::CheckOneUnit(plan.jobs[i], whole, nullptr, &out).ok()) continue;
    if (Describe(out.findings) != Describe(streamed[i])) {
      Fail(fmt::format("{} streamed from standard input:\n{}whole:\n{}", name,
                       Describe(streamed[i]), Describe(out.findings)));
    }
  }
}

}  // namespace topolint::fuzz

#endif  // TOPOLINT_FUZZ_STDIN_TARGET_H_
