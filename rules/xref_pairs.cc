// xref-permute-pairs: a collective-permute's source_target_pairs (or the
// send/recv attribute _xla_send_recv_source_target_pairs) must be the NEFF's
// src_target_pairs. Pairs are compared as sets: their order means nothing to
// XLA, and the NEFF reader only takes their span.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "rules/xref_checks.h"

namespace topolint::xref {
namespace {

constexpr RuleId kRule = kXrefPermutePairs;

std::string OneAndMore(const std::vector<std::pair<int64_t, int64_t>>& p,
                       bool json_style) {
  const std::string first = PairsToString({p.front()}, json_style);
  // PairsToString wraps the list; drop the outer brackets for one pair.
  std::string one = first.substr(1, first.size() - 2);
  if (p.size() == 1) return one;
  return fmt::format("{} and {} more", one, p.size() - 1);
}

// The NEFF has no pairs at all.
void ReportNoNeffPairs(const hlo::Module& module, const hlo::Collective& op,
                       const neff::DefJson& def, Emitter& emit) {
  const hlo::SourceTargetPairs& stp = op.source_target_pairs;
  Note note = def.has_pairs ? Note{At(def.file, def.pairs_pos),
                                   "src_target_pairs is empty"}
                            : Note{At(def.file, def.cc_info_pos),
                                   "CCInfo has no src_target_pairs"};
  emit.Report(kRule, At(module.file, stp.pos),
              fmt::format("{} has source_target_pairs {} but the NEFF "
                          "declares no src_target_pairs",
                          op.name, PairsToString(stp.pairs, false)),
              {std::move(note)}, op.name);
}

}  // namespace

void CheckPermutePairs(const hlo::Module& module, const hlo::Collective& op,
                       const NeffSide& n, Emitter& emit) {
  if (!emit.Enabled(kRule) || !n.parts.pairs) return;
  if (CarriesReplicaGroups(op) || !op.source_target_pairs.present) return;
  const neff::DefJson& def = *n.def;
  const hlo::SourceTargetPairs& stp = op.source_target_pairs;
  const PairSetDiff diff = ComparePairSets(stp, def.pairs);
  if (diff.equal()) return;
  if (def.pairs.empty()) {
    ReportNoNeffPairs(module, op, def, emit);
    return;
  }

  Location loc = At(module.file, stp.pos);
  std::vector<Note> notes;
  notes.push_back(
      {At(def.file, def.pairs_pos), "src_target_pairs is declared here"});
  std::vector<std::string> parts;
  if (!diff.only_hlo.empty()) {
    const auto& first = diff.only_hlo.front();
    for (size_t k = 0; k < stp.pairs.size() && k < stp.pair_pos.size(); ++k) {
      if (stp.pairs[k] == first) {
        loc = At(module.file, stp.pair_pos[k]);
        break;
      }
    }
    parts.push_back(
        fmt::format("{} only here", OneAndMore(diff.only_hlo, false)));
  }
  if (!diff.only_neff.empty()) {
    const auto& first = diff.only_neff.front();
    for (const neff::Pair& p : def.pairs) {
      if (p.src.value != first.first || p.dst.value != first.second) continue;
      notes.push_back(
          {At(def.file, p.pos),
           fmt::format("src_target_pairs[{}] is [{},{}], which {} "
                       "does not have",
                       p.index, first.first, first.second, op.name)});
      break;
    }
    parts.push_back(fmt::format("{} only in src_target_pairs",
                                OneAndMore(diff.only_neff, true)));
  }
  emit.Report(kRule, loc,
              fmt::format("source_target_pairs of {} differ from the NEFF's "
                          "src_target_pairs: {}",
                          op.name, absl::StrJoin(parts, "; ")),
              std::move(notes), op.name);
}

}  // namespace topolint::xref
