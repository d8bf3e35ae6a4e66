// Shardy meshes and the groups named by their axes: `sdy.mesh @m = <...>`
// (and the generic `"sdy.mesh"() <{...}>`) read where it stands and by the
// pre-pass (a mesh may be defined after the op that names it), and
// `#stablehlo.replica_group_mesh_axes<...>` groups expanded over it.
#include <string>
#include <utility>

#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {

bool Reader::MeshBody(SdyMesh* mesh) {
  // At '<': `["x"=2, "y"=4], device_ids=[...]>`, or the older bracket-less
  // `"x"=2, "y"=4>`, through the closing '>'.
  if (!cur_.Eat('<')) return false;
  bool in_ids = false;
  for (int guard = 0; guard < 1 << 20; ++guard) {
    cur_.SkipSpace();
    const int c = cur_.Peek();
    if (c == kEnd) return false;
    if (c == '>') {
      cur_.Advance();
      return true;
    }
    if (c == '"') {
      MeshAxis axis;
      if (!cur_.ReadString(&axis.name)) return false;
      cur_.SkipSpace();
      if (!cur_.Eat('=')) return false;
      cur_.SkipSpace();
      if (!cur_.ReadInt(&axis.size)) return false;
      mesh->axes.push_back(std::move(axis));
    } else if (IsIdStart(c)) {
      std::string word;
      cur_.ReadId(&word);
      in_ids = word == "device_ids";
    } else if (in_ids && (IsDigit(c) || c == '-')) {
      int64_t id = 0;
      if (!cur_.ReadInt(&id)) return false;
      mesh->device_ids.push_back(id);
    } else {
      if (c == ']' && in_ids) in_ids = false;
      cur_.Advance();
    }
  }
  return false;
}

bool Reader::MeshDict(SdyMesh* mesh) {
  // At '{': the attribute-dict spelling of openxla/stablehlo's tests,
  // `{axes = [{name = "x", size = 2 : i64}, ...], device_ids = dense<[...]>
  // : tensor<4xi64>}`, through the closing '}'.
  if (!cur_.Eat('{')) return false;
  int depth = 1;
  bool in_ids = false;
  std::string axis_name;
  for (int guard = 0; guard < 1 << 20; ++guard) {
    cur_.SkipSpace();
    const int c = cur_.Peek();
    if (c == kEnd) return false;
    if (IsIdStart(c)) {
      std::string word;
      cur_.ReadId(&word);
      cur_.SkipSpace();
      if (word == "name" && cur_.Eat('=')) {
        cur_.SkipSpace();
        if (!cur_.ReadString(&axis_name)) return false;
      } else if (word == "size" && cur_.Eat('=')) {
        cur_.SkipSpace();
        MeshAxis axis{axis_name, 0};
        if (!cur_.ReadInt(&axis.size)) return false;
        mesh->axes.push_back(std::move(axis));
      } else if (word == "device_ids") {
        in_ids = true;
      }
    } else if (in_ids && (IsDigit(c) || c == '-')) {
      int64_t id = 0;
      if (!cur_.ReadInt(&id)) return false;
      mesh->device_ids.push_back(id);
    } else {
      if (c == ':') in_ids = false;  // the dense value's type follows
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) {
        cur_.Advance();
        return true;
      }
      cur_.Advance();
    }
  }
  return false;
}

bool Reader::ReadSdyMesh(std::string* name, SdyMesh* mesh) {
  // After `sdy.mesh`: `@name = <...>`.
  cur_.SkipSpace();
  if (!cur_.Eat('@') || !cur_.ReadId(name)) return false;
  cur_.SkipSpace();
  if (!cur_.Eat('=')) return false;
  cur_.SkipSpace();
  return MeshBody(mesh);
}

