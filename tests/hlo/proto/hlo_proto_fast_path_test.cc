// The binary reader's fast paths (hlo_proto_scan.cc: non-collective
// instructions skipped by length, shapes kept as bytes; hlo_proto_wire.cc /
// hlo_proto_groups.cc: packed ids and SourceTarget pairs decoded in place)
// against the full decoder: ParseOptions::binary_fast_path on and off give
// the same module, the same collectives (with positions) and the same
// syntax errors, for memory, file and gzip input, including instructions
// and id lists cut by the 256 KiB read blocks.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using proto_writer::Bytes;
using proto_writer::Gzip;
using proto_writer::Packed;
using proto_writer::Varint;
using ::testing::HasSubstr;

// Everything the reader leaves in the module, positions included.
std::string Dump(const hlo::Module& m) {
  std::string out = hlo::ModuleDebugString(m);
  for (const hlo::Collective& c : m.collectives) {
    for (const hlo::Shape& s : c.operand_shapes) {
      out += "operand " + hlo::ShapeToString(s) + "\n";
    }
    out += "groups " + c.replica_groups.Text() + "\n";
  }
  for (const auto& e : m.syntax_errors) {
    out += fmt::format("error@{}: {}\n", e.pos.byte_offset(), e.message);
  }
  for (size_t i = 0; i < m.binary_ops.size(); ++i) {
    const hlo::BinaryOpSpans::Span op = m.binary_ops[i];
    out += fmt::format("span {}-{} {} {}\n", op.begin, op.end, op.computation,
                       op.op);
  }
  return out;
}

hlo::Module ReadBytes(const std::string& bytes, bool fast) {
  hlo::ParseOptions o;
  o.binary_fast_path = fast;
  hlo::Module m;
  hlo::ParseHloProto(bytes, "m.pb", o, &m);
  return m;
}

// `stream_cut`: an instruction cut by a read block's end is decoded as it
// streams by (as one longer than max_instruction_bytes is), not copied
// into the scratch buffer first.
hlo::Module ReadFile(const std::string& bytes, bool fast,
                     bool stream_cut = false) {
  const fs::path p =
      fs::temp_directory_path() / fmt::format("topolint-fast-{}.pb", getpid());
  WriteAll(p.string(), bytes);
  hlo::ParseOptions o;
  o.binary_fast_path = fast;
  if (stream_cut) o.max_instruction_bytes = 1;
  hlo::Module m;
  EXPECT_TRUE(hlo::ParseHloProtoFile(p.string(), "m.pb", o, &m).ok());
  fs::remove(p);
  return m;
}

// Reads `bytes` from memory and from a file, fast and full: all four agree.
// Returns the fast file read.
hlo::Module ExpectSame(const std::string& bytes) {
  const hlo::Module full = ReadBytes(bytes, false);
  const std::string want = Dump(full);
  EXPECT_EQ(Dump(ReadBytes(bytes, true)), want);
  EXPECT_EQ(Dump(ReadFile(bytes, false)), want);
  EXPECT_EQ(Dump(ReadFile(bytes, true, /*stream_cut=*/true)), want);
  hlo::Module fast = ReadFile(bytes, true);
  EXPECT_EQ(Dump(fast), want);
  return fast;
}

std::string Shape(int64_t type, const std::vector<int64_t>& dims) {
  std::string s;
  Varint(&s, 2, static_cast<uint64_t>(type));
  if (!dims.empty()) Packed(&s, 3, dims);
  std::string layout;
  Packed(&layout, 1, {0});
  Bytes(&s, 5, layout);
  return s;
}

// A non-collective instruction as XLA writes one: name, opcode, shape,
// metadata, id, operands, backend_config, frontend attributes.
std::string Plain(int64_t id, const std::string& opcode,
                  const std::vector<int64_t>& operands,
                  const std::string& shape) {
  std::string ins;
  Bytes(&ins, 1, fmt::format("{}.{}", opcode, id));
  Bytes(&ins, 2, opcode);
  Bytes(&ins, 3, shape);
  std::string md;
  Bytes(&md, 2, "jit(step)/layers.0/mlp/" + opcode);
  Bytes(&md, 3, "model.py");
  Varint(&md, 4, static_cast<uint64_t>(id));
  Bytes(&ins, 7, md);
  Varint(&ins, 35, static_cast<uint64_t>(id));
  if (!operands.empty()) Packed(&ins, 36, operands);
  Bytes(&ins, 43,
        R"({"operation_queue_id":"0","wait_on_operation_queues":[]})");
  std::string entry;
  Bytes(&entry, 1, "_scheduling_group_id");
  Bytes(&entry, 2, "7");
  std::string attrs;
  Bytes(&attrs, 1, entry);
  Bytes(&ins, 68, attrs);
  return ins;
}

