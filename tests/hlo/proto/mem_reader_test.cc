// MemReader (the second pass's walker over an instruction held whole in
// memory) against WireReader (the judge): ReadInstruction over either gives
// the same instruction, positions included, whenever MemReader accepts, and
// MemReader never accepts what WireReader refuses. Inputs: collectives of
// every group form, pairs, frontend attributes, metadata and unknown fields
// of every wire type, each cut at every length, with one byte changed at
// every position, and with random bytes changed.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/hlo_debug.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_mem_reader.h"
#include "fmt/format.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"
#include "tests/common/byte_mutations.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/shape_builders.h"

namespace topolint::hlo::proto {
namespace {

using testing::ArrayShape;
using testing::TupleShape;

namespace pw = testing::proto_writer;

// Where the instruction starts in the input, so that positions are not
// mere offsets from 0.
constexpr int64_t kBase = 1000;

// Everything ReadInstruction leaves in the scratch, positions included.
std::string Dump(const InstructionScratch& s) {
  Module m;
  m.collectives.push_back(s.c);
  std::string out = ModuleDebugString(m);
  out += fmt::format(
      "id {} {}\noperands {}\ncalled {}\nslices {}\nrank {}\nraw {} {} {}\n",
      s.has_id, s.id, fmt::join(s.operand_ids, ","),
      fmt::join(s.called_ids, ","), s.dynamic_slice_sizes, s.groups_rank,
      s.shape_raw, s.shape_at, s.shape_bytes.size());
  out += "groups " + s.c.replica_groups.Text() + "\n";
  const ReplicaGroups& rg = s.c.replica_groups;
  for (int64_t g = 0; g < rg.num_groups(); ++g) {
    for (int64_t k = 0; k < static_cast<int64_t>(rg.group(g).size()); ++k) {
      out += fmt::format(" {}", rg.IdPos(g, k).byte_offset());
    }
  }
  for (const TextPos& p : s.c.source_target_pairs.pair_pos) {
    out += fmt::format(" p{}", p.byte_offset());
  }
  return out;
}

struct Read {
  bool ok = false;
  std::string dump;
};

// ReadInstruction over WireReader, the instruction entered at kBase (its
// length prefix read) as the second pass enters it.
Read Slow(const std::string& bytes) {
  std::string input(static_cast<size_t>(kBase), '\0');
  input += bytes;
  google::protobuf::io::ArrayInputStream in(input.data(),
                                            static_cast<int>(input.size()));
  WireReader r(&in);
  Read res;
  if (!r.SkipBytes("padding", kBase)) return res;
  r.LimitTo(static_cast<int64_t>(bytes.size()));
  InstructionScratch s;
  res.ok = ReadInstruction(r, &s) && !r.failed() && r.bytes_left() == 0;
  // (What a failed read leaves is not a whole instruction.)
  if (res.ok) res.dump = Dump(s);
  return res;
}

Read Fast(const std::string& bytes) {
  MemReader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
              kBase, 0);
  InstructionScratch s;
  Read res;
  res.ok = ReadInstruction(r, &s) && !r.failed() && r.bytes_left() == 0;
  // (What a failed read leaves is not a whole instruction.)
  if (res.ok) res.dump = Dump(s);
  return res;
}

// Checks the contract on `bytes`; true when MemReader accepted them.
bool Agree(const std::string& bytes) {
  const Read fast = Fast(bytes);
  if (!fast.ok) return false;
  const Read slow = Slow(bytes);
  EXPECT_TRUE(slow.ok) << "MemReader accepted what WireReader refuses";
  EXPECT_EQ(fast.dump, slow.dump);
  return true;
}

std::string Metadata() {
  std::string md;
  pw::Bytes(&md, 2, "jit(step)/layers.0/psum");
  pw::Bytes(&md, 3, "model.py");
  pw::Varint(&md, 4, 714);
  pw::Varint(&md, 9, 3);  // an unknown field
  return md;
}

std::string Head(const std::string& opcode, const Shape& shape) {
  std::string out;
  pw::Bytes(&out, 1, opcode + ".7");
  pw::Bytes(&out, 2, opcode);
  pw::Bytes(&out, 3, pw::ShapeProto(shape));
  pw::Bytes(&out, 7, Metadata());
  pw::Varint(&out, 26, 5);   // channel_id
  pw::Varint(&out, 35, 42);  // id
  pw::Packed(&out, 36, {40, 41});
  return out;
}

std::vector<std::string> Samples() {
  const Shape a = ArrayShape("bf16", {4, 64, 4096});
  const Shape b = ArrayShape("f32", {});
  std::vector<std::string> out;
  // Legacy replica_groups (49), two groups, and use_global_device_ids.
  std::string ar = Head("all-reduce", TupleShape({a, b}));
  pw::Bytes(&ar, 49, pw::Group({0, 1, 2, 3}));
  pw::Bytes(&ar, 49, pw::Group({4, 5, 6, 7}));
  pw::Packed(&ar, 38, {3});
  pw::Varint(&ar, 71, 1);
  out.push_back(ar);
  // collective_device_list (87), explicit, and dimensions.
  std::string ag = Head("all-gather", a);
  std::string list;
  pw::Bytes(&list, 1, pw::Group({0, 2}));
  pw::Bytes(&list, 1, pw::Group({1, 3}));
  pw::Bytes(&ag, 87, list);
  pw::Packed(&ag, 14, {1});
  out.push_back(ag);
  // iota_collective_device_list (92) with a transpose.
  IotaSpec iota;
  iota.num_groups = 2;
  iota.group_size = 4;
  iota.reshape_dims = {4, 2};
  iota.perm = {1, 0};
  std::string rs = Head("reduce-scatter", a);
  pw::Bytes(&rs, 92, pw::IotaProto(iota));
  out.push_back(rs);
  // The old nested iota (87.2), and 49 after it (49 wins when non-empty).
  std::string nested;
  pw::Bytes(&nested, 2, pw::IotaProto(iota));
  std::string ata = Head("all-to-all", a);
  pw::Bytes(&ata, 87, nested);
  pw::Bytes(&ata, 49, pw::Group({0, 1, 2, 3, 4, 5, 6, 7}));
  out.push_back(ata);
  // collective-permute: pairs in a row, then one apart, and slice sizes.
  std::string cp = Head("collective-permute", a);
  for (int i = 0; i < 4; ++i) {
    std::string pair;
    pw::Varint(&pair, 1, static_cast<uint64_t>(i));
    pw::Varint(&pair, 2, static_cast<uint64_t>((i + 1) % 4));
    pw::Bytes(&cp, 52, pair);
  }
  pw::Packed(&cp, 20, {1, 64, 4096});
  std::string odd;
  pw::Varint(&odd, 2, 9);  // target before source
  pw::Varint(&odd, 1, 8);
  pw::Bytes(&cp, 52, odd);
  out.push_back(cp);
  // A mesh list (93).
  MeshSpec mesh;
  mesh.axes = {{"x", 2}, {"y", 4}};
  mesh.device_ids = {0, 1, 2, 3, 4, 5, 6, 7};
  mesh.grouped = {{"y", 0, 0}};
  std::string me = Head("all-reduce", b);
  pw::Bytes(&me, 93, pw::MeshProto(mesh));
  out.push_back(me);
  // send with the pairs as a frontend attribute, ids not packed, and
  // unknown fields of every wire type.
  std::string send = Head("send", b);
  std::string entry;
  pw::Bytes(&entry, 1, std::string(kSendRecvPairs));
  pw::Bytes(&entry, 2, "{{0,1},{1,2}}");
  std::string attrs;
  pw::Bytes(&attrs, 1, entry);
  pw::Bytes(&send, 68, attrs);
  pw::Varint(&send, 36, 43);
  pw::Varint(&send, 36, 44);
  send += std::string("\x79\x01\x02\x03\x04\x05\x06\x07\x08", 9);  // fixed64
  send += std::string("\x85\x01\x01\x02\x03\x04", 6);              // fixed32
  pw::Varint(&send, 100, 7);
  pw::Bytes(&send, 101, "opaque");
  std::string loose;  // a ReplicaGroup with ids not packed
  pw::Varint(&loose, 1, 6);
  pw::Varint(&loose, 1, 7);
  pw::Bytes(&send, 49, loose);
  out.push_back(send);
  return out;
}

TEST(MemReaderTest, ReadsWhatTheWriterMakesAsWireReaderDoes) {
  const std::vector<std::string> samples = Samples();
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_TRUE(Agree(samples[i])) << "declined sample " << i;
    EXPECT_TRUE(Slow(samples[i]).ok) << "sample " << i;
  }
}

