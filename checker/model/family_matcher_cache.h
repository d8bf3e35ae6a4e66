// The group families of a config layout, built once per distinct layout.
// Every entry of a compile cache inherits one component config: building
// its families (hundreds of groups) for each of thousands of units was an
// eighth of a run. The families depend on the layout's integers and names
// only (VllmLayoutOf, NxdiLayoutOf), so one immutable FamilyMatcher per
// layout serves every unit, from any thread.
#ifndef TOPOLINT_CHECKER_MODEL_FAMILY_MATCHER_CACHE_H_
#define TOPOLINT_CHECKER_MODEL_FAMILY_MATCHER_CACHE_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "checker/config/parallel_config.h"
#include "checker/model/component_groups.h"

namespace topolint::model {

// Layouts whose families are kept (process-wide). Past this, further
// layouts are built each time they are asked for (results never change).
inline constexpr size_t kMaxCachedLayouts = 64;

// FamilyMatcher(GroupFamiliesOf(cfg)), or its error, shared with every
// other caller whose config declares the same layout. Thread-safe.
absl::StatusOr<std::shared_ptr<const FamilyMatcher>> SharedFamilyMatcher(
    const config::ParallelConfig& cfg);

// What the cache is keyed by: the form and every value of its layout.
std::string LayoutKey(const config::ParallelConfig& cfg);

// Layouts built since the process started (for tests: one per distinct
// layout while the cache has room).
size_t FamilyMatcherBuilds();

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_FAMILY_MATCHER_CACHE_H_
