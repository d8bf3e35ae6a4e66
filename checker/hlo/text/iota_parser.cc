// Iota replica groups `[G,S]<=[d0,...]T(p0,...)` with the checks XLA's parser
// makes (two leading dims; `T(` required with more than one reshape dim and
// not allowed with one; perm entries in range) and those it leaves to DCHECKs
// or to nobody (G*S equals the product of the reshape dims; perm is a real
// permutation of the right length; products neither overflow nor exceed
// kMaxExpandedIds).
#include <string>

#include "absl/strings/str_join.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/group_list_parser.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr size_t kMaxSimpleIotaDims = 16;

// `[v,v,...]` (or `(v,...)`) of plain decimals at `p` (the opener) into
// `values`, at most kMaxSimpleIotaDims of at most 18 digits each; returns
// past the closer, or nullptr.
const char* ReadPlainList(const char* p, char close, int64_t* values,
                          size_t* count) {
  *count = 0;
  ++p;
  for (;;) {
    if (*count == kMaxSimpleIotaDims) return nullptr;
    p = ReadPlainDecimal(p, &values[*count]);
    if (p == nullptr) return nullptr;
    ++*count;
    if (*p == ',') {
      ++p;
      continue;
    }
    return *p == close ? p + 1 : nullptr;
  }
}

}  // namespace

// The common case of ParseIotaGroups, read straight from the window: a
// plain `[G,S]<=[d,...]` or `[G,S]<=[d,...]T(p,...)` with no blanks that
// passes every check of the exact path. Anything else (including every
// invalid spec, so that the exact path reports it) returns false with
// nothing consumed.
bool TryParseSimpleIota(HloLexer& lx, IotaSpec* out) {
  int64_t shape[kMaxSimpleIotaDims];
  int64_t dims[kMaxSimpleIotaDims];
  int64_t perm[kMaxSimpleIotaDims];
  size_t n_shape = 0;
  size_t n_dims = 0;
  size_t n_perm = 0;
  const char* p = ReadPlainList(lx.cursor(), ']', shape, &n_shape);
  if (p == nullptr || n_shape != 2 || p[0] != '<' || p[1] != '=' ||
      p[2] != '[') {
    return false;
  }
  p = ReadPlainList(p + 2, ']', dims, &n_dims);
  if (p == nullptr) return false;
  const bool has_perm = p[0] == 'T' && p[1] == '(';
  if (has_perm) {
    p = ReadPlainList(p + 1, ')', perm, &n_perm);
    if (p == nullptr) return false;
  }
  // A blank after the value could still be followed by `T(` (the exact path
  // looks past blanks); only a value that visibly ends here is taken.
  if (*p != ',' && *p != '\n' && *p != '}' && *p != ')') return false;
  // The checks of the exact path, all of which must pass.
  if (shape[0] < 1 || shape[1] < 1 || n_dims == 0) return false;
  if ((n_dims > 1) != has_perm || (has_perm && n_perm != n_dims)) {
    return false;
  }
  bool seen[kMaxSimpleIotaDims] = {};
  for (size_t i = 0; i < n_perm; ++i) {
    if (perm[i] >= static_cast<int64_t>(n_dims) || seen[perm[i]]) return false;
    seen[perm[i]] = true;
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(shape[0], shape[1], &total) ||
      total > kMaxExpandedIds) {
    return false;
  }
  int64_t held = 1;
  for (size_t i = 0; i < n_dims; ++i) {
    if (dims[i] < 1 || __builtin_mul_overflow(held, dims[i], &held)) {
      return false;
    }
  }
  if (held != total) return false;
  out->num_groups = shape[0];
  out->group_size = shape[1];
  out->reshape_dims.assign(dims, dims + n_dims);
  out->perm.assign(perm, perm + n_perm);
  lx.AdvanceTo(p);
  return true;
}

bool ParseIotaGroupsExact(HloLexer& lx, IotaSpec* out) {
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
  // The checks and their messages are group_checks.cc's; the places are
  // this text's.
  const SpecCheck p = CheckIota(*out, has_perm);
  if (!p.has_value()) return true;
  TextPos at = shape_pos;  // the whole value
  switch (p->where) {
    case SpecProblem::Where::kIotaShapeEntry:
      at = shape_entry_pos[p->index];
      break;
    case SpecProblem::Where::kReshapeDims:
      at = dims_pos;
      break;
    case SpecProblem::Where::kReshapeDim:
      at = dim_pos[p->index];
      break;
    case SpecProblem::Where::kAfterDims:
      at = after_dims;
      break;
    case SpecProblem::Where::kPerm:
      at = perm_pos;
      break;
    case SpecProblem::Where::kPermEntry:
      at = perm_entry_pos[p->index];
      break;
    default:
      break;
  }
  return lx.Error(at, p->message);
}

}  // namespace topolint::hlo
