// A stable, human-readable dump of a parsed Module, for tests and debugging
// (two parses are equal exactly when their dumps are). Test support: no
// shipped code calls it.
#ifndef TOPOLINT_TESTS_HLO_HLO_DEBUG_H_
#define TOPOLINT_TESTS_HLO_HLO_DEBUG_H_

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "checker/hlo/hlo_module.h"
#include "fmt/format.h"

namespace topolint::hlo {

namespace debug_internal {

inline std::string PosStr(TextPos p) {
  return fmt::format("{}:{}", p.line, p.column);
}

inline std::string DimsStr(const std::vector<int64_t>& v) {
  return absl::StrJoin(v, ",");
}

inline std::string GroupsToString(const ReplicaGroups& g) {
  switch (g.form) {
    case ReplicaGroups::Form::kAbsent:
      return "absent";
    case ReplicaGroups::Form::kExplicit: {
      std::string out = "explicit{";
      for (int64_t i = 0; i < g.num_groups(); ++i) {
        if (i > 0) out += ",";
        absl::Span<const int64_t> ids = g.group(i);
        out += fmt::format("{{{}}}@{}", absl::StrJoin(ids, ","),
                           PosStr(g.group_pos[static_cast<size_t>(i)]));
        std::vector<std::string> ps;
        IdLayout::Cursor at(g.id_layout, g.ids());  // O(1) per id
        const int64_t begin =
            i == 0 ? 0 : g.group_ends[static_cast<size_t>(i) - 1];
        for (size_t k = 0; k < ids.size(); ++k) {
          ps.push_back(PosStr(at.At(begin + static_cast<int64_t>(k))));
        }
        out += "[" + absl::StrJoin(ps, " ") + "]";
      }
      return out + "}";
    }
    case ReplicaGroups::Form::kIota:
      return fmt::format("iota[{},{}]<=[{}]T({})", g.iota.num_groups,
                         g.iota.group_size, DimsStr(g.iota.reshape_dims),
                         DimsStr(g.iota.perm));
    case ReplicaGroups::Form::kMesh: {
      std::vector<std::string> axes;
      for (const MeshAxis& a : g.mesh.axes) {
        axes.push_back(fmt::format("{}={}", a.name, a.size));
      }
      std::vector<std::string> refs;
      for (const MeshAxisRef& r : g.mesh.grouped) {
        refs.push_back(r.pre_size == 0 ? fmt::format("{}#{}", r.name, r.size)
                                       : fmt::format("{}:({}){}", r.name,
                                                     r.pre_size, r.size));
      }
      return fmt::format(
          "mesh[{}] ids=({}) iota=[{}]T({}) {{{}}}", absl::StrJoin(axes, ","),
          DimsStr(g.mesh.device_ids), DimsStr(g.mesh.device_ids_dims),
          DimsStr(g.mesh.device_ids_perm), absl::StrJoin(refs, ","));
    }
  }
  return "?";
}

}  // namespace debug_internal

inline std::string ShapeToString(const Shape& shape) {
  if (!shape.known) return "?";
  if (shape.is_tuple) {
    std::vector<std::string> parts;
    for (const Shape& s : shape.tuple) parts.push_back(ShapeToString(s));
    return "(" + absl::StrJoin(parts, ", ") + ")";
  }
  return fmt::format("{}[{}]", shape.element_type,
                     debug_internal::DimsStr(shape.dims));
}

inline std::string ModuleDebugString(const Module& m) {
  std::string out = fmt::format(
      "module '{}' header={}@{} replica_count={}@{} num_partitions={}@{} "
      "entry='{}' computations={}\n",
      m.name, m.has_header, debug_internal::PosStr(m.header_pos),
      m.replica_count ? std::to_string(*m.replica_count) : "-",
      debug_internal::PosStr(m.replica_count_pos),
      m.num_partitions ? std::to_string(*m.num_partitions) : "-",
      debug_internal::PosStr(m.num_partitions_pos), m.entry_computation,
      m.computation_count);
  for (const Collective& c : m.collectives) {
    std::vector<std::string> operands;
    for (const Shape& s : c.operand_shapes)
      operands.push_back(ShapeToString(s));
    std::vector<std::string> pairs;
    for (size_t i = 0; i < c.source_target_pairs.pairs.size(); ++i) {
      pairs.push_back(fmt::format(
          "{{{},{}}}@{}", c.source_target_pairs.pairs[i].first,
          c.source_target_pairs.pairs[i].second,
          debug_internal::PosStr(c.source_target_pairs.pair_pos[i])));
    }
    out += fmt::format(
        "{}@{} {} ({}{}{}) in '{}' opcode@{} result={} operands[{}]=({}) "
        "channel={}{}@{} global={}{}@{} groups@{}={} text='{}' pairs={}@{}:{} "
        "slices={} dims={}{}@{} to_apply='{}' src='{}':{} op_name='{}'\n",
        c.name, debug_internal::PosStr(c.pos), CollectiveKindName(c.kind),
        c.opcode, c.is_async_start ? " async" : "", c.is_root ? " root" : "",
        c.computation, debug_internal::PosStr(c.opcode_pos),
        ShapeToString(c.result_shape), c.operand_count,
        absl::StrJoin(operands, ", "), c.has_channel_id, c.channel_id,
        debug_internal::PosStr(c.channel_id_pos), c.has_use_global_device_ids,
        c.use_global_device_ids,
        debug_internal::PosStr(c.use_global_device_ids_pos),
        debug_internal::PosStr(c.replica_groups.pos),
        debug_internal::GroupsToString(c.replica_groups),
        c.replica_groups.Text(), c.source_target_pairs.present,
        debug_internal::PosStr(c.source_target_pairs.pos),
        absl::StrJoin(pairs, ","), c.slice_sizes_count, c.has_dimensions,
        debug_internal::DimsStr(c.dimensions),
        debug_internal::PosStr(c.dimensions_pos), c.to_apply, c.source_file,
        c.source_line, c.op_name);
  }
  for (const Suppression& s : m.suppressions) {
    out +=
        fmt::format("suppress@{} line {}: {}\n", debug_internal::PosStr(s.pos),
                    s.target_line, absl::StrJoin(s.rules, ","));
  }
  for (const SyntaxError& e : m.syntax_errors) {
    out +=
        fmt::format("error@{}: {}\n", debug_internal::PosStr(e.pos), e.message);
  }
  // The sharding summary, so that the fast and exact paths are compared on
  // what they read of shardings too.
  const ShardingSummary& sh = m.sharding;
  if (sh.annotations > 0) {
    out +=
        fmt::format("shardings {} tiled {} maximal {} max_device {}@{}\n",
                    sh.annotations, sh.tiled, sh.maximal, sh.max_maximal_device,
                    debug_internal::PosStr(sh.max_maximal_pos));
    for (const ShardingSummary::TileCount& c : sh.tile_counts) {
      out += fmt::format("tile_count {}@{} {} x{}\n", c.devices,
                         debug_internal::PosStr(c.pos), c.instruction, c.uses);
    }
    for (const ShardingIssue& i : sh.issues) {
      out +=
          fmt::format("sharding_issue {}@{} {}: {}\n", static_cast<int>(i.kind),
                      debug_internal::PosStr(i.pos), i.instruction, i.message);
    }
  }
  return out;
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_TESTS_HLO_HLO_DEBUG_H_
