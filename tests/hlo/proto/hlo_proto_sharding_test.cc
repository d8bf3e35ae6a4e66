// HloInstructionProto.sharding (40) and HloModuleProto.spmd_*_sharding(s)
// (12, 14): the binary reader hands them to the one sharding decoder and
// record (checker/hlo/sharding), so a binary module and its text twin give
// the same sharding issues and device counts, through the first stage and
// through ReadInstruction alike.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::hlo {
namespace {

using testing::proto_writer::Bytes;
using testing::proto_writer::Packed;
using testing::proto_writer::ShapeProto;
using testing::proto_writer::Varint;

// An OpSharding: OTHER (tiled) with explicit devices, or MAXIMAL.
std::string Tiled(const std::vector<int64_t>& dims,
                  const std::vector<int64_t>& devices) {
  std::string s;
  Varint(&s, 1, 3);
  Packed(&s, 3, dims);
  Packed(&s, 4, devices);
  return s;
}
std::string Maximal(int64_t device) {
  std::string s;
  Varint(&s, 1, 1);
  Packed(&s, 3, {1});
  Packed(&s, 4, {device});
  return s;
}

Shape F32(std::vector<int64_t> dims) {
  Shape s;
  s.known = true;
  s.element_type = "f32";
  s.dims = std::move(dims);
  return s;
}

std::string Parameter(const std::string& name, int64_t id, const Shape& shape,
                      const std::string& sharding) {
  std::string ins;
  Bytes(&ins, 1, name);
  Bytes(&ins, 2, "parameter");
  Bytes(&ins, 3, ShapeProto(shape));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  if (!sharding.empty()) Bytes(&ins, 40, sharding);
  return ins;
}

// HloModuleProtoWithConfig { module = 1, config = 2 { num_partitions = 5 } }
// when `partitions` > 0, else a bare HloModuleProto; `module_shardings` go
// to spmd_parameters_shardings (14).
std::string ModuleBytes(const std::vector<std::string>& instructions,
                        int64_t partitions,
                        const std::vector<std::string>& module_shardings = {}) {
  std::string computation;
  Bytes(&computation, 1, "main");
  for (const std::string& ins : instructions) Bytes(&computation, 2, ins);
  Varint(&computation, 5, 1);  // id
  std::string module;
  Bytes(&module, 1, "probe");
  Bytes(&module, 2, "main");
  Bytes(&module, 3, computation);
  Varint(&module, 6, 1);
  for (const std::string& s : module_shardings) Bytes(&module, 14, s);
  if (partitions <= 0) return module;
  std::string config;
  Varint(&config, 5, static_cast<uint64_t>(partitions));
  std::string out;
  Bytes(&out, 1, module);
  Bytes(&out, 2, config);
  return out;
}

hlo::Module ReadBinary(const std::string& bytes, bool fast) {
  ParseOptions o;
  o.binary_fast_path = fast;
  hlo::Module m;
  ParseHloProto(bytes, "probe.hlo_module.pb", o, &m);
  return m;
}

// The probe of issue 44, in binary: three shardings XLA's verifier refuses
// in a module of 2 partitions.
std::string Probe() {
  const Shape s = F32({8, 4});
  return ModuleBytes({Parameter("p0", 1, s, Tiled({2, 1}, {0, 5})),
                      Parameter("p1", 2, s, Maximal(7)),
                      Parameter("p2", 3, s, Tiled({4, 1}, {0, 1, 2, 3}))},
                     2);
}

constexpr char kProbeText[] = R"(HloModule probe, num_partitions=2

ENTRY %main {
  %p0 = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]0,5}
  %p1 = f32[8,4]{1,0} parameter(1), sharding={maximal device=7}
  ROOT %p2 = f32[8,4]{1,0} parameter(2), sharding={devices=[4,1]0,1,2,3}
}
)";

TEST(HloProtoShardingTest, TheProbeGivesXlasThreeIssuesAsItsTextTwin) {
  const hlo::Module text = ParseHloText(kProbeText, "probe.hlo");
  ASSERT_TRUE(text.syntax_errors.empty()) << text.syntax_errors[0].message;
  ASSERT_EQ(text.sharding.issues.size(), 3u);
  for (bool fast : {true, false}) {
    SCOPED_TRACE(fast ? "first stage" : "ReadInstruction");
    const hlo::Module m = ReadBinary(Probe(), fast);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    ASSERT_EQ(m.sharding.issues.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(m.sharding.issues[i].kind, text.sharding.issues[i].kind);
      EXPECT_EQ(m.sharding.issues[i].message, text.sharding.issues[i].message);
      EXPECT_EQ(m.sharding.issues[i].instruction,
                text.sharding.issues[i].instruction);
      // Placed at the OpSharding's bytes: a byte offset in the file, in
      // the instruction's span, which names it.
      EXPECT_GT(m.sharding.issues[i].pos.byte_offset(), 0);
      EXPECT_EQ(m.LogicalLocation(m.sharding.issues[i].pos.byte_offset()),
                "computation %main, op " + text.sharding.issues[i].instruction);
    }
    EXPECT_EQ(m.sharding.annotations, 3);
  }
}

