// EscapeXml (checker/diag/xml_escape.h), shared by the JUnit renderer and
// the HTML / SVG pictures of `explain`.
#include "checker/diag/xml_escape.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace topolint {
namespace {

// `cp` as UTF-8 bytes, whatever it is (surrogates included, as a wrong
// encoder would write them).
std::string Encode(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

// "" when `s` is UTF-8 holding only characters of XML 1.0's Char production
// (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]),
// and no raw '<' or '&' but the escaper's entities; else what is wrong, a
// strict check that does not share the escaper's decoder.
std::string XmlCharProblem(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    size_t len = b < 0x80         ? 1
                 : (b >> 5) == 6  ? 2
                 : (b >> 4) == 14 ? 3
                 : (b >> 3) == 30 ? 4
                                  : 0;
    if (len == 0 || i + len > s.size()) return "bad lead byte";
    uint32_t cp = len == 1 ? b : b & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return "bad continuation byte";
      cp = (cp << 6) | (c & 0x3F);
    }
    const uint32_t min = len == 1   ? 0
                         : len == 2 ? 0x80
                         : len == 3 ? 0x800
                                    : 0x10000;
    if (cp < min) return "overlong form";
    const bool ok =
        cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
        (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    if (!ok) return "not an XML character: " + std::to_string(cp);
    if (cp == '<') return "raw markup";
    if (cp == '&') {
      bool entity = false;
      for (const char* e :
           {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#9;"}) {
        entity = entity || s.compare(i, std::string(e).size(), e) == 0;
      }
      if (!entity) return "raw markup";
    }
    i += len;
  }
  return "";
}

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

TEST(XmlEscapeTest, NoncharactersFffeAndFfffAreEscaped) {
  // Valid UTF-8, but not XML 1.0 characters: a directory or config key
  // holding them made the JUnit report and the SVG ill-formed.
  EXPECT_EQ(EscapeXml("dir\xEF\xBF\xBE/k\xEF\xBF\xBFy"),
            "dir&lt;U+FFFE&gt;/k&lt;U+FFFF&gt;y");
  // Their neighbours are characters: kept.
  EXPECT_EQ(EscapeXml("\xEF\xBF\xBD\xF0\x90\x80\x80"),
            "\xEF\xBF\xBD\xF0\x90\x80\x80");
}

TEST(XmlEscapeTest, EveryCodePointAndByteGivesXmlCharactersOnly) {
  // Each code point (surrogates written as a wrong encoder would), alone
  // and between text, and each single byte: only XML characters come out.
  for (uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const std::string in = "a" + Encode(cp) + "b";
    const std::string problem = XmlCharProblem(EscapeXml(in));
    ASSERT_EQ(problem, "") << "U+" << std::hex << cp;
  }
  for (int b = 0; b < 256; ++b) {
    const std::string in(1, static_cast<char>(b));
    ASSERT_EQ(XmlCharProblem(EscapeXml(in)), "") << b;
    ASSERT_EQ(XmlCharProblem(EscapeXml(in + "\xBF\xBE")), "") << b;
  }
}

}  // namespace
}  // namespace topolint
