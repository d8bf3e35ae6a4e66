// The binary HLO reader: wrappers, gzip, every replica-group field,
// header counts, positions, and hostile input (truncation, garbage, huge
// lengths, deep nesting).
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

using hlo::Collective;
using hlo::Module;
using hlo::ReplicaGroups;
using proto_writer::Bytes;
using proto_writer::Packed;
using proto_writer::Varint;

constexpr const char* kText =
    R"(HloModule jit_step, replica_count=2, num_partitions=4

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p: f32[8,16]) -> f32[8,16] {
  %p = f32[8,16]{1,0} parameter(0)
  %ar = f32[8,16]{1,0} all-reduce(f32[8,16]{1,0} %p), channel_id=1, replica_groups={{0,1,2,3},{4,5,6,7}}, use_global_device_ids=true, to_apply=%add, metadata={op_name="jit(step)/psum" source_file="model.py" source_line=42}
  %ag = f32[32,16]{1,0} all-gather(f32[8,16]{1,0} %ar), channel_id=2, replica_groups=[2,4]<=[4,2]T(1,0), use_global_device_ids=true, dimensions={0}
  ROOT %cp = f32[32,16]{1,0} collective-permute(f32[32,16]{1,0} %ag), channel_id=3, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
}
)";

Module Text() {
  Module m = hlo::ParseHloText(kText, "model.hlo");
  EXPECT_TRUE(m.syntax_errors.empty());
  return m;
}

Module Read(const std::string& bytes) {
  Module m;
  hlo::ParseHloProto(bytes, "model.hlo_module.pb", hlo::ParseOptions{}, &m);
  return m;
}

void ExpectSameCollectives(const Module& text, const Module& bin) {
  ASSERT_EQ(text.collectives.size(), bin.collectives.size());
  for (size_t i = 0; i < text.collectives.size(); ++i) {
    const Collective& a = text.collectives[i];
    const Collective& b = bin.collectives[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.computation, b.computation);
    EXPECT_EQ(a.opcode, b.opcode);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.has_channel_id, b.has_channel_id);
    EXPECT_EQ(a.channel_id, b.channel_id);
    EXPECT_EQ(a.use_global_device_ids, b.use_global_device_ids);
    EXPECT_EQ(a.replica_groups.form, b.replica_groups.form);
    EXPECT_EQ(a.replica_groups.GroupVectors(), b.replica_groups.GroupVectors());
    EXPECT_EQ(a.replica_groups.iota.reshape_dims,
              b.replica_groups.iota.reshape_dims);
    EXPECT_EQ(a.replica_groups.iota.perm, b.replica_groups.iota.perm);
    EXPECT_EQ(a.source_target_pairs.pairs, b.source_target_pairs.pairs);
    EXPECT_EQ(a.dimensions, b.dimensions);
    EXPECT_EQ(a.result_shape.dims, b.result_shape.dims);
    EXPECT_EQ(a.result_shape.element_type, b.result_shape.element_type);
    ASSERT_EQ(a.operand_shapes.size(), b.operand_shapes.size());
    for (size_t k = 0; k < a.operand_shapes.size(); ++k) {
      EXPECT_EQ(a.operand_shapes[k].dims, b.operand_shapes[k].dims);
    }
    EXPECT_EQ(a.to_apply, b.to_apply);
    EXPECT_EQ(a.op_name, b.op_name);
    EXPECT_EQ(a.source_file, b.source_file);
    EXPECT_EQ(a.source_line, b.source_line);
    EXPECT_EQ(a.is_root, b.is_root);
  }
}

TEST(HloProtoReaderTest, EachWrapperReadsTheSameModule) {
  const Module text = Text();
  const struct {
    ProtoWrapper wrapper;
    const char* format;
  } cases[] = {
      {ProtoWrapper::kWithConfig, "HloModuleProtoWithConfig"},
      {ProtoWrapper::kHloProto, "HloProto"},
      {ProtoWrapper::kSnapshot, "HloSnapshot"},
  };
  for (const auto& c : cases) {
    ProtoWriteOptions o;
    o.wrapper = c.wrapper;
    const Module bin = Read(WriteHloProto(text, o));
    SCOPED_TRACE(c.format);
    EXPECT_TRUE(bin.syntax_errors.empty()) << bin.syntax_errors[0].message;
    EXPECT_EQ(bin.proto_format, c.format);
    EXPECT_EQ(bin.name, "jit_step");
    EXPECT_EQ(bin.entry_computation, "%main");
    EXPECT_EQ(bin.computation_count, 2);
    ExpectSameCollectives(text, bin);
  }
}

