// bench/floor.cc (topolint_floor), which bench/run.sh and bench/binary.sh
// time as the floor under topolint's own times: it must do the work it
// stands for, on every line and every instruction, across its 256 KiB read
// blocks, or the floor it prints means nothing.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using proto_writer::Bytes;
using proto_writer::Varint;

struct FloorRun {
  int exit_code = -1;
  std::string out;
};

// topolint_floor MODE on `bytes` written to a temporary file.
FloorRun Floor(const std::string& mode, const std::string& bytes) {
  const fs::path p =
      fs::temp_directory_path() / fmt::format("topolint-floor-{}", getpid());
  {
    FILE* f = std::fopen(p.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    if (f == nullptr) return {};
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  FloorRun r;
  FILE* pipe =
      popen(fmt::format("'{}' {} '{}' 2>&1", TOPOLINT_FLOOR, mode, p.string())
                .c_str(),
            "r");
  if (pipe != nullptr) {
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
      r.out.append(buf, n);
    const int status = pclose(pipe);
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  }
  fs::remove(p);
  return r;
}

// Instructions long enough that a computation of `n` of them spans several
// read blocks, so that lines and messages are cut by the blocks' ends.
std::string Metadata(int i) {
  return fmt::format(
      "metadata={{op_name=\"jit(step)/layers.{}/mlp/{}\" "
      "source_file=\"/opt/workspace/model/src/modeling.py\" "
      "source_line={}}}",
      i, std::string(static_cast<size_t>(i % 97), 'x'), i);
}

TEST(FloorTest, TextScansTheBodyOfEveryLine) {
  constexpr int kPlain = 6000;
  constexpr int kCollectives = 600;
  std::string text =
      "HloModule m, replica_count=1, num_partitions=4\n\n"
      "%add (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n"
      "}\n\n"
      "ENTRY %main (p: f32[8,128]) -> f32[8,128] {\n"
      "  %p = f32[8,128]{1,0} parameter(0)\n";
  int lines = 10;
  int with_paren = 6;  // the signatures and instructions above
  for (int i = 0; i < kPlain; ++i) {
    text += fmt::format(
        "  %m.{} = f32[8,128]{{1,0}} multiply(f32[8,128]{{1,0}} %p, "
        "f32[8,128]{{1,0}} %p), {}\n",
        i, Metadata(i));
    ++lines;
    ++with_paren;
    if (i % 10 == 0 && i / 10 < kCollectives) {
      text += fmt::format(
          "  %ar.{} = f32[8,128]{{1,0}} all-reduce(f32[8,128]{{1,0}} %m.{}), "
          "channel_id={}, replica_groups={{{{0,1,2,3}}}}, to_apply=%add\n",
          i, i, i + 1);
      ++lines;
      ++with_paren;
    }
  }
  text += "  ROOT %r = f32[8,128]{1,0} copy(f32[8,128]{1,0} %p)\n}";  // no \n
  lines += 2;
  ++with_paren;
  ASSERT_GT(text.size(), 3u << 18) << "spans several read blocks";
  const FloorRun r = Floor("text", text);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  long got_lines = 0;
  long scanned = 0;
  long declined = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "%ld lines, %ld bodies scanned, %ld",
                        &got_lines, &scanned, &declined),
            3)
      << r.out;
  EXPECT_EQ(got_lines, lines);
  EXPECT_EQ(scanned + declined, with_paren);
  // Every instruction body above is one the block scanner takes whole.
  EXPECT_GE(scanned, kPlain + kCollectives);
}

// An HloModuleProto of `computations` computations of `per` instructions
// each, one in ten a collective; `big` adds one computation of 8,000.
std::string Module(int computations, int per, bool big, int* instructions,
                   int* collectives) {
  std::string m;
  Bytes(&m, 1, "floor");
  Bytes(&m, 2, "c0");
  int64_t id = 1;
  const int total = computations + (big ? 1 : 0);
  for (int c = 0; c < total; ++c) {
    const int n = c == computations ? 8000 : per;
    std::string comp;
    Bytes(&comp, 1, fmt::format("c{}", c));
    for (int i = 0; i < n; ++i, ++id) {
      const bool collective = i % 10 == 3;
      std::string ins;
      Bytes(&ins, 1, fmt::format("i.{}", id));
      Bytes(&ins, 2, collective ? "all-reduce" : "multiply");
      Bytes(&ins, 3,
            proto_writer::ShapeProto(
                hlo::Shape{true, false, "f32", {8, 128}, {}}));
      std::string md;
      Bytes(&md, 2, Metadata(i));
      Bytes(&ins, 7, md);
      Varint(&ins, 35, static_cast<uint64_t>(id));
      if (collective) Bytes(&ins, 49, proto_writer::Group({0, 1, 2, 3}));
      Bytes(&comp, 2, ins);
      ++*instructions;
      if (collective) ++*collectives;
    }
    Varint(&comp, 5, static_cast<uint64_t>(c + 1));
    Bytes(&m, 3, comp);
  }
  Varint(&m, 6, 1);
  return m;
}

TEST(FloorTest, PbWalksEveryInstruction) {
  int instructions = 0;
  int collectives = 0;
  const std::string m = Module(5, 40, true, &instructions, &collectives);
  ASSERT_GT(m.size(), 3u << 18) << "spans several read blocks";
  const FloorRun r = Floor("pb", m);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, fmt::format("{} instructions, {} collectives, {} fields\n",
                               instructions, collectives,
                               instructions * 5 + collectives));
}

TEST(FloorTest, PbCutShortIsAFailure) {
  int instructions = 0;
  int collectives = 0;
  const std::string m = Module(2, 40, false, &instructions, &collectives);
  const FloorRun r = Floor("pb", m.substr(0, m.size() - 7));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot be read to its end"), std::string::npos);
}

TEST(FloorTest, UsageIsExitTwo) { EXPECT_EQ(Floor("json", "{}").exit_code, 2); }

}  // namespace
}  // namespace topolint::testing
