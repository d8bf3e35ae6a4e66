// Source locations given as stack frames (issue 45): OpMetadata.stack_frame_id
// (15) naming a frame of HloModuleProto.stack_frame_index (17), as modern
// JAX writes them, read as OpMetadata.source_file / source_line are.
#include <string>
#include <vector>

#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/proto/hlo_proto_wire.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

using hlo::Collective;
using hlo::Module;
using proto_writer::Bytes;
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
  %ag = f32[32,16]{1,0} all-gather(f32[8,16]{1,0} %ar), channel_id=2, replica_groups=[2,4]<=[4,2]T(1,0), use_global_device_ids=true, dimensions={0}, metadata={source_file="layers/attn.py" source_line=7}
  ROOT %cp = f32[32,16]{1,0} collective-permute(f32[32,16]{1,0} %ag), channel_id=3, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
}
)";

Module Read(const std::string& bytes) {
  Module m;
  hlo::ParseHloProto(bytes, "model.hlo_module.pb", hlo::ParseOptions{}, &m);
  return m;
}

// The top-level fields of a bare HloModuleProto, each as its bytes (tag
// included), with their field numbers.
std::vector<std::pair<uint32_t, std::string>> Fields(const std::string& b) {
  std::vector<std::pair<uint32_t, std::string>> out;
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  size_t i = 0;
  while (i < b.size()) {
    uint64_t tag = 0;
    size_t n = 0;
    EXPECT_TRUE(hlo::proto::DecodeVarint(p + i, b.size() - i, &tag, &n));
    size_t end = i + n;
    uint64_t v = 0;
    size_t k = 0;
    EXPECT_TRUE(hlo::proto::DecodeVarint(p + end, b.size() - end, &v, &k));
    end += k + ((tag & 7) == 2 ? static_cast<size_t>(v) : 0);
    out.emplace_back(static_cast<uint32_t>(tag >> 3), b.substr(i, end - i));
    i = end;
  }
  return out;
}

// The length of a length-delimited field's payload (`field`: its bytes).
size_t Payload(const std::string& field) {
  const auto* p = reinterpret_cast<const uint8_t*>(field.data());
  uint64_t tag = 0;
  uint64_t len = 0;
  size_t n = 0;
  size_t k = 0;
  EXPECT_TRUE(hlo::proto::DecodeVarint(p, field.size(), &tag, &n));
  EXPECT_TRUE(hlo::proto::DecodeVarint(p + n, field.size() - n, &len, &k));
  return static_cast<size_t>(len);
}

// `bytes` with its stack_frame_index (17) replaced by `table` (none when
// empty), placed first when `first`.
std::string WithTable(const std::string& bytes, const std::string& table,
                      bool first) {
  std::string rest;
  for (const auto& [field, b] : Fields(bytes)) {
    if (field != 17) rest += b;
  }
  std::string t;
  if (!table.empty()) Bytes(&t, 17, table);
  return first ? t + rest : rest + t;
}

std::string FileLocation(int64_t file, int64_t line, int64_t column) {
  std::string loc;
  Varint(&loc, 1, static_cast<uint64_t>(file));
  Varint(&loc, 2, 1);
  Varint(&loc, 3, static_cast<uint64_t>(line));
  if (column > 0) Varint(&loc, 4, static_cast<uint64_t>(column));
  Varint(&loc, 5, static_cast<uint64_t>(line + 1));  // end_line: skipped
  return loc;
}

std::string Frame(int64_t location, int64_t parent) {
  std::string frame;
  Varint(&frame, 1, static_cast<uint64_t>(location));
  if (parent > 0) Varint(&frame, 2, static_cast<uint64_t>(parent));
  return frame;
}

TEST(StackFramesTest, FramesGiveTheLocationsSourceFileGives) {
  const Module text = hlo::ParseHloText(kText, "model.hlo");
  ASSERT_TRUE(text.syntax_errors.empty());
  ProtoWriteOptions o;
  const Module plain = Read(WriteHloProto(text, o));
  o.stack_frames = true;
  const std::string bytes = WriteHloProto(text, o);
  // (HloModuleProtoWithConfig: the module is field 1.)
  const std::string wrapped = Fields(bytes).front().second;
  const std::string module = wrapped.substr(wrapped.size() - Payload(wrapped));
  EXPECT_EQ(Fields(module).back().first, 17u)
      << "the table follows the computations, as XLA writes it";
  const Module framed = Read(bytes);
  ASSERT_TRUE(framed.syntax_errors.empty()) << framed.syntax_errors[0].message;
  ASSERT_EQ(framed.collectives.size(), plain.collectives.size());
  ASSERT_EQ(framed.collectives.size(), 3u);
  for (size_t i = 0; i < plain.collectives.size(); ++i) {
    const Collective& a = plain.collectives[i];
    const Collective& b = framed.collectives[i];
    EXPECT_EQ(a.source_file, b.source_file) << a.name;
    EXPECT_EQ(a.source_line, b.source_line) << a.name;
    EXPECT_EQ(b.source_column, 0) << a.name;
  }
  EXPECT_EQ(framed.collectives[0].source_file, "model.py");
  EXPECT_EQ(framed.collectives[0].source_line, 42);
  EXPECT_EQ(framed.collectives[1].source_file, "layers/attn.py");
  EXPECT_EQ(framed.collectives[1].source_line, 7);
  EXPECT_EQ(framed.collectives[2].source_file, "");
}

