// replica_groups values: the three forms as written (not expanded), their
// positions, and the syntax errors the parser reports for bad iota and
// mesh values.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

using ::testing::ElementsAre;
using testing::Errors;
using ::testing::IsEmpty;
using testing::Only;
using testing::Parse;

// A module whose one collective has `replica_groups=<value>`; the value
// starts at line 3, column kValueColumn.
std::string WithGroups(const std::string& value) {
  return "HloModule m, replica_count=4\nENTRY e {\n"
         "  r = f32[8] all-reduce(f32[8] p), replica_groups=" +
         value + ", to_apply=add\n}\n";
}
constexpr int64_t kValueColumn = 51;

ReplicaGroups GroupsOf(const std::string& value) {
  const Module m = Parse(WithGroups(value));
  EXPECT_EQ(Errors(m), "") << value;
  return Only(m).replica_groups;
}

std::string ErrorOf(const std::string& value) {
  return Errors(Parse(WithGroups(value)));
}

TEST(ExplicitGroupsTest, GroupsAndPositions) {
  const ReplicaGroups g = GroupsOf("{{0,1},{2, 3}, { 4 ,5 }}");
  EXPECT_EQ(g.form, ReplicaGroups::Form::kExplicit);
  EXPECT_EQ(g.pos.line, 3);
  EXPECT_EQ(g.pos.column, kValueColumn);
  EXPECT_THAT(
      g.GroupVectors(),
      ElementsAre(ElementsAre(0, 1), ElementsAre(2, 3), ElementsAre(4, 5)));
  ASSERT_EQ(g.group_pos.size(), 3u);
  EXPECT_EQ(g.group_pos[0].column, kValueColumn + 1);
  EXPECT_EQ(g.group_pos[1].column, kValueColumn + 7);
  EXPECT_EQ(g.group_pos[2].column, kValueColumn + 15);
  EXPECT_EQ(g.IdPos(0, 0).column, kValueColumn + 2);
  EXPECT_EQ(g.IdPos(0, 1).column, kValueColumn + 4);
  EXPECT_EQ(g.IdPos(1, 0).column, kValueColumn + 8);
  EXPECT_EQ(g.IdPos(1, 1).column, kValueColumn + 11);
  EXPECT_EQ(g.IdPos(2, 0).column, kValueColumn + 17);
  EXPECT_EQ(g.IdPos(2, 1).column, kValueColumn + 20);
  EXPECT_EQ(g.IdPos(2, 1).line, 3);
  EXPECT_FALSE(g.IdPos(2, 2).known());
  EXPECT_FALSE(g.IdPos(3, 0).known());
  EXPECT_EQ(g.explicit_id_count, 6);
  EXPECT_EQ(g.text, "{{0,1},{2, 3}, { 4 ,5 }}");
}

TEST(ExplicitGroupsTest, EmptyListEmptyGroupsAndNegativeIds) {
  EXPECT_THAT(GroupsOf("{}").GroupVectors(), IsEmpty());
  EXPECT_EQ(GroupsOf("{}").form, ReplicaGroups::Form::kExplicit);
  EXPECT_THAT(GroupsOf("{{0},{}}").GroupVectors(),
              ElementsAre(ElementsAre(0), IsEmpty()));
  EXPECT_THAT(GroupsOf("{{-1,3}}").GroupVectors(),
              ElementsAre(ElementsAre(-1, 3)));
}

TEST(ExplicitGroupsTest, TextIsTruncatedTo256Bytes) {
  std::string value = "{{0";
  for (int i = 1; i < 200; ++i) value += "," + std::to_string(i);
  value += "}}";
  const ReplicaGroups g = GroupsOf(value);
  EXPECT_EQ(g.text, value.substr(0, 256));
  EXPECT_EQ(g.group(0).size(), 200u);
}

