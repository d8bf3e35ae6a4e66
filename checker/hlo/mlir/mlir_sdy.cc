// Shardy's own collectives, in the custom form its printer writes
// (openxla/shardy shardy/dialect/sdy/ir/ops.td, the assemblyFormat of each):
//   %1 = sdy.all_gather [{"y"}, {}] %0 out_sharding=<@mesh, [...]> : T
//   %1 = sdy.all_reduce [max] {"x"} %0 out_sharding=<@mesh, [...]> : T
//   %1 = sdy.reduce_scatter [max] [{}, {"y"}] %0 out_sharding=<...> : T
//   %1 = sdy.all_to_all [{"x"}: 0->1, {"y"}: 2->3] %0 out_sharding=<...> : T
//   %1 = sdy.collective_permute %0 out_sharding=<...> : T
// and in the generic form (mlir_sdy_generic.cc).
// Each becomes the HLO collective Shardy's own lowering makes of it
// (sdy-convert-global-to-local, shardy/dialect/sdy/transforms/export/
// convert_global_to_local.cc, default options): one collective over all the
// op's axes (the per-dimension lists in order, an all-to-all's parameters by
// target dimension), its groups the mesh-axes expansion of those axes over
// the mesh (sdy::getReplicaGroups, the same expansion as
// #stablehlo.replica_group_mesh_axes), with a channel, and
// use_global_device_ids for all-gather, all-reduce and reduce-scatter; a
// collective_permute's pairs follow from its operand's sharding
// (mlir_sdy_permute.cc). What cannot be read of an op is an unchecked-input
// note at it (SdyNotChecked), not a syntax error.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {

bool SdyCollectiveOfOpName(std::string_view name, SdyOpKind* kind) {
  static constexpr std::pair<std::string_view, SdyOpKind> kOps[] = {
      {"sdy.all_gather", SdyOpKind::kAllGather},
      {"sdy.all_reduce", SdyOpKind::kAllReduce},
      {"sdy.reduce_scatter", SdyOpKind::kReduceScatter},
      {"sdy.all_to_all", SdyOpKind::kAllToAll},
      {"sdy.collective_permute", SdyOpKind::kCollectivePermute},
  };
  return LookUpName(kOps, name, kind);
}

namespace {

CollectiveKind HloKindOf(SdyOpKind kind) {
  switch (kind) {
    case SdyOpKind::kAllGather:
      return CollectiveKind::kAllGather;
    case SdyOpKind::kAllReduce:
      return CollectiveKind::kAllReduce;
    case SdyOpKind::kReduceScatter:
      return CollectiveKind::kReduceScatter;
    case SdyOpKind::kAllToAll:
      return CollectiveKind::kAllToAll;
    case SdyOpKind::kCollectivePermute:
      break;
  }
  return CollectiveKind::kCollectivePermute;
}

}  // namespace

void Reader::SdyStart(SdyOpKind kind, TextPos name_pos) {
  part_has_content_ = true;
  skip_op_ = false;
  in_sdy_op_ = true;
  op_.Clear();
  op_start_ = cur_.Offset();
  op_.kind = HloKindOf(kind);
  op_.is_async_start = false;
  op_.opcode = CollectiveKindName(op_.kind);
  op_.opcode_pos = name_pos;
  op_.computation = computation_;
  if (!result_name_.empty()) {
    op_.name = result_name_;
    op_.pos = result_pos_;
  } else {
    op_.pos = name_pos;
  }
  result_name_.clear();
}

void Reader::SdyNotChecked(TextPos pos, const std::string& why) {
  if (skip_op_) return;
  skip_op_ = true;
  // Bounded: the first 1000 ops of a module are listed, then one note.
  constexpr size_t kMaxListed = 1000;
  if (module_->unchecked.size() > kMaxListed) return;
  UncheckedPart u;
  u.pos = pos;
  u.anchor = "shardy-op-not-checked:" + op_.name;
  u.message = module_->unchecked.size() == kMaxListed
                  ? fmt::format(
                        "more than {} Shardy collectives are not checked; the "
                        "rest are not listed",
                        kMaxListed)
                  : fmt::format("{} ({}) is not checked: {}", op_.name,
                                op_.opcode, why);
  module_->unchecked.push_back(std::move(u));
}

