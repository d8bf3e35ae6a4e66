#include "checker/hlo/transpose.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;

TEST(TransposedIndicesTest, SmallShapes) {
  EXPECT_THAT(TransposedIndices({}, {}), ElementsAre(0));
  EXPECT_THAT(TransposedIndices({4}, {0}), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(TransposedIndices({2, 3}, {0, 1}), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(TransposedIndices({2, 3}, {1, 0}), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_THAT(TransposedIndices({2, 1, 2}, {2, 1, 0}), ElementsAre(0, 2, 1, 3));
}

// Element by element from its coordinates: output coordinate j is input
// coordinate perm[j].
std::vector<int64_t> ByCoordinates(const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& perm) {
  const size_t rank = dims.size();
  std::vector<int64_t> out_dims(rank);
  int64_t total = 1;
  for (size_t j = 0; j < rank; ++j) {
    out_dims[j] = dims[static_cast<size_t>(perm[j])];
    total *= dims[j];
  }
  std::vector<int64_t> out;
  for (int64_t k = 0; k < total; ++k) {
    std::vector<int64_t> in_coord(rank);
    int64_t rest = k;
    for (size_t j = rank; j-- > 0;) {
      in_coord[static_cast<size_t>(perm[j])] = rest % out_dims[j];
      rest /= out_dims[j];
    }
    int64_t index = 0;
    for (size_t i = 0; i < rank; ++i) index = index * dims[i] + in_coord[i];
    out.push_back(index);
  }
  return out;
}

TEST(TransposedIndicesTest, EqualsTheCoordinateDefinition) {
  const std::vector<int64_t> dims = {2, 3, 1, 4};
  std::vector<int64_t> perm = {0, 1, 2, 3};
  int permutations = 0;
  do {
    EXPECT_EQ(TransposedIndices(dims, perm), ByCoordinates(dims, perm))
        << ::testing::PrintToString(perm);
    ++permutations;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(permutations, 24);
}

}  // namespace
}  // namespace topolint::hlo
