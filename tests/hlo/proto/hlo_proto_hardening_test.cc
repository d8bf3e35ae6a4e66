// Binary HLO hardening (issues 27 and 31): corrupt gzip, bombs of names,
// computations and empty groups, counts below 1, wide-encoded text, wire
// format abuse. Each input gets one syntax error or reads fine, in bounded
// memory.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gmock/gmock.h"
#include "google/protobuf/io/coded_stream.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

using proto_writer::Bytes;
using proto_writer::Gzip;
using proto_writer::Varint;
using ::testing::HasSubstr;

hlo::Module Read(const std::string& bytes) {
  hlo::Module m;
  hlo::ParseHloProto(bytes, "m.pb", hlo::ParseOptions{}, &m);
  return m;
}

std::string Instruction(const std::string& name, const std::string& opcode,
                        int64_t id, const std::string& extra = "") {
  std::string ins;
  Bytes(&ins, 1, name);
  Bytes(&ins, 2, opcode);
  Varint(&ins, 35, static_cast<uint64_t>(id));
  return ins + extra;
}

std::string Module(const std::vector<std::string>& instructions,
                   const std::string& comp_name = "c") {
  std::string comp;
  Bytes(&comp, 1, comp_name);
  for (const std::string& i : instructions) {
    std::string one;  // appended: Bytes on a large string copies it
    Bytes(&one, 2, i);
    comp += one;
  }
  Varint(&comp, 5, 1);
  std::string m;
  Bytes(&m, 1, "m");
  Bytes(&m, 3, comp);
  return m;
}

std::string Errors(const hlo::Module& m) {
  std::string out;
  for (const auto& e : m.syntax_errors) out += e.message + "\n";
  return out;
}

const std::string& Good() {
  static const std::string* m =
      new std::string(Module({Instruction("ar", "all-reduce", 1, [] {
        std::string g, group;
        proto_writer::Packed(&group, 1, {0, 1});
        Bytes(&g, 49, group);
        return g;
      }())}));
  return *m;
}

// 5: a bad CRC, a bad length, a missing trailer, garbage after the member.
TEST(HloProtoHardeningTest, CorruptGzipTrailersAreReported) {
  const std::string gz = Gzip(Good());
  ASSERT_TRUE(Read(gz).syntax_errors.empty()) << Errors(Read(gz));
  std::string bad_crc = gz;
  bad_crc[bad_crc.size() - 8] ^= 1;
  EXPECT_THAT(Errors(Read(bad_crc)), HasSubstr("incorrect data check"));
  std::string bad_len = gz;
  bad_len[bad_len.size() - 1] ^= 1;
  EXPECT_THAT(Errors(Read(bad_len)), HasSubstr("incorrect length check"));
  EXPECT_THAT(Errors(Read(gz.substr(0, gz.size() - 8))),
              HasSubstr("ends early"));
  EXPECT_THAT(Errors(Read(gz + "garbage!")), HasSubstr("gzip data"));
  // Each corrupt trailer still checks the collectives before it.
  EXPECT_EQ(Read(bad_crc).collectives.size(), 1u);
}

