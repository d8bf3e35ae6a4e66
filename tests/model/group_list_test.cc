#include "checker/model/group_list.h"

#include <cstdint>
#include <vector>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"

namespace topolint::model {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

TEST(GroupListTest, UniformListsStoreNoOffsets) {
  GroupList list = GroupList::FromGroups({{0, 1}, {2, 3}, {4, 5}});
  EXPECT_TRUE(list.is_uniform());
  EXPECT_EQ(list.num_groups(), 3);
  EXPECT_EQ(list.num_ids(), 6);
  EXPECT_EQ(list.group_size(2), 2);
  EXPECT_EQ(list.group_start(2), 4);
  EXPECT_EQ(list.group(1)[1], 3);
}

TEST(GroupListTest, NonUniformListsKeepEveryGroup) {
  Groups groups = {{0}, {1, 2}, {}, {3, 4, 5}};
  GroupList list = GroupList::FromGroups(groups);
  EXPECT_FALSE(list.is_uniform());
  EXPECT_EQ(list.num_groups(), 4);
  EXPECT_EQ(list.group_size(0), 1);
  EXPECT_EQ(list.group_size(2), 0);
  EXPECT_EQ(list.group_start(3), 3);
  EXPECT_EQ(list.ToVectors(), groups);
}

TEST(GroupListTest, BecomesNonUniformLate) {
  GroupList list;
  list.AppendGroup(std::vector<int64_t>{0, 1});
  list.AppendGroup(std::vector<int64_t>{2, 3});
  EXPECT_TRUE(list.is_uniform());
  list.AppendGroup(std::vector<int64_t>{4});
  EXPECT_FALSE(list.is_uniform());
  EXPECT_EQ(list.ToVectors(), (Groups{{0, 1}, {2, 3}, {4}}));
}

TEST(GroupListTest, EmptyListVersusEmptyGroup) {
  GroupList none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.ToString(), "{}");
  GroupList one_empty = GroupList::FromGroups({{}});
  EXPECT_FALSE(one_empty.empty());
  EXPECT_EQ(one_empty.num_ids(), 0);
  EXPECT_EQ(one_empty.ToString(), "{{}}");
  EXPECT_NE(none, one_empty);
}

TEST(GroupListTest, EqualityComparesGroupBoundaries) {
  GroupList a = GroupList::FromGroups({{0, 1}, {2, 3}});
  GroupList b = GroupList::Uniform(2, 2, {0, 1, 2, 3});
  GroupList c = GroupList::FromGroups({{0, 1, 2, 3}});
  GroupList d = GroupList::FromGroups({{0}, {1, 2, 3}});
  GroupList e = GroupList::FromGroups({{0, 1, 2}, {3}});
  EXPECT_EQ(a, b);
  EXPECT_EQ(absl::HashOf(a), absl::HashOf(b));
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  EXPECT_NE(d, e);
  EXPECT_EQ(GroupList::Uniform(0, 5, {}), GroupList());
  EXPECT_EQ(absl::HashOf(GroupList::Uniform(0, 5, {})),
            absl::HashOf(GroupList()));
}

TEST(GroupListTest, ToStringTruncates) {
  GroupList list = GroupList::FromGroups({{0, 1}, {2, 3}, {4, 5}});
  EXPECT_EQ(list.ToString(), "{{0,1},{2,3},{4,5}}");
  EXPECT_EQ(list.ToString(3), "{{0,1},{2,...}}");
  EXPECT_EQ(list.ToString(4), "{{0,1},{2,3},...}");
  EXPECT_EQ(list.GroupToString(1), "{2,3}");
  EXPECT_EQ(list.GroupToString(1, 1), "{2,...}");
}

}  // namespace
}  // namespace topolint::model
