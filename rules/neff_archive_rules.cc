// neff-lnc-mismatch and neff-graphs-disagree: a `.neff` archive must agree
// with itself (header lnc_size, graph count, the graphs' CCInfo) and with the
// LNC the user (--lnc), the compile_flags.json beside it and the component
// config ask for.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "fmt/format.h"
#include "rules/families.h"
#include "rules/lnc_resolution.h"

namespace topolint {
namespace {

using neff::DefJson;
using neff::NeffArchive;

// ---------------------------------------------------------------------------
// neff-lnc-mismatch

std::string Graphs(int64_t n) {
  return fmt::format("{} graph{}", n, n == 1 ? "" : "s");
}

// How the reference source is named in a finding's message. `in_archive`:
// the finding is located in the archive itself, so it need not be named.
std::string ReferencePhrase(const NeffArchive& a, const LncStatement& ref,
                            bool in_archive) {
  const std::string archive = in_archive ? "the archive" : a.file;
  if (ref.origin == LncOrigin::kNeffHeader) {
    return fmt::format("{} was compiled for LNC {} (header lnc_size)", archive,
                       ref.value);
  }
  return fmt::format(
      "{} holds {} in kelf-0.json, one per physical core (LNC {})", archive,
      Graphs(ref.value), ref.value);
}

std::string SourcePhrase(const LncStatement& s) {
  switch (s.origin) {
    case LncOrigin::kNeffHeader:
      return fmt::format("header lnc_size is {}", s.value);
    case LncOrigin::kNeffGraphs:
      return fmt::format("kelf-0.json lists {}", Graphs(s.value));
    case LncOrigin::kCompileFlags:
      return s.anchor == "--target"
                 ? fmt::format(
                       "compile_flags.json gives LNC {} (the default of its "
                       "--target)",
                       s.value)
                 : fmt::format("compile_flags.json gives LNC {}", s.value);
    case LncOrigin::kConfig:
      return fmt::format("logical_nc_config is {}", s.value);
    case LncOrigin::kOption:
      if (s.anchor == ".topolint.json") {
        return fmt::format(".topolint.json sets lnc {}", s.value);
      }
      // A flag as the user gave it, value included ("--lnc=2",
      // "--logical-nc-config 2": exec names the compiler's own flag).
      if (!s.anchor.empty() && s.anchor[0] == '-' &&
          s.anchor.find_first_of("= ") != std::string::npos) {
        return fmt::format("{} gives LNC {}", s.anchor, s.value);
      }
      return fmt::format("{} is {}", s.anchor, s.value);
    case LncOrigin::kDefault:
      break;
  }
  return {};
}

void CheckLncOfArchive(const NeffArchive& a, const Unit& unit,
                       const CheckOptions& options, Emitter& emit) {
  std::vector<LncStatement> sources;
  if (a.header_ok && a.lnc_size > 0) {
    sources.push_back({LncOrigin::kNeffHeader, a.lnc_size, "",
                       Location{a.file, 0, 0}, "lnc_size"});
  }
  if (!a.graph_names.empty()) {
    sources.push_back({LncOrigin::kNeffGraphs,
                       static_cast<int64_t>(a.graph_names.size()), "",
                       a.kelf_loc, "kelf-0.json.graphs"});
  }
  // Without the NEFF's own statement there is nothing NEFF-specific to
  // compare (config vs --lnc is not this rule's business).
  if (sources.empty()) return;
  // The unit's compile_flags.json and config statements.
  for (LncStatement& s : LncStatements(unit, options)) {
    if (s.origin == LncOrigin::kCompileFlags ||
        s.origin == LncOrigin::kConfig) {
      sources.push_back(std::move(s));
    }
  }
  if (options.lnc_given) {
    sources.push_back({LncOrigin::kOption, options.lnc, "", std::nullopt,
                       options.lnc_origin.empty() ? std::string("--lnc")
                                                  : options.lnc_origin});
  }

  const LncStatement& ref = sources.front();
  for (size_t i = 1; i < sources.size(); ++i) {
    const LncStatement& s = sources[i];
    if (s.value == ref.value) continue;
    const Location loc = s.loc.value_or(Location{a.file, 0, 0});
    std::string message =
        fmt::format("{} but {}", SourcePhrase(s),
                    ReferencePhrase(a, ref,
                                    s.origin != LncOrigin::kConfig &&
                                        s.origin != LncOrigin::kCompileFlags));
    if (s.origin == LncOrigin::kNeffGraphs) {
      message += "; expected one graph per physical core";
    } else {
      message += fmt::format("; expected {}", ref.value);
    }
    std::vector<Note> notes;
    for (size_t j = 0; j < sources.size(); ++j) {
      if (j == i || !sources[j].loc || *sources[j].loc == loc) continue;
      notes.push_back(
          {*sources[j].loc, fmt::format("{} here", SourcePhrase(sources[j]))});
    }
    emit.Report(kNeffLncMismatch, loc, std::move(message), std::move(notes),
                s.anchor);
  }
}

// ---------------------------------------------------------------------------
// neff-graphs-disagree

// The first place where graph `gi` differs from the reference graph `g0`.
struct Difference {
  TextPos here;      // in gi
  TextPos there;     // in g0
  std::string path;  // "CCInfo.replica_groups[0][1][2]"
  std::string here_value;
  std::string there_value;
};

Difference Diff(TextPos here, TextPos there, std::string path,
                std::string here_value, std::string there_value) {
  return {here, there, std::move(path), std::move(here_value),
          std::move(there_value)};
}

// "1 rank", "2 ranks"; `plural` defaults to `one` + "s".
std::string Count(size_t n, const char* one, const char* plural = nullptr) {
  if (n == 1) return fmt::format("1 {}", one);
  return plural != nullptr ? fmt::format("{} {}", n, plural)
                           : fmt::format("{} {}s", n, one);
}

std::optional<Difference> DiffReplicaGroups(const DefJson& gi,
                                            const DefJson& g0) {
  const std::string base = "CCInfo.replica_groups";
  if (gi.has_replica_groups != g0.has_replica_groups) {
    return Diff(gi.has_replica_groups ? gi.replica_groups_pos : gi.cc_info_pos,
                g0.has_replica_groups ? g0.replica_groups_pos : g0.cc_info_pos,
                base, gi.has_replica_groups ? "present" : "absent",
                g0.has_replica_groups ? "present" : "absent");
  }
  const auto& ti = gi.topologies;
  const auto& t0 = g0.topologies;
  for (size_t t = 0; t < ti.size() && t < t0.size(); ++t) {
    const neff::Topology& tpi = ti[t];
    const neff::Topology& tp0 = t0[t];
    const int64_t groups_i = tpi.num_groups();
    const int64_t groups_0 = tp0.num_groups();
    for (int64_t g = 0; g < groups_i && g < groups_0; ++g) {
      const absl::Span<const int32_t> ri = tpi.group(g);
      const absl::Span<const int32_t> r0 = tp0.group(g);
      for (size_t r = 0; r < ri.size() && r < r0.size(); ++r) {
        if (ri[r] != r0[r]) {
          const int64_t rr = static_cast<int64_t>(r);
          return Diff(tpi.rank_pos(g, rr), tp0.rank_pos(g, rr),
                      fmt::format("{}[{}][{}][{}]", base, t, g, r),
                      std::to_string(ri[r]), std::to_string(r0[r]));
        }
      }
      if (ri.size() != r0.size()) {
        return Diff(tpi.group_pos(g), tp0.group_pos(g),
                    fmt::format("{}[{}][{}]", base, t, g),
                    Count(ri.size(), "rank"), Count(r0.size(), "rank"));
      }
    }
    if (groups_i != groups_0) {
      return Diff(tpi.pos, tp0.pos, fmt::format("{}[{}]", base, t),
                  Count(static_cast<size_t>(groups_i), "group"),
                  Count(static_cast<size_t>(groups_0), "group"));
    }
  }
  if (ti.size() != t0.size()) {
    return Diff(gi.replica_groups_pos, g0.replica_groups_pos, base,
                Count(ti.size(), "topology", "topologies"),
                Count(t0.size(), "topology", "topologies"));
  }
  return std::nullopt;
}

std::optional<Difference> DiffPairs(const DefJson& gi, const DefJson& g0) {
  const std::string base = "CCInfo.src_target_pairs";
  if (gi.has_pairs != g0.has_pairs) {
    return Diff(gi.has_pairs ? gi.pairs_pos : gi.cc_info_pos,
                g0.has_pairs ? g0.pairs_pos : g0.cc_info_pos, base,
                gi.has_pairs ? "present" : "absent",
                g0.has_pairs ? "present" : "absent");
  }
  for (size_t k = 0; k < gi.pairs.size() && k < g0.pairs.size(); ++k) {
    const neff::Pair& pi = gi.pairs[k];
    const neff::Pair& p0 = g0.pairs[k];
    if (pi.src.value != p0.src.value) {
      return Diff(pi.src.pos, p0.src.pos, fmt::format("{}[{}][0]", base, k),
                  std::to_string(pi.src.value), std::to_string(p0.src.value));
    }
    if (pi.dst.value != p0.dst.value) {
      return Diff(pi.dst.pos, p0.dst.pos, fmt::format("{}[{}][1]", base, k),
                  std::to_string(pi.dst.value), std::to_string(p0.dst.value));
    }
  }
  if (gi.pairs.size() != g0.pairs.size()) {
    return Diff(gi.pairs_pos, g0.pairs_pos, base,
                Count(gi.pairs.size(), "pair"), Count(g0.pairs.size(), "pair"));
  }
  return std::nullopt;
}

std::optional<Difference> DiffWorldSize(const DefJson& gi, const DefJson& g0) {
  const std::string path = "CCInfo.#rank_world_size";
  const auto value = [](const DefJson& g) {
    return g.has_explicit_world_size
               ? std::to_string(g.explicit_world_size.value)
               : std::string("absent");
  };
  const auto pos = [](const DefJson& g) {
    return g.has_explicit_world_size ? g.explicit_world_size.pos
                                     : g.cc_info_pos;
  };
  if (value(gi) != value(g0)) {
    return Diff(pos(gi), pos(g0), path, value(gi), value(g0));
  }
  return std::nullopt;
}

std::optional<Difference> FirstDifference(const DefJson& gi,
                                          const DefJson& g0) {
  if (gi.has_cc_info != g0.has_cc_info) {
    return Diff(gi.cc_info_pos, g0.cc_info_pos, "CCInfo",
                gi.has_cc_info ? "present" : "absent",
                g0.has_cc_info ? "present" : "absent");
  }
  if (!gi.has_cc_info) return std::nullopt;
  if (auto d = DiffReplicaGroups(gi, g0)) return d;
  if (auto d = DiffPairs(gi, g0)) return d;
  return DiffWorldSize(gi, g0);
}

// "sg01/def.json" from "x.neff:sg01/def.json".
std::string MemberOf(const NeffArchive& a, const DefJson& g) {
  const std::string prefix = a.file + ":";
  return absl::StartsWith(g.file, prefix) ? g.file.substr(prefix.size())
                                          : g.file;
}

void CheckGraphsOfArchive(const NeffArchive& a, Emitter& emit) {
  if (a.graphs.size() < 2) return;
  const DefJson& g0 = a.graphs.front();
  // A graph with schema problems has elements left out; comparing it would
  // only echo neff-schema.
  if (!g0.schema_problems.empty()) return;
  const std::string m0 = MemberOf(a, g0);
  for (size_t i = 1; i < a.graphs.size(); ++i) {
    const DefJson& gi = a.graphs[i];
    if (!gi.schema_problems.empty()) continue;
    std::optional<Difference> d = FirstDifference(gi, g0);
    if (!d) continue;
    const std::string mi = MemberOf(a, gi);
    emit.Report(
        kNeffGraphsDisagree, At(gi.file, d->here),
        fmt::format("{} is {} in {} but {} in {} (graph 0); every graph of "
                    "one NEFF must carry the same CCInfo",
                    d->path, d->here_value, mi, d->there_value, m0),
        {Note{At(g0.file, d->there),
              fmt::format("{} in {} (graph 0) is {} here", d->path, m0,
                          d->there_value)}},
        fmt::format("{}:{}", mi, d->path));
  }
}

}  // namespace

// new-rule.sh(neff-archive) stub: a rule scaffolded by scripts/new-rule.sh,
// called first by CheckNeffArchive:
//   namespace {
//   void Check@Rule@(const Unit& unit, const CheckOptions& options,
//                    Emitter& emit);
//   }  // namespace

void CheckNeffArchive(const Unit& unit, const CheckOptions& options,
                      Emitter& emit) {
  // new-rule.sh(neff-archive): Check@Rule@(unit, options, emit);
  for (const NeffArchive& a : unit.neff_archives) {
    CheckLncOfArchive(a, unit, options, emit);
    CheckGraphsOfArchive(a, emit);
  }
}

}  // namespace topolint
