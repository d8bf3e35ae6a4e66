#include "checker/model/id_scan.h"

#include <vector>

namespace topolint::model {
namespace {

// True when every id is in [0, limit) and appears once: the valid case, in
// one tight pass. `seen` holds `limit` zero bytes and is left dirty.
bool AllInRangeAndUnique(absl::Span<const int64_t> ids, int64_t limit,
                         uint8_t* seen) {
  uint8_t repeated = 0;
  for (const int64_t id : ids) {
    if (static_cast<uint64_t>(id) >= static_cast<uint64_t>(limit)) {
      return false;
    }
    repeated |= seen[id];
    seen[id] = 1;
  }
  return repeated == 0;
}

}  // namespace

IdScan ScanIds(const GroupList& groups, int64_t limit) {
  IdScan scan;
  scan.limit = limit;
  // One byte per id (not vector<bool>): this runs over every id of every
  // list, up to millions for the largest groups.
  std::vector<uint8_t> seen(static_cast<size_t>(limit), 0);
  if (AllInRangeAndUnique(groups.ids(), limit, seen.data())) return scan;
  std::fill(seen.begin(), seen.end(), 0);
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    absl::Span<const int64_t> ids = groups.group(g);
    for (size_t k = 0; k < ids.size(); ++k) {
      const int64_t id = ids[k];
      if (static_cast<uint64_t>(id) >= static_cast<uint64_t>(limit)) {
        if (scan.range_group < 0) {
          scan.range_group = g;
          scan.range_index = static_cast<int64_t>(k);
        }
      } else if (seen[static_cast<size_t>(id)] == 0) {
        seen[static_cast<size_t>(id)] = 1;
      } else if (scan.dup_group < 0) {
        scan.dup_group = g;
        scan.dup_index = static_cast<int64_t>(k);
      }
      if (scan.range_group >= 0 && scan.dup_group >= 0) return scan;
    }
  }
  return scan;
}

}  // namespace topolint::model
