// The HTML page in a real headless browser (Debian's chromium): the
// screenshot of the worked example is not blank and shows the group colours
// (and the mismatch red when the def.json differs), and the DOM the browser
// built holds the expected cells. Skipped where no chromium is installed.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "checker/explain/explain_picture.h"
#include "fmt/format.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"
#include "tests/explain/html_test_util.h"

namespace topolint {
namespace {

using testing::RunTopolint;
using testing::TempDir;

std::string FindChromium() {
  if (const char* env = std::getenv("TOPOLINT_CHROMIUM")) return env;
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// Runs chromium headless on `page` with a fresh profile; `what` is
// "--screenshot=FILE" or "--dump-dom" (stdout to `out`).
int RunChromium(const std::string& chromium, const TempDir& dir,
                const std::string& page, const std::string& what,
                const std::string& out) {
  const std::string cmd = fmt::format(
      "timeout 120 {} --headless --no-sandbox --disable-gpu --disable-quic "
      "--no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir={} "
      "--window-size=1200,900 {} {} >{} 2>{}",
      testing::ShellQuote(chromium),
      testing::ShellQuote(dir.path() + "/profile-" + what.substr(2, 4)), what,
      testing::ShellQuote("file://" + page), testing::ShellQuote(out),
      testing::ShellQuote(dir.path() + "/chromium.err"));
  return std::system(cmd.c_str());
}

uint32_t Be32(const std::string& s, size_t at) {
  return (uint32_t{static_cast<uint8_t>(s[at])} << 24) |
         (uint32_t{static_cast<uint8_t>(s[at + 1])} << 16) |
         (uint32_t{static_cast<uint8_t>(s[at + 2])} << 8) |
         uint32_t{static_cast<uint8_t>(s[at + 3])};
}

// The distinct RGB colours of an 8-bit RGB or RGBA, non-interlaced PNG, as
// 0xRRGGBB; sets `*error` when the file is something else.
std::set<uint32_t> PngColours(const std::string& png, std::string* error) {
  std::set<uint32_t> colours;
  if (png.size() < 33 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    *error = "not a PNG";
    return colours;
  }
  const uint32_t width = Be32(png, 16), height = Be32(png, 20);
  const int depth = static_cast<uint8_t>(png[24]);
  const int type = static_cast<uint8_t>(png[25]);
  const int interlace = static_cast<uint8_t>(png[28]);
  if (depth != 8 || (type != 2 && type != 6) || interlace != 0 || width == 0 ||
      height == 0 || width > 8000 || height > 8000) {
    *error = fmt::format("unsupported PNG: depth {}, type {}, interlace {}",
                         depth, type, interlace);
    return colours;
  }
  std::string idat;
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t len = Be32(png, at);
    const std::string type_name = png.substr(at + 4, 4);
    if (at + 12 + len > png.size()) break;
    if (type_name == "IDAT") idat += png.substr(at + 8, len);
    at += 12 + len;
  }
  const size_t bpp = type == 6 ? 4 : 3;
  const size_t stride = width * bpp;
  std::vector<uint8_t> raw((stride + 1) * height);
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len,
                 reinterpret_cast<const Bytef*>(idat.data()),
                 idat.size()) != Z_OK ||
      raw_len != raw.size()) {
    *error = "IDAT does not inflate to the image size";
    return colours;
  }
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* line = &raw[y * (stride + 1)];
    const int filter = line[0];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? cur[i - bpp] : 0;
      const int b = prev[i];
      const int c = i >= bpp ? prev[i - bpp] : 0;
      int pred = 0;
      switch (filter) {
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c;
          const int pa = std::abs(p - a), pb = std::abs(p - b),
                    pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          break;
      }
      cur[i] = static_cast<uint8_t>(line[1 + i] + pred);
    }
    for (size_t x = 0; x < width; ++x) {
      colours.insert((uint32_t{cur[x * bpp]} << 16) |
                     (uint32_t{cur[x * bpp + 1]} << 8) | cur[x * bpp + 2]);
    }
    prev.swap(cur);
  }
  return colours;
}