TEST(ExplicitGroupsTest, Malformed) {
  // The list is not closed: what follows is taken for a third group.
  EXPECT_EQ(ErrorOf("{{0,1},{2,3}"),
            "3:65: expected '{' to start replica group 2, found 'to_apply'\n");
  EXPECT_EQ(ErrorOf("{{0,1}{2,3}}"),
            "3:57: expected ',' or '}' after replica group 0, found '{'\n");
  EXPECT_EQ(ErrorOf("{{0,,1}}"),
            "3:55: expected an integer in replica group 0, found ','\n");
  EXPECT_EQ(ErrorOf("{0,1}"),
            "3:52: expected '{' to start replica group 0, found '0'\n");
  EXPECT_EQ(ErrorOf("{{0,99999999999999999999}}"),
            "3:55: integer 99999999999999999999 does not fit in 64 bits\n");
  EXPECT_EQ(ErrorOf("groups"),
            "3:51: expected '{', '[' or 'mesh[' to start the replica_groups "
            "value, found 'groups'\n");
}

TEST(IotaGroupsTest, RawSpecIsKept) {
  const ReplicaGroups g = GroupsOf("[4,2]<=[2,4]T(1,0)");
  EXPECT_EQ(g.form, ReplicaGroups::Form::kIota);
  EXPECT_EQ(g.pos.column, kValueColumn);
  EXPECT_EQ(g.iota.num_groups, 4);
  EXPECT_EQ(g.iota.group_size, 2);
  EXPECT_THAT(g.iota.reshape_dims, ElementsAre(2, 4));
  EXPECT_THAT(g.iota.perm, ElementsAre(1, 0));
  EXPECT_EQ(g.text, "[4,2]<=[2,4]T(1,0)");

  const ReplicaGroups flat = GroupsOf("[2,4]<=[8]");
  EXPECT_THAT(flat.iota.reshape_dims, ElementsAre(8));
  EXPECT_THAT(flat.iota.perm, IsEmpty());

  const ReplicaGroups three = GroupsOf("[ 2 , 4 ] <= [2,2,2] T(0,2,1)");
  EXPECT_THAT(three.iota.reshape_dims, ElementsAre(2, 2, 2));
  EXPECT_THAT(three.iota.perm, ElementsAre(0, 2, 1));
}

TEST(IotaGroupsTest, ValidationErrors) {
  EXPECT_EQ(ErrorOf("[4,2]<=[2,2]T(1,0)"),
            "3:58: iota replica_groups [4,2] hold 8 ids but the reshape dims "
            "[2,2] hold 4; expected the same number\n");
  EXPECT_EQ(ErrorOf("[4,2]<=[2,4]"),
            "3:63: expected 'T(' after the iota reshape dims [2,4]: a "
            "transpose is required when there is more than one reshape dim\n");
  EXPECT_EQ(ErrorOf("[2,4]<=[8]T(0)"),
            "3:61: unexpected 'T(...)' after a single iota reshape dim: a "
            "transpose is only allowed with more than one reshape dim\n");
  EXPECT_EQ(ErrorOf("[4,2]<=[2,4]T(0,0)"),
            "3:67: iota transpose T(0,0) is not a permutation: 0 appears "
            "twice\n");
  EXPECT_EQ(ErrorOf("[4,2]<=[2,4]T(1,2)"),
            "3:67: iota transpose entry 2 is out of range; expected a value "
            "in [0, 2)\n");
  EXPECT_EQ(ErrorOf("[4,2]<=[2,4]T(1,0,2)"),
            "3:63: iota transpose T(1,0,2) has 3 entries but there are 2 "
            "reshape dims; expected a permutation of 0..1\n");
  EXPECT_EQ(ErrorOf("[2,2,2]<=[8]"),
            "3:51: expected 2 dims [num_groups,group_size] in iota "
            "replica_groups, found 3 ([2,2,2])\n");
  EXPECT_EQ(ErrorOf("[4,0]<=[8]"),
            "3:54: iota group_size must be positive, found 0\n");
  EXPECT_EQ(ErrorOf("[2,4]<=[-8]"),
            "3:59: iota reshape dim 0 must be positive, found -8\n");
  EXPECT_EQ(ErrorOf("[4096,4097]<=[16781312]"),
            "3:51: iota replica_groups [4096,4097] expand to 16781312 ids, "
            "more than the limit of 2097152\n");
  EXPECT_EQ(ErrorOf("[4294967296,4294967296]<=[1]"),
            "3:51: iota replica_groups [4294967296,4294967296] hold more ids "
            "than fit in 64 bits\n");
  EXPECT_EQ(ErrorOf("[2,2]<=[4294967296,4294967296]T(1,0)"),
            "3:58: iota replica_groups [2,2] hold 4 ids but the reshape dims "
            "[4294967296,4294967296] hold more than 2^63; expected the same "
            "number\n");
  EXPECT_EQ(ErrorOf("[2,4]<[8]"),
            "3:56: expected '<=' after the iota shape "
            "[num_groups,group_size], found '<'\n");
  EXPECT_EQ(ErrorOf("[2,4]<=[2,4,]T(1,0)"),
            "3:63: expected an integer in the iota reshape dims, found ']'\n");
  EXPECT_EQ(ErrorOf("[2,4]<=[2 4]T(1,0)"),
            "3:61: expected ',' or ']' in the iota reshape dims, found '4'\n");
  EXPECT_EQ(ErrorOf("[2,4]<=[2,4]T(1,0"),
            "3:70: expected an integer in the iota transpose, found "
            "'to_apply'\n");
}