// The bytes of a module whose %ar names frame `id` of `table`.
std::string FramedBytes(int64_t id, const std::string& table,
                        bool first = false) {
  Module m;
  m.name = "jit_f";
  Collective c;
  c.name = "%ar";
  c.computation = "%main";
  c.opcode = "all-reduce";
  c.replica_groups.SetGroups({{0, 1}});
  c.source_file = "placeholder.py";
  c.source_line = 1;
  m.collectives.push_back(c);
  m.entry_computation = "%main";
  ProtoWriteOptions o;
  o.stack_frames = true;
  std::string bytes = WriteHloProto(m, o);
  // The writer names frame 2; rewrite the id in place (one byte, 0x10 | 2
  // after the metadata field 15 tag 0x78).
  const size_t at = bytes.find(std::string("\x78\x02", 2));
  EXPECT_NE(at, std::string::npos);
  std::string id_field;
  Varint(&id_field, 15, static_cast<uint64_t>(id));
  EXPECT_EQ(id_field.size(), 2u) << "ids below 128 keep the length";
  bytes.replace(at, 2, id_field);
  return WithTable(bytes, table, first);
}

// OpMetadata.source_column (18, xla/xla_data.proto) and the text's
// `source_column=N` (as XLA prints OpMetadata for JAX) give the column, so
// a binary module and its text dump locate a collective alike.
TEST(StackFramesTest, SourceColumnIsReadInTextAndBinary) {
  std::string text = kText;
  const std::string from = "source_file=\"model.py\" source_line=42}";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(),
               "source_file=\"model.py\" source_line=42 source_end_line=42 "
               "source_column=9 source_end_column=30}");
  const Module m = hlo::ParseHloText(text, "model.hlo");
  ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
  ASSERT_EQ(m.collectives.size(), 3u);
  EXPECT_EQ(m.collectives[0].source_line, 42);
  EXPECT_EQ(m.collectives[0].source_column, 9);
  EXPECT_EQ(m.collectives[1].source_column, 0);  // none written
  const std::string bytes = WriteHloProto(m, ProtoWriteOptions());
  // The writer puts the column in OpMetadata field 18: tag 0x90 0x01.
  EXPECT_NE(bytes.find(std::string("\x90\x01\x09", 3)), std::string::npos);
  const Module b = Read(bytes);
  ASSERT_TRUE(b.syntax_errors.empty()) << b.syntax_errors[0].message;
  ASSERT_EQ(b.collectives.size(), 3u);
  EXPECT_EQ(b.collectives[0].source_file, "model.py");
  EXPECT_EQ(b.collectives[0].source_line, 42);
  EXPECT_EQ(b.collectives[0].source_column, 9);
  EXPECT_EQ(b.collectives[1].source_column, 0);
  // A column that is no column (negative, past int32) is none.
  for (const char* bad : {"source_column=-3", "source_column=4294967296"}) {
    std::string t = kText;
    t.replace(
        t.find(from), from.size(),
        "source_file=\"model.py\" source_line=42 " + std::string(bad) + "}");
    const Module n = hlo::ParseHloText(t, "model.hlo");
    ASSERT_TRUE(n.syntax_errors.empty()) << bad;
    EXPECT_EQ(n.collectives[0].source_column, 0) << bad;
  }
}

// A module whose %ar names frame `id` of `table`.
Module ReadFramed(int64_t id, const std::string& table, bool first = false) {
  return Read(FramedBytes(id, table, first));
}

// file_names a.py, b.py; locations (a.py:10:3), (b.py:20), (file 9: out of
// range); frames 1 -> location 1, 2 -> location 2 (parent 1), 3 ->
// location 3, 4 -> location 7 (out of range), 5 -> its own parent.
std::string Table() {
  std::string t;
  Bytes(&t, 1, "a.py");
  Bytes(&t, 1, "b.py");
  Bytes(&t, 2, "f");
  Bytes(&t, 3, FileLocation(1, 10, 3));
  Bytes(&t, 3, FileLocation(2, 20, 0));
  Bytes(&t, 3, FileLocation(9, 30, 0));
  Bytes(&t, 4, Frame(1, 0));
  Bytes(&t, 4, Frame(2, 1));
  Bytes(&t, 4, Frame(3, 0));
  Bytes(&t, 4, Frame(7, 0));
  Bytes(&t, 4, Frame(2, 5));
  return t;
}