TEST(MemReaderTest, EveryCutAndEveryChangedByteAgreesOrDeclines) {
  int accepted = 0;
  int declined = 0;
  testing::EveryCutAndChangedByte(Samples(), Agree, &accepted, &declined);
  // The contract was exercised both ways.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(declined, 1000);
}

TEST(MemReaderTest, RandomChangesAgreeOrDecline) {
  testing::RandomChanges(Samples(), 2812, 20000, Agree);
}

TEST(MemReaderTest, DeclinesWhatItLeavesToWireReader) {
  const auto* none = reinterpret_cast<const uint8_t*>("");
  uint32_t field = 0;
  int wt = 0;
  // A tag over 32 bits, and one of 6 bytes.
  const std::string big_tag("\x80\x80\x80\x80\x10\x00", 6);
  MemReader a(reinterpret_cast<const uint8_t*>(big_tag.data()), big_tag.size(),
              0, 0);
  EXPECT_FALSE(a.NextField("m", &field, &wt));
  EXPECT_TRUE(a.failed());
  // A length past the message.
  const std::string long_len("\x0a\x05\x01\x02", 4);
  MemReader b(reinterpret_cast<const uint8_t*>(long_len.data()),
              long_len.size(), 0, 0);
  ASSERT_TRUE(b.NextField("m", &field, &wt));
  int saved = 0;
  EXPECT_FALSE(b.Enter("m", wt, &saved));
  // Nesting past kMaxMessageDepth.
  const std::string sub("\x0a\x00", 2);
  MemReader c(reinterpret_cast<const uint8_t*>(sub.data()), sub.size(), 0,
              kMaxMessageDepth);
  ASSERT_TRUE(c.NextField("m", &field, &wt));
  EXPECT_FALSE(c.Enter("m", wt, &saved));
  // The end of the message is the end of the fields, not an error.
  MemReader d(none, 0, 0, 0);
  EXPECT_FALSE(d.NextField("m", &field, &wt));
  EXPECT_FALSE(d.failed());
  // Groups (wire types 3 and 4) and field 0.
  for (const char* bytes : {"\x0b", "\x0c", "\x02\x00"}) {
    MemReader e(reinterpret_cast<const uint8_t*>(bytes), 1, 0, 0);
    EXPECT_FALSE(e.NextField("m", &field, &wt)) << int{bytes[0]};
    EXPECT_TRUE(e.failed());
  }
}