bool Reader::SdyAxisRefs(std::vector<MeshAxisRef>* out) {
  // At '{': `"x", "y":(2)4` through '}' (a sharding's dimension may also
  // hold `?`, open: skipped).
  cur_.Advance();
  for (int guard = 0; guard < 1 << 16; ++guard) {
    cur_.SkipSpace();
    const int c = cur_.Peek();
    if (c == '}') {
      cur_.Advance();
      return true;
    }
    if (c == ',' || c == '?') {
      cur_.Advance();
      continue;
    }
    if (c != '"') return Fail("expected a mesh axis name or '}'");
    MeshAxisRef ref;
    if (!cur_.ReadString(&ref.name, 1024)) {
      return Fail("unterminated axis name");
    }
    cur_.SkipSpace();
    if (cur_.Eat(':')) {
      // A sub-axis `"x":(pre)size`.
      cur_.SkipSpace();
      if (!cur_.Eat('(') || !cur_.ReadInt(&ref.pre_size) || !cur_.Eat(')') ||
          !cur_.ReadInt(&ref.size)) {
        return Fail(
            fmt::format("expected a sub-axis (pre-size)size after "
                        "\"{}\":",
                        ref.name));
      }
    }
    out->push_back(std::move(ref));
  }
  return Fail("too many mesh axes in one list");
}

bool Reader::SdyAxes(SdyOpKind kind, std::vector<MeshAxisRef>* refs,
                     int64_t* dim) {
  // all_reduce: `{axes}`; all_gather, reduce_scatter: `[{axes}, ...]`, one
  // list per dimension; all_to_all: `[{axes}: src->tgt, ...]`, its axes in
  // the order of the target dimensions (as Shardy's lowering sorts them).
  // `dim`: the dimension the HLO collective gathers, scatters or splits:
  // the one dimension with axes (an all-to-all's target), else 0 (Shardy
  // combines several into a new leading dimension).
  if (kind == SdyOpKind::kAllReduce) {
    if (cur_.Peek() != '{') return Fail("expected '{' with the reduction axes");
    return SdyAxisRefs(refs);
  }
  if (!cur_.Eat('[')) return Fail("expected '[' with the axes");
  std::vector<std::pair<int64_t, std::vector<MeshAxisRef>>> params;
  int64_t lists = 0;
  for (int guard = 0; guard < 1 << 16; ++guard) {
    cur_.SkipSpace();
    if (cur_.Eat(']')) break;
    if (cur_.Eat(',')) continue;
    if (cur_.Peek() != '{') return Fail("expected '{' with a list of axes");
    std::vector<MeshAxisRef> list;
    if (!SdyAxisRefs(&list)) return false;
    int64_t target = lists++;
    if (kind == SdyOpKind::kAllToAll) {
      int64_t source = 0;
      cur_.SkipSpace();
      if (!cur_.Eat(':')) return Fail("expected ':' after the axes");
      cur_.SkipSpace();
      if (!cur_.ReadInt(&source) || !cur_.Eat('-') || !cur_.Eat('>') ||
          !cur_.ReadInt(&target)) {
        return Fail("expected src->tgt dimensions after the axes");
      }
    }
    if (!list.empty()) params.emplace_back(target, std::move(list));
  }
  *dim = params.size() == 1 ? params[0].first : 0;
  std::stable_sort(
      params.begin(), params.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [dim, list] : params) {
    for (MeshAxisRef& r : list) refs->push_back(std::move(r));
  }
  return true;
}

