// One definition of a valid iota, mesh or transpose spec
// (checker/hlo/group_checks.h): the binary reader refuses an invalid spec
// with the message the text parser gives for the same spec written as text
// (before, the two front ends had drifted apart: "iota num_groups and
// group_size must be positive, found [4,0]" against "iota group_size must
// be positive, found 0", and so on).
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

std::string WithGroups(const std::string& value) {
  return "HloModule m, replica_count=8\n\nENTRY main {\n"
         "  %p = f32[8]{0} parameter(0)\n"
         "  ROOT %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups=" +
         value + ", to_apply=%add\n}\n";
}

// The text parser's message for `value`, without its location.
std::string TextMessage(const std::string& value) {
  const hlo::Module m = hlo::ParseHloText(WithGroups(value), "m.hlo");
  EXPECT_EQ(m.syntax_errors.size(), 1u) << value;
  return m.syntax_errors.empty() ? "" : m.syntax_errors.front().message;
}

// The binary reader's message for the same collective carrying `groups`.
std::string ProtoMessage(const hlo::ReplicaGroups& groups) {
  hlo::Module text =
      hlo::ParseHloText(WithGroups("{{0,1,2,3,4,5,6,7}}"), "m.hlo");
  EXPECT_EQ(text.collectives.size(), 1u);
  text.collectives.front().replica_groups = groups;
  hlo::Module m;
  hlo::ParseHloProto(WriteHloProto(text), "m.pb", hlo::ParseOptions{}, &m);
  EXPECT_EQ(m.syntax_errors.size(), 1u);
  return m.syntax_errors.empty() ? "" : m.syntax_errors.front().message;
}

hlo::ReplicaGroups Iota(int64_t g, int64_t s, std::vector<int64_t> dims,
                        std::vector<int64_t> perm) {
  hlo::ReplicaGroups rg;
  rg.form = hlo::ReplicaGroups::Form::kIota;
  rg.iota.num_groups = g;
  rg.iota.group_size = s;
  rg.iota.reshape_dims = std::move(dims);
  rg.iota.perm = std::move(perm);
  return rg;
}

hlo::ReplicaGroups Mesh(std::vector<hlo::MeshAxis> axes,
                        std::vector<hlo::MeshAxisRef> grouped,
                        std::vector<int64_t> device_ids = {}) {
  hlo::ReplicaGroups rg;
  rg.form = hlo::ReplicaGroups::Form::kMesh;
  rg.mesh.axes = std::move(axes);
  rg.mesh.grouped = std::move(grouped);
  rg.mesh.device_ids = std::move(device_ids);
  return rg;
}

TEST(SpecMessagesTest, IotaProblemsReadTheSameInBothFrontEnds) {
  const struct {
    std::string text;
    hlo::ReplicaGroups proto;
  } cases[] = {
      {"[4,0]<=[8]", Iota(4, 0, {8}, {})},
      {"[0,4]<=[8]", Iota(0, 4, {8}, {})},
      {"[2,4]<=[-8]", Iota(2, 4, {-8}, {})},
      {"[4096,4097]<=[16781312]", Iota(4096, 4097, {16781312}, {})},
      {"[4294967296,4294967296]<=[1]", Iota(4294967296, 4294967296, {1}, {})},
      {"[4,2]<=[2,4]T(0,0)", Iota(4, 2, {2, 4}, {0, 0})},
      {"[4,2]<=[2,4]T(1,2)", Iota(4, 2, {2, 4}, {1, 2})},
      {"[4,2]<=[2,4]T(1,0,2)", Iota(4, 2, {2, 4}, {1, 0, 2})},
      {"[2,2]<=[4294967296,4294967296]T(1,0)",
       Iota(2, 2, {4294967296, 4294967296}, {1, 0})},
      {"[2,4]<=[3,3]T(1,0)", Iota(2, 4, {3, 3}, {1, 0})},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ProtoMessage(c.proto), TextMessage(c.text)) << c.text;
  }
}

TEST(SpecMessagesTest, MeshProblemsReadTheSameInBothFrontEnds) {
  const struct {
    std::string text;
    hlo::ReplicaGroups proto;
  } cases[] = {
      {"mesh[x=2,y=2], device_ids=(0,1,2) {x}",
       Mesh({{"x", 2}, {"y", 2}}, {{"x", 0, 0}}, {0, 1, 2})},
      {"mesh[a=4] {a:(3)2}", Mesh({{"a", 4}}, {{"a", 3, 2}})},
      {"mesh[a=4] {a:(1)1}", Mesh({{"a", 4}}, {{"a", 1, 1}})},
      {"mesh[a=8] {a:(1)4, a:(2)2}",
       Mesh({{"a", 8}}, {{"a", 1, 4}, {"a", 2, 2}})},
      {"mesh[a=4] {a, a}", Mesh({{"a", 4}}, {{"a", 0, 0}, {"a", 0, 0}})},
      {"mesh[x=2,x=2] {x}", Mesh({{"x", 2}, {"x", 2}}, {{"x", 0, 0}})},
      {"mesh[x=0] {x}", Mesh({{"x", 0}}, {{"x", 0, 0}})},
      {"mesh[x=2048,y=2048] {x}",
       Mesh({{"x", 2048}, {"y", 2048}}, {{"x", 0, 0}})},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ProtoMessage(c.proto), TextMessage(c.text)) << c.text;
  }
}