bool Reader::ReadGenericSdyMesh(std::string* name, SdyMesh* mesh) {
  // After `"sdy.mesh"`: `() <{mesh = #sdy.mesh<...>, sym_name = "name"}>`,
  // the properties in either order, or the attribute dict `() {sym_name =
  // "name", stablehlo.mesh = {axes = [...], device_ids = ...}}`.
  cur_.SkipSpace();
  if (!cur_.Eat('(')) return false;
  cur_.SkipSpace();
  if (!cur_.Eat(')')) return false;
  cur_.SkipSpace();
  cur_.Eat('<');
  if (!cur_.Eat('{')) return false;
  bool have_mesh = false;
  for (int guard = 0; guard < 16; ++guard) {
    cur_.SkipSpace();
    if (cur_.Eat('}')) return have_mesh && !name->empty();
    std::string key;
    if (!cur_.ReadId(&key)) return false;
    std::string rest;
    if (key == "stablehlo" && cur_.Eat('.') && cur_.ReadId(&rest)) {
      key += "." + rest;
    }
    cur_.SkipSpace();
    if (!cur_.Eat('=')) return false;
    cur_.SkipSpace();
    if (key == "sym_name") {
      if (!cur_.ReadString(name, 1024)) return false;
    } else if (key == "mesh" && cur_.Eat('#')) {
      std::string word;
      cur_.ReadId(&word);
      if (word != "sdy.mesh" || !MeshBody(mesh)) return false;
      have_mesh = true;
    } else if (key == "stablehlo.mesh" && cur_.Peek() == '{') {
      if (!MeshDict(mesh)) return false;
      have_mesh = true;
    } else if (!cur_.SkipValue(options_.max_instruction_bytes,
                               kMaxNestingDepth)) {
      return false;
    }
    cur_.SkipSpace();
    cur_.Eat(',');
  }
  return false;
}

void Reader::SdyMeshDef(TextPos pos, bool generic) {
  std::string name;
  SdyMesh mesh;
  mesh.pos = pos;
  if (!(generic ? ReadGenericSdyMesh(&name, &mesh)
                : ReadSdyMesh(&name, &mesh))) {
    return;
  }
  int64_t product = 1;
  for (const MeshAxis& a : mesh.axes) {
    if (a.size <= 0 || __builtin_mul_overflow(product, a.size, &product)) {
      return;
    }
  }
  const int64_t devices = mesh.device_ids.empty()
                              ? product
                              : static_cast<int64_t>(mesh.device_ids.size());
  // The device count when the module states no num_partitions: the
  // largest mesh's (docs/reference/inputs.md, "Device counts").
  if (!module_->num_partitions.has_value() || partitions_from_mesh_) {
    if (!module_->num_partitions.has_value() ||
        *module_->num_partitions < devices) {
      module_->num_partitions = devices;
      module_->num_partitions_pos = pos;
      partitions_from_mesh_ = true;
    }
  }
  module_->AddMesh({DeviceMesh::Origin::kSdyMesh, "@" + name, mesh.axes,
                    mesh.device_ids, pos});
  meshes_["@" + name] = std::move(mesh);
}

void Reader::PrepassMesh(bool generic) {
  // The pre-pass (CollectLocs): a mesh defined after the op that names it
  // (MLIR allows symbol uses before their definition) is found by name in
  // its part. Bounded: the first 4096 meshes.
  std::string name;
  SdyMesh mesh;
  mesh.pos = cur_.Pos();
  if (!(generic ? ReadGenericSdyMesh(&name, &mesh)
                : ReadSdyMesh(&name, &mesh))) {
    return;
  }
  if (later_meshes_.size() >= 4096) return;
  later_meshes_.try_emplace(LocKey("@" + name), std::move(mesh));
}

const SdyMesh* Reader::FindMesh(const std::string& name) const {
  auto it = meshes_.find(name);
  if (it != meshes_.end()) return &it->second;
  auto later = later_meshes_.find(LocKey(name));
  return later != later_meshes_.end() ? &later->second : nullptr;
}

