// The HTML page in a real headless browser (Debian's chromium): the
// screenshot of the worked example is not blank and shows the group colours
// (and the mismatch red when the def.json differs), and the DOM the browser
// built holds the expected cells. Skipped where no chromium is installed.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
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

// The pixels of an 8-bit RGB or RGBA, non-interlaced PNG, row-major, as
// 0xRRGGBB; sets `*error` when the file is something else.
struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> rgb;
};
Image PngPixels(const std::string& png, std::string* error) {
  Image image;
  std::vector<uint32_t>& colours = image.rgb;
  if (png.size() < 33 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    *error = "not a PNG";
    return image;
  }
  const uint32_t width = Be32(png, 16), height = Be32(png, 20);
  const int depth = static_cast<uint8_t>(png[24]);
  const int type = static_cast<uint8_t>(png[25]);
  const int interlace = static_cast<uint8_t>(png[28]);
  if (depth != 8 || (type != 2 && type != 6) || interlace != 0 || width == 0 ||
      height == 0 || width > 8000 || height > 8000) {
    *error = fmt::format("unsupported PNG: depth {}, type {}, interlace {}",
                         depth, type, interlace);
    return image;
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
    return image;
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
      colours.push_back((uint32_t{cur[x * bpp]} << 16) |
                        (uint32_t{cur[x * bpp + 1]} << 8) | cur[x * bpp + 2]);
    }
    prev.swap(cur);
  }
  image.width = width;
  image.height = height;
  return image;
}

// The distinct colours of a PNG.
std::set<uint32_t> PngColours(const std::string& png, std::string* error) {
  const Image image = PngPixels(png, error);
  return std::set<uint32_t>(image.rgb.begin(), image.rgb.end());
}

// Where `colour` is in `image`, as (x, y) moved so that the topmost,
// leftmost of them is at (0, 0): the shape a group's cells make, whatever
// the page's layout above the grid.
std::set<std::pair<uint32_t, uint32_t>> Shape(const Image& image,
                                              uint32_t colour) {
  std::set<std::pair<uint32_t, uint32_t>> at;
  uint32_t min_x = UINT32_MAX, min_y = UINT32_MAX;
  for (uint32_t y = 0; y < image.height; ++y) {
    for (uint32_t x = 0; x < image.width; ++x) {
      if (image.rgb[y * image.width + x] != colour) continue;
      at.insert({x, y});
      min_x = std::min(min_x, x);
      min_y = std::min(min_y, y);
    }
  }
  std::set<std::pair<uint32_t, uint32_t>> shape;
  for (const auto& [x, y] : at) shape.insert({x - min_x, y - min_y});
  return shape;
}

// How many pixels are in one shape and not the other.
size_t ShapeDistance(const std::set<std::pair<uint32_t, uint32_t>>& a,
                     const std::set<std::pair<uint32_t, uint32_t>>& b) {
  size_t n = 0;
  for (const auto& p : a) n += b.count(p) == 0 ? 1 : 0;
  for (const auto& p : b) n += a.count(p) == 0 ? 1 : 0;
  return n;
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

  // The screenshot of `unit_dir`'s page (explain --format html).
  Image Shot(const std::string& unit_dir, const std::string& name) {
    const std::string page = dir_.path() + "/" + name + ".html";
    testing::CliResult r =
        RunTopolint({"explain", "--format", "html", "-o", page, unit_dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string png = dir_.path() + "/" + name + ".png";
    EXPECT_EQ(RunChromium(chromium_, dir_, page, "--screenshot=" + png,
                          dir_.path() + "/shot.out"),
              0)
        << testing::ReadAll(dir_.path() + "/chromium.err");
    std::string error;
    Image image = PngPixels(testing::ReadAll(png), &error);
    EXPECT_EQ(error, "");
    return image;
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

// Issue 47 §5: a rank's place in its group is drawn, so two lists of the
// same groups in another order look different. Two modules differing only
// in the order of group 1 ({1,5} and {5,1}): the cells of group 1 differ
// in the screenshots, those of the other groups do not. The committed
// reference (tests/data/explain-order-51.png, the {5,1} page) shows the
// same: the {5,1} screenshot's group-1 cells are closer to it than the
// {1,5} one's. Before the place was drawn, both screenshots were the same.
TEST_F(ExplainBrowserTest, OrderInsideAGroupIsVisible) {
  const std::string hlo =
      "HloModule m, replica_count=1, num_partitions=8\n\n"
      "%add (x: f32[], y: f32[]) -> f32[] {\n"
      "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n\n"
      "ENTRY %main (p: f32[16]) -> f32[16] {\n"
      "  %p = f32[16]{0} parameter(0)\n"
      "  ROOT %ar = f32[16]{0} all-reduce(f32[16]{0} %p), channel_id=1, "
      "replica_groups={GROUPS}, use_global_device_ids=true, to_apply=%add\n"
      "}\n";
  auto module = [&](const std::string& groups) {
    std::string text = hlo;
    text.replace(text.find("{GROUPS}"), 8, groups);
    return text;
  };
  testing::WriteAll(dir_.path() + "/a/model.hlo",
                    module("{{0,4},{1,5},{2,6},{3,7}}"));
  testing::WriteAll(dir_.path() + "/b/model.hlo",
                    module("{{0,4},{5,1},{2,6},{3,7}}"));
  const Image a = Shot(dir_.path() + "/a", "a");
  const Image b = Shot(dir_.path() + "/b", "b");
  if (HasFailure()) return;
  for (int g = 0; g < 4; ++g) {
    const auto shape_a = Shape(a, Rgb(explain::GroupColour(g)));
    const auto shape_b = Shape(b, Rgb(explain::GroupColour(g)));
    ASSERT_FALSE(shape_a.empty()) << "group " << g << " is drawn";
    if (g == 1) {
      EXPECT_GT(ShapeDistance(shape_a, shape_b), 10u)
          << "{1,5} and {5,1} look the same";
    } else {
      EXPECT_EQ(ShapeDistance(shape_a, shape_b), 0u) << "group " << g;
    }
  }
  // The committed reference (TOPOLINT_KEEP_SCREENSHOTS=DIR writes this
  // screenshot there, to renew it).
  if (const char* keep = std::getenv("TOPOLINT_KEEP_SCREENSHOTS")) {
    std::filesystem::copy_file(
        dir_.path() + "/b.png", std::string(keep) + "/explain-order-51.png",
        std::filesystem::copy_options::overwrite_existing);
  }
  std::string error;
  const Image reference =
      PngPixels(testing::ReadAll(std::string(TOPOLINT_SOURCE_DIR) +
                                 "/tests/data/explain-order-51.png"),
                &error);
  ASSERT_EQ(error, "");
  const auto ref1 = Shape(reference, Rgb(explain::GroupColour(1)));
  EXPECT_LT(ShapeDistance(Shape(b, Rgb(explain::GroupColour(1))), ref1),
            ShapeDistance(Shape(a, Rgb(explain::GroupColour(1))), ref1));
}

}  // namespace
}  // namespace topolint