// The first pass of a .pb.gz leaves the CRC and length check to the
// second (hlo_proto_reader.cc): a bad trailer is still one error, at the
// end of the inflated data (where a checked first pass places it, also
// when fields follow the module), after every collective; a bad CRC in the
// first of two members is still found by the first pass, before any.
TEST(HloProtoHardeningTest, TrailerChecksLeftToTheSecondPassReportAsBefore) {
  std::string config;
  Varint(&config, 4, 1);  // replica_count
  Varint(&config, 5, 2);  // num_partitions
  std::string wrapped;
  Bytes(&wrapped, 1, Good());
  Bytes(&wrapped, 2, config);  // HloModuleProtoWithConfig: after the module
  for (const std::string& plain : {Good(), wrapped}) {
    const std::string gz = Gzip(plain);
    for (const size_t flip : {gz.size() - 8, gz.size() - 1}) {
      std::string bad = gz;
      bad[flip] ^= 1;
      const hlo::Module m = Read(bad);
      ASSERT_EQ(m.syntax_errors.size(), 1u) << Errors(m);
      EXPECT_THAT(m.syntax_errors[0].message,
                  HasSubstr(flip == gz.size() - 8 ? "incorrect data check"
                                                  : "incorrect length check"));
      EXPECT_EQ(m.syntax_errors[0].pos.byte_offset(),
                static_cast<int64_t>(plain.size()));
      EXPECT_EQ(m.collectives.size(), 1u);
    }
  }
  const std::string& m = Good();
  const std::string first = Gzip(m.substr(0, 7));
  std::string two = first + Gzip(m.substr(7));
  two[first.size() - 8] ^= 1;
  const hlo::Module read = Read(two);
  EXPECT_THAT(Errors(read), HasSubstr("incorrect data check"));
  EXPECT_EQ(read.collectives.size(), 0u);
}

TEST(HloProtoHardeningTest, ConcatenatedGzipMembersAreOneStream) {
  const std::string& m = Good();
  const std::string two = Gzip(m.substr(0, 7)) + Gzip(m.substr(7));
  const hlo::Module read = Read(two);
  EXPECT_TRUE(read.syntax_errors.empty()) << Errors(read);
  EXPECT_EQ(read.collectives.size(), 1u);
}

// 2: 1 KiB names on many computations and collectives are held within the
// name budget; empty replica groups are bounded.
TEST(HloProtoHardeningTest, NameBombsAreHeldWithinTheBudget) {
  const std::string long_name(1000, 'n');
  std::vector<std::string> ins;
  for (int i = 0; i < 40000; ++i) {
    ins.push_back(
        Instruction(long_name + std::to_string(i), "all-reduce", i + 1));
  }
  const hlo::Module m = Read(Gzip(Module(ins, long_name)));
  EXPECT_TRUE(m.syntax_errors.empty()) << Errors(m);
  EXPECT_EQ(m.binary_ops.size(), 40000u);
  size_t held = 0;
  for (size_t i = 0; i < m.binary_ops.size(); ++i) {
    held += m.binary_ops[i].op.size();
  }
  EXPECT_LE(held, hlo::proto::kMaxHeldNameBytes +
                      40000 * hlo::proto::kMaxNameBytesOverBudget);
  EXPECT_LT(held, 40000u * 1000u);
  EXPECT_THAT(m.LogicalLocation(m.binary_ops.back().begin),
              HasSubstr("computation %nnn"));
}

TEST(HloProtoHardeningTest, EmptyReplicaGroupsAreBounded) {
  std::string empty_group;
  Bytes(&empty_group, 49, "");
  std::string groups;
  groups.reserve(empty_group.size() * (hlo::proto::kMaxReplicaGroups + 1));
  for (int64_t i = 0; i <= hlo::proto::kMaxReplicaGroups; ++i) {
    groups += empty_group;
  }
  const hlo::Module m =
      Read(Gzip(Module({Instruction("ar", "all-reduce", 1, groups)})));
  EXPECT_THAT(Errors(m), HasSubstr("expected at most 1048576 replica groups"));
}

// 9: counts below 1 in the config or device assignment.
TEST(HloProtoHardeningTest, CountsBelowOneAreSyntaxErrors) {
  for (uint32_t field : {4u, 5u}) {
    std::string config, wrapped;
    Varint(&config, field, static_cast<uint64_t>(int64_t{-1}));
    Bytes(&wrapped, 1, Good());
    Bytes(&wrapped, 2, config);
    EXPECT_THAT(Errors(Read(wrapped)),
                HasSubstr("must be a positive integer, found -1"));
  }
  std::string da, module = Good();
  Varint(&da, 1, 0);
  Bytes(&module, 15, da);
  EXPECT_THAT(Errors(Read(module)),
              HasSubstr("DeviceAssignmentProto.replica_count must be a "
                        "positive integer, found 0"));
}