TEST(MeshGroupsTest, QuotedAndBareNames) {
  const ReplicaGroups q = GroupsOf("mesh['x'=2,'y'=2] {'x'}");
  EXPECT_EQ(q.form, ReplicaGroups::Form::kMesh);
  EXPECT_EQ(q.pos.column, kValueColumn);
  ASSERT_EQ(q.mesh.axes.size(), 2u);
  EXPECT_EQ(q.mesh.axes[0].name, "x");
  EXPECT_EQ(q.mesh.axes[1].size, 2);
  ASSERT_EQ(q.mesh.grouped.size(), 1u);
  EXPECT_EQ(q.mesh.grouped[0].name, "x");
  EXPECT_EQ(q.mesh.grouped[0].pre_size, 0);
  EXPECT_EQ(q.mesh.grouped[0].size, 2);
  EXPECT_THAT(q.mesh.device_ids, IsEmpty());
  EXPECT_EQ(q.text, "mesh['x'=2,'y'=2] {'x'}");

  const ReplicaGroups b = GroupsOf("mesh[a=6,b=6] {a:(3)2, b}");
  ASSERT_EQ(b.mesh.grouped.size(), 2u);
  EXPECT_EQ(b.mesh.grouped[0].pre_size, 3);
  EXPECT_EQ(b.mesh.grouped[0].size, 2);
  EXPECT_EQ(b.mesh.grouped[1].name, "b");
  EXPECT_EQ(b.mesh.grouped[1].pre_size, 0);

  EXPECT_THAT(GroupsOf("mesh[x=4] {}").mesh.grouped, IsEmpty());
}

TEST(MeshGroupsTest, DeviceIdsExplicitAndIota) {
  const ReplicaGroups e =
      GroupsOf("mesh['x'=2,'y'=2], device_ids=(3,1,2,0) {'y'}");
  EXPECT_THAT(e.mesh.device_ids, ElementsAre(3, 1, 2, 0));
  const ReplicaGroups i =
      GroupsOf("mesh['x'=2,'y'=2], device_ids=([2,2]T(1,0)) {'x','y'}");
  EXPECT_THAT(i.mesh.device_ids, IsEmpty());
  EXPECT_THAT(i.mesh.device_ids_dims, ElementsAre(2, 2));
  EXPECT_THAT(i.mesh.device_ids_perm, ElementsAre(1, 0));
  const ReplicaGroups r =
      GroupsOf("mesh[x=2,y=2], device_ids=([2,2]<=[2,2]T(1,0)) {x}");
  EXPECT_THAT(r.mesh.device_ids_dims, ElementsAre(2, 2));
  // The comma and blank inside the value do not end it early.
  const Module m = Parse(
      WithGroups("mesh[x=2,y=2], device_ids=(0,2,1,3) {y}, channel_id=5"));
  EXPECT_EQ(Errors(m), "");
  EXPECT_EQ(Only(m).channel_id, 5);
}

