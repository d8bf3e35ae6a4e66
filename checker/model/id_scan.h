// ScanIds: range and uniqueness of a group list's ids in one linear pass
// with a bitmap over the id range (no hash set, no sorting): what the
// hlo-device-id-range and hlo-duplicate-device-id rules report.
#ifndef TOPOLINT_CHECKER_MODEL_ID_SCAN_H_
#define TOPOLINT_CHECKER_MODEL_ID_SCAN_H_

#include <cstdint>

#include "checker/model/group_list.h"

namespace topolint::model {

// The first id (in list order) outside [0, limit), and the first id that
// repeats an earlier in-range id; -1 group when there is none.
struct IdScan {
  int64_t limit = 0;
  int64_t range_group = -1, range_index = -1;  // index within the group
  int64_t dup_group = -1, dup_index = -1;
  bool clean() const { return range_group < 0 && dup_group < 0; }
};

// O(ids) time, limit / 8 bytes of scratch. Precondition: 0 <= limit (callers
// bound it by the list's size, so it never exceeds kMaxExpandedIds).
IdScan ScanIds(const GroupList& groups, int64_t limit);

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_ID_SCAN_H_
