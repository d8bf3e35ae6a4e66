// Every text HLO fixture, converted to a binary HloModuleProto, gives the
// same findings (rule ids, and messages where they do not mention
// positions or file names) as the text form: the binary reader feeds the
// rules exactly what the text parser does. The twin holds the collectives
// and every instruction that carries a sharding (HloInstructionProto
// sharding 40, a domain's 54 / 55), so sharding findings and the device
// count they imply are compared too.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "re2/re2.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/hlo_text_shardings.h"
#include "tests/common/op_sharding_writer.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

namespace fs = std::filesystem;

bool IsTextHlo(const fs::path& p) {
  const std::string n = p.filename().string();
  auto ends = [&](const std::string& s) {
    return n.size() >= s.size() &&
           n.compare(n.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".hlo") || ends(".hlo.txt");
}

// Fixture cases (directories with expected.txt) holding text HLO.
std::vector<std::string> TextHloCases() {
  std::vector<std::string> out;
  const fs::path root = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures";
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_directory() || !fs::exists(e.path() / "expected.txt")) continue;
    bool has_text = false;
    for (const auto& f : fs::directory_iterator(e.path())) {
      if (f.is_regular_file() && IsTextHlo(f.path()) &&
          hlo::LooksLikeHlo(ReadAll(f.path().string()).substr(0, 4096))) {
        has_text = true;
      }
    }
    if (has_text) out.push_back(fs::relative(e.path(), root).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Normalise(const std::string& message) {
  static const RE2 kPositional(
      R"((line|lines|column|byte) \d|\d+:\d+|\.hlo|header)");
  if (RE2::PartialMatch(message, kPositional)) return "<positional>";
  std::string out;
  for (char c : message) {
    if (c != '%') out += c;
  }
  return out;
}

std::vector<std::string> Findings(const std::string& dir,
                                  const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"check", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(dir);
  const CliResult r = RunTopolint(args);
  std::vector<std::string> out;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  if (!j.is_array())
    return {"<no json: exit " + std::to_string(r.exit_code) + ": " + r.err +
            ">"};
  for (const auto& f : j) {
    out.push_back(f["rule"].get<std::string>() + ": " +
                  Normalise(f["message"].get<std::string>()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ProtoEquivalenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ProtoEquivalenceTest, SameFindingsAsText) {
  const fs::path src = fs::path(TOPOLINT_SOURCE_DIR) / "fixtures" / GetParam();
  std::vector<std::string> extra;
  if (fs::exists(src / "args")) {
    std::istringstream in(ReadAll((src / "args").string()));
    for (std::string w; in >> w;) {
      if (w.find(".hlo") != std::string::npos) {
        GTEST_SKIP() << "args name a text file";
      }
      extra.push_back(w);
    }
  }
  const fs::path tmp = fs::temp_directory_path() /
                       ("topolint-proto-eq-" + std::to_string(getpid())) /
                       GetParam();
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  for (const auto& f : fs::directory_iterator(src)) {
    // A symlink names the same file (one input, issue 43): stays a link.
    if (f.is_symlink()) {
      fs::copy_symlink(f.path(), tmp / f.path().filename());
      continue;
    }
    if (!f.is_regular_file() || f.path().filename() == "expected.txt") {
      continue;
    }
    const std::string name = f.path().filename().string();
    const std::string text = ReadAll(f.path().string());
    if (!IsTextHlo(f.path()) || !hlo::LooksLikeHlo(text.substr(0, 4096))) {
      fs::copy_file(f.path(), tmp / name);
      continue;
    }
    hlo::Module m = hlo::ParseHloText(text, name);
    if (!m.syntax_errors.empty()) GTEST_SKIP() << "syntax errors: text only";
    if (!m.suppressions.empty()) GTEST_SKIP() << "suppressions: text only";
    // The twin carries every sharding the text front end read: the
    // writer's scanner finds as many as the parser recorded.
    int64_t shardings = 0;
    for (const TextShardedInstruction& s : ShardedInstructions(text)) {
      shardings += (s.sharding ? 1 : 0) + (s.domain_entry ? 2 : 0);
      if (s.sharding && !HasBinaryForm(*s.sharding)) {
        GTEST_SKIP() << "a one-device tile assignment: text only (XLA's "
                        "FromProto reads its OpSharding as replicated)";
      }
    }
    ASSERT_EQ(shardings, m.sharding.annotations) << name;
    const std::string stem = name.substr(0, name.find(".hlo"));
    // The twin carries the text's shardings (hlo_proto_writer.h).
    ProtoWriteOptions o;
    o.text = text;
    WriteAll((tmp / (stem + ".hlo_module.pb")).string(), WriteHloProto(m, o));
  }
  const std::vector<std::string> text = Findings(src.string(), extra);
  const std::vector<std::string> binary = Findings(tmp.string(), extra);
  EXPECT_EQ(text, binary) << GetParam();
  fs::remove_all(tmp);
}

// Normalise itself: a message that mentions a position or a file name is
// not compared, any other is compared without its '%' sigils.
TEST(ProtoEquivalenceNormaliseTest, HidesPositionsOnly) {
  EXPECT_EQ(Normalise("unexpected token at line 3"), "<positional>");
  EXPECT_EQ(Normalise("group at 12:4"), "<positional>");
  EXPECT_EQ(Normalise("in model.hlo"), "<positional>");
  EXPECT_EQ(Normalise("%ar has 2 replica groups"), "ar has 2 replica groups");
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ProtoEquivalenceTest,
                         ::testing::ValuesIn(TextHloCases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           for (char& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace topolint::testing
