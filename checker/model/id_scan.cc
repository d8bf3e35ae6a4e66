#include "checker/model/id_scan.h"

#include <algorithm>
#include <vector>

namespace topolint::model {
namespace {

// One bit per id of [0, limit): 128 KiB for a million ids.
class IdBitmap {
 public:
  explicit IdBitmap(int64_t limit)
      : words_((static_cast<size_t>(limit) + 63) / 64, 0) {}
  // Sets the bit of `id` (in range); returns its previous value.
  uint64_t TestAndSet(int64_t id) {
    uint64_t& word = words_[static_cast<size_t>(id) >> 6];
    const uint64_t bit = uint64_t{1} << (static_cast<uint64_t>(id) & 63);
    const uint64_t was = word & bit;
    word |= bit;
    return was;
  }
  void Reset() { std::fill(words_.begin(), words_.end(), 0); }

 private:
  std::vector<uint64_t> words_;
};

// True when every id is in [0, limit) and appears once: the valid case, in
// one tight pass. `seen` starts empty and is left dirty.
bool AllInRangeAndUnique(absl::Span<const int64_t> ids, int64_t limit,
                         IdBitmap* seen) {
  uint64_t repeated = 0;
  for (const int64_t id : ids) {
    if (static_cast<uint64_t>(id) >= static_cast<uint64_t>(limit)) {
      return false;
    }
    repeated |= seen->TestAndSet(id);
  }
  return repeated == 0;
}

}  // namespace

IdScan ScanIds(const GroupList& groups, int64_t limit) {
  IdScan scan;
  scan.limit = limit;
  // A bitmap, not a hash set or a byte per id: this runs over every id of
  // every list, up to millions for the largest groups.
  IdBitmap seen(limit);
  if (AllInRangeAndUnique(groups.ids(), limit, &seen)) return scan;
  seen.Reset();
  for (int64_t g = 0; g < groups.num_groups(); ++g) {
    absl::Span<const int64_t> ids = groups.group(g);
    for (size_t k = 0; k < ids.size(); ++k) {
      const int64_t id = ids[k];
      if (static_cast<uint64_t>(id) >= static_cast<uint64_t>(limit)) {
        if (scan.range_group < 0) {
          scan.range_group = g;
          scan.range_index = static_cast<int64_t>(k);
        }
      } else if (seen.TestAndSet(id) != 0 && scan.dup_group < 0) {
        scan.dup_group = g;
        scan.dup_index = static_cast<int64_t>(k);
      }
      if (scan.range_group >= 0 && scan.dup_group >= 0) return scan;
    }
  }
  return scan;
}

}  // namespace topolint::model
