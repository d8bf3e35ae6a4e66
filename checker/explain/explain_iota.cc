// Naming a group list by an iota form, for `explain`.
#include <vector>

#include "absl/strings/str_join.h"
#include "checker/explain/explain_internal.h"
#include "checker/model/replica_groups.h"
#include "fmt/format.h"

namespace topolint::explain {

std::string IotaText(const hlo::IotaSpec& iota) {
  std::string s = fmt::format("[{},{}]<=[{}]", iota.num_groups, iota.group_size,
                              absl::StrJoin(iota.reshape_dims, ","));
  if (!iota.perm.empty()) {
    s += fmt::format("T({})", absl::StrJoin(iota.perm, ","));
  }
  return s;
}

std::string FindIotaForm(const model::GroupList& groups) {
  if (groups.empty() || !groups.is_uniform()) return "";
  const int64_t n = groups.num_ids();
  if (n < 1 || n > kMaxListedIds) return "";
  hlo::IotaSpec iota;
  iota.num_groups = groups.num_groups();
  iota.group_size = groups.group_size(0);
  // [G,S]<=[N]: the ids in order.
  bool in_order = true;
  for (int64_t i = 0; i < n && in_order; ++i) {
    in_order = groups.ids()[static_cast<size_t>(i)] == i;
  }
  if (in_order) {
    iota.reshape_dims = {n};
    return IotaText(iota);
  }
  // [G,S]<=[a,b]T(1,0): a transposed 2-D iota, for every split of N. The
  // cheap test of the first ids rules most splits out before expanding.
  const absl::Span<const int64_t> ids = groups.ids();
  for (int64_t a = 2; a < n; ++a) {
    if (n % a != 0) continue;
    const int64_t b = n / a;
    // Output element 1 of arange(N).reshape(a,b).T is input index b.
    if (ids[0] != 0 || ids[1] != b) continue;
    iota.reshape_dims = {a, b};
    iota.perm = {1, 0};
    absl::StatusOr<model::GroupList> expanded = model::ExpandIota(iota);
    if (expanded.ok() && *expanded == groups) return IotaText(iota);
  }
  return "";
}

}  // namespace topolint::explain