// An all-reduce of `operand` over `groups` in field 49 or 87.
std::string AllReduce(int64_t id, int64_t operand,
                      const std::vector<std::vector<int64_t>>& groups,
                      int field) {
  std::string ins;
  Bytes(&ins, 1, fmt::format("all-reduce.{}", id));
  Bytes(&ins, 2, "all-reduce");
  Bytes(&ins, 3, Shape(11, {4096}));
  Varint(&ins, 26, static_cast<uint64_t>(id));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  Packed(&ins, 36, {operand});
  std::string list;
  for (const auto& g : groups) {
    if (field == 49) {
      Bytes(&ins, 49, proto_writer::Group(g));
    } else {
      Bytes(&list, 1, proto_writer::Group(g));
    }
  }
  if (field == 87) Bytes(&ins, 87, list);
  Varint(&ins, 71, 1);
  return ins;
}

// A collective-permute's fields before its pairs.
std::string PermuteHead(int64_t id, int64_t operand) {
  std::string ins;
  Bytes(&ins, 1, fmt::format("collective-permute.{}", id));
  Bytes(&ins, 2, "collective-permute");
  Bytes(&ins, 3, Shape(16, {4, 64}));
  Varint(&ins, 26, static_cast<uint64_t>(id));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  Packed(&ins, 36, {operand});
  return ins;
}

std::string CollectivePermute(int64_t id, int64_t operand, int devices) {
  std::string ins = PermuteHead(id, operand);
  for (int d = 0; d < devices; ++d) {
    std::string pair;
    // Target first on odd devices: XLA writes source first, but the wire
    // allows either order.
    if (d % 2 == 0) {
      Varint(&pair, 1, static_cast<uint64_t>(d));
      Varint(&pair, 2, static_cast<uint64_t>((d + 1) % devices));
    } else {
      Varint(&pair, 2, static_cast<uint64_t>((d + 1) % devices));
      Varint(&pair, 1, static_cast<uint64_t>(d));
    }
    Bytes(&ins, 52, pair);
  }
  return ins;
}

std::string ModuleOf(const std::vector<std::string>& instructions) {
  std::string comp;
  Bytes(&comp, 1, "main");
  for (const std::string& i : instructions) {
    std::string one;
    Bytes(&one, 2, i);
    comp += one;
  }
  Varint(&comp, 5, 1);
  std::string m;
  Bytes(&m, 1, "jit_fast");
  Bytes(&m, 2, "main");
  Bytes(&m, 3, comp);
  Varint(&m, 6, 1);
  std::string da;
  Varint(&da, 1, 1);
  Varint(&da, 2, 8);
  Bytes(&m, 15, da);
  return m;
}

// A decoder layer after another: `layers` times 8 plain instructions, an
// all-reduce (groups alternately in 49 and 87) and a collective-permute.
std::string Dense(int layers) {
  std::vector<std::string> ins;
  int64_t id = 1;
  ins.push_back(Plain(id++, "parameter", {}, Shape(16, {4, 64})));
  for (int l = 0; l < layers; ++l) {
    for (int k = 0; k < 8; ++k) {
      ins.push_back(Plain(id, k % 2 ? "add" : "multiply", {id - 1},
                          Shape(16, {4, 64 + k})));
      ++id;
    }
    ins.push_back(
        AllReduce(id, id - 1, {{0, 1, 2, 3}, {4, 5, 6, 7}}, l % 2 ? 87 : 49));
    ++id;
    ins.push_back(CollectivePermute(id, id - 1, 8));
    ++id;
  }
  return ModuleOf(ins);
}

