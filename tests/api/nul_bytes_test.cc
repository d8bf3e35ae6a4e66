// A NUL byte inside HLO text is a located hlo-syntax finding at the NUL,
// through every way text comes in: a file, standard input, the C API's
// request ("text" with \u0000) and its bytes (topolint_check_text). Never a
// truncation at the NUL (a C string would end there) and never a crash.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// kDuplicateIdHlo with a NUL inside `all-reduce` (line 12, column 36).
std::string WithNulInOpcode() {
  std::string hlo = ReadSource(kDuplicateIdHlo);
  const size_t at = hlo.find("all-reduce(");
  EXPECT_NE(at, std::string::npos);
  hlo.insert(at + 6, 1, '\0');
  return hlo;
}

// The findings of `rule`, in order.
std::vector<Json> OfRule(const Json& findings, const std::string& rule) {
  std::vector<Json> out;
  for (const Json& f : findings) {
    if (f["rule"] == rule) out.push_back(f);
  }
  return out;
}

// One hlo-syntax finding, the NUL's, at line:column.
void ExpectNulFinding(const Json& findings, int line, int column) {
  ASSERT_TRUE(findings.is_array()) << findings;
  const std::vector<Json> syntax = OfRule(findings, "hlo-syntax");
  ASSERT_EQ(syntax.size(), 1u) << findings;
  EXPECT_EQ(syntax[0]["line"], line) << findings;
  EXPECT_EQ(syntax[0]["column"], column) << findings;
  EXPECT_THAT(syntax[0]["message"].get<std::string>(),
              HasSubstr("control byte 0x00"));
}

Json CliJson(const std::vector<std::string>& args, const std::string& in = "") {
  CliResult r = RunTopolint(args, TOPOLINT_SOURCE_DIR, in);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  Json j = Json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

TEST(NulBytesTest, FileStdinAndBothApiPathsReportTheNul) {
  const std::string hlo = WithNulInOpcode();
  const std::string path = ::testing::TempDir() + "/nul-model.hlo";
  WriteAll(path, hlo);
  ExpectNulFinding(CliJson({"check", "--format", "json", path}), 12, 36);
  ExpectNulFinding(
      CliJson({"check", "--format", "json", "--stdin-filename", "m.hlo", "-"},
              hlo),
      12, 36);
  ExpectNulFinding(
      CallCheck(Json{{"files", {{{"name", "m.hlo"}, {"text", hlo}}}}}), 12, 36);
  ExpectNulFinding(CallCheckText(nullptr, "m.hlo", nullptr, hlo), 12, 36);
}

TEST(NulBytesTest, NulsAfterTheModuleAreNotCutOff) {
  // The text up to the NULs is a whole module: the NULs are still reported
  // (a reader stopping at the first NUL would accept the file), and so is
  // the module's own defect (its duplicate device id), which the NULs
  // within the first 4 KiB used to hide.
  const std::string hlo = ReadSource(kDuplicateIdHlo) + std::string(2, '\0');
  const std::string path = ::testing::TempDir() + "/nul-tail.hlo";
  WriteAll(path, hlo);
  const Json results[] = {
      CliJson({"check", "--format", "json", path}),
      CliJson({"check", "--format", "json", "--stdin-filename", "m.hlo", "-"},
              hlo),
      CallCheck(Json{{"files", {{{"name", "m.hlo"}, {"text", hlo}}}}}),
      CallCheckText(nullptr, "m.hlo", "hlo", hlo)};
  for (const Json& findings : results) {
    ExpectNulFinding(findings, 14, 1);
    EXPECT_EQ(OfRule(findings, "hlo-duplicate-device-id").size(), 1u)
        << findings;
  }
}

}  // namespace
}  // namespace topolint::testing
