// The C API with binary inputs from memory ("base64"): a .neff archive and a
// binary HLO module give the same findings as the same files on disk.
#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "topolint/topolint_c.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Json = nlohmann::json;

Json Call(const Json& request) {
  char* out = topolint_check_json(request.dump().c_str());
  EXPECT_NE(out, nullptr);
  if (out == nullptr) return Json();
  Json j = Json::parse(out, nullptr, false);
  topolint_free(out);
  return j;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream f(std::string(TOPOLINT_SOURCE_DIR) + "/" + path,
                  std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The findings of `path` read from memory (named `path`) and from disk.
void ExpectSameAsFile(const std::string& path, const std::string& rule) {
  std::string bytes = ReadBytes(path);
  ASSERT_GT(bytes.size(), 0u);
  Json mem = Call(Json{
      {"files", {{{"name", path}, {"base64", absl::Base64Escape(bytes)}}}}});
  Json disk =
      Call(Json{{"paths", {std::string(TOPOLINT_SOURCE_DIR) + "/" + path}}});
  ASSERT_TRUE(mem.is_array()) << mem;
  ASSERT_TRUE(disk.is_array()) << disk;
  ASSERT_EQ(mem.size(), disk.size()) << mem << "\n" << disk;
  ASSERT_FALSE(mem.empty());
  bool found = false;
  for (size_t i = 0; i < mem.size(); ++i) {
    EXPECT_EQ(mem[i]["rule"], disk[i]["rule"]);
    EXPECT_EQ(mem[i]["message"], disk[i]["message"]);
    EXPECT_THAT(mem[i]["file"].get<std::string>(), StartsWith(path));
    found = found || mem[i]["rule"] == rule;
  }
  EXPECT_TRUE(found) << mem;
}

TEST(CApiMemoryTest, NeffFromMemoryMatchesTheFile) {
  ExpectSameAsFile("fixtures/neff-graphs-disagree/fail-rank-differs/model.neff",
                   "neff-graphs-disagree");
}

TEST(CApiMemoryTest, BinaryHloFromMemoryMatchesTheFile) {
  ExpectSameAsFile(
      "fixtures/hlo-duplicate-device-id/fail-binary-module/model.hlo_module.pb",
      "hlo-duplicate-device-id");
}

TEST(CApiMemoryTest, NeffKindNeedsNoNeffName) {
  std::string bytes =
      ReadBytes("fixtures/neff-graphs-disagree/fail-rank-differs/model.neff");
  Json r = Call(Json{{"files",
                      {{{"name", "buffer"},
                        {"kind", "neff"},
                        {"base64", absl::Base64Escape(bytes)}}}}});
  ASSERT_TRUE(r.is_array()) << r;
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0]["rule"], "neff-graphs-disagree");
  EXPECT_THAT(r[0]["file"].get<std::string>(), HasSubstr("buffer"));
}

// Content decides when neither the name nor a kind does, as for a pipe on
// the command line: a binary module (plain or gzip) is HLO.
TEST(CApiMemoryTest, BinaryHloNeedsNoHloName) {
  std::string bytes = ReadBytes(
      "fixtures/hlo-duplicate-device-id/fail-binary-module/"
      "model.hlo_module.pb");
  Json r = Call(
      Json{{"files",
            {{{"name", "buffer"}, {"base64", absl::Base64Escape(bytes)}}}}});
  ASSERT_TRUE(r.is_array()) << r;
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0]["rule"], "hlo-duplicate-device-id");

  Json bad = Call(Json{{"files", {{{"name", "buffer"}, {"text", "garbage"}}}}});
  ASSERT_TRUE(bad.is_object()) << bad;
  EXPECT_THAT(bad["error"].get<std::string>(),
              HasSubstr("neither HLO (text or a binary module) nor a JSON"));
}

TEST(CApiMemoryTest, TruncatedNeffIsAFinding) {
  std::string bytes =
      ReadBytes("fixtures/neff-graphs-disagree/fail-rank-differs/model.neff");
  ASSERT_GT(bytes.size(), 1100u);
  for (size_t keep : {size_t{10}, size_t{1024}, bytes.size() - 40}) {
    Json r =
        Call(Json{{"files",
                   {{{"name", "m.neff"},
                     {"base64", absl::Base64Escape(bytes.substr(0, keep))}}}}});
    ASSERT_TRUE(r.is_array()) << keep << ": " << r;
    ASSERT_FALSE(r.empty()) << keep;
    EXPECT_EQ(r[0]["rule"], "neff-schema") << keep << ": " << r;
    EXPECT_EQ(r[0]["file"], "m.neff");
  }
}

TEST(CApiMemoryTest, BadBase64IsAnInvalidRequest) {
  for (const Json& file :
       {Json{{"name", "m.neff"}, {"base64", "not base64!"}},
        Json{{"name", "m.neff"}, {"base64", 12}},
        Json{{"name", "m.neff"}, {"base64", "AAAA"}, {"text", "x"}}}) {
    Json r = Call(Json{{"files", {file}}});
    ASSERT_TRUE(r.is_object()) << r;
    EXPECT_EQ(r["code"], "invalid_request") << r;
    EXPECT_THAT(r["error"].get<std::string>(), HasSubstr("files[0]"));
  }
}

}  // namespace
}  // namespace topolint::testing
