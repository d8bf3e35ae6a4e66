// Mesh replica groups:
//   mesh[<axis>=<size>,...][, device_ids=(<ids> | [dims][T(perm)])] {<ref>,...}
// where an axis name is bare or quoted ('x' or "x") and a ref is `name` or a
// sub-axis `name:(pre_size)size`. Validated here: positive sizes, unique
// names, device count within kMaxExpandedIds, device_ids count or iota
// product equal to the device count, a valid transpose, known grouped axes,
// sub-axes that divide their axis, no axis grouped twice or overlapping
// (the checks and their messages are group_checks.cc's, shared with the
// binary reader).
#include <string>
#include <utility>

#include "absl/strings/str_join.h"
#include "checker/hlo/group_checks.h"
#include "checker/hlo/text/group_list_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

bool ReadAxisName(HloLexer& lx, std::string_view what, std::string* name) {
  const int c = lx.Peek();
  if (c == '\'' || c == '"') return lx.ReadString(name, 256);
  if (IsIdentStart(c)) return lx.ReadIdent(name);
  return lx.Expected(what);
}

class MeshReader {
 public:
  MeshReader(HloLexer& lx, TextPos value_pos, MeshSpec* out)
      : lx_(lx), value_pos_(value_pos), out_(out) {}

  bool Run() {
    *out_ = MeshSpec();
    if (!Axes()) return false;
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() == ',') {
      lx_.Bump();
      if (!lx_.SkipTrivia()) return false;
      std::string word;
      if (!IsIdentStart(lx_.Peek())) {
        return lx_.Expected("'device_ids=' after ',' in the mesh value");
      }
      const TextPos word_pos = lx_.Pos();
      if (!lx_.ReadIdent(&word)) return false;
      if (word != "device_ids" || lx_.Peek() != '=') {
        return lx_.Error(word_pos, fmt::format("expected 'device_ids=' after "
                                               "',' in the mesh value, found "
                                               "'{}'",
                                               word.substr(0, 40)));
      }
      lx_.Bump();
      if (!lx_.SkipTrivia() || !DeviceIds() || !lx_.SkipTrivia()) {
        return false;
      }
    }
    return Grouped();
  }

 private:
  std::string AxisList() const {
    std::vector<std::string> names;
    for (const MeshAxis& a : out_->axes) names.push_back("'" + a.name + "'");
    return absl::StrJoin(names, ", ");
  }

  bool Axes() {
    lx_.Bump();  // '['
    for (;;) {
      if (!lx_.SkipTrivia()) return false;
      const TextPos name_pos = lx_.Pos();
      MeshAxis axis;
      if (!ReadAxisName(lx_, "a mesh axis name", &axis.name)) return false;
      if (!lx_.SkipTrivia()) return false;
      if (!lx_.Eat('=')) {
        return lx_.Expected(fmt::format("'=' after mesh axis '{}'", axis.name));
      }
      if (!lx_.SkipTrivia()) return false;
      const TextPos size_pos = lx_.Pos();
      if (!lx_.ReadInt(&axis.size,
                       fmt::format("the size of mesh axis '{}'", axis.name))) {
        return false;
      }
      out_->axes.push_back(std::move(axis));
      if (const SpecCheck p =
              CheckMeshAxis(*out_, out_->axes.size() - 1, &devices_)) {
        using Where = SpecProblem::Where;
        return lx_.Error(p->where == Where::kAxisSize   ? size_pos
                         : p->where == Where::kAxisName ? name_pos
                                                        : value_pos_,
                         p->message);
      }
      if (!lx_.SkipTrivia()) return false;
      if (lx_.Eat(',')) continue;
      if (lx_.Eat(']')) return true;
      return lx_.Expected("',' or ']' in the mesh axes");
    }
  }

  bool DeviceIds() {
    const TextPos ids_pos = lx_.Pos();
    if (!lx_.Eat('(')) return lx_.Expected("'(' to start the mesh device_ids");
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() == '[') return IotaDeviceIds(ids_pos);
    std::vector<int64_t> ids;
    if (!lx_.Eat(')')) {
      for (;;) {
        if (!lx_.SkipTrivia()) return false;
        int64_t id = 0;
        if (!lx_.ReadInt(&id, "a device id in the mesh device_ids")) {
          return false;
        }
        if (static_cast<int64_t>(ids.size()) >= devices_) {
          return lx_.Error(ids_pos, fmt::format("mesh device_ids list more "
                                                "ids than the {} devices of "
                                                "the mesh",
                                                devices_));
        }
        ids.push_back(id);
        if (!lx_.SkipTrivia()) return false;
        if (lx_.Eat(',')) continue;
        if (lx_.Eat(')')) break;
        return lx_.Expected("',' or ')' in the mesh device_ids");
      }
    }
    if (const SpecCheck p = CheckMeshDeviceIdCount(devices_, ids.size())) {
      return lx_.Error(ids_pos, p->message);
    }
    out_->device_ids = std::move(ids);
    return true;
  }

  bool IotaDeviceIds(TextPos ids_pos) {
    const TextPos dims_pos = lx_.Pos();
    std::vector<TextPos> dim_pos;
    if (!ParseIntList(lx_, '[', ']', "the mesh device_ids dims",
                      &out_->device_ids_dims, &dim_pos, 64) ||
        !lx_.SkipTrivia()) {
      return false;
    }
    if (lx_.Peek() == '<' && lx_.PeekAt(1) == '=') {
      // `[mesh dims]<=[reshape dims]`: the reshape dims are what matter.
      lx_.Bump();
      lx_.Bump();
      out_->device_ids_dims.clear();
      dim_pos.clear();
      if (!lx_.SkipTrivia() ||
          !ParseIntList(lx_, '[', ']', "the mesh device_ids reshape dims",
                        &out_->device_ids_dims, &dim_pos, 64) ||
          !lx_.SkipTrivia()) {
        return false;
      }
    }
    if (const SpecCheck p =
            CheckPositiveDims("mesh device_ids", out_->device_ids_dims)) {
      return lx_.Error(dim_pos[p->index], p->message);
    }
    if (lx_.Peek() == 'T' && lx_.PeekAt(1) == '(') {
      const TextPos perm_pos = lx_.Pos();
      lx_.Bump();
      std::vector<TextPos> entry_pos;
      if (!ParseIntList(lx_, '(', ')', "the mesh device_ids transpose",
                        &out_->device_ids_perm, &entry_pos, 64) ||
          !CheckPermutationAt(lx_, "mesh device_ids transpose",
                              out_->device_ids_perm, entry_pos, perm_pos,
                              out_->device_ids_dims.size()) ||
          !lx_.SkipTrivia()) {
        return false;
      }
    }
    if (!lx_.Eat(')')) return lx_.Expected("')' to close the mesh device_ids");
    if (const SpecCheck p =
            CheckMeshDeviceIdsDims(out_->device_ids_dims, devices_)) {
      return lx_.Error(dims_pos, p->message);
    }
    (void)ids_pos;
    return true;
  }

  bool Grouped() {
    if (!lx_.Eat('{')) {
      return lx_.Expected("'{' with the grouped mesh axes after 'mesh[...]'");
    }
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Eat('}')) return true;
    for (;;) {
      if (!lx_.SkipTrivia()) return false;
      const TextPos ref_pos = lx_.Pos();
      MeshAxisRef ref;
      if (!ReadAxisName(lx_, "a mesh axis name in the grouped axes",
                        &ref.name)) {
        return false;
      }
      const MeshAxis* axis = nullptr;
      for (const MeshAxis& a : out_->axes) {
        if (a.name == ref.name) axis = &a;
      }
      if (axis == nullptr) {
        return lx_.Error(ref_pos, fmt::format("unknown mesh axis '{}' in the "
                                              "grouped axes; expected one of "
                                              "{}",
                                              ref.name, AxisList()));
      }
      ref.size = axis->size;
      if (!lx_.SkipTrivia()) return false;
      const bool sub_axis = lx_.Eat(':');
      if (sub_axis && !SubAxis(&ref)) return false;
      if (const SpecCheck p =
              CheckMeshGroupedAxis(ref, *axis, sub_axis, out_->grouped)) {
        return lx_.Error(ref_pos, p->message);
      }
      out_->grouped.push_back(std::move(ref));
      if (!lx_.SkipTrivia()) return false;
      if (lx_.Eat(',')) continue;
      if (lx_.Eat('}')) return true;
      return lx_.Expected("',' or '}' in the grouped mesh axes");
    }
  }

  // `(pre_size)size` after `name:`; checked by CheckMeshGroupedAxis.
  bool SubAxis(MeshAxisRef* ref) {
    if (!lx_.SkipTrivia()) return false;
    if (!lx_.Eat('(')) {
      return lx_.Expected(
          fmt::format("'(' to start the sub-axis of '{}' "
                      "(written 'name:(pre_size)size')",
                      ref->name));
    }
    if (!lx_.SkipTrivia() ||
        !lx_.ReadInt(&ref->pre_size, "the sub-axis pre_size") ||
        !lx_.SkipTrivia()) {
      return false;
    }
    if (!lx_.Eat(')')) return lx_.Expected("')' after the sub-axis pre_size");
    return lx_.SkipTrivia() && lx_.ReadInt(&ref->size, "the sub-axis size");
  }

  HloLexer& lx_;
  TextPos value_pos_;
  MeshSpec* out_;
  int64_t devices_ = 1;
};

}  // namespace

bool ParseMeshGroups(HloLexer& lx, TextPos value_pos, MeshSpec* out) {
  return MeshReader(lx, value_pos, out).Run();
}

}  // namespace topolint::hlo
