// Iota replica groups `[G,S]<=[d0,...]T(p0,...)` with the checks XLA's parser
// makes (two leading dims; `T(` required with more than one reshape dim and
// not allowed with one; perm entries in range) and those it leaves to DCHECKs
// or to nobody (G*S equals the product of the reshape dims; perm is a real
// permutation of the right length; products neither overflow nor exceed
// kMaxExpandedIds).
#include <string>

#include "absl/strings/str_join.h"
#include "checker/hlo/group_list_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {

bool ParseIotaGroups(HloLexer& lx, IotaSpec* out) {
  *out = IotaSpec();
  const TextPos shape_pos = lx.Pos();
  std::vector<int64_t> shape;
  std::vector<TextPos> shape_entry_pos;
  if (!ParseIntList(lx, '[', ']', "the iota shape [num_groups,group_size]",
                    &shape, &shape_entry_pos, 64)) {
    return false;
  }
  if (shape.size() != 2) {
    return lx.Error(shape_pos,
                    fmt::format("expected 2 dims [num_groups,group_size] in "
                                "iota replica_groups, found {} ([{}])",
                                shape.size(), absl::StrJoin(shape, ",")));
  }
  if (!lx.SkipTrivia()) return false;
  if (!(lx.Peek() == '<' && lx.PeekAt(1) == '=')) {
    return lx.Expected("'<=' after the iota shape [num_groups,group_size]");
  }
  lx.Bump();
  lx.Bump();
  if (!lx.SkipTrivia()) return false;
  const TextPos dims_pos = lx.Pos();
  std::vector<TextPos> dim_pos;
  if (!ParseIntList(lx, '[', ']', "the iota reshape dims", &out->reshape_dims,
                    &dim_pos, 64)) {
    return false;
  }
  const TextPos after_dims = lx.Pos();
  // For messages only.
  const auto dims_text = [out] {
    return absl::StrJoin(out->reshape_dims, ",");
  };
  std::vector<TextPos> perm_entry_pos;
  TextPos perm_pos = after_dims;
  bool has_perm = false;
  lx.SkipBlanks();
  if (lx.Peek() == 'T' && lx.PeekAt(1) == '(') {
    has_perm = true;
    perm_pos = lx.Pos();
    lx.Bump();
    if (!ParseIntList(lx, '(', ')', "the iota transpose", &out->perm,
                      &perm_entry_pos, 64)) {
      return false;
    }
  }
  out->num_groups = shape[0];
  out->group_size = shape[1];

  if (out->reshape_dims.empty()) {
    return lx.Error(dims_pos, "expected at least one iota reshape dim, found "
                              "'[]'");
  }
  for (size_t i = 0; i < 2; ++i) {
    if (shape[i] < 1) {
      return lx.Error(shape_entry_pos[i],
                      fmt::format("iota {} must be positive, found {}",
                                  i == 0 ? "num_groups" : "group_size",
                                  shape[i]));
    }
  }
  for (size_t i = 0; i < out->reshape_dims.size(); ++i) {
    if (out->reshape_dims[i] < 1) {
      return lx.Error(dim_pos[i], fmt::format("iota reshape dim {} must be "
                                              "positive, found {}",
                                              i, out->reshape_dims[i]));
    }
  }
  if (out->reshape_dims.size() > 1 && !has_perm) {
    return lx.Error(after_dims,
                    fmt::format("expected 'T(' after the iota reshape dims "
                                "[{}]: a transpose is required when there is "
                                "more than one reshape dim",
                                dims_text()));
  }
  if (out->reshape_dims.size() == 1 && has_perm) {
    return lx.Error(perm_pos, "unexpected 'T(...)' after a single iota "
                              "reshape dim: a transpose is only allowed with "
                              "more than one reshape dim");
  }
  if (has_perm &&
      !CheckPermutation(lx, "iota transpose", out->perm, perm_entry_pos,
                        perm_pos, out->reshape_dims.size())) {
    return false;
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(shape[0], shape[1], &total)) {
    return lx.Error(shape_pos, fmt::format("iota replica_groups [{},{}] hold "
                                           "more ids than fit in 64 bits",
                                           shape[0], shape[1]));
  }
  if (total > kMaxExpandedIds) {
    return lx.Error(shape_pos,
                    fmt::format("iota replica_groups [{},{}] expand to {} ids, "
                                "more than the limit of {}",
                                shape[0], shape[1], total, kMaxExpandedIds));
  }
  int64_t held = 0;
  if (!CheckedProduct(out->reshape_dims, &held) || held != total) {
    return lx.Error(
        dims_pos,
        fmt::format("iota replica_groups [{},{}] hold {} ids but the reshape "
                    "dims [{}] hold {}; expected the same number",
                    shape[0], shape[1], total, dims_text(),
                    held == 0 ? std::string("more than 2^63")
                              : std::to_string(held)));
  }
  return true;
}

}  // namespace topolint::hlo