// 16, 17.
TEST(HloProtoHardeningTest, WideTextAndLongNamesAreSniffed) {
  std::string utf16 = "\xff\xfe", utf16be, utf32;
  for (char c : std::string("HloModule m\nENTRY e {}\n")) {
    utf16 += std::string(1, c) + '\0';
    utf16be += std::string(1, '\0') + c;
    utf32 += std::string(1, c) + std::string(3, '\0');
  }
  EXPECT_EQ(hlo::WideTextEncoding(utf16), "UTF-16LE");
  EXPECT_EQ(hlo::WideTextEncoding(utf16be), "UTF-16BE");
  EXPECT_EQ(hlo::WideTextEncoding(utf32), "UTF-32LE");
  EXPECT_EQ(hlo::WideTextEncoding("HloModule m\n"), "");
  hlo::Module m;
  hlo::ParseHloAny(utf16, "w.hlo", hlo::ParseOptions{}, &m);
  EXPECT_THAT(Errors(m), HasSubstr("found UTF-16LE text"));
  std::string named;
  Bytes(&named, 1, std::string(6000, 'x'));
  named += Good().substr(Good().find('\x1a'));
  EXPECT_EQ(hlo::SniffHloEncoding(named.substr(0, 4096)),
            hlo::HloEncoding::kProto);
  hlo::ParseHloAny(named, "n.pb", hlo::ParseOptions{}, &m);
  EXPECT_TRUE(m.syntax_errors.empty()) << Errors(m);
  EXPECT_EQ(m.collectives.size(), 1u);
}

// Wire-format abuse: over-long varints, lengths near 2^63, wrong wire
// types, deep nesting, iota products that overflow.
TEST(HloProtoHardeningTest, WireAbuseIsOneSyntaxError) {
  std::vector<std::string> inputs;
  inputs.push_back("\x0a" + std::string(11, '\xff') + "\x01");  // varint
  {
    std::string s = "\x1a";
    s += std::string(9, '\xff') + "\x7f";  // length near 2^63
    inputs.push_back(s);
  }
  {
    std::string s;
    Varint(&s, 3, 7);  // computations as a varint
    inputs.push_back(s);
  }
  {
    // 100,000 levels of field 1 around "\x08\x01" (about 400 KB), written
    // outermost first from the sizes of the levels, in linear time: copying
    // each level into the next took 20 GB of copies (88 s under ASan).
    using google::protobuf::io::CodedOutputStream;
    std::vector<uint64_t> sizes = {2};  // sizes[k]: the bytes of level k
    while (sizes.size() <= 100000) {
      sizes.push_back(1 + CodedOutputStream::VarintSize64(sizes.back()) +
                      sizes.back());
    }
    std::string nested;
    nested.reserve(sizes.back());
    for (size_t k = sizes.size() - 1; k > 0; --k) {
      uint8_t head[1 + 10] = {0x0a};
      const uint8_t* end =
          CodedOutputStream::WriteVarint64ToArray(sizes[k - 1], head + 1);
      nested.append(reinterpret_cast<const char*>(head),
                    static_cast<size_t>(end - head));
    }
    nested += "\x08\x01";
    EXPECT_EQ(nested.size(), sizes.back());
    inputs.push_back(nested);
  }
  {
    std::string iota, ins;
    Varint(&iota, 1, uint64_t{1} << 40);
    Varint(&iota, 2, uint64_t{1} << 40);
    Bytes(&ins, 92, iota);
    inputs.push_back(Module({Instruction("ar", "all-reduce", 1, ins)}));
  }
  for (const std::string& in : inputs) {
    for (const std::string& bytes : {in, Gzip(in)}) {
      const hlo::Module m = Read(bytes);
      EXPECT_EQ(m.syntax_errors.size(), 1u) << Errors(m);
    }
  }
}

}  // namespace
}  // namespace topolint::testing
