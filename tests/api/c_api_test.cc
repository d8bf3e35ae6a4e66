// The C API (include/topolint/topolint_c.h): called directly, through
// dlopen of the shared library (only the C functions are exported), and from
// Python via ctypes (tests/api/ctypes_driver.py).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/run_cli.h"
#include "tests/common/sample_inputs.h"
#include "topolint/topolint_c.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Json = nlohmann::json;

std::string Call(const std::string& request) {
  char* out = topolint_check_json(request.c_str());
  EXPECT_NE(out, nullptr);
  if (out == nullptr) return "";
  std::string s(out);
  topolint_free(out);
  return s;
}

std::string Call(const Json& request) { return Call(request.dump()); }

// The "error" of an error response ("" when the response is not one).
std::string ErrorOf(const std::string& response) {
  Json j = Json::parse(response, nullptr, false);
  if (!j.is_object() || !j.contains("error")) return "";
  return j["error"].get<std::string>();
}

TEST(CApiTest, FindingsOfAnInMemoryDefJson) {
  Json r = Json::parse(Call(Json{
      {"files", {{{"name", "out/def.json"}, {"text", kEmptyTopologyDef}}}}}));
  ASSERT_TRUE(r.is_array()) << r;
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["rule"], "neff-empty-topology");
  EXPECT_EQ(r[0]["severity"], "error");
  EXPECT_THAT(r[0]["message"].get<std::string>(),
              StartsWith("Empty topology found at index 1"));
  EXPECT_EQ(r[0]["file"], "out/def.json");
  EXPECT_EQ(r[0]["line"], 1);
  EXPECT_EQ(r[0]["column"], 41);
}

TEST(CApiTest, ResponseIsByteForByteTheCliJsonOutput) {
  TempDir d;
  d.Write("m/model.hlo", kModuleHlo);
  d.Write("m/def.json", kTransposedDef);
  CliResult cli = RunTopolint({"check", "--format", "json", "m"}, d.path());
  ASSERT_EQ(cli.exit_code, 1) << cli.err;
  // The same files in memory, under the names the CLI shows...
  std::string in_memory =
      Call(Json{{"files",
                 {{{"name", "m/model.hlo"}, {"text", kModuleHlo}},
                  {{"name", "m/def.json"}, {"text", kTransposedDef}}}}});
  EXPECT_EQ(in_memory, cli.out);
  // ...and on disk.
  std::string on_disk = Call(
      Json{{"paths", {d.path() + "/m/model.hlo", d.path() + "/m/def.json"}}});
  Json a = Json::parse(on_disk), b = Json::parse(cli.out);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0]["file"], d.path() + "/" + b[0]["file"].get<std::string>());
  EXPECT_EQ(a[0]["message"], b[0]["message"]);
  EXPECT_EQ(a[0]["line"], b[0]["line"]);
}

TEST(CApiTest, CleanInputIsAnEmptyArray) {
  EXPECT_EQ(Call(Json{{"files", {{{"name", "def.json"}, {"text", kGoodDef}}}}}),
            "[]\n");
}