TEST(HloProtoFastPathTest, DenseModuleReadsTheSameEitherWay) {
  const std::string bytes = Dense(40);
  const hlo::Module m = ExpectSame(bytes);
  ASSERT_TRUE(m.syntax_errors.empty()) << Dump(m);
  ASSERT_EQ(m.collectives.size(), 80u);
  // The operand of each collective is the instruction before it, which the
  // fast path skipped: its shape comes from the kept bytes.
  EXPECT_EQ(hlo::ShapeToString(m.collectives[0].operand_shapes.at(0)),
            "bf16[4,71]");
  // The permute's operand is the all-reduce before it: a collective, whose
  // shape was decoded in place and kept as its bytes.
  EXPECT_EQ(hlo::ShapeToString(m.collectives[1].operand_shapes.at(0)),
            "f32[4096]");
  EXPECT_EQ(m.collectives[1].source_target_pairs.pairs.at(1),
            std::make_pair(int64_t{1}, int64_t{2}));
  EXPECT_EQ(m.num_partitions.value_or(0), 8);
}

TEST(HloProtoFastPathTest, ReadBlockBoundariesAndGzipChangeNothing) {
  // ~1.3 MB: instructions and pair lists cut by the 256 KiB file blocks
  // and by the blocks of inflated data.
  const std::string bytes = Dense(2500);
  ASSERT_GT(bytes.size(), size_t{1} << 20);
  const hlo::Module m = ExpectSame(bytes);
  EXPECT_TRUE(m.syntax_errors.empty());
  EXPECT_EQ(m.collectives.size(), 5000u);
  const std::string want = Dump(ReadBytes(bytes, false));
  const std::string gz = Gzip(bytes);
  EXPECT_EQ(Dump(ReadFile(gz, true)), want);
  EXPECT_EQ(Dump(ReadBytes(gz, true)), want);
}

TEST(HloProtoFastPathTest, LongIdListsCutByReadBlocksKeepTheirPositions) {
  // A group of 20,000 ids (~40 KB packed) after 250,000 bytes of a
  // backend_config: the list starts in the first 256 KiB file block and
  // ends in the second, decoded in place block by block, the value cut at
  // the block's end through CodedInputStream.
  constexpr int64_t kIds = 20000;
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < kIds; ++i) ids.push_back(i);
  std::string padded = Plain(1, "parameter", {}, Shape(11, {4096}));
  Bytes(&padded, 43, std::string(250000, 'x'));
  const std::string bytes = ModuleOf({padded, AllReduce(2, 1, {ids}, 87)});
  ASSERT_LT(bytes.find(std::string(100, 'x')), size_t{256} << 10);
  ASSERT_GT(bytes.size(), (size_t{256} << 10) + 10000);
  const hlo::Module m = ExpectSame(bytes);
  ASSERT_EQ(m.collectives.size(), 1u);
  ASSERT_EQ(m.collectives[0].replica_groups.num_groups(), 1);
  EXPECT_EQ(m.collectives[0].replica_groups.group(0).size(),
            static_cast<size_t>(kIds));
  EXPECT_EQ(m.collectives[0].replica_groups.group(0)[kIds - 1], kIds - 1);
}

TEST(HloProtoFastPathTest, MalformedPlainInstructionsGoToTheFullDecoder) {
  // Each of these makes ScanInstruction hand the instruction to
  // ReadInstruction, which reports it: the same error either way.
  std::vector<std::string> cases;
  std::string ins = Plain(2, "add", {1}, Shape(11, {8}));
  Varint(&ins, 1, 5);  // name as a varint
  cases.push_back(ins);
  ins = Plain(2, "add", {1}, Shape(11, {8}));
  Bytes(&ins, 35, "x");  // id length-delimited
  cases.push_back(ins);
  ins = Plain(2, "add", {1}, Shape(11, {8}));
  ins += std::string("\x0b", 1);  // a start-group tag (field 1)
  cases.push_back(ins);
  ins = Plain(2, "add", {1}, Shape(11, {8}));
  Bytes(&ins, 49, std::string("\x0a\x05\x01", 3));  // bad ReplicaGroup
  cases.push_back(ins);
  ins = Plain(2, "add", {1}, Shape(11, {8}));
  ins += std::string("\xa2\x02\x7f", 3);  // field 36, length past the end
  cases.push_back(ins);
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string bytes =
        ModuleOf({Plain(1, "parameter", {}, Shape(11, {8})), cases[i],
                  AllReduce(3, 2, {{0, 1}}, 49)});
    const hlo::Module m = ExpectSame(bytes);
    EXPECT_EQ(m.syntax_errors.size(), 1u) << "case " << i << "\n" << Dump(m);
  }
}