TEST(HloProtoReaderTest, ConfigGivesReplicaCountAndPartitions) {
  const Module bin = Read(WriteHloProto(Text()));  // kModule -> WithConfig
  EXPECT_EQ(bin.proto_format, "HloModuleProtoWithConfig");
  EXPECT_EQ(bin.replica_count, 2);
  EXPECT_EQ(bin.num_partitions, 4);
  EXPECT_TRUE(bin.replica_count_pos.is_byte());
}

TEST(HloProtoReaderTest, BareModuleLeavesCountsUnset) {
  Module text = Text();
  text.replica_count.reset();
  text.num_partitions.reset();
  const Module bin = Read(WriteHloProto(text));
  EXPECT_EQ(bin.proto_format, "HloModuleProto");
  EXPECT_FALSE(bin.replica_count.has_value());
  EXPECT_FALSE(bin.num_partitions.has_value());
  ExpectSameCollectives(text, bin);
}

TEST(HloProtoReaderTest, DeviceAssignmentGivesCounts) {
  std::string comp, ins, module, da;
  Bytes(&comp, 1, "main");
  Bytes(&ins, 1, "ar");
  Bytes(&ins, 2, "all-reduce");
  Bytes(&comp, 2, ins);
  Bytes(&module, 1, "m");
  Bytes(&module, 3, comp);
  Varint(&da, 1, 4);
  Varint(&da, 2, 2);
  Bytes(&module, 15, da);
  const Module bin = Read(module);
  EXPECT_TRUE(bin.syntax_errors.empty());
  EXPECT_EQ(bin.replica_count, 4);
  EXPECT_EQ(bin.num_partitions, 2);
  ASSERT_EQ(bin.collectives.size(), 1u);
  EXPECT_EQ(bin.collectives[0].replica_groups.form,
            ReplicaGroups::Form::kAbsent);
}

TEST(HloProtoReaderTest, GzipIsReadByContent) {
  const Module text = Text();
  ProtoWriteOptions o;
  o.gzip = true;
  const std::string gz = WriteHloProto(text, o);
  EXPECT_EQ(hlo::SniffHloEncoding(gz), hlo::HloEncoding::kGzip);
  const Module bin = Read(gz);
  EXPECT_TRUE(bin.gzip);
  EXPECT_TRUE(bin.syntax_errors.empty());
  ExpectSameCollectives(text, bin);
}

TEST(HloProtoReaderTest, CorruptGzipIsASyntaxError) {
  ProtoWriteOptions o;
  o.gzip = true;
  std::string gz = WriteHloProto(Text(), o);
  for (size_t i = 12; i < gz.size() - 8; i += 3) gz[i] = static_cast<char>(i);
  const Module bin = Read(gz);
  ASSERT_FALSE(bin.syntax_errors.empty());
  EXPECT_NE(bin.syntax_errors[0].message.find("gzip"), std::string::npos)
      << bin.syntax_errors[0].message;
}

TEST(HloProtoReaderTest, ExplicitGroupsInField87AndEmptyList) {
  Module text = Text();
  ProtoWriteOptions o;
  o.explicit_groups_field = 87;
  ExpectSameCollectives(text, Read(WriteHloProto(text, o)));
  // `replica_groups={}` survives only in 87 (an empty 49 is absent).
  text.collectives[0].replica_groups.SetGroups({});
  const Module bin = Read(WriteHloProto(text, o));
  EXPECT_EQ(bin.collectives[0].replica_groups.form,
            ReplicaGroups::Form::kExplicit);
  EXPECT_EQ(bin.collectives[0].replica_groups.num_groups(), 0);
}

TEST(HloProtoReaderTest, OldNestedIotaIn87) {
  const Module text = Text();
  ProtoWriteOptions o;
  o.old_nested_iota = true;
  const Module bin = Read(WriteHloProto(text, o));
  EXPECT_EQ(bin.collectives[1].replica_groups.form, ReplicaGroups::Form::kIota);
  ExpectSameCollectives(text, bin);
}