// One attribute grammar (mesh ref, axes list, sub-axes) read in order.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool Reader::MeshAxesGroups(Collective* c) {
  // #stablehlo.replica_group_mesh_axes<mesh = @m | #stablehlo.mesh<axes =
  // [#stablehlo.mesh_axis<name = "x", size = 2>, ...]>, axes =
  // [#stablehlo.axis_ref<name = "y"[, sub_axis_info = (1)2]>, ...]>:
  // groups named by mesh axes, expanded as HLO's mesh[...] groups.
  ReplicaGroups& rg = c->replica_groups;
  rg.pos = cur_.Pos();
  cur_.Advance();  // '#'
  std::string word;
  cur_.ReadId(&word);
  if (word != "stablehlo.replica_group_mesh_axes" || cur_.Peek() != '<') {
    // Never silent: the op is not checked, and the user is told so.
    Unchecked(rg.pos, fmt::format("replica_groups #{} is a form topolint does "
                                  "not read",
                                  word));
    return cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth);
  }
  MeshSpec& mesh = rg.mesh;
  mesh.Clear();
  enum { kNone, kMesh, kAxes } section = kNone;
  // A mesh was named (found by symbol, or written inline): one of no axes
  // (`<[]>`, `<[], device_ids=[0]>`) is one device, and `axes = []` over
  // it one group of that device.
  bool mesh_named = false;
  std::string last_key, text;
  int depth = 0;
  const int64_t start = cur_.Offset();
  do {
    if (cur_.Offset() - start > options_.max_instruction_bytes) {
      return Fail("unterminated replica_group_mesh_axes");
    }
    const int ch = cur_.Peek();
    if (ch == kEnd) return Fail("unterminated replica_group_mesh_axes");
    if (ch == '<' || ch == '[' || ch == '(') {
      if (ch == '(' && section == kAxes && !mesh.grouped.empty()) {
        // `(pre)size` of a sub-axis.
        cur_.Advance();
        int64_t pre = 0, size = 0;
        if (cur_.ReadInt(&pre) && cur_.Eat(')') && cur_.ReadInt(&size)) {
          mesh.grouped.back().pre_size = pre;
          mesh.grouped.back().size = size;
        }
        continue;
      }
      ++depth;
      cur_.Advance();
    } else if (ch == '>' || ch == ']' || ch == ')') {
      --depth;
      cur_.Advance();
    } else if (ch == '"') {
      if (!cur_.ReadString(&text, 1024)) return Fail("unterminated axis name");
      if (section == kMesh && last_key == "name") {
        mesh.axes.push_back(MeshAxis{text, 0});
      } else if (section == kAxes) {
        mesh.grouped.push_back(MeshAxisRef{text, 0, 0});
      }
    } else if (ch == '@') {
      const TextPos at = cur_.Pos();
      cur_.Advance();
      cur_.ReadId(&text);
      // Defined before the op or after it in the same part (the pre-pass).
      const SdyMesh* found = FindMesh("@" + text);
      if (found == nullptr) {
        // The op is not checked rather than checked with groups it does
        // not have, and the user is told why.
        Unchecked(at, fmt::format("its mesh @{} is not defined in this module "
                                  "(no `sdy.mesh @{} = <...>`)",
                                  text, text));
      } else {
        mesh.axes = found->axes;
        mesh.device_ids = found->device_ids;
        mesh_named = true;
      }
    } else if (IsIdStart(ch)) {
      cur_.ReadId(&last_key);
      if (depth == 1 && (last_key == "mesh" || last_key == "mesh_name")) {
        section = kMesh;
      } else if (section == kMesh && depth == 1 &&
                 (last_key == "stablehlo.mesh" || last_key == "sdy.mesh")) {
        mesh_named = true;  // an inline #stablehlo.mesh<...> or #sdy.mesh<...>
      } else if (depth == 1 && last_key == "axes") {
        section = kAxes;
      }
    } else if (IsDigit(ch) || ch == '-') {
      int64_t v = 0;
      if (!cur_.ReadInt(&v)) {
        cur_.Advance();
        continue;
      }
      if (section == kMesh && last_key == "size" && !mesh.axes.empty()) {
        mesh.axes.back().size = v;
      } else if (section == kMesh && last_key == "device_ids") {
        mesh.device_ids.push_back(v);
      }
    } else {
      cur_.Advance();
    }
  } while (depth > 0);
  if (!mesh_named && mesh.axes.empty() && !skip_op_) {
    Unchecked(rg.pos, "replica_group_mesh_axes names no mesh");
  }
  rg.form = ReplicaGroups::Form::kMesh;
  return true;
}

}  // namespace topolint::hlo::mlir