// `fields` written as field `number` each, the first one's tag left out
// (the reader is at its value, as after NextField).
std::string AfterFirstTag(uint32_t number,
                          const std::vector<std::string>& fields) {
  std::string out;
  for (const std::string& f : fields) pw::Bytes(&out, number, f);
  return out.substr(number < 16 ? 1 : 2);  // the tag's bytes
}

std::string Pair(int source, int target) {
  std::string p;
  pw::Varint(&p, 1, static_cast<uint64_t>(source));
  pw::Varint(&p, 2, static_cast<uint64_t>(target));
  return p;
}

// A run that goes on past the one remembered is read whole and remembered
// in its place: a short run remembered first does not leave the longer
// runs after it to the field-by-field path for good.
TEST(MemReaderTest, TheMemosKeepTheLongerRun) {
  PairsMemo pairs;
  const std::string short_pairs = AfterFirstTag(52, {Pair(0, 1)});
  const std::string long_pairs =
      AfterFirstTag(52, {Pair(0, 1), Pair(1, 2), Pair(2, 0)});
  const std::string short_groups = AfterFirstTag(49, {pw::Group({0, 1})});
  const std::string long_groups =
      AfterFirstTag(49, {pw::Group({0, 1}), pw::Group({2, 3})});
  for (const std::string* in : {&short_pairs, &long_pairs, &long_pairs}) {
    MemReader r(reinterpret_cast<const uint8_t*>(in->data()), in->size(), 0, 0);
    SourceTargetPairs out;
    ASSERT_TRUE(ReadSourceTarget(r, kLen, &out, &pairs));
    EXPECT_EQ(r.bytes_left(), 0);
    EXPECT_EQ(out.pairs.size(), in == &short_pairs ? 1u : 3u);
    EXPECT_EQ(pairs.pairs.size(), out.pairs.size());
  }
  // Runs of replica_groups (49), and of a device list's groups (field 1).
  for (const uint32_t number : {49u, 1u}) {
    const GroupRun run =
        number == 1 ? GroupRun::kDeviceList : GroupRun::kReplicaGroups;
    GroupsMemo groups;
    const std::string short_groups = AfterFirstTag(number, {pw::Group({0, 1})});
    const std::string long_groups =
        AfterFirstTag(number, {pw::Group({0, 1}), pw::Group({2, 3})});
    for (const std::string* in : {&short_groups, &long_groups, &long_groups}) {
      MemReader r(reinterpret_cast<const uint8_t*>(in->data()), in->size(), 0,
                  0);
      ReplicaGroups out;
      ASSERT_TRUE(ReadGroupRunInPlace(r, run, &out, &groups));
      EXPECT_EQ(r.bytes_left(), 0);
      EXPECT_EQ(out.num_groups(), in == &short_groups ? 1 : 2);
      EXPECT_EQ(groups.sizes.size(), static_cast<size_t>(out.num_groups()));
    }
  }
}

}  // namespace
}  // namespace topolint::hlo::proto
