#include <string>

#include "checker/diag/render.h"
#include "gtest/gtest.h"
#include "tests/diag/finding_samples.h"

namespace topolint {
namespace {

TEST(FingerprintTest, IsSixteenLowercaseHexDigits) {
  const std::string fp =
      RootedFingerprint(SampleFinding("r", {"a", 1, 1}, "m"));
  ASSERT_EQ(fp.size(), 16u);
  for (char c : fp) {
    EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << fp;
  }
}

TEST(FingerprintTest, KnownValueStaysFixedAcrossBuilds) {
  // FNV-1a 64 of "r\0a\0m". Changing this invalidates every saved baseline.
  EXPECT_EQ(RootedFingerprint(SampleFinding("r", {"a", 1, 1}, "m")),
            "16ad2823c2c75589");
}

TEST(FingerprintTest, LineAndColumnNeverEnter) {
  const Finding a = SampleFinding("hlo-empty-group", {"m.hlo", 3, 9}, "msg",
                                  Severity::kError, "%ar");
  Finding b = a;
  b.loc.line = 300;
  b.loc.column = 1;
  b.message = "a reworded message";  // the anchor is what counts
  b.notes.push_back({{"x", 1, 1}, "note"});
  b.severity = Severity::kWarning;
  EXPECT_EQ(RootedFingerprint(a), RootedFingerprint(b));
}

TEST(FingerprintTest, MessageIsUsedWithoutAnchor) {
  const Finding a = SampleFinding("r", {"m.hlo", 3, 9}, "one");
  Finding b = a;
  b.loc.line = 7;
  EXPECT_EQ(RootedFingerprint(a), RootedFingerprint(b));
  b.message = "two";
  EXPECT_NE(RootedFingerprint(a), RootedFingerprint(b));
}

TEST(FingerprintTest, RuleFileAndAnchorDistinguish) {
  const Finding base =
      SampleFinding("r", {"m.hlo", 1, 1}, "m", Severity::kError, "%ar");
  Finding other_rule = base;
  other_rule.rule = "s";
  Finding other_file = base;
  other_file.loc.file = "n.hlo";
  Finding other_anchor = base;
  other_anchor.anchor = "%ar.1";
  EXPECT_NE(RootedFingerprint(base), RootedFingerprint(other_rule));
  EXPECT_NE(RootedFingerprint(base), RootedFingerprint(other_file));
  EXPECT_NE(RootedFingerprint(base), RootedFingerprint(other_anchor));
}

TEST(FingerprintTest, FieldsAreSeparated) {
  // Without separators "ab"+"c" and "a"+"bc" would collide.
  EXPECT_NE(RootedFingerprint(SampleFinding("ab", {"c", 1, 1}, "m")),
            RootedFingerprint(SampleFinding("a", {"bc", 1, 1}, "m")));
}

TEST(FingerprintTest, LeadingDotSlashIsIgnored) {
  EXPECT_EQ(RootedFingerprint(SampleFinding("r", {"./dir/m.hlo", 1, 1}, "m")),
            RootedFingerprint(SampleFinding("r", {"dir/m.hlo", 1, 1}, "m")));
}

}  // namespace
}  // namespace topolint