// Malformed instructions cut by the first 256 KiB read block's end at
// every few bytes (the padding before them grows): decoded in place from
// memory, copied into the scratch buffer from a file, or decoded as they
// stream by, each reports the same error at the same byte.
TEST(HloProtoFastPathTest, CutInstructionsReportTheSameErrorAtTheSameByte) {
  std::vector<std::string> cases;
  std::string ins = AllReduce(2, 1, {{0, 1}, {2, 3}}, 49);
  Varint(&ins, 26, 1);
  // An iota list [3,5]<=[15]T(1): not a permutation.
  Bytes(&ins, 92, std::string("\x08\x03\x10\x05\x1a\x01\x0f\x22\x01\x01", 10));
  cases.push_back(ins);
  ins = AllReduce(2, 1, {{0, 1}, {2, 3}}, 87);
  ins += std::string("\xa2\x02\x7f", 3);  // field 36, length past the end
  cases.push_back(ins);
  ins = AllReduce(2, 1, {{0, 1}, {2, 3}}, 49);
  Bytes(&ins, 52, std::string("\x08\x01\x11", 3));  // a pair's bad field
  cases.push_back(ins);
  ins = Plain(2, "add", {1}, Shape(11, {8}));
  Varint(&ins, 1, 5);  // name as a varint
  cases.push_back(ins);
  constexpr size_t kBlock = size_t{256} << 10;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string probe =
        ModuleOf({Plain(1, "parameter", {}, Shape(11, {8})), cases[i]});
    const size_t len = cases[i].size();
    for (size_t pad = kBlock - probe.size() - 16;
         pad < kBlock - probe.size() + len; pad += 5) {
      std::string padded = Plain(1, "parameter", {}, Shape(11, {8}));
      Bytes(&padded, 43, std::string(pad, 'x'));
      const hlo::Module m = ExpectSame(ModuleOf({padded, cases[i]}));
      EXPECT_EQ(m.syntax_errors.size(), 1u)
          << "case " << i << " pad " << pad << "\n"
          << Dump(m);
    }
  }
}

// The bytes of an instruction's sharding (40) and of the module's shardings
// (12, 14) are kept for the OpSharding decoder, whichever stage reads the
// instruction.
TEST(HloProtoFastPathTest, ShardingBytesAreKeptForTheirDecoder) {
  std::string sharding;
  Varint(&sharding, 1, 2);  // OpSharding.type = OTHER
  Packed(&sharding, 3, {2, 1});
  std::string param = Plain(1, "parameter", {}, Shape(11, {8}));
  Bytes(&param, 40, sharding);
  std::string ar = AllReduce(2, 1, {{0, 1}}, 49);
  Bytes(&ar, 40, sharding);
  std::string bytes = ModuleOf({param, ar});
  Bytes(&bytes, 12, sharding);  // spmd_output_sharding
  Bytes(&bytes, 14, sharding);  // spmd_parameters_shardings
  Bytes(&bytes, 14, "");
  const hlo::Module m = ExpectSame(bytes);
  EXPECT_TRUE(m.syntax_errors.empty()) << Dump(m);
  {
    google::protobuf::io::ArrayInputStream in(bytes.data(),
                                              static_cast<int>(bytes.size()));
    hlo::proto::WireReader r(&in, static_cast<int64_t>(bytes.size()));
    hlo::proto::Header h;
    ASSERT_TRUE(hlo::proto::ReadHeader(r, &h)) << r.error();
    ASSERT_EQ(h.shardings.size(), 3u);
    EXPECT_EQ(h.shardings[0].field, 12u);
    EXPECT_EQ(h.shardings[0].bytes, sharding);
    EXPECT_EQ(
        bytes.substr(static_cast<size_t>(h.shardings[1].at), sharding.size()),
        sharding);
    EXPECT_EQ(h.shardings[2].field, 14u);
    EXPECT_EQ(h.shardings[2].bytes, "");
  }
  // What each stage keeps.
  hlo::proto::InstructionView view;
  ASSERT_TRUE(hlo::proto::ScanInstruction(
      reinterpret_cast<const uint8_t*>(param.data()), param.size(), &view));
  EXPECT_EQ(view.sharding, sharding);
  EXPECT_EQ(
      param.substr(static_cast<size_t>(view.sharding.data() - param.data()),
                   sharding.size()),
      sharding);
  hlo::proto::WireReader r(reinterpret_cast<const uint8_t*>(ar.data()),
                           ar.size(), 100, 2);
  hlo::proto::InstructionScratch s;
  ASSERT_TRUE(hlo::proto::ReadInstruction(r, &s)) << r.error();
  EXPECT_EQ(s.sharding, sharding);
  EXPECT_EQ(
      ar.substr(static_cast<size_t>(s.sharding_at - 100), sharding.size()),
      sharding);
}