// A binary module whose one instruction, a send, carries `pairs` as its
// `_xla_send_recv_source_target_pairs` frontend attribute.
std::string SendWithPairs(const std::string& pairs) {
  using proto_writer::Bytes;
  using proto_writer::Varint;
  std::string entry;
  Bytes(&entry, 1, "_xla_send_recv_source_target_pairs");
  Bytes(&entry, 2, pairs);
  std::string attrs;
  Bytes(&attrs, 1, entry);
  std::string ins;
  Bytes(&ins, 1, "s");
  Bytes(&ins, 2, "send");
  Varint(&ins, 35, 1);
  Bytes(&ins, 68, attrs);
  std::string comp;
  Bytes(&comp, 1, "c");
  Bytes(&comp, 2, ins);
  Varint(&comp, 5, 1);
  std::string m;
  Bytes(&m, 1, "m");
  Bytes(&m, 3, comp);
  return m;
}

TEST(SpecMessagesTest, SendRecvPairsStringsReadTheSame) {
  for (const std::string pairs :
       {"{{0,1},{1,2}}", " { {0, 1} ,\n {1,2} } ",
        "{/* a */{0,1}, // b\n{1,2}}", "{}", "{{-1,3}}"}) {
    hlo::Module binary;
    hlo::ParseHloProto(SendWithPairs(pairs), "m.pb", hlo::ParseOptions{},
                       &binary);
    EXPECT_TRUE(binary.syntax_errors.empty()) << pairs;
    ASSERT_EQ(binary.collectives.size(), 1u) << pairs;
    const hlo::Module text = hlo::ParseHloText(
        "HloModule m\n\nENTRY main {\n  %tok = token[] after-all()\n"
        "  ROOT %s = token[] send(%tok, %tok), channel_id=1, "
        "frontend_attributes={_xla_send_recv_source_target_pairs=\"" +
            absl::CEscape(pairs) + "\"}\n}\n",
        "m.hlo");
    EXPECT_TRUE(text.syntax_errors.empty()) << pairs;
    ASSERT_EQ(text.collectives.size(), 1u) << pairs;
    EXPECT_EQ(binary.collectives[0].source_target_pairs.pairs,
              text.collectives[0].source_target_pairs.pairs)
        << pairs;
  }
}

// The send/recv pairs string has one reader (checker/hlo/pairs_text.h):
// the same message from both front ends, placed in the string by the text
// parser and named by its character by the binary reader.
TEST(SpecMessagesTest, SendRecvPairsStringProblemsReadTheSame) {
  const struct {
    std::string pairs;
    std::string message;
    int64_t column;  // in the text module's send line
  } cases[] = {
      {"{{0,1},{2}}",
       "expected a pair {source,target} as entry 1 of "
       "_xla_send_recv_source_target_pairs, found 1 ids",
       8},
      {"{{0,1} {1,2}}",
       "expected ',' or '}' after pair 0 of "
       "_xla_send_recv_source_target_pairs, found '{'",
       8},
      {"{{0,x}}",
       "expected an integer in pair 0 of _xla_send_recv_source_target_pairs, "
       "found 'x'",
       5},
      {"[[0,1]]",
       "expected '{' to start _xla_send_recv_source_target_pairs, found '['",
       1},
      {"{{0,1}} x",
       "expected the end of the _xla_send_recv_source_target_pairs string, "
       "found 'x'",
       9},
      {"{{0,1},",
       "expected '{' to start pair 1 of _xla_send_recv_source_target_pairs, "
       "found the end of the string",
       8},
  };
  const std::string head =
      "HloModule m\n\nENTRY main {\n  %tok = token[] after-all()\n"
      "  %s = token[] send(%tok, %tok), channel_id=1, "
      "frontend_attributes={_xla_send_recv_source_target_pairs=\"";
  for (const auto& c : cases) {
    const hlo::Module text = hlo::ParseHloText(
        head + c.pairs + "\"}\n  ROOT %r = token[] after-all()\n}\n", "m.hlo");
    ASSERT_EQ(text.syntax_errors.size(), 1u) << c.pairs;
    EXPECT_EQ(text.syntax_errors[0].message, c.message);
    EXPECT_EQ(text.syntax_errors[0].pos.line, 5);
    EXPECT_EQ(
        text.syntax_errors[0].pos.column,
        static_cast<int64_t>(head.size() - head.rfind('\n')) - 1 + c.column)
        << c.pairs;
    hlo::Module binary;
    hlo::ParseHloProto(SendWithPairs(c.pairs), "m.pb", hlo::ParseOptions{},
                       &binary);
    ASSERT_EQ(binary.syntax_errors.size(), 1u) << c.pairs;
    EXPECT_EQ(binary.syntax_errors[0].message,
              c.message + " (at character " + std::to_string(c.column) +
                  " of the frontend attribute value)");
  }
}

}  // namespace
}  // namespace topolint::testing