TEST(HloProtoReaderTest, Field49WinsOver87AndIotaDefaults) {
  std::string ins, group, list, iota;
  Bytes(&ins, 1, "ar");
  Bytes(&ins, 2, "all-reduce");
  Packed(&group, 1, {0, 1});
  Bytes(&ins, 49, group);
  Bytes(&list, 1, group);
  Bytes(&list, 1, group);
  Bytes(&ins, 87, list);
  Varint(&iota, 1, 2);
  Varint(&iota, 2, 3);
  Bytes(&ins, 92, iota);  // no reshape dims, no perm: the plain iota [6]
  std::string comp, module;
  Bytes(&comp, 1, "main");
  Bytes(&comp, 2, ins);
  Bytes(&module, 3, comp);
  const Module bin = Read(module);
  ASSERT_TRUE(bin.syntax_errors.empty()) << bin.syntax_errors[0].message;
  const ReplicaGroups& rg = bin.collectives[0].replica_groups;
  EXPECT_EQ(rg.form, ReplicaGroups::Form::kExplicit);
  EXPECT_EQ(rg.GroupVectors(), (std::vector<std::vector<int64_t>>{{0, 1}}));
  // Each id at its varint, after the replica_ids key and length.
  const int64_t packed = static_cast<int64_t>(module.find(group)) + 2;
  EXPECT_TRUE(rg.IdPos(0, 1).is_byte());
  EXPECT_EQ(rg.IdPos(0, 0).byte_offset(), packed);
  EXPECT_EQ(rg.IdPos(0, 1).byte_offset(), packed + 1);
  EXPECT_EQ(rg.Text(), "{{0,1}}");
}

TEST(HloProtoReaderTest, MeshAxesList) {
  Module m = hlo::ParseHloText(
      "HloModule m, num_partitions=8\n"
      "ENTRY %main (p: f32[16]) -> f32[16] {\n"
      "  %p = f32[16]{0} parameter(0)\n"
      "  ROOT %ag = f32[64]{0} all-gather(f32[16]{0} %p), channel_id=1, "
      "replica_groups=mesh['x'=2,'y'=4] {'y':(2)2}, "
      "use_global_device_ids=true, dimensions={0}\n}\n",
      "m.hlo");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  const Module bin = Read(WriteHloProto(m));
  ASSERT_TRUE(bin.syntax_errors.empty()) << bin.syntax_errors[0].message;
  const hlo::MeshSpec& mesh = bin.collectives[0].replica_groups.mesh;
  EXPECT_EQ(bin.collectives[0].replica_groups.form, ReplicaGroups::Form::kMesh);
  ASSERT_EQ(mesh.axes.size(), 2u);
  EXPECT_EQ(mesh.axes[1].name, "y");
  ASSERT_EQ(mesh.grouped.size(), 1u);
  EXPECT_EQ(mesh.grouped[0].name, "y");
  EXPECT_EQ(mesh.grouped[0].pre_size, 2);
  EXPECT_EQ(mesh.grouped[0].size, 2);
}

TEST(HloProtoReaderTest, BadIotaIsASyntaxError) {
  std::string ins, iota;
  Bytes(&ins, 1, "ar");
  Bytes(&ins, 2, "all-reduce");
  Varint(&iota, 1, 2);
  Varint(&iota, 2, 3);
  Packed(&iota, 3, {2, 2});  // holds 4, not 6
  Packed(&iota, 4, {1, 0});
  Bytes(&ins, 92, iota);
  std::string comp, module;
  Bytes(&comp, 1, "main");
  Bytes(&comp, 2, ins);
  Bytes(&module, 3, comp);
  const Module bin = Read(module);
  ASSERT_EQ(bin.syntax_errors.size(), 1u);
  EXPECT_NE(bin.syntax_errors[0].message.find("reshape dims"),
            std::string::npos);
  EXPECT_TRUE(bin.syntax_errors[0].pos.is_byte());
  // The error names the instruction it is in.
  EXPECT_EQ(bin.LogicalLocation(bin.syntax_errors[0].pos.byte_offset()),
            "computation %main, op %ar");
}

TEST(HloProtoReaderTest, PositionsAreByteOffsetsNamedByOp) {
  const Module bin = Read(WriteHloProto(Text()));
  ASSERT_EQ(bin.binary_ops.size(), 3u);
  const Collective& ar = bin.collectives[0];
  EXPECT_TRUE(ar.pos.is_byte());
  EXPECT_TRUE(ar.channel_id_pos.is_byte());
  EXPECT_GT(ar.channel_id_pos.byte_offset(), ar.pos.byte_offset());
  EXPECT_EQ(bin.LogicalLocation(ar.channel_id_pos.byte_offset()),
            "computation %main, op %ar");
  EXPECT_EQ(bin.LogicalLocation(0), "module jit_step");
}

TEST(HloProtoReaderTest, SinkReceivesCollectives) {
  const std::string bytes = WriteHloProto(Text());
  Module m;
  std::vector<std::string> seen;
  hlo::ParseOptions o;
  o.on_collective = [&](const Module& mod, Collective& op) {
    EXPECT_EQ(mod.replica_count, 2);  // the header is final by then
    seen.push_back(op.name);
  };
  hlo::ParseHloProto(bytes, "x.pb", o, &m);
  EXPECT_TRUE(m.collectives.empty());
  EXPECT_EQ(seen, (std::vector<std::string>{"%ar", "%ag", "%cp"}));
}