TEST(HloProtoFastPathTest, BadShapeOfAnOperandIsReportedAtItsByte) {
  // The shape of %add.2 nests tuples past kMaxShapeDepth. The full decoder
  // reports it when it reads %add.2; the fast path keeps the bytes and
  // reports the same error, at the same byte, when the all-reduce names
  // %add.2 as its operand.
  std::string shape = Shape(11, {8});
  for (int d = 0; d <= hlo::kMaxShapeDepth + 1; ++d) {
    std::string outer;
    Varint(&outer, 2, 13);
    Bytes(&outer, 4, shape);
    shape = outer;
  }
  const std::string bytes =
      ModuleOf({Plain(1, "parameter", {}, Shape(11, {8})),
                Plain(2, "add", {1}, shape), AllReduce(3, 2, {{0, 1}}, 49)});
  const hlo::Module full = ReadBytes(bytes, false);
  const hlo::Module fast = ReadBytes(bytes, true);
  ASSERT_EQ(full.syntax_errors.size(), 1u);
  ASSERT_EQ(fast.syntax_errors.size(), 1u);
  EXPECT_THAT(full.syntax_errors[0].message, HasSubstr("nested at most"));
  EXPECT_EQ(fast.syntax_errors[0].message, full.syntax_errors[0].message);
  EXPECT_EQ(fast.syntax_errors[0].pos.byte_offset(),
            full.syntax_errors[0].pos.byte_offset());
}

TEST(HloProtoFastPathTest, LongShapesGoToTheFullDecoder) {
  // A shape with 1 MiB in an unknown field: past kMaxKeptShapeBytes, so the
  // instruction goes to the full decoder (which skips the field) instead of
  // being copied into the shape table (what this test cannot see: memory);
  // the module reads the same either way.
  std::string shape = Shape(11, {8});
  Bytes(&shape, 15, std::string(size_t{1} << 20, 'z'));
  ASSERT_GT(shape.size(), hlo::proto::kMaxKeptShapeBytes);
  const hlo::Module m = ExpectSame(
      ModuleOf({Plain(1, "parameter", {}, Shape(11, {8})),
                Plain(2, "add", {1}, shape), AllReduce(3, 2, {{0, 1}}, 49)}));
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(hlo::ShapeToString(m.collectives[0].operand_shapes.at(0)),
            "f32[8]");
}

TEST(HloProtoFastPathTest, UnusedShapesOfPlainInstructionsAreNotDecoded) {
  // What the fast path gives up, by design: a malformed shape of an
  // instruction that no collective names is not read at all (the text
  // front end does not parse such shapes either). The collective after it
  // is still read and checked.
  std::string bad;
  Bytes(&bad, 2, "f32");  // element_type length-delimited
  const std::string bytes =
      ModuleOf({Plain(1, "parameter", {}, Shape(11, {8})),
                Plain(2, "add", {1}, bad), AllReduce(3, 1, {{0, 1}}, 49)});
  EXPECT_EQ(ReadBytes(bytes, false).syntax_errors.size(), 1u);
  const hlo::Module fast = ReadBytes(bytes, true);
  EXPECT_TRUE(fast.syntax_errors.empty()) << Dump(fast);
  EXPECT_EQ(fast.collectives.size(), 1u);
}

TEST(HloProtoFastPathTest, SourceTargetPairsWithOtherFieldsAreReadInFull) {
  // An unknown field in a SourceTarget, or a value of the wrong wire type,
  // leaves the in-place decoder for the field-by-field one.
  std::string ins = CollectivePermute(2, 1, 2);
  std::string pair;
  Varint(&pair, 1, 5);
  Varint(&pair, 2, 6);
  Varint(&pair, 9, 1);  // unknown: skipped
  Bytes(&ins, 52, pair);
  const hlo::Module m = ExpectSame(
      ModuleOf({Plain(1, "parameter", {}, Shape(16, {4, 64})), ins}));
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(m.collectives[0].source_target_pairs.pairs.back(),
            std::make_pair(int64_t{5}, int64_t{6}));
  std::string bad_pair;
  Bytes(&bad_pair, 1, "x");
  std::string bad = CollectivePermute(2, 1, 2);
  Bytes(&bad, 52, bad_pair);
  const hlo::Module e = ExpectSame(
      ModuleOf({Plain(1, "parameter", {}, Shape(16, {4, 64})), bad}));
  ASSERT_EQ(e.syntax_errors.size(), 1u);
  EXPECT_THAT(e.syntax_errors[0].message, HasSubstr("SourceTarget.source"));
}

