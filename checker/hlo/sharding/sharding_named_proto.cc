// DecodeOpSharding's named_sharding (14): NamedShardingProto, its
// MeshProto and axis references, turned into Sharding::named.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/sharding/sharding_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::sharding_internal {

bool Decoder::AxisRef(std::string_view bytes, size_t base, int64_t* index,
                      NamedAxisRef* ref) {
  Wire w(bytes, base);
  while (!w.done()) {
    uint32_t f = 0;
    int wt = 0;
    const size_t at = w.offset();
    if (!w.Tag(&f, &wt)) return Fail(at, "malformed AxisRefProto");
    bool ok = true;
    if (f == 1) {
      ok = Int(w, wt, "AxisRefProto.mesh_axis_index", index);
    } else if (f == 2) {
      std::string_view sub;
      size_t sub_at = 0;
      ok = Message(w, wt, "AxisRefProto.sub_axis_info", &sub, &sub_at);
      Wire s(sub, sub_at);
      while (ok && !s.done()) {
        uint32_t sf = 0;
        int swt = 0;
        const size_t sat = s.offset();
        if (!s.Tag(&sf, &swt)) return Fail(sat, "malformed SubAxis");
        if (sf == 1) {
          ok = Int(s, swt, "SubAxis.pre_size", &ref->pre_size);
        } else if (sf == 2) {
          ok = Int(s, swt, "SubAxis.size", &ref->size);
        } else if (!s.Skip(swt)) {
          return Fail(sat, "malformed SubAxis");
        }
      }
    } else if (!w.Skip(wt)) {
      return Fail(at, "malformed AxisRefProto");
    }
    if (!ok) return false;
  }
  return true;
}

bool Decoder::AxisRefs(Wire& w, int wt, const char* name,
                       std::vector<NamedAxisRef>* list,
                       std::vector<PendingRef>* pending) {
  std::string_view bytes;
  size_t at = 0;
  if (!Message(w, wt, name, &bytes, &at)) return false;
  if (list->size() >= kMaxProtoValues)
    return Fail(at, "too many axis references");
  int64_t index = 0;
  NamedAxisRef ref;
  if (!AxisRef(bytes, at, &index, &ref)) return false;
  list->push_back(std::move(ref));
  pending->push_back(PendingRef{list, list->size() - 1, index, at});
  return true;
}

