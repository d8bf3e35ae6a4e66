// Shardy's collectives in the generic form (mlir-opt
// --mlir-print-op-generic), the attributes the custom form prints bare
// printed whole (openxla/shardy shardy/dialect/sdy/ir/attrs.td:
// ListOfAxisRefLists, AxisRefList, AllToAllParamList, TensorSharding; the
// reduction kind an I32EnumAttr, an integer):
//   %1 = "sdy.all_gather"(%0) <{gathering_axes =
//        #sdy<list_of_axis_ref_lists[{"y"}, {}]>, out_sharding =
//        #sdy.sharding<@mesh, [...]>}> : (T) -> T
// (reduction_axes = #sdy<axis_ref_list{"x"}>, reduce_scatter_axes = #sdy<
// list_of_axis_ref_lists[...]>, params = #sdy<all_to_all_param_list[{"x"}:
// 0->1]>, reduction_op = N : i32), read into the same SdyOpRead as the
// custom form (mlir_sdy.cc) and finished alike.
#include <string>
#include <string_view>
#include <utility>

#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {
namespace {

// The attribute of the generic form that holds an op's axes, and the
// mnemonic of its value (shardy/dialect/sdy/ir/ops.td, attrs.td).
std::pair<std::string_view, std::string_view> AxesAttrOf(SdyOpKind kind) {
  switch (kind) {
    case SdyOpKind::kAllGather:
      return {"gathering_axes", "list_of_axis_ref_lists"};
    case SdyOpKind::kAllReduce:
      return {"reduction_axes", "axis_ref_list"};
    case SdyOpKind::kReduceScatter:
      return {"reduce_scatter_axes", "list_of_axis_ref_lists"};
    case SdyOpKind::kAllToAll:
      return {"params", "all_to_all_param_list"};
    case SdyOpKind::kCollectivePermute:
      break;
  }
  return {"", ""};
}

}  // namespace

void Reader::SdyGeneric(SdyOpKind kind, TextPos name_pos,
                        const std::string& op_name) {
  // At '(': `"sdy.all_gather"(%0) <{properties}> {attributes} : (T) -> T
  // loc(...)`, the attributes in `<{...}>` (newer printers), a trailing
  // `{...}` (older ones) or both.
  SdyStart(kind, name_pos);
  const SdyScope scope{&in_sdy_op_};
  if (op_.name.empty()) op_.name = op_name;
  SdyOpRead r;
  cur_.Advance();
  cur_.SkipSpace();
  while (IsIdByte(cur_.Peek()) || cur_.Peek() == '%' || cur_.Peek() == '#') {
    if (r.operand.size() < 1024) {
      r.operand.push_back(static_cast<char>(cur_.Peek()));
    }
    cur_.Advance();
  }
  if (!Expect(')', "')' after the one operand")) return;
  op_.operand_count = 1;
  op_.replica_groups.pos = name_pos;
  cur_.SkipSpace();
  if (cur_.Peek() == '<' && cur_.PeekAt(1) == '{') {
    cur_.Advance();
    if (!SdyGenericDict(kind, &r) || !Expect('>', "'>' after the properties")) {
      return;
    }
    cur_.SkipSpace();
  }
  if (cur_.Peek() == '{' && !SdyGenericDict(kind, &r)) return;
  cur_.SkipSpace();
  // The global type, as in the custom form: not kept for the shape rules.
  if (cur_.Eat(':') && !FunctionType(&op_)) return;
  op_.operand_shapes.clear();
  op_.result_shape = Shape();
  Location(&op_);
  if (stopped_ || skip_op_) return;
  if (!r.has_out) {
    SdyNotChecked(name_pos, "it has no out_sharding attribute");
    return;
  }
  if (kind != SdyOpKind::kCollectivePermute && !r.axes_read) {
    SdyNotChecked(name_pos, fmt::format("it has no {} attribute",
                                        AxesAttrOf(kind).first));
    return;
  }
  SdyFinish(kind, name_pos, &r);
}

bool Reader::SdyGenericDict(SdyOpKind kind, SdyOpRead* r) {
  // At '{': `key = value, ...}`.
  cur_.Advance();
  for (int guard = 0; guard < 1 << 16; ++guard) {
    cur_.SkipSpace();
    if (cur_.Eat('}')) return true;
    if (stopped_) return false;
    std::string key;
    if (cur_.Peek() == '"') {
      if (!cur_.ReadString(&key)) return Fail("unterminated attribute name");
    } else if (!cur_.ReadId(&key)) {
      return Fail("expected an attribute name");
    }
    cur_.SkipSpace();
    if (cur_.Eat('=')) {
      cur_.SkipSpace();
      if (!SdyGenericAttr(kind, key, r)) return false;
    }
    cur_.SkipSpace();
    if (cur_.Eat(',') || cur_.Peek() == '}') continue;
    return Expect('}', "',' or '}' after an attribute");
  }
  return Fail("too many attributes");
}

bool Reader::SdyGenericAttr(SdyOpKind kind, const std::string& key,
                            SdyOpRead* r) {
  const auto [axes_key, mnemonic] = AxesAttrOf(kind);
  if (!axes_key.empty() && key == axes_key) {
    // `#sdy<list_of_axis_ref_lists[{"x"}, {}]>`, `#sdy<axis_ref_list{"x"}>`,
    // `#sdy<all_to_all_param_list[{"x"}: 0->1]>`.
    op_.replica_groups.pos = cur_.Pos();
    std::string word;
    if (!cur_.Eat('#') || !cur_.ReadId(&word) || word != "sdy" ||
        !cur_.Eat('<') || !cur_.ReadId(&word) || word != mnemonic) {
      return Fail(
          fmt::format("expected #sdy<{}...> for {}", mnemonic, axes_key));
    }
    cur_.SkipSpace();
    if (!SdyAxes(kind, &r->refs, &r->dim)) return false;
    r->axes_read = true;
    return Expect('>', "'>' after the axes");
  }
  if (key == "out_sharding") {
    std::string word;
    if (!cur_.Eat('#') || !cur_.ReadId(&word) || word != "sdy.sharding") {
      return Fail("expected #sdy.sharding<...> for out_sharding");
    }
    r->has_out = SdyShardingBody(&r->out);
    return r->has_out;
  }
  // reduction_op (`1 : i32`; the kind plays no part in the checks) and
  // discardable attributes.
  if (!cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth)) {
    return Fail(fmt::format("unterminated value of attribute {}", key));
  }
  return true;
}

}  // namespace topolint::hlo::mlir