TEST(HloProtoShardingTest,
     WithoutACountShardingsGiveItAndOnlyShapesAreChecked) {
  // No config: XLA checks no device range, only the rank (a rank-1 tile on
  // a rank-2 shape) and repeated devices; the tiled shardings hold 2.
  const Shape s = F32({8, 4});
  const std::string bytes =
      ModuleBytes({Parameter("a", 1, s, Tiled({2, 1}, {0, 1})),
                   Parameter("b", 2, s, Tiled({2}, {0, 1}))},
                  0);
  for (bool fast : {true, false}) {
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    ASSERT_EQ(m.sharding.issues.size(), 1u);
    EXPECT_EQ(m.sharding.issues[0].kind, ShardingIssue::Kind::kRank);
    EXPECT_EQ(m.sharding.issues[0].instruction, "%b");
    ASSERT_EQ(m.sharding.tile_counts.size(), 1u);
    EXPECT_EQ(m.sharding.tile_counts[0].devices, 2);
    EXPECT_EQ(m.sharding.tile_counts[0].uses, 2);
  }
}

TEST(HloProtoShardingTest, ModuleShardingsCountAndAreNotValidated) {
  // spmd_parameters_shardings holds 4 devices; XLA does not validate it,
  // so its rank (1, no shape known) is no issue.
  const std::string bytes = ModuleBytes({Parameter("a", 1, F32({8}), "")}, 0,
                                        {Tiled({4}, {0, 1, 2, 3})});
  const hlo::Module m = ReadBinary(bytes, true);
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  EXPECT_TRUE(m.sharding.issues.empty());
  ASSERT_EQ(m.sharding.tile_counts.size(), 1u);
  EXPECT_EQ(m.sharding.tile_counts[0].devices, 4);
}

TEST(HloProtoShardingTest, AMalformedOpShardingIsTheModulesOneWireError) {
  // type = OTHER with a length-delimited field 3 that runs past its end:
  // malformed protobuf, so reading stops there as at any malformed
  // sub-message, and the module has that one error (the fuzz invariant).
  std::string bad;
  Varint(&bad, 1, 3);
  bad += std::string("\x1a\x09\x02", 3);
  const Shape s = F32({8, 4});
  const std::string bytes = ModuleBytes(
      {Parameter("a", 1, s, bad), Parameter("b", 2, s, Tiled({2}, {0, 0}))}, 0);
  for (bool fast : {true, false}) {
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_EQ(m.syntax_errors.size(), 1u);
    EXPECT_GT(m.syntax_errors[0].pos.byte_offset(), 0);
    EXPECT_NE(
        m.syntax_errors[0].message.find("HloInstructionProto.sharding (40)"),
        std::string::npos)
        << m.syntax_errors[0].message;
    EXPECT_TRUE(m.sharding.issues.empty());
  }
  // A malformed module sharding (14) likewise, and only that error.
  const std::string module_bad =
      ModuleBytes({Parameter("a", 1, s, "")}, 0, {bad});
  const hlo::Module m = ReadBinary(module_bad, true);
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_NE(m.syntax_errors[0].message.find("HloModuleProto sharding"),
            std::string::npos)
      << m.syntax_errors[0].message;
}

// A domain instruction: its entry and exit shardings (54, 55).
std::string Domain(const std::string& name, int64_t id, const Shape& shape,
                   const std::string& opcode, const std::string& entry,
                   const std::string& exit) {
  std::string ins;
  Bytes(&ins, 1, name);
  Bytes(&ins, 2, opcode);
  Bytes(&ins, 3, ShapeProto(shape));
  Varint(&ins, 35, static_cast<uint64_t>(id));
  Bytes(&ins, 54, entry);
  Bytes(&ins, 55, exit);
  return ins;
}

constexpr char kDomainText[] = R"(HloModule dom

ENTRY %main {
  %a = f32[8,4]{1,0} parameter(0)
  ROOT %d = f32[8,4]{1,0} domain(%a), domain={kind="sharding", entry={devices=[4]0,1,2,3}, exit={maximal device=3}}
}
)";