// A collective-permute whose ring is `pairs`, then `tail` (more fields).
std::string Permute(int64_t id, const std::vector<std::pair<int, int>>& pairs,
                    const std::string& tail = "") {
  std::string ins = PermuteHead(id, 1);
  for (const auto& [source, target] : pairs) {
    std::string pair;
    Varint(&pair, 1, static_cast<uint64_t>(source));
    Varint(&pair, 2, static_cast<uint64_t>(target));
    Bytes(&ins, 52, pair);
  }
  return ins + tail;
}

// A ring a module repeats is recalled from the pairs memo, not decoded
// again: the same pairs at their own positions, whatever comes before the
// ring (names of other lengths), and a ring that differs, is longer or
// shorter than the one remembered, or is followed by a pair the in-place
// decoder cannot read, is decoded as before.
TEST(HloProtoFastPathTest, RepeatedRingsReadAsTheFullDecoderReadsThem) {
  std::vector<std::pair<int, int>> ring;
  for (int d = 0; d < 32; ++d) ring.emplace_back(d, (d + 1) % 32);
  std::vector<std::pair<int, int>> longer = ring;
  longer.emplace_back(3, 4);
  std::vector<std::pair<int, int>> shorter(ring.begin(), ring.end() - 1);
  std::vector<std::pair<int, int>> changed = ring;
  changed[7].second = 9;
  std::string odd_pair;  // a SourceTarget with an unknown field
  Varint(&odd_pair, 1, 5);
  Varint(&odd_pair, 9, 1);
  std::string odd_tail;
  Bytes(&odd_tail, 52, odd_pair);
  std::string other_field;
  Varint(&other_field, 71, 1);
  std::vector<std::string> ins = {
      Plain(1, "parameter", {}, Shape(16, {4, 64}))};
  int64_t id = 2;
  for (int round = 0; round < 3; ++round) {
    ins.push_back(Permute(id++, ring));
    ins.push_back(Permute(id++, ring));
    ins.push_back(Permute(id++, longer));
    ins.push_back(Permute(id++, ring));
    ins.push_back(Permute(id++, shorter));
    ins.push_back(Permute(id++, ring, odd_tail));
    ins.push_back(Permute(id++, ring, odd_tail));
    ins.push_back(Permute(id++, changed));
    ins.push_back(Permute(id++, ring, other_field));
    ins.push_back(Permute(id + 1000, ring));  // a longer name before it
    ++id;
    // A ring not remembered, then operand_ids (36), whose tag differs from
    // a pair's in its second byte only and whose value reads as a pair.
    std::string lookalike;
    Packed(&lookalike, 36, {8, 16});
    ins.push_back(Permute(id++, {{round, 9}}, lookalike));
  }
  const hlo::Module m = ExpectSame(ModuleOf(ins));
  ASSERT_EQ(m.collectives.size(), 33u);
  EXPECT_EQ(m.collectives[10].source_target_pairs.pairs.size(), 1u);
  EXPECT_EQ(m.collectives[1].source_target_pairs.pairs.size(), 32u);
  EXPECT_EQ(m.collectives[2].source_target_pairs.pairs.size(), 33u);
  EXPECT_EQ(m.collectives[4].source_target_pairs.pairs.size(), 31u);
  EXPECT_EQ(m.collectives[5].source_target_pairs.pairs.size(), 33u);
  EXPECT_EQ(m.collectives[7].source_target_pairs.pairs[7],
            std::make_pair(int64_t{7}, int64_t{9}));
  // Positions differ from one recalled ring to the next.
  EXPECT_NE(m.collectives[1].source_target_pairs.pair_pos[5].byte_offset(),
            m.collectives[0].source_target_pairs.pair_pos[5].byte_offset());
  // Through the blocks of inflated data as well (rings cut at other places
  // are read by the full decoder and not remembered).
  const std::string bytes = ModuleOf(ins);
  EXPECT_EQ(Dump(ReadBytes(Gzip(bytes), true)), Dump(ReadBytes(bytes, false)));
}

