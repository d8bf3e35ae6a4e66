// EscapeXml (checker/diag/xml_escape.h), shared by the JUnit renderer and
// the HTML / SVG pictures of `explain`.
#include "checker/diag/xml_escape.h"

#include <string>

#include "gtest/gtest.h"

namespace topolint {
namespace {

TEST(XmlEscapeTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(EscapeXml("a<b>&\"c\"'d'"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(EscapeXml("&amp;"), "&amp;amp;");
  EXPECT_EQ(EscapeXml(""), "");
}

TEST(XmlEscapeTest, PlainTextAndUtf8AreKept) {
  EXPECT_EQ(EscapeXml("replica group 1 is {1,5}"), "replica group 1 is {1,5}");
  EXPECT_EQ(EscapeXml("2\xC3\x97"
                      "4 mesh"),
            "2\xC3\x97"
            "4 mesh");  // 2×4
}

TEST(XmlEscapeTest, LineBreaksAreKeptAndTabsAreReferences) {
  EXPECT_EQ(EscapeXml("a\nb\tc"), "a\nb&#9;c");
}

TEST(XmlEscapeTest, WhatXmlCannotCarryIsEscapedVisibly) {
  // Control characters and invalid UTF-8 are not allowed in XML 1.0: they
  // appear as the terminal renderers show them, the '<' then escaped.
  EXPECT_EQ(EscapeXml("a\x1b[2Jb"), "a&lt;U+001B&gt;[2Jb");
  EXPECT_EQ(EscapeXml("x\x01y"), "x&lt;U+0001&gt;y");
  EXPECT_EQ(EscapeXml("bad\xFFz"), "bad&lt;FF&gt;z");
  EXPECT_EQ(EscapeXml("cr\r"), "cr&lt;U+000D&gt;");
}

}  // namespace
}  // namespace topolint
