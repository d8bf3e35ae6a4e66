// Line ends (issue 27, defect 4): every text HLO fixture written with LF,
// CRLF, CR-only line ends or after a UTF-8 byte order mark gives the same
// report, byte for byte (locations and the source lines shown under them),
// once the directory names are made equal.
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

bool IsText(const std::string& bytes) {
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    return false;
  }
  return bytes.find('\0') == std::string::npos &&
         bytes.compare(0, 9, "HloModule") == 0;
}

std::string LfOnly(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

std::string Variant(const std::string& lf, const std::string& form) {
  if (form == "bom") return "\xEF\xBB\xBF" + lf;
  const std::string end = form == "cr" ? "\r" : form == "crlf" ? "\r\n" : "\n";
  std::string out;
  for (char c : lf) {
    if (c == '\n') {
      out += end;
    } else {
      out += c;
    }
  }
  return out;
}

std::string ReplaceAll(std::string s, const std::string& from,
                       const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

TEST(LineEndsTest, EveryFixtureReportsTheSameWithAnyLineEnds) {
  TempDir dir;
  const fs::path fixtures = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  int modules = 0;
  for (const std::string form : {"lf", "crlf", "cr", "bom"}) {
    for (const auto& rule : fs::directory_iterator(fixtures)) {
      if (!rule.is_directory() || rule.path().filename() == "layouts") continue;
      for (const auto& fixture : fs::directory_iterator(rule.path())) {
        const fs::path hlo = fixture.path() / "model.hlo";
        if (!fs::is_regular_file(hlo)) continue;
        const std::string text = ReadAll(hlo.string());
        if (!IsText(text)) continue;
        const fs::path to = fs::path(dir.path()) / form /
                            rule.path().filename() / fixture.path().filename();
        fs::create_directories(to);
        for (const auto& f : fs::directory_iterator(fixture.path())) {
          if (f.is_regular_file() && f.path().filename() != "model.hlo") {
            fs::copy_file(f.path(), to / f.path().filename());
          }
        }
        WriteAll((to / "model.hlo").string(), Variant(LfOnly(text), form));
        if (form == "lf") ++modules;
      }
    }
  }
  ASSERT_GT(modules, 80);
  const CliResult lf =
      RunTopolint({"--color", "never", "-j", "2", "lf"}, dir.path());
  ASSERT_EQ(lf.exit_code, 1) << lf.err;
  EXPECT_THAT(lf.out, Not(HasSubstr("\r")));
  for (const std::string form : {"crlf", "cr", "bom"}) {
    const CliResult r =
        RunTopolint({"--color", "never", "-j", "2", form}, dir.path());
    EXPECT_EQ(r.exit_code, lf.exit_code) << form;
    EXPECT_EQ(ReplaceAll(r.out, form + "/", "lf/"), lf.out) << form;
  }
}

}  // namespace
}  // namespace topolint::testing