bool Reader::SdyOutSharding(SdySharding* out) {
  // ` out_sharding=<...>`.
  cur_.SkipSpace();
  std::string word;
  if (!cur_.ReadId(&word) || word != "out_sharding") {
    return Fail("expected out_sharding=<...>");
  }
  cur_.SkipSpace();
  if (!cur_.Eat('=')) return Fail("expected '=' after out_sharding");
  cur_.SkipSpace();
  return SdyShardingBody(out);
}

bool Reader::SdyShardingBody(SdySharding* out) {
  // At '<': `<@mesh, [{"x"}, {"y", ?}p1], replicated={"z"}>` or an inline
  // `<mesh<["x"=2]>, [...]>`: the mesh and each dimension's axes; the rest
  // is skipped.
  if (!cur_.Eat('<')) return Fail("expected '<' with a sharding");
  cur_.SkipSpace();
  out->mesh_pos = cur_.Pos();
  std::string word;
  if (cur_.Eat('@')) {
    const bool named = cur_.Peek() == '"'
                           ? cur_.ReadString(&out->mesh_name, 1024)
                           : cur_.ReadId(&out->mesh_name, 1024);
    if (!named || out->mesh_name.empty()) return Fail("expected a mesh name");
  } else if (cur_.ReadId(&word) && word == "mesh" && cur_.Peek() == '<') {
    if (!MeshBody(&out->inline_mesh)) return Fail("unterminated inline mesh");
    out->mesh_name.clear();
  } else {
    return Fail("expected a mesh (@name or mesh<...>) in the sharding");
  }
  cur_.SkipSpace();
  if (!cur_.Eat(',')) return Fail("expected ',' after the sharding's mesh");
  cur_.SkipSpace();
  if (!cur_.Eat('[')) return Fail("expected '[' with the sharding's axes");
  for (int guard = 0;; ++guard) {
    cur_.SkipSpace();
    if (cur_.Eat(']')) break;
    if (cur_.Eat(',')) continue;
    if (cur_.Peek() != '{' || guard >= 1 << 16) {
      return Fail("expected '{' with a dimension's axes");
    }
    std::vector<MeshAxisRef> dim;
    if (!SdyAxisRefs(&dim)) return false;
    if (cur_.Peek() == 'p' && IsDigit(cur_.PeekAt(1))) {  // a priority
      cur_.Advance();
      while (IsDigit(cur_.Peek())) cur_.Advance();
    }
    out->dims.push_back(std::move(dim));
  }
  // replicated={...}, unreduced={...}, through the closing '>'.
  int depth = 1;
  const int64_t start = cur_.Offset();
  std::string text;
  while (depth > 0) {
    const int c = cur_.Peek();
    if (c == kEnd || cur_.Offset() - start > options_.max_instruction_bytes) {
      return Fail("unterminated sharding");
    }
    if (c == '"') {
      if (!cur_.ReadString(&text, 64)) return Fail("unterminated string");
      continue;
    }
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == '}' || c == ')') --depth;
    cur_.Advance();
  }
  return true;
}

const SdyMesh* Reader::SdyMeshOf(const SdySharding& s) const {
  return s.mesh_name.empty() ? &s.inline_mesh : FindMesh("@" + s.mesh_name);
}

