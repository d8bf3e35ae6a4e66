// A module cut short or corrupt reads the same compressed as plain: the same
// collectives and the same syntax errors (the gzip_stream_fuzz invariant).
// Uncompressed, the file's size is known and a length past the end is
// refused where it is declared; a .pb.gz whose first pass fails is read again
// with the inflated size that pass learnt, so it is refused at the same
// place, instead of after the collectives before the cut were emitted.
#include <fstream>
#include <sstream>
#include <string>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"

namespace topolint::testing {
namespace {

hlo::Module Read(const std::string& bytes, const std::string& name) {
  hlo::Module m;
  hlo::ParseHloProto(bytes, name, {}, &m);
  return m;
}

TEST(GzipTruncationTest, EveryCutReadsTheSameCompressedAsPlain) {
  const std::string whole =
      SampleAllReduceProto({{0, 1}, {2, 3}}, /*gzip=*/false);
  ASSERT_EQ(Read(whole, "f.pb").collectives.size(), 1u);
  int cut_inside_a_collective = 0;
  for (size_t cut = 1; cut < whole.size(); ++cut) {
    const std::string part = whole.substr(0, cut);
    const hlo::Module plain = Read(part, "f.pb");
    const hlo::Module gz = Read(proto_writer::Gzip(part), "f.pb.gz");
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    EXPECT_EQ(plain.collectives.size(), gz.collectives.size());
    EXPECT_EQ(plain.syntax_errors.size(), gz.syntax_errors.size());
    if (!gz.syntax_errors.empty() &&
        gz.syntax_errors[0].message.find("HloInstructionProto") !=
            std::string::npos) {
      ++cut_inside_a_collective;
    }
  }
  // Before the fix, the compressed reads of cuts inside the all-reduce
  // reported the end of the input inside it; now none gets that far.
  EXPECT_EQ(cut_inside_a_collective, 0);
}

// gzip_stream_fuzz's inputs (tests/data/proto): modules whose outer length
// runs past the end of the file, with bytes of a wrong wire type before that
// end, or a break found inside an instruction. A .pb.gz whose first pass
// fails is read again with the size that pass learnt, so it gives the
// uncompressed read's error, at its place, and emits no collective before it.
TEST(GzipTruncationTest, FuzzInputsReadTheSameCompressedAsPlain) {
  for (const char* name : {"length-past-end-with-garbage-before-it.pb",
                           "length-past-end-found-inside-an-instruction.pb"}) {
    SCOPED_TRACE(name);
    std::ifstream in(
        std::string(TOPOLINT_SOURCE_DIR) + "/tests/data/proto/" + name,
        std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    ASSERT_FALSE(bytes.str().empty());
    const hlo::Module plain = Read(bytes.str(), "f.pb");
    const hlo::Module gz = Read(proto_writer::Gzip(bytes.str()), "f.pb.gz");
    EXPECT_EQ(plain.collectives.size(), 0u);
    EXPECT_EQ(gz.collectives.size(), 0u);
    ASSERT_EQ(plain.syntax_errors.size(), 1u);
    ASSERT_EQ(gz.syntax_errors.size(), 1u);
    EXPECT_EQ(gz.syntax_errors[0].message, plain.syntax_errors[0].message);
  }
}

}  // namespace
}  // namespace topolint::testing