TEST(HloProtoShardingTest, DomainShardingsAreReadAsTheTextsDomain) {
  // The entry holds 4 devices in a rank-1 tile on a rank-2 shape: counted,
  // not validated (XLA validates no domain sharding), in text and binary.
  const hlo::Module text = ParseHloText(kDomainText, "dom.hlo");
  ASSERT_TRUE(text.syntax_errors.empty()) << text.syntax_errors[0].message;
  const Shape s = F32({8, 4});
  const std::string bytes = ModuleBytes(
      {Parameter("a", 1, s, ""),
       Domain("d", 2, s, "domain", Tiled({4}, {0, 1, 2, 3}), Maximal(3))},
      0);
  for (bool fast : {true, false}) {
    SCOPED_TRACE(fast ? "first stage" : "ReadInstruction");
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    EXPECT_TRUE(m.sharding.issues.empty());
    EXPECT_EQ(m.sharding.annotations, text.sharding.annotations);
    ASSERT_EQ(m.sharding.tile_counts.size(), 1u);
    ASSERT_EQ(text.sharding.tile_counts.size(), 1u);
    EXPECT_EQ(m.sharding.tile_counts[0].devices, 4);
    EXPECT_EQ(m.sharding.tile_counts[0].instruction,
              text.sharding.tile_counts[0].instruction);
    EXPECT_GT(m.sharding.tile_counts[0].pos.byte_offset(), 0);
    EXPECT_EQ(m.sharding.max_maximal_device, 3);
    EXPECT_EQ(text.sharding.max_maximal_device, 3);
  }
}

TEST(HloProtoShardingTest, DomainFieldsOfAnotherOpcodeAreNotRead) {
  // XLA reads 54 / 55 for a kDomain only.
  const Shape s = F32({8, 4});
  const std::string bytes = ModuleBytes(
      {Domain("c", 1, s, "copy", Tiled({4}, {0, 1, 2, 3}), Maximal(3))}, 0);
  for (bool fast : {true, false}) {
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    EXPECT_EQ(m.sharding.annotations, 0);
    EXPECT_TRUE(m.sharding.tile_counts.empty());
  }
}

TEST(HloProtoShardingTest, AMalformedDomainShardingNamesItsField) {
  std::string bad;
  Varint(&bad, 1, 3);
  bad += std::string("\x1a\x09\x02", 3);
  const Shape s = F32({8, 4});
  const std::string bytes =
      ModuleBytes({Domain("d", 1, s, "domain", Maximal(0), bad)}, 0);
  for (bool fast : {true, false}) {
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_EQ(m.syntax_errors.size(), 1u);
    EXPECT_GT(m.syntax_errors[0].pos.byte_offset(), 0);
    EXPECT_NE(m.syntax_errors[0].message.find("domain_exit_sharding (55)"),
              std::string::npos)
        << m.syntax_errors[0].message;
  }
}

TEST(HloProtoShardingTest, TheWritersTwinOfAShardedModuleReadsAsItsText) {
  // hlo_proto_writer.h with the text: every sharding (40, and a domain's
  // 54 / 55) is written, so the twin's summary is the text's.
  constexpr char kText[] = R"(HloModule twin, num_partitions=4

%sum (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %z = f32[] add(%x, %y)
}

ENTRY %main {
  %a = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  %b = f32[8,4]{1,0} parameter(1), sharding={devices=[2,2]0,1,2,2}
  %d = f32[8,4]{1,0} domain(%a), domain={kind="sharding", entry={maximal device=9}, exit={replicated}}
  %ar = f32[8,4]{1,0} all-reduce(%d), channel_id=1, replica_groups=[1,4]<=[4], use_global_device_ids=true, to_apply=%sum, sharding={devices=[8,1]<=[8]}
  ROOT %t = (f32[8,4]{1,0}, f32[8,4]{1,0}) tuple(%ar, %b), sharding={{replicated}, {maximal device=5}}
}
)";
  const hlo::Module text = ParseHloText(kText, "twin.hlo");
  ASSERT_TRUE(text.syntax_errors.empty()) << text.syntax_errors[0].message;
  testing::ProtoWriteOptions o;
  o.text = kText;
  const std::string bytes = testing::WriteHloProto(text, o);
  for (bool fast : {true, false}) {
    SCOPED_TRACE(fast ? "first stage" : "ReadInstruction");
    const hlo::Module m = ReadBinary(bytes, fast);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    EXPECT_EQ(m.sharding.annotations, text.sharding.annotations);
    EXPECT_EQ(m.sharding.tiled, text.sharding.tiled);
    EXPECT_EQ(m.sharding.maximal, text.sharding.maximal);
    EXPECT_EQ(m.sharding.max_maximal_device, 9);
    ASSERT_EQ(m.sharding.issues.size(), text.sharding.issues.size());
    ASSERT_EQ(m.sharding.issues.size(), 3u);  // %b, %ar, %t
    for (size_t i = 0; i < m.sharding.issues.size(); ++i) {
      EXPECT_EQ(m.sharding.issues[i].kind, text.sharding.issues[i].kind);
      EXPECT_EQ(m.sharding.issues[i].message, text.sharding.issues[i].message);
      EXPECT_EQ(m.sharding.issues[i].instruction,
                text.sharding.issues[i].instruction);
    }
    ASSERT_EQ(m.sharding.tile_counts.size(), text.sharding.tile_counts.size());
    for (size_t i = 0; i < m.sharding.tile_counts.size(); ++i) {
      EXPECT_EQ(m.sharding.tile_counts[i].devices,
                text.sharding.tile_counts[i].devices);
    }
  }
}

}  // namespace
}  // namespace topolint::hlo