// One op's grammar read in order; each step a line or two.
void Reader::SdyOp(SdyOpKind kind, TextPos name_pos,
                   const std::string& op_name) {
  SdyStart(kind, name_pos);
  const SdyScope scope{&in_sdy_op_};
  if (op_.name.empty()) op_.name = op_name;
  cur_.SkipSpace();
  const bool reduces =
      kind == SdyOpKind::kAllReduce || kind == SdyOpKind::kReduceScatter;
  if (reduces && IsIdStart(cur_.Peek())) {
    std::string reduction;  // sum (the default, not printed), max, ...
    cur_.ReadId(&reduction);
    cur_.SkipSpace();
  }
  op_.replica_groups.pos = cur_.Pos();
  SdyOpRead r;
  if (kind != SdyOpKind::kCollectivePermute &&
      !SdyAxes(kind, &r.refs, &r.dim)) {
    return;
  }
  cur_.SkipSpace();
  if (cur_.Peek() != '%') {
    Fail(fmt::format("expected the operand of {}", op_name));
    return;
  }
  while (IsIdByte(cur_.Peek()) || cur_.Peek() == '%' || cur_.Peek() == '#') {
    if (r.operand.size() < 1024) {
      r.operand.push_back(static_cast<char>(cur_.Peek()));
    }
    cur_.Advance();
  }
  op_.operand_count = 1;
  if (!SdyOutSharding(&r.out)) return;
  r.has_out = true;
  cur_.SkipSpace();
  if (cur_.Peek() == '{' &&
      !cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
    Fail(fmt::format("unterminated attributes of {}", op_.name));
    return;
  }
  cur_.SkipSpace();
  if (cur_.Eat(':')) {
    // The global (unpartitioned) type, the same for operand and result:
    // it says nothing of the shard each device holds, so it is not kept
    // for the shape rules.
    Shape global;
    if (!Type(&global, 0)) return;
  }
  Location(&op_);
  if (stopped_ || skip_op_) return;
  SdyFinish(kind, name_pos, &r);
}

void Reader::SdyFinish(SdyOpKind kind, TextPos name_pos, SdyOpRead* r) {
  // The result's sharding, for a collective_permute of it.
  if (!op_.name.empty() && op_.name[0] == '%' &&
      (collective_outs_.size() < 4096 || collective_outs_.count(op_.name))) {
    collective_outs_[op_.name] = r->out;
  }
  if (cur_.Offset() - op_start_ > options_.max_instruction_bytes) {
    SdyNotChecked(op_.opcode_pos, fmt::format("it spans more than {} bytes",
                                              options_.max_instruction_bytes));
    return;
  }
  if (SdyMeshOf(r->out) == nullptr) {
    // No such module is valid (Shardy's verifier refuses the symbol): an
    // error, as for #stablehlo.replica_group_mesh_axes.
    in_sdy_op_ = false;
    Unchecked(r->out.mesh_pos,
              fmt::format("its mesh @{} is not defined in this module (no "
                          "`sdy.mesh @{} = <...>`)",
                          r->out.mesh_name, r->out.mesh_name));
    return;
  }
  if (kind == SdyOpKind::kCollectivePermute) {
    SdyPermute(name_pos, r);
    return;
  }
  // No axes: the op moves nothing (Shardy's canonicalizer removes it, and
  // its lowering makes no collective of it).
  if (r->refs.empty()) return;
  const SdyMesh* mesh = SdyMeshOf(r->out);
  ReplicaGroups& rg = op_.replica_groups;
  rg.form = ReplicaGroups::Form::kMesh;
  rg.mesh.Clear();
  rg.mesh.axes = mesh->axes;
  rg.mesh.device_ids = mesh->device_ids;
  rg.mesh.grouped = std::move(r->refs);
  // Shardy's lowering gives each collective a channel of its own, and
  // global device ids to those that take them: flattened-id mode for
  // all-gather, all-reduce and reduce-scatter, cross-partition for
  // all-to-all, the ids of the mesh's devices either way.
  if (kind != SdyOpKind::kAllReduce) {
    op_.has_dimensions = true;
    op_.dimensions.assign(1, r->dim);
    op_.dimensions_pos = rg.pos;
  }
  op_.has_channel_id = true;
  op_.channel_id = ++sdy_channels_;
  op_.channel_id_pos = name_pos;
  if (kind != SdyOpKind::kAllToAll) {
    op_.has_use_global_device_ids = true;
    op_.use_global_device_ids = true;
    op_.use_global_device_ids_pos = name_pos;
  }
  Emit();
}

}  // namespace topolint::hlo::mlir