TEST(CApiTest, OptionsApply) {
  Json files = {{{"name", "def.json"}, {"text", kFourRankDef}}};
  EXPECT_EQ(Call(Json{{"files", files}, {"options", {{"num_cores", 4}}}}),
            "[]\n");
  Json r = Json::parse(Call(
      Json{{"files", files}, {"options", {{"num_cores", 4}, {"lnc", 2}}}}));
  ASSERT_TRUE(r.is_array()) << r;
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["rule"], "lnc-rank-range");
  r = Json::parse(Call(
      Json{{"files", files},
           {"options",
            {{"num_cores", 4}, {"lnc", 2}, {"rules", {"-*", "neff-*"}}}}}));
  EXPECT_EQ(r, Json::array());

  Json hlo = {{{"name", "w.hlo"}, {"text", kNotFlattenedHlo}}};
  r = Json::parse(
      Call(Json{{"files", hlo}, {"options", {{"num_partitions", 2}}}}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["severity"], "warning");
  r = Json::parse(Call(Json{
      {"files", hlo},
      {"options", {{"num_partitions", 2}, {"werror", true}, {"rules", "*"}}}}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["severity"], "error");
}

TEST(CApiTest, KindsAndProjectConfig) {
  TempDir d;
  std::string cfg = d.Write(".topolint.json",
                            R"({"severity": {"neff-empty-topology": "off"}})");
  Json files = {
      {{"name", "ccinfo"}, {"kind", "def_json"}, {"text", kEmptyTopologyDef}}};
  Json r = Json::parse(Call(Json{{"files", files}}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["rule"], "neff-empty-topology");
  EXPECT_EQ(Call(Json{{"files", files}, {"options", {{"config", cfg}}}}),
            "[]\n");
}

TEST(CApiTest, BadRequestsAreErrorObjects) {
  char* out = topolint_check_json(nullptr);
  ASSERT_NE(out, nullptr);
  EXPECT_THAT(ErrorOf(out), HasSubstr("NULL"));
  topolint_free(out);
  topolint_free(nullptr);  // allowed

  EXPECT_THAT(ErrorOf(Call(std::string("{\"files\": ["))),
              HasSubstr("not valid JSON"));
  EXPECT_THAT(ErrorOf(Call(std::string("[]"))), HasSubstr("JSON object"));
  // Issue 15: deep nesting is refused before anything recursive runs.
  const std::string deep = "{\"options\": " + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  EXPECT_THAT(ErrorOf(Call(deep)), HasSubstr("nested deeper than 64"));
  EXPECT_THAT(ErrorOf(Call(Json{{"file", Json::array()}})),
              HasSubstr("unknown request key \"file\""));
  EXPECT_THAT(ErrorOf(Call(Json::object())), HasSubstr("no inputs"));
  Json def = {{{"name", "def.json"}, {"text", kGoodDef}}};
  EXPECT_THAT(ErrorOf(Call(Json{{"files", def}, {"options", {{"lnc", 0}}}})),
              HasSubstr("options.lnc must be a positive integer"));
  EXPECT_THAT(ErrorOf(Call(Json{{"files", def}, {"options", {{"lnc", "2"}}}})),
              HasSubstr("options.lnc"));
  EXPECT_THAT(
      ErrorOf(Call(Json{{"files", def}, {"options", {{"num_cores", 1e30}}}})),
      HasSubstr("options.num_cores"));
  EXPECT_THAT(
      ErrorOf(Call(Json{{"files", def},
                        {"options", {{"num_cores", 18446744073709551615u}}}})),
      HasSubstr("options.num_cores"));
  EXPECT_THAT(ErrorOf(Call(Json{{"files", def}, {"options", {{"jobs", 2}}}})),
              HasSubstr("unknown option \"jobs\""));
  EXPECT_THAT(
      ErrorOf(Call(Json{{"files", def}, {"options", {{"rules", "nope"}}}})),
      HasSubstr("nope"));
  EXPECT_THAT(ErrorOf(Call(Json{{"files", {{{"name", "def.json"}}}}})),
              HasSubstr("files[0] needs exactly one of \"text\""));
  EXPECT_THAT(
      ErrorOf(Call(
          Json{{"files", {{{"name", "x"}, {"text", "{}"}, {"kind", "nef"}}}}})),
      HasSubstr("files[0].kind"));
  EXPECT_THAT(ErrorOf(Call(Json{
                  {"files", {{{"name", "notes.txt"}, {"text", "hello"}}}}})),
              HasSubstr("notes.txt"));
  EXPECT_THAT(
      ErrorOf(Call(Json{{"paths", {"/nonexistent/topolint/def.json"}}})),
      HasSubstr("/nonexistent/topolint/def.json"));
  EXPECT_THAT(ErrorOf(Call(Json{{"paths", {1}}})), HasSubstr("paths[0]"));
}

TEST(CApiTest, GarbageInputsAreFindingsNotErrors) {
  std::string garbage("\xff\xfe\x00HloModule", 12);
  Json r = Json::parse(Call(
      Json{{"files",
            {{{"name", "def.json"}, {"text", "{\"CCInfo\": "}},
             {{"name", "m.hlo"}, {"text", "HloModule x\nENTRY %e {\n"}}}}}));
  ASSERT_TRUE(r.is_array()) << r;
  std::vector<std::string> rules;
  for (const Json& f : r) rules.push_back(f["rule"]);
  EXPECT_THAT(rules,
              ::testing::UnorderedElementsAre("json-syntax", "hlo-syntax"));
  // Invalid UTF-8 in a request is a JSON error of the request itself.
  EXPECT_THAT(ErrorOf(Call("{\"files\": [{\"name\": \"a.json\", \"text\": \"" +
                           garbage + "\"}]}")),
              HasSubstr("not valid JSON"));
}

TEST(CApiTest, VersionIsSet) {
  EXPECT_THAT(std::string(topolint_version()),
              ::testing::MatchesRegex("[0-9]+\\.[0-9]+\\.[0-9]+"));
}

TEST(CApiTest, SharedLibraryExportsOnlyTheCApi) {
  void* lib = dlopen(TOPOLINT_C_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  using CheckFn = char* (*)(const char*);
  using FreeFn = void (*)(char*);
  auto check = reinterpret_cast<CheckFn>(dlsym(lib, "topolint_check_json"));
  auto release = reinterpret_cast<FreeFn>(dlsym(lib, "topolint_free"));
  ASSERT_NE(check, nullptr);
  ASSERT_NE(release, nullptr);
  EXPECT_NE(dlsym(lib, "topolint_version"), nullptr);
  // The engine's C++ symbols stay inside (cmake/topolint_c.map).
  EXPECT_EQ(dlsym(lib, "_ZN8topolint3api7VersionEv"), nullptr);
  char* out = check(
      Json{{"files", {{{"name", "def.json"}, {"text", kEmptyTopologyDef}}}}}
          .dump()
          .c_str());
  ASSERT_NE(out, nullptr);
  EXPECT_THAT(std::string(out), HasSubstr("\"neff-empty-topology\""));
  release(out);
  dlclose(lib);
}

// The asan runtime must come first in a process that loads a sanitized
// library: Python is not built with it, so preload it in sanitizer builds.
std::string SanitizerPreload() {
  if (!TOPOLINT_SANITIZE_BUILD) return "";
  // GCC's libasan.so, or clang's libclang_rt.asan-x86_64.so (which also
  // holds the UBSan and coverage callbacks a clang-sanitized library needs).
  std::string cmd = ShellQuote(TOPOLINT_CXX_COMPILER) +
                    " -print-file-name=" TOPOLINT_SANITIZER_RUNTIME;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  char buf[4096];
  std::string path;
  while (fgets(buf, sizeof(buf), p) != nullptr) path += buf;
  pclose(p);
  while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) {
    path.pop_back();
  }
  return "LD_PRELOAD=" + ShellQuote(path) + " ASAN_OPTIONS=detect_leaks=0 ";
}

TEST(CApiTest, PythonCtypesDriverFindsTheFinding) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "python3 is not installed";
  }
  TempDir d;
  std::string log = d.path() + "/ctypes.log";
  std::string cmd = SanitizerPreload() + "python3 " +
                    ShellQuote(std::string(TOPOLINT_SOURCE_DIR) +
                               "/tests/api/ctypes_driver.py") +
                    " " + ShellQuote(TOPOLINT_C_LIBRARY) + " >" +
                    ShellQuote(log) + " 2>&1";
  int status = std::system(cmd.c_str());
  std::string out = ReadAll(log);
  EXPECT_EQ(status, 0) << out;
  EXPECT_THAT(out, HasSubstr("ctypes_driver: OK")) << out;
}

}  // namespace
}  // namespace topolint::testing