// The runs both group-run tests read, each group made by `group`: two
// groups, four, three (the two and one more) and the two with the second
// one changed.
struct GroupRuns {
  std::vector<std::string> two, four, three, changed;
};
GroupRuns MakeGroupRuns(std::string (*group)(const std::vector<int64_t>&)) {
  GroupRuns r;
  r.two = {group({0, 1, 2, 3}), group({4, 5, 6, 7})};
  r.four = {group({0, 1}), group({2, 3}), group({4, 5}), group({6, 7})};
  r.three = r.two;
  r.three.push_back(group({8, 9}));
  r.changed = r.two;
  r.changed[1] = group({4, 5, 7, 6});
  return r;
}

// An all-reduce whose replica_groups (49) fields are `fields` (each a
// ReplicaGroup's bytes), then `tail`.
std::string GroupFields(int64_t id, const std::vector<std::string>& fields,
                        const std::string& tail = "") {
  std::string ins;
  Bytes(&ins, 1, fmt::format("all-reduce.{}", id));
  Bytes(&ins, 2, "all-reduce");
  Bytes(&ins, 3, Shape(11, {4096}));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  Packed(&ins, 36, {1});
  for (const std::string& f : fields) Bytes(&ins, 49, f);
  return ins + tail;
}

// Runs of replica_groups (49) fields are read in place, and a run the
// module repeats is recalled: the same groups, ids and positions as the
// full decoder reads, for runs repeated, changed, longer and shorter than
// the one remembered, with a group that is not plain (ids not packed, an
// unknown field, no ids, a large id) at its start, in its middle or at its
// end, and other fields around.
TEST(HloProtoFastPathTest, RunsOfGroupsReadAsTheFullDecoderReadsThem) {
  using proto_writer::Group;
  const auto [two, four, three, changed] = MakeGroupRuns(Group);
  std::string loose;  // ids not packed
  Varint(&loose, 1, 8);
  Varint(&loose, 1, 9);
  std::string unknown = Group({8, 9});
  Varint(&unknown, 5, 1);
  const std::string big = Group({int64_t{1} << 40, 3});
  std::string other;
  Varint(&other, 71, 1);
  // Field 33 (skipped) looks like a group but for its tag's second byte.
  std::string lookalike;
  Bytes(&lookalike, 33, Group({8, 9}));
  const std::vector<std::vector<std::string>> runs = {two,
                                                      two,
                                                      four,
                                                      two,
                                                      three,
                                                      two,
                                                      changed,
                                                      two,
                                                      {loose, two[0]},
                                                      {two[0], loose, two[1]},
                                                      {two[0], two[1], loose},
                                                      {two[0], unknown},
                                                      {two[0], ""},
                                                      {big, two[1]},
                                                      {""},
                                                      two};
  std::vector<std::string> ins = {Plain(1, "parameter", {}, Shape(11, {4096}))};
  int64_t id = 2;
  for (int round = 0; round < 2; ++round) {
    for (const auto& run : runs) ins.push_back(GroupFields(id++, run, other));
    ins.push_back(GroupFields(id + 5000, two));  // a longer name before
    ++id;
    // (A run not remembered: parsed, so the tag after it is looked at.)
    ins.push_back(GroupFields(id++, {Group({7, 6 + round})}, lookalike));
  }
  const hlo::Module m = ExpectSame(ModuleOf(ins));
  ASSERT_EQ(m.collectives.size(), 2 * (runs.size() + 2));
  EXPECT_EQ(m.collectives[runs.size() + 1].replica_groups.num_groups(), 1);
  EXPECT_EQ(m.collectives[1].replica_groups.num_groups(), 2);
  EXPECT_EQ(m.collectives[2].replica_groups.num_groups(), 4);
  EXPECT_EQ(m.collectives[4].replica_groups.num_groups(), 3);
  EXPECT_EQ(m.collectives[6].replica_groups.group(1)[2], 7);
  EXPECT_NE(m.collectives[1].replica_groups.IdPos(1, 2).byte_offset(),
            m.collectives[0].replica_groups.IdPos(1, 2).byte_offset());
  const std::string bytes = ModuleOf(ins);
  EXPECT_EQ(Dump(ReadBytes(Gzip(bytes), true)), Dump(ReadBytes(bytes, false)));
}