TEST(MeshGroupsTest, ValidationErrors) {
  EXPECT_EQ(ErrorOf("mesh['x'=2,'y'=2] {'z'}"),
            "3:70: unknown mesh axis 'z' in the grouped axes; expected one "
            "of 'x', 'y'\n");
  EXPECT_EQ(ErrorOf("mesh[x=2,y=2], device_ids=(0,1,2) {x}"),
            "3:77: mesh has 4 devices but device_ids lists 3; expected one id "
            "per device\n");
  EXPECT_EQ(ErrorOf("mesh[x=2,y=2], device_ids=([2,3]T(1,0)) {x}"),
            "3:78: mesh has 4 devices but the device_ids dims [2,3] do not "
            "hold 4 ids\n");
  EXPECT_EQ(ErrorOf("mesh[x=2,y=2], device_ids=([2,2]T(0,0)) {x}"),
            "3:87: mesh device_ids transpose T(0,0) is not a permutation: 0 "
            "appears twice\n");
  EXPECT_EQ(ErrorOf("mesh[a=4] {a:(3)2}"),
            "3:62: sub-axis 'a':(3)2 does not divide mesh axis 'a' of size 4; "
            "expected pre_size*size to divide the axis size, with size below "
            "it\n");
  EXPECT_EQ(ErrorOf("mesh[a=4] {a:(1)1}"),
            "3:62: sub-axis 'a':(1)1 needs pre_size >= 1 and size >= 2\n");
  EXPECT_EQ(ErrorOf("mesh[a=8] {a:(1)4, a:(2)2}"),
            "3:70: mesh axis 'a' is grouped twice (the grouped axes "
            "overlap)\n");
  EXPECT_EQ(ErrorOf("mesh[a=4] {a, a}"),
            "3:65: mesh axis 'a' is grouped twice (the grouped axes "
            "overlap)\n");
  EXPECT_EQ(ErrorOf("mesh[x=2,x=2] {x}"),
            "3:60: mesh axis 'x' is declared twice\n");
  EXPECT_EQ(ErrorOf("mesh[x=0] {x}"),
            "3:58: mesh axis 'x' must have a positive size, found 0\n");
  EXPECT_EQ(ErrorOf("mesh[x=65536,y=65536] {x}"),
            "3:51: mesh has more devices than the limit of 2097152\n");
  EXPECT_EQ(ErrorOf("mesh[x=2] x"),
            "3:61: expected '{' with the grouped mesh axes after 'mesh[...]', "
            "found 'x'\n");
  EXPECT_EQ(ErrorOf("mesh[x=2], devices=(0,1) {x}"),
            "3:62: expected 'device_ids=' after ',' in the mesh value, found "
            "'devices'\n");
  EXPECT_EQ(ErrorOf("mesh[x=2 {x}"),
            "3:60: expected ',' or ']' in the mesh axes, found '{'\n");
  // The quote is never closed: the string swallows the rest of the file.
  EXPECT_EQ(ErrorOf("mesh['x=2] {x}"),
            "3:56: unterminated string: expected a closing quote (') for the "
            "string that starts here\n"
            "5:1: expected '}' to close computation 'e' (opened at 2:1), "
            "found end of file\n");
}

TEST(SourceTargetPairsTest, Malformed) {
  const Module m = Parse(
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
      "  ROOT c = f32[2] collective-permute(p), "
      "source_target_pairs={{0,1},{1,2,3}}\n}\n");
  EXPECT_EQ(Errors(m),
            "4:69: expected a pair {source,target} as entry 1 of "
            "source_target_pairs, found 3 ids\n");
}

}  // namespace
}  // namespace topolint::hlo
