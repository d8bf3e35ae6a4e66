// A binary module longer than protobuf's 2 GiB message limit (plain, or a
// .pb.gz inflating past it) ends with a syntax error that names the limit,
// never "expected a field tag ..., found the end of the input" (issue 31,
// item 15: CodedInputStream's total-bytes limit makes ReadTag return 0,
// which looked like the end of the input). The limit is lowered through
// hlo::ParseOptions::max_proto_bytes so that nothing inflates 2 GiB.
#include <string>

#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/hlo_module.h"
#include "checker/hlo/parse_options.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A small binary module followed by `fields` unknown varint fields (field
// 1000 = 0: three bytes each) at the top level, which readers skip.
std::string PaddedModule(int fields) {
  std::string bytes = ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                              "/fixtures/hlo-duplicate-device-id/"
                              "fail-binary-module/model.hlo_module.pb");
  EXPECT_FALSE(bytes.empty());
  for (int i = 0; i < fields; ++i) bytes += std::string("\xc0\x3e\x00", 3);
  return bytes;
}

hlo::Module Parse(const std::string& bytes, int64_t max_proto_bytes) {
  hlo::ParseOptions options;
  options.max_proto_bytes = max_proto_bytes;
  hlo::Module m;
  hlo::ParseHloAny(bytes, "big.hlo_module.pb", options, &m);
  return m;
}

TEST(ProtoLimitTest, PastTheLimitNamesItPlainAndGzip) {
  const std::string bytes = PaddedModule(20000);  // ~60 KB
  const int64_t module = static_cast<int64_t>(PaddedModule(0).size());
  // At a tag boundary (where ReadTag returns 0 at the limit) and inside a
  // field.
  for (int64_t limit :
       {module + 3 * 1000, module + 3 * 1000 + 1, module + 3 * 1000 + 2}) {
    for (bool gzip : {false, true}) {
      const hlo::Module m =
          Parse(gzip ? proto_writer::Gzip(bytes) : bytes, limit);
      ASSERT_FALSE(m.syntax_errors.empty()) << limit << " gzip " << gzip;
      const std::string& message = m.syntax_errors[0].message;
      EXPECT_THAT(message, HasSubstr(fmt::format(
                               "expected the input to end within {} bytes "
                               "(the limit set for binary modules)",
                               limit)))
          << "gzip " << gzip;
      EXPECT_THAT(message, Not(HasSubstr("end of the input")));
    }
  }
}

TEST(ProtoLimitTest, TheDefaultLimitIsProtobufsAndWithinItNothingChanges) {
  EXPECT_EQ(hlo::ParseOptions{}.max_proto_bytes, 2147483647);
  const std::string bytes = PaddedModule(20000);
  const hlo::Module within = Parse(bytes, static_cast<int64_t>(bytes.size()));
  const hlo::Module by_default = Parse(bytes, hlo::kMaxProtoBytes);
  EXPECT_TRUE(within.syntax_errors.empty());
  EXPECT_TRUE(by_default.syntax_errors.empty());
  EXPECT_EQ(within.collectives.size(), by_default.collectives.size());
  EXPECT_EQ(by_default.collectives.size(), 1u);
}

}  // namespace
}  // namespace topolint::testing
