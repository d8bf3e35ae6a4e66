// JSON inputs written in UTF-16 or UTF-32 (Windows editors save "Unicode"
// as UTF-16LE with a BOM) get one located finding at 1:1 that names the
// encoding and how to convert it, as UTF-16 HLO text does (issue 31 item
// 16): def.json, neuron_config.json and .topolint.json, from a file,
// standard input and the C API. Before, the finding said "unexpected byte
// 0xFF ... is this a binary file?".
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// `ascii` in UTF-16LE / UTF-16BE / UTF-32LE, with the BOM.
std::string Wide(const std::string& ascii, int unit, bool big_endian) {
  std::string out;
  auto put = [&](unsigned ch) {
    for (int k = 0; k < unit; ++k) {
      const int shift = big_endian ? 8 * (unit - 1 - k) : 8 * k;
      out += static_cast<char>((ch >> shift) & 0xff);
    }
  };
  put(0xfeff);
  for (char c : ascii) put(static_cast<unsigned char>(c));
  return out;
}

const char kDefJson[] = R"({"CCInfo": {"replica_groups": [[[0,1],[2,3]]]}})";
const char kConfig[] = R"({"tp_degree": 2})";

void ExpectEncodingFinding(const Json& findings, const std::string& file,
                           const std::string& encoding) {
  ASSERT_TRUE(findings.is_array()) << findings;
  bool found = false;
  for (const Json& f : findings) {
    if (f["file"].get<std::string>().find(file) == std::string::npos) continue;
    found = true;
    EXPECT_EQ(f["rule"], "json-syntax");
    EXPECT_EQ(f["line"], 1);
    EXPECT_EQ(f["column"], 1);
    EXPECT_EQ(f["message"], "expected UTF-8 JSON, found " + encoding +
                                " text; convert it (iconv -f " + encoding +
                                " -t UTF-8)");
  }
  EXPECT_TRUE(found) << file << " in " << findings;
}

class Utf16JsonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/utf16-json-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    WriteAll(dir_ + "/model.hlo", ReadSource(kDuplicateIdHlo));
  }
  std::string dir_;
};

TEST_F(Utf16JsonTest, DefJsonAndNeuronConfigFilesNameTheirEncoding) {
  WriteAll(dir_ + "/def.json", Wide(kDefJson, 2, false));
  WriteAll(dir_ + "/neuron_config.json", Wide(kConfig, 2, true));
  CliResult r = RunTopolint({"check", "--format", "json", dir_});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const Json findings = Json::parse(r.out, nullptr, false);
  ExpectEncodingFinding(findings, "def.json", "UTF-16LE");
  ExpectEncodingFinding(findings, "neuron_config.json", "UTF-16BE");
}

TEST_F(Utf16JsonTest, StandardInputAndUtf32) {
  CliResult r = RunTopolint(
      {"check", "--format", "json", "--stdin-filename", "def.json", "-"},
      TOPOLINT_SOURCE_DIR, Wide(kDefJson, 4, false));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ExpectEncodingFinding(Json::parse(r.out, nullptr, false), "def.json",
                        "UTF-32LE");
}

TEST_F(Utf16JsonTest, ProjectConfigIsExitTwoNamingFileAndEncoding) {
  WriteAll(dir_ + "/.topolint.json", Wide(R"({"rules": "*"})", 2, false));
  CliResult r = RunTopolint({"check", dir_});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr(".topolint.json:1:1: expected UTF-8 JSON, "
                               "found UTF-16LE text; convert it"));
}

TEST_F(Utf16JsonTest, CApiBytesAndBase64) {
  const std::string hlo = ReadSource(kDuplicateIdHlo);
  const Json request = Json{{"files", {{{"name", "m.hlo"}, {"text", hlo}}}}};
  const std::string def = Wide(kDefJson, 2, false);
  ExpectEncodingFinding(
      CallCheckText(request.dump().c_str(), "def.json", "def_json", def),
      "def.json", "UTF-16LE");
  // The wide form without a BOM (ASCII with NULs between its bytes).
  ExpectEncodingFinding(
      CallCheckText(request.dump().c_str(), "neuron_config.json", nullptr,
                    Wide(kConfig, 2, false).substr(2)),
      "neuron_config.json", "UTF-16LE");
}

}  // namespace
}  // namespace topolint::testing
