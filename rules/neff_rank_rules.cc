// neff-duplicate-rank and neff-world-size: the ranks themselves.
#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "rules/neff_checks.h"

namespace topolint::neff_rules {
namespace {

struct Occurrence {
  int64_t group = 0;
  int64_t index = 0;  // rank index within the group, or pair index
  TextPos pos;
};

Occurrence OccurrenceOf(const neff::Topology& t, int64_t flat) {
  const int64_t g = t.GroupOf(flat);
  const int64_t r = flat - t.group_start(g);
  return Occurrence{g, r, t.rank_pos(g, r)};
}

// The ranks are checked with a bitmap over their range (neff::FindRepeats),
// not a map per rank: a topology may list a million of them.
void CheckTopologyDuplicates(const neff::DefJson& d, const neff::Topology& t,
                             Emitter& emit) {
  for (const neff::Repeat& repeat : neff::FindRepeats(t.ranks())) {
    const int64_t value = t.ranks()[static_cast<size_t>(repeat.index)];
    const Occurrence here = OccurrenceOf(t, repeat.index);
    const Occurrence seen = OccurrenceOf(t, repeat.first);
    const std::string where =
        seen.group == here.group
            ? fmt::format("twice in group {}", here.group)
            : fmt::format("in group {} and again in group {}", seen.group,
                          here.group);
    emit.Report(
        kNeffDuplicateRank, At(d.file, here.pos),
        fmt::format("rank {} appears {} of topology[{}]; expected each rank "
                    "at most once in a topology",
                    value, where, t.index),
        {Note{At(d.file, seen.pos),
              fmt::format("rank {} first appears here", value)}},
        fmt::format("CCInfo.replica_groups[{}][{}][{}]", t.index, here.group,
                    here.index));
  }
}

// A source used twice sends twice; a target used twice receives twice.
void CheckPairDuplicates(const neff::DefJson& d, Emitter& emit) {
  absl::flat_hash_map<int64_t, Occurrence> sources;
  absl::flat_hash_map<int64_t, Occurrence> targets;
  sources.reserve(d.pairs.size());
  targets.reserve(d.pairs.size());
  for (const neff::Pair& p : d.pairs) {
    struct Endpoint {
      const neff::Rank& rank;
      absl::flat_hash_map<int64_t, Occurrence>& seen;
      const char* role;
      const char* expectation;
      int slot;
    };
    const Endpoint endpoints[] = {
        {p.src, sources, "source", "each rank to send to at most one target",
         0},
        {p.dst, targets, "target",
         "each rank to receive from at most one "
         "source",
         1},
    };
    for (const Endpoint& e : endpoints) {
      const Occurrence here{0, p.index, e.rank.pos};
      auto [it, inserted] = e.seen.try_emplace(e.rank.value, here);
      if (inserted) continue;
      emit.Report(
          kNeffDuplicateRank, At(d.file, e.rank.pos),
          fmt::format("rank {} is the {} of src_target_pairs[{}] and again of "
                      "src_target_pairs[{}]; expected {}",
                      e.rank.value, e.role, it->second.index, p.index,
                      e.expectation),
          {Note{At(d.file, it->second.pos),
                fmt::format("src_target_pairs[{}] uses rank {} as its {}",
                            it->second.index, e.rank.value, e.role)}},
          fmt::format("CCInfo.src_target_pairs[{}][{}]", p.index, e.slot));
    }
  }
}

}  // namespace

void CheckDuplicateRanks(const neff::DefJson& d, Emitter& emit) {
  for (const neff::Topology& t : d.topologies) {
    CheckTopologyDuplicates(d, t, emit);
  }
  CheckPairDuplicates(d, emit);
}

void CheckExplicitWorldSize(const neff::DefJson& d, Emitter& emit) {
  // 0 is the reader's "not given" (cc.get("#rank_world_size", 0)).
  if (!d.has_explicit_world_size || d.explicit_world_size.value == 0) return;
  const int64_t declared = d.explicit_world_size.value;
  const Location here = At(d.file, d.explicit_world_size.pos);

  // The largest group of any well-formed topology.
  const neff::Topology* big_topology = nullptr;
  int64_t big_group = 0;
  for (const neff::Topology& t : d.topologies) {
    for (int64_t g = 0; g < t.num_groups(); ++g) {
      if (big_topology == nullptr ||
          t.group_size(g) > big_topology->group_size(big_group)) {
        big_topology = &t;
        big_group = g;
      }
    }
  }
  if (big_topology != nullptr) {
    const int64_t n = big_topology->group_size(big_group);
    if (n > declared) {
      emit.Report(
          kNeffWorldSize, here,
          fmt::format("#rank_world_size is {} but group {} of topology[{}] "
                      "has {} ranks; expected a world size of at least {}",
                      declared, big_group, big_topology->index, n, n),
          {Note{At(d.file, big_topology->group_pos(big_group)),
                fmt::format("group {} of topology[{}] has {} ranks", big_group,
                            big_topology->index, n)}},
          "CCInfo.#rank_world_size");
    }
  }

  // The pairs' span: 1 + the largest endpoint.
  const neff::Rank* top = nullptr;
  int64_t top_pair = 0;
  for (const neff::Pair& p : d.pairs) {
    for (const neff::Rank* r : {&p.src, &p.dst}) {
      if (top == nullptr || r->value > top->value) {
        top = r;
        top_pair = p.index;
      }
    }
  }
  if (top != nullptr && top->value + 1 > declared) {
    emit.Report(
        kNeffWorldSize, here,
        fmt::format("#rank_world_size is {} but src_target_pairs[{}] uses "
                    "rank {}, so the pairs span {} ranks; expected a world "
                    "size of at least {}",
                    declared, top_pair, top->value, top->value + 1,
                    top->value + 1),
        {Note{At(d.file, top->pos),
              fmt::format("rank {} is used here", top->value)}},
        "CCInfo.#rank_world_size");
  }
}

}  // namespace topolint::neff_rules
