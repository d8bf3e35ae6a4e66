#include "checker/model/id_scan.h"

#include "gtest/gtest.h"

namespace topolint::model {
namespace {

TEST(ScanIdsTest, ValidListIsClean) {
  const IdScan s = ScanIds(GroupList::FromGroups({{0, 2}, {1, 3}}), 4);
  EXPECT_TRUE(s.clean());
  EXPECT_EQ(s.limit, 4);
}

TEST(ScanIdsTest, FindsFirstOutOfRangeInListOrder) {
  const IdScan s = ScanIds(GroupList::FromGroups({{0, 1}, {2, 9}, {-1}}), 4);
  EXPECT_EQ(s.range_group, 1);
  EXPECT_EQ(s.range_index, 1);
  EXPECT_EQ(s.dup_group, -1);
}

TEST(ScanIdsTest, NegativeIdsAreOutOfRange) {
  const IdScan s = ScanIds(GroupList::FromGroups({{-1, 0}}), 2);
  EXPECT_EQ(s.range_group, 0);
  EXPECT_EQ(s.range_index, 0);
}

TEST(ScanIdsTest, FindsFirstRepeatAcrossGroups) {
  const IdScan s = ScanIds(GroupList::FromGroups({{0, 1}, {2, 3}, {1, 2}}), 4);
  EXPECT_EQ(s.range_group, -1);
  EXPECT_EQ(s.dup_group, 2);
  EXPECT_EQ(s.dup_index, 0);
}

TEST(ScanIdsTest, OutOfRangeIdsAreNotCountedAsRepeats) {
  const IdScan s = ScanIds(GroupList::FromGroups({{5, 5}, {0, 0}}), 2);
  EXPECT_EQ(s.range_group, 0);
  EXPECT_EQ(s.range_index, 0);
  EXPECT_EQ(s.dup_group, 1);
  EXPECT_EQ(s.dup_index, 1);
}

TEST(ScanIdsTest, EmptyListAndZeroLimit) {
  EXPECT_TRUE(ScanIds(GroupList(), 0).clean());
  const IdScan s = ScanIds(GroupList::FromGroups({{0}}), 0);
  EXPECT_EQ(s.range_group, 0);
}

}  // namespace
}  // namespace topolint::model