// An all-reduce whose collective_device_list (87) holds `fields` (each a
// whole CollectiveDeviceListProto field, tag included), then `tail`.
std::string DeviceListFields(int64_t id, const std::vector<std::string>& fields,
                             const std::string& tail = "") {
  std::string list;
  for (const std::string& f : fields) list += f;
  std::string ins;
  Bytes(&ins, 1, fmt::format("all-reduce.{}", id));
  Bytes(&ins, 2, "all-reduce");
  Bytes(&ins, 3, Shape(11, {4096}));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  Packed(&ins, 36, {1});
  Bytes(&ins, 87, list);
  return ins + tail;
}

// The replica_groups (1) field of a CollectiveDeviceListProto.
std::string ListGroup(const std::vector<int64_t>& ids) {
  std::string f;
  Bytes(&f, 1, proto_writer::Group(ids));
  return f;
}

// Runs of groups inside collective_device_list (87) are read in place and
// recalled as those of replica_groups (49) are, with a memo of their own:
// the same groups, ids and positions as the full decoder reads, for runs
// repeated, changed, longer and shorter, a group that is not plain at its
// start, middle or end, other list fields (the old nested iota, an unknown
// field) before and after it, and 49 runs of the same groups in between.
TEST(HloProtoFastPathTest, RunsInADeviceListReadAsTheFullDecoderReadsThem) {
  const auto [two, four, three, changed] = MakeGroupRuns(ListGroup);
  std::string loose_group;  // ids not packed
  Varint(&loose_group, 1, 8);
  Varint(&loose_group, 1, 9);
  std::string loose;
  Bytes(&loose, 1, loose_group);
  std::string unknown;  // a list field the reader skips
  Varint(&unknown, 3, 1);
  std::string iota;  // the old nested iota (87.2)
  {
    std::string body;
    Varint(&body, 1, 2);
    Varint(&body, 2, 4);
    Packed(&body, 3, {8});
    Bytes(&iota, 2, body);
  }
  const std::string big = ListGroup({int64_t{1} << 40, 3});
  const std::vector<std::vector<std::string>> lists = {
      two,
      two,
      four,
      two,
      three,
      two,
      changed,
      two,
      {loose, two[0]},
      {two[0], loose, two[1]},
      {two[0], two[1], loose},
      {two[0], unknown, two[1]},
      {unknown, two[0], two[1]},
      {two[0], two[1], unknown},
      {iota, two[0]},
      {two[0], two[1], iota},
      {big, two[1]},
      {ListGroup({})},
      {},
      two};
  std::vector<std::string> ins = {Plain(1, "parameter", {}, Shape(11, {4096}))};
  int64_t id = 2;
  for (int round = 0; round < 2; ++round) {
    for (const auto& list : lists) ins.push_back(DeviceListFields(id++, list));
    // Both fields: replica_groups (49) wins (the list is read and dropped),
    // and each run is recalled from its own memo.
    std::string list_field;
    Bytes(&list_field, 87, two[0] + two[1]);
    ins.push_back(GroupFields(
        id++, {proto_writer::Group({0, 1, 2, 3}), proto_writer::Group({4, 5})},
        list_field));
    ins.push_back(DeviceListFields(id++, two));
  }
  const hlo::Module m = ExpectSame(ModuleOf(ins));
  ASSERT_EQ(m.collectives.size(), 2 * (lists.size() + 2));
  EXPECT_EQ(m.collectives[1].replica_groups.num_groups(), 2);
  EXPECT_EQ(m.collectives[2].replica_groups.num_groups(), 4);
  EXPECT_EQ(m.collectives[4].replica_groups.num_groups(), 3);
  EXPECT_EQ(m.collectives[6].replica_groups.group(1)[2], 7);
  EXPECT_EQ(m.collectives[lists.size()].replica_groups.num_groups(), 2);
  EXPECT_EQ(m.collectives[lists.size()].replica_groups.group(1).size(), 2u);
  EXPECT_NE(m.collectives[1].replica_groups.IdPos(1, 2).byte_offset(),
            m.collectives[0].replica_groups.IdPos(1, 2).byte_offset());
  const std::string bytes = ModuleOf(ins);
  EXPECT_EQ(Dump(ReadBytes(Gzip(bytes), true)), Dump(ReadBytes(bytes, false)));
}

}  // namespace
}  // namespace topolint::testing