uint32_t Rgb(const std::string& hex) {
  return static_cast<uint32_t>(std::stoul(hex.substr(1), nullptr, 16));
}

class ExplainBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty()) {
      GTEST_SKIP() << "no headless browser: install Debian's chromium "
                      "(scripts/install-deps.sh with TOPOLINT_WITH_EXTRAS=1) "
                      "or set TOPOLINT_CHROMIUM to run the browser test";
    }
  }

  // Renders `unit_dir`'s page, then the screenshot's colours and the DOM.
  void Render(const std::string& unit_dir, std::set<uint32_t>* colours,
              std::string* dom) {
    const std::string page = dir_.path() + "/topology.html";
    testing::CliResult r =
        RunTopolint({"explain", "--format", "html", "-o", page, unit_dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string png = dir_.path() + "/shot.png";
    ASSERT_EQ(RunChromium(chromium_, dir_, page, "--screenshot=" + png,
                          dir_.path() + "/shot.out"),
              0)
        << testing::ReadAll(dir_.path() + "/chromium.err");
    std::string error;
    *colours = PngColours(testing::ReadAll(png), &error);
    ASSERT_EQ(error, "");
    const std::string dom_file = dir_.path() + "/dom.html";
    ASSERT_EQ(RunChromium(chromium_, dir_, page, "--dump-dom", dom_file), 0)
        << testing::ReadAll(dir_.path() + "/chromium.err");
    *dom = testing::ReadAll(dom_file);
  }

  std::string chromium_;
  TempDir dir_;
};

TEST_F(ExplainBrowserTest, WorkedExampleShowsFourGroupsOfTwoAndTheNeff) {
  std::set<uint32_t> colours;
  std::string dom;
  Render("fixtures/explain/rank-model-example", &colours, &dom);
  if (HasFatalFailure()) return;
  // Not blank: the page, its text and the four group colours, exactly.
  EXPECT_GT(colours.size(), 8u);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(colours.count(Rgb(explain::GroupColour(g))), 1u) << "group " << g;
  }
  EXPECT_EQ(colours.count(0xd00000), 0u) << "no mismatch to mark";
  // The DOM the browser built: the 2 x 4 grid, 4 groups of 2 cells.
  const std::string hlo = html_test::ElementById(dom, "u0-l0-hlo");
  ASSERT_FALSE(hlo.empty()) << dom.substr(0, 2000);
  EXPECT_NE(hlo.find("data-rows=\"2\" data-columns=\"4\""), std::string::npos);
  EXPECT_EQ(html_test::Count(hlo, "<rect class=\"cell"), 8);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(html_test::Count(hlo, fmt::format("data-g=\"{}\"", g)), 2);
  }
  const std::string neff = html_test::ElementById(dom, "u0-l0-n0");
  EXPECT_EQ(html_test::Count(neff, "<rect class=\"cell"), 8);
  EXPECT_EQ(html_test::Count(neff, "mismatch"), 0);
}

TEST_F(ExplainBrowserTest, MismatchIsMarkedWhenTheDefJsonDiffers) {
  std::set<uint32_t> colours;
  std::string dom;
  Render("fixtures/explain/rank-model-mismatch", &colours, &dom);
  if (HasFatalFailure()) return;
  EXPECT_EQ(colours.count(0xd00000), 1u) << "the mismatch outline is drawn";
  const std::string neff = html_test::ElementById(dom, "u0-l0-n0");
  ASSERT_FALSE(neff.empty());
  EXPECT_EQ(html_test::Count(neff, "class=\"cell mismatch\""), 6);
  EXPECT_NE(dom.find("xref-topology-mismatch"), std::string::npos);
}

}  // namespace
}  // namespace topolint