TEST(StackFramesTest, TheInnermostFrameIsTheLocation) {
  for (const bool first : {false, true}) {
    Module m = ReadFramed(2, Table(), first);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    ASSERT_EQ(m.collectives.size(), 1u);
    EXPECT_EQ(m.collectives[0].source_file, "b.py") << first;
    EXPECT_EQ(m.collectives[0].source_line, 20);
    EXPECT_EQ(m.collectives[0].source_column, 0);
    m = ReadFramed(1, Table(), first);
    EXPECT_EQ(m.collectives[0].source_file, "a.py");
    EXPECT_EQ(m.collectives[0].source_line, 10);
    EXPECT_EQ(m.collectives[0].source_column, 3);
    // A frame that is its own parent: only the innermost is read.
    m = ReadFramed(5, Table(), first);
    EXPECT_EQ(m.collectives[0].source_file, "b.py");
  }
}

TEST(StackFramesTest, IdsOutOfRangeGiveNoLocation) {
  // Frame 3's file, frame 4's location, frames 6 and 100, and no table.
  for (const int64_t id : {3, 4, 6, 100}) {
    const Module m = ReadFramed(id, Table());
    ASSERT_TRUE(m.syntax_errors.empty()) << id;
    ASSERT_EQ(m.collectives.size(), 1u);
    EXPECT_EQ(m.collectives[0].source_file, "") << id;
    EXPECT_EQ(m.collectives[0].source_line, 0) << id;
  }
  const Module none = ReadFramed(1, "");
  ASSERT_TRUE(none.syntax_errors.empty());
  EXPECT_EQ(none.collectives[0].source_file, "");
}

TEST(StackFramesTest, AMalformedTableIsAWireError) {
  std::string t;
  Varint(&t, 3, 5);  // file_locations as a varint
  const Module m = ReadFramed(1, t);
  ASSERT_EQ(m.syntax_errors.size(), 1u);
  EXPECT_NE(m.syntax_errors[0].message.find(
                "StackFrameIndexProto.file_locations (3)"),
            std::string::npos)
      << m.syntax_errors[0].message;
}

TEST(StackFramesTest, ATablePastTheCapIsNotHeld) {
  // 4,100 file names of 4 KiB: past kMaxHeldStackFrameBytes (16 MiB), so
  // nothing is held and no frame resolves; the module reads on.
  std::string t;
  std::string entry;
  Bytes(&entry, 1, std::string(4096, 'x'));
  for (int i = 0; i < 4100; ++i) t += entry;
  Bytes(&t, 3, FileLocation(1, 10, 0));
  Bytes(&t, 4, Frame(1, 0));
  for (const bool first : {false, true}) {
    const std::string bytes = FramedBytes(1, t, first);
    const Module m = Read(bytes);
    ASSERT_TRUE(m.syntax_errors.empty()) << m.syntax_errors[0].message;
    ASSERT_EQ(m.collectives.size(), 1u);
    EXPECT_EQ(m.collectives[0].source_file, "");
    // Said, not silent: an unchecked-input note at the table (just after
    // its tag, 2 bytes for field 17) with its size and the bound.
    std::string field;
    Bytes(&field, 17, t);
    const int64_t table_at =
        first ? 2 : static_cast<int64_t>(bytes.size() - field.size()) + 2;
    ASSERT_EQ(m.unchecked.size(), 1u) << first;
    EXPECT_TRUE(m.unchecked[0].pos.is_byte());
    EXPECT_EQ(m.unchecked[0].pos.byte_offset(), table_at) << first;
    EXPECT_EQ(m.unchecked[0].anchor, "stack-frames-not-read");
    EXPECT_EQ(m.unchecked[0].message,
              "the stack-frame table (HloModuleProto.stack_frame_index, " +
                  std::to_string(field.size() - 2) +
                  " bytes) was not read: holding it would take more than 16 "
                  "MiB, topolint's bound; collectives whose OpMetadata names "
                  "a stack frame get no \"created at\" location (the checks "
                  "themselves are not affected)");
  }
}

TEST(StackFramesTest, ATableWithinTheCapIsNoNote) {
  const Module m = ReadFramed(1, Table());
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(m.collectives[0].source_file, "a.py");
  EXPECT_TRUE(m.unchecked.empty());
}

}  // namespace
}  // namespace topolint::testing