// OpSharding.named_sharding fields, one case per field number.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool Decoder::Named(std::string_view bytes, size_t base, int depth,
                    Sharding* out) {
  if (depth > kMaxProtoNesting) return Fail(base, "shardings nest too deep");
  NamedSharding n;
  std::vector<Sharding> tuple;
  std::vector<PendingRef> pending;
  Wire w(bytes, base);
  // dims are filled in place; keep them stable while refs point at them.
  std::vector<std::string_view> dim_bytes;
  std::vector<size_t> dim_at;
  while (!w.done()) {
    uint32_t f = 0;
    int wt = 0;
    const size_t at = w.offset();
    if (!w.Tag(&f, &wt)) return Fail(at, "malformed NamedShardingProto");
    std::string_view sub;
    size_t sub_at = 0;
    bool ok = true;
    if (f == 1) {
      ok = Message(w, wt, "NamedShardingProto.tuple_shardings", &sub, &sub_at);
      if (ok) {
        if (tuple.size() >= kMaxProtoValues)
          return Fail(at, "too many elements");
        Sharding element;
        ok = Named(sub, sub_at, depth + 1, &element);
        tuple.push_back(std::move(element));
      }
    } else if (f == 2) {
      ok = Message(w, wt, "NamedShardingProto.mesh", &sub, &sub_at) &&
           Mesh(sub, sub_at, &n);
    } else if (f == 3) {
      ok = Message(w, wt, "NamedShardingProto.dim_shardings", &sub, &sub_at);
      if (ok) {
        if (dim_bytes.size() >= kMaxProtoValues)
          return Fail(at, "too many dims");
        dim_bytes.push_back(sub);
        dim_at.push_back(sub_at);
      }
    } else if (f == 4) {
      ok = AxisRefs(w, wt, "NamedShardingProto.replicated_axes",
                    &n.replicated_axes, &pending);
    } else if (f == 5) {
      ok = AxisRefs(w, wt, "NamedShardingProto.unreduced_axes",
                    &n.unreduced_axes, &pending);
    } else if (!w.Skip(wt)) {
      return Fail(at, "malformed NamedShardingProto");
    }
    if (!ok) return false;
  }
  if (!tuple.empty()) {
    out->type = ShardingType::kTuple;
    out->tuple = std::move(tuple);
    return true;
  }
  n.dims.resize(dim_bytes.size());
  for (size_t d = 0; d < dim_bytes.size(); ++d) {
    Wire dw(dim_bytes[d], dim_at[d]);
    while (!dw.done()) {
      uint32_t f = 0;
      int wt = 0;
      const size_t at = dw.offset();
      if (!dw.Tag(&f, &wt)) return Fail(at, "malformed DimensionSharding");
      if (f == 1) {
        if (!AxisRefs(dw, wt, "DimensionSharding.axes", &n.dims[d], &pending)) {
          return false;
        }
      } else if (!dw.Skip(wt)) {
        return Fail(at, "malformed DimensionSharding");
      }
    }
  }
  n.has_dims = true;
  for (const PendingRef& r : pending) {
    if (r.axis < 0 || static_cast<size_t>(r.axis) >= n.axis_names.size()) {
      return Fail(r.at, fmt::format("mesh_axis_index {} is out of range for "
                                    "a mesh of {} axes",
                                    r.axis, n.axis_names.size()));
    }
    (*r.list)[r.index_in_list].name = n.axis_names[static_cast<size_t>(r.axis)];
  }
  bool any_tiled = false;
  for (const auto& dim : n.dims) any_tiled = any_tiled || !dim.empty();
  if (n.axis_names.empty() && n.device_ids.size() == 1) {
    n.maximal = true;
    n.maximal_device = n.device_ids.front();
    out->type = ShardingType::kMaximal;
    out->devices = {n.maximal_device};
  } else if (any_tiled) {
    out->type = ShardingType::kTiled;
  } else if (!n.unreduced_axes.empty()) {
    out->type = ShardingType::kUnreduced;
  } else {
    out->type = ShardingType::kReplicated;
  }
  out->named = std::move(n);
  return true;
}

bool Decoder::Mesh(std::string_view bytes, size_t base, NamedSharding* n) {
  Wire w(bytes, base);
  while (!w.done()) {
    uint32_t f = 0;
    int wt = 0;
    const size_t at = w.offset();
    if (!w.Tag(&f, &wt)) return Fail(at, "malformed MeshProto");
    bool ok = true;
    if (f == 1) {
      std::string_view axis;
      size_t axis_at = 0;
      ok = Message(w, wt, "MeshProto.axes", &axis, &axis_at);
      if (!ok) return false;
      if (n->axis_names.size() >= 64) return Fail(at, "a mesh of over 64 axes");
      std::string name;
      int64_t size = 0;
      Wire a(axis, axis_at);
      while (!a.done()) {
        uint32_t af = 0;
        int awt = 0;
        const size_t aat = a.offset();
        if (!a.Tag(&af, &awt)) return Fail(aat, "malformed MeshAxis");
        if (af == 1) {
          std::string_view s;
          size_t s_at = 0;
          if (!Message(a, awt, "MeshAxis.name", &s, &s_at)) return false;
          name.assign(s.substr(0, 256));
        } else if (af == 2) {
          if (!Int(a, awt, "MeshAxis.size", &size)) return false;
        } else if (!a.Skip(awt)) {
          return Fail(aat, "malformed MeshAxis");
        }
      }
      if (size <= 0) {
        return Fail(axis_at,
                    fmt::format("mesh axis '{}' has size {}", name, size));
      }
      n->axis_names.push_back(std::move(name));
      n->axis_sizes.push_back(size);
    } else if (f == 2) {
      ok = Ints(w, wt, "MeshProto.device_ids", &n->device_ids);
    } else if (!w.Skip(wt)) {
      return Fail(at, "malformed MeshProto");
    }
    if (!ok) return false;
  }
  return true;
}
}  // namespace topolint::hlo::sharding_internal
