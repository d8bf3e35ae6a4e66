// ReplicaGroups::Text(): the value as written, or for an explicit list with
// no text (a binary module's) its groups described on demand.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

TEST(ReplicaGroupsTextTest, TheWrittenTextWins) {
  ReplicaGroups rg;
  rg.SetGroups({{0, 1}, {2, 3}});
  rg.text = "{{0,1},{2, 3}}";
  EXPECT_EQ(rg.Text(), "{{0,1},{2, 3}}");
}

TEST(ReplicaGroupsTextTest, AnExplicitListWithoutTextIsDescribed) {
  ReplicaGroups rg;
  rg.SetGroups({{0, 1}, {2, 3}});
  EXPECT_EQ(rg.Text(), "{{0,1},{2,3}}");
  rg.SetGroups({});
  EXPECT_EQ(rg.Text(), "{}");
  rg.SetGroups({{}});
  EXPECT_EQ(rg.Text(), "{{}}");
}

TEST(ReplicaGroupsTextTest, ALongListIsCutAfter256Characters) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 1000; ++i) ids.push_back(i);
  ReplicaGroups rg;
  rg.SetGroups({ids, ids});
  const std::string t = rg.Text();
  EXPECT_LE(t.size(), 300u);
  EXPECT_GT(t.size(), 256u);
  EXPECT_EQ(t.substr(0, 10), "{{0,1,2,3,");
  EXPECT_EQ(t.back(), '}');
}

TEST(ReplicaGroupsTextTest, OtherFormsKeepTheirText) {
  ReplicaGroups absent;
  EXPECT_EQ(absent.Text(), "");
  ReplicaGroups iota;
  iota.form = ReplicaGroups::Form::kIota;
  iota.text = "[2,2]<=[4]";
  EXPECT_EQ(iota.Text(), "[2,2]<=[4]");
}

}  // namespace
}  // namespace topolint::hlo
