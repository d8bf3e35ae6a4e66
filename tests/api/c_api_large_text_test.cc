// A 500 MB HLO text given to topolint_check_text costs its own size plus
// bounded working memory: the caller's bytes are read in place through the
// parser's window and the collectives are checked as they are read, never
// held (docs/reliability.md, "C API memory"). Peak RSS comes from
// getrusage; the bound is generous (64 MiB; measured: under 2 MiB) and no
// time is measured. Skipped under AddressSanitizer (its shadow memory and
// quarantine are not the library's).
#include <sys/resource.h>

#include <charconv>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "topolint/topolint_c.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOPOLINT_API_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TOPOLINT_API_TEST_ASAN 1
#endif
#ifdef TOPOLINT_API_TEST_ASAN
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif

namespace topolint::testing {
namespace {

using Json = nlohmann::json;

int64_t PeakRssBytes() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int64_t>(u.ru_maxrss) * 1024;
}

void AppendInt(std::string* s, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  s->append(buf, r.ptr);
}

// About `bytes` of HLO text: adds with an all-reduce every 4096 lines, the
// last of which lists replica 0 twice (so its finding proves the whole text
// was read). Built in place in a string of exactly the reserved size.
std::string LargeModule(size_t bytes) {
  std::string s;
  s.reserve(bytes + 4096);
  s += "HloModule big, replica_count=4\n\n"
       "%add (x: f32[], y: f32[]) -> f32[] {\n"
       "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
       "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n\n"
       "ENTRY %main (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n";
  int64_t i = 0;
  while (s.size() + 256 < bytes) {
    s += "  %a";
    AppendInt(&s, i);
    if (i % 4096 == 4095) {
      s += " = f32[8]{0} all-reduce(f32[8]{0} %p), "
           "replica_groups={{0,1},{2,3}}, to_apply=%add\n";
    } else {
      s += " = f32[8]{0} add(f32[8]{0} %p, f32[8]{0} %p)\n";
    }
    ++i;
  }
  s += "  ROOT %last = f32[8]{0} all-reduce(f32[8]{0} %p), "
       "replica_groups={{0,1},{2,0}}, to_apply=%add\n}\n";
  return s;
}

TEST(CApiLargeTextTest, FiveHundredMegabytesCostTheirSizePlusBoundedMemory) {
  if (kUnderAsan) {
    GTEST_SKIP() << "peak RSS under AddressSanitizer is not the library's";
  }
  const std::string text = LargeModule(size_t{500} << 20);
  const int64_t before = PeakRssBytes();
  ASSERT_GE(before, static_cast<int64_t>(text.size()));
  const Json findings = CallCheckText(nullptr, "big.hlo", nullptr, text);
  const int64_t grown = PeakRssBytes() - before;
  ASSERT_TRUE(findings.is_array()) << findings;
  ASSERT_EQ(findings.size(), 1u) << findings;
  EXPECT_EQ(findings[0]["rule"], "hlo-duplicate-device-id");
  // The finding is on the text's last instruction.
  int64_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(findings[0]["line"], lines - 1);
  EXPECT_LE(grown, int64_t{64} << 20)
      << "the call grew peak RSS by " << grown << " bytes over the "
      << text.size() << "-byte text";
}

}  // namespace
}  // namespace topolint::testing
