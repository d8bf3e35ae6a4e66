#include <string>

#include "checker/diag/render.h"
#include "gtest/gtest.h"
#include "tests/diag/finding_samples.h"

namespace topolint {
namespace {

TEST(RenderGithubTest, OneCommandPerFinding) {
  EXPECT_EQ(RenderGithub({SampleFinding("hlo-empty-group", {"m.hlo", 3, 9},
                                        "group 0 is empty")}),
            "::error file=m.hlo,line=3,col=9,title=hlo-empty-group::"
            "group 0 is empty\n");
}

TEST(RenderGithubTest, SeverityPicksTheCommand) {
  EXPECT_EQ(
      RenderGithub({SampleFinding("w", {"a", 1, 1}, "x", Severity::kWarning),
                    SampleFinding("n", {"a", 1, 1}, "y", Severity::kNote)}),
      "::warning file=a,line=1,col=1,title=w::x\n"
      "::notice file=a,line=1,col=1,title=n::y\n");
}

TEST(RenderGithubTest, OmitsUnknownLineAndColumn) {
  EXPECT_EQ(
      RenderGithub({SampleFinding("r", {"def.json", 0, 0}, "whole file"),
                    SampleFinding("r", {"def.json", 4, 0}, "whole line")}),
      "::error file=def.json,title=r::whole file\n"
      "::error file=def.json,line=4,title=r::whole line\n");
}

TEST(RenderGithubTest, EscapesDataAndProperties) {
  const Finding f =
      SampleFinding("r", {"dir,x/a:b%.hlo", 2, 1}, "100% sure:\r\nyes, really");
  EXPECT_EQ(RenderGithub({f}),
            "::error file=dir%2Cx/a%3Ab%25.hlo,line=2,col=1,title=r::"
            "100%25 sure:%0D%0Ayes, really\n");
}

TEST(RenderGithubTest, NotesBecomeExtraMessageLines) {
  Finding f = SampleFinding("xref-topology-mismatch", {"m.hlo", 14, 76},
                            "group differs");
  f.notes.push_back({{"def.json", 3, 25}, "declared here"});
  f.notes.push_back({{"def.json", 0, 0}, "whole file"});
  EXPECT_EQ(RenderGithub({f}),
            "::error file=m.hlo,line=14,col=76,title=xref-topology-mismatch::"
            "group differs%0Adef.json:3:25: note: declared here"
            "%0Adef.json: note: whole file\n");
}

TEST(RenderGithubTest, ControlBytesAndInvalidUtf8AreEscapedAsInTheTextFormat) {
  // An op name with ESC, BEL, a C1 control, a bidi override and invalid
  // UTF-8: shown as the text format shows them, never raw in the CI log.
  const Finding f = SampleFinding(
      "r\x1b", {"d\x07ir/m\xff.hlo", 2, 1},
      "op %a\x1b[2Jb\x07 \xC2\x9B \xE2\x80\xAE x\xC0\xAF\r\nok 100%");
  const std::string out = RenderGithub({f});
  EXPECT_EQ(out,
            "::error file=d<U+0007>ir/m<FF>.hlo,line=2,col=1,title=r<U+001B>::"
            "op %25a<U+001B>[2Jb<U+0007> <U+009B> <U+202E> x<C0><AF>%0D%0Aok "
            "100%25\n");
  for (char c : out.substr(0, out.size() - 1)) {
    const unsigned char u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u >= 0x20 && u < 0x7f) << static_cast<int>(u);
  }
  // Valid UTF-8 (a name in Greek) is kept as it is.
  EXPECT_EQ(
      RenderGithub({SampleFinding("r", {"\xCE\xB1.hlo", 1, 1}, "\xCE\xB2")}),
      "::error file=\xCE\xB1.hlo,line=1,col=1,title=r::\xCE\xB2\n");
}

}  // namespace
}  // namespace topolint