TEST(HloProtoReaderTest, SniffTellsTextFromBinary) {
  EXPECT_EQ(hlo::SniffHloEncoding(kText), hlo::HloEncoding::kText);
  EXPECT_EQ(hlo::SniffHloEncoding(WriteHloProto(Text())),
            hlo::HloEncoding::kProto);
  EXPECT_EQ(hlo::SniffHloEncoding("just words\n"), hlo::HloEncoding::kText);
}

// One definition of a control byte: the sniffer takes a head for binary
// exactly where the text parser would stop at a byte it never reads as
// text (before, \v and \f were binary to one and text to the other, DEL
// the other way round).
TEST(HloProtoReaderTest, SniffAndTextParserAgreeOnControlBytes) {
  for (int b = 0; b < 256; ++b) {
    const std::string head =
        "just words " + std::string(1, static_cast<char>(b)) + " more\n";
    const bool binary = hlo::SniffHloEncoding(head) == hlo::HloEncoding::kProto;
    const Module m = hlo::ParseHloText(head, "x.hlo");
    bool stopped = false;
    for (const hlo::SyntaxError& e : m.syntax_errors) {
      stopped = stopped || e.message.find("control byte") != std::string::npos;
    }
    EXPECT_EQ(binary, stopped) << "byte " << b;
  }
}

TEST(HloProtoReaderTest, EveryTruncationIsReportedOrAPrefix) {
  Module text = Text();
  text.replica_count.reset();
  text.num_partitions.reset();
  const std::string bytes = WriteHloProto(text);
  const Module full = Read(bytes);
  int errors = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    const Module cut = Read(bytes.substr(0, n));
    if (!cut.syntax_errors.empty()) {
      ++errors;
      EXPECT_TRUE(cut.syntax_errors[0].pos.is_byte());
      EXPECT_LE(cut.syntax_errors[0].pos.byte_offset(),
                static_cast<int64_t>(n));
    }
    ASSERT_LE(cut.collectives.size(), full.collectives.size());
  }
  // Only cuts between the module's own top-level fields parse cleanly.
  EXPECT_GT(errors, static_cast<int>(bytes.size()) - 8);
}

TEST(HloProtoReaderTest, GarbageNeverCrashes) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 300; ++round) {
    std::string junk(1 + rng() % 512, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    const Module m = Read(junk);
    EXPECT_LE(m.syntax_errors.size(), 1u);
  }
  const Module png = Read(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  ASSERT_EQ(png.syntax_errors.size(), 1u);
}

TEST(HloProtoReaderTest, HugeDeclaredLengthsAreRefusedUpFront) {
  // computations (3) declaring 2 GiB - 1 bytes in a 10-byte file.
  std::string module = "\x1a\xff\xff\xff\xff\x07";
  module += "abcd";
  const Module m = Read(module);
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_NE(m.syntax_errors[0].message.find("to fit in the 4 bytes left"),
            std::string::npos)
      << m.syntax_errors[0].message;
  EXPECT_EQ(m.syntax_errors[0].pos.byte_offset(), 1);
  // A length above 2 GiB, and a varint of 11 bytes.
  const Module big = Read(std::string("\x1a\xff\xff\xff\xff\x7f", 6));
  ASSERT_EQ(big.syntax_errors.size(), 1u);
  const Module bad =
      Read(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12));
  ASSERT_EQ(bad.syntax_errors.size(), 1u);
}

TEST(HloProtoReaderTest, DeepTupleShapesAreBounded) {
  std::string shape;
  Varint(&shape, 2, 11);
  for (int i = 0; i < 80; ++i) {
    std::string outer;
    Varint(&outer, 2, 13);
    Bytes(&outer, 4, shape);
    shape = outer;
  }
  std::string ins, comp, module;
  Bytes(&ins, 1, "ar");
  Bytes(&ins, 2, "all-reduce");
  Bytes(&ins, 3, shape);
  Bytes(&comp, 1, "main");
  Bytes(&comp, 2, ins);
  Bytes(&module, 3, comp);
  const Module m = Read(module);
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_NE(m.syntax_errors[0].message.find("nested"), std::string::npos);
}

TEST(HloProtoReaderTest, EmptyAndComputationlessInputs) {
  const Module empty = Read("");
  ASSERT_EQ(empty.syntax_errors.size(), 1u);
  EXPECT_NE(empty.syntax_errors[0].message.find("empty"), std::string::npos);
  std::string module;
  Bytes(&module, 1, "only_a_name");
  const Module none = Read(module);
  ASSERT_EQ(none.syntax_errors.size(), 1u);
  EXPECT_NE(none.syntax_errors[0].message.find("computation"),
            std::string::npos);
}

}  // namespace
}  // namespace topolint::testing
