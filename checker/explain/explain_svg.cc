// Drawing pictures as SVG (explain --format svg, and the grids of the HTML
// page). Cells shrink with the grid; their text moves to hover <title>s
// when it no longer fits. Presentation is in attributes, not a style sheet,
// so that a standalone SVG looks as it does inside the page.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "checker/diag/xml_escape.h"
#include "checker/explain/explain_picture.h"
#include "fmt/format.h"

namespace topolint::explain {
namespace {

constexpr int64_t kGutter = 44;        // row labels
constexpr int64_t kTop = 28;           // axis name and column labels
constexpr int64_t kLegendLine = 20;    // one legend row
constexpr int64_t kLegendGroups = 12;  // groups given a swatch
constexpr int64_t kMinWidth = 360;
constexpr int64_t kMaxFindingLines = 40;

int64_t CellSize(const Picture& p) {
  const int64_t largest = std::max(p.rows, p.columns);
  if (p.rows * p.columns > 1024) return 10;
  if (p.rows * p.columns > 256) return 14;
  if (largest > 32) return 14;
  if (largest > 16) return 20;
  if (largest > 8) return 28;
  return 36;
}

// HSL (hue in degrees, s and l in [0, 1]) as "#rrggbb".
std::string Hsl(double h, double s, double l) {
  const double c = (1 - std::fabs(2 * l - 1)) * s;
  const double hp = h / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1) {
    r = c, g = x;
  } else if (hp < 2) {
    r = x, g = c;
  } else if (hp < 3) {
    g = c, b = x;
  } else if (hp < 4) {
    g = x, b = c;
  } else if (hp < 5) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  const double m = l - c / 2;
  auto byte = [&](double v) {
    return static_cast<int>(std::lround(std::clamp(v + m, 0.0, 1.0) * 255));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

std::string Cell(const Picture& p, const PictureCell& c, int64_t x, int64_t y,
                 int64_t size) {
  if (c.id < 0) return "";
  std::string out;
  const bool link = c.mismatch && !p.mismatch_href.empty();
  if (link) {
    out += fmt::format("<a href=\"{}\">", EscapeXml(p.mismatch_href));
  }
  out += fmt::format(
      "<rect class=\"cell{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
      "fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" data-id=\"{}\"{}>"
      "<title>{}</title></rect>",
      c.mismatch ? " mismatch" : "", x + 1, y + 1, size - 2, size - 2,
      GroupColour(c.group), c.mismatch ? "#d00000" : "#ffffff",
      c.mismatch ? 3 : 1, c.id,
      c.group >= 0 ? fmt::format(" data-g=\"{}\"", c.group) : "",
      EscapeXml(c.title));
  if (c.mismatch) {
    // A cross, so that the mark does not rely on colour alone: in the
    // top-left corner, clear of the numbers.
    const int64_t k = std::max<int64_t>(size / 4, 3);
    out += fmt::format(
        "<path class=\"mismatch-mark\" d=\"M{} {}L{} {}M{} {}L{} {}\" "
        "stroke=\"#d00000\" stroke-width=\"1.5\" pointer-events=\"none\"/>",
        x + 3, y + 3, x + 3 + k, y + 3 + k, x + 3 + k, y + 3, x + 3, y + 3 + k);
  }
  // Numbers keep a white halo, readable on every fill and over the mark.
  constexpr std::string_view kHalo =
      "paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\" "
      "stroke-linejoin=\"round\"";
  if (size >= 20 && !c.label.empty()) {
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{}\" "
        "font-family=\"monospace\" {} pointer-events=\"none\">{}{}</text>",
        x + size / 2, y + size / 2 + (size >= 28 ? 2 : 4), size >= 28 ? 12 : 10,
        kHalo, EscapeXml(c.label), c.marked ? "*" : "");
  } else if (c.marked) {
    out += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#000\" "
        "pointer-events=\"none\"/>",
        x + size / 2, y + size / 2, std::max<int64_t>(size / 5, 2));
  }
  // The cell's place in its group: its index in the bottom-right corner
  // where it fits, else a tick along the bottom edge (left: first, right:
  // last), so that the same groups in another order look different.
  if (c.position >= 0 && size >= 28) {
    out += fmt::format(
        "<text class=\"position\" x=\"{}\" y=\"{}\" text-anchor=\"end\" "
        "font-size=\"9\" font-family=\"monospace\" fill=\"#333333\" {} "
        "pointer-events=\"none\">{}</text>",
        x + size - 3, y + size - 3, kHalo, c.position);
  } else if (c.position >= 0 && size >= 14 && c.group_size > 1) {
    const int64_t span = size - 8;
    const int64_t at = x + 3 + span * c.position / (c.group_size - 1);
    out += fmt::format(
        "<rect class=\"position\" x=\"{}\" y=\"{}\" width=\"2\" "
        "height=\"3\" fill=\"#222222\" pointer-events=\"none\"/>",
        at, y + size - 5);
  }
  if (link) out += "</a>";
  return out;
}

std::string Swatch(int64_t x, int64_t y, const std::string& fill,
                   const std::string& stroke, const std::string& text) {
  return fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\" "
      "stroke=\"{}\" stroke-width=\"{}\"/><text x=\"{}\" y=\"{}\" "
      "font-size=\"11\" font-family=\"sans-serif\">{}</text>",
      x, y, fill, stroke, stroke == "#d00000" ? 3 : 1, x + 16, y + 10,
      EscapeXml(text));
}

// Legend entries below the grid: one swatch per group (the first few),
// "in no group", the mismatch mark and the --core mark when used.
std::string Legend(const Picture& p, int64_t y, int64_t width,
                   int64_t* height) {
  struct Entry {
    std::string fill, stroke, text;
  };
  std::vector<Entry> entries;
  const int64_t shown = std::min(p.num_groups, kLegendGroups);
  for (int64_t g = 0; g < shown; ++g) {
    entries.push_back({GroupColour(g), "#888888", fmt::format("group {}", g)});
  }
  if (p.num_groups > shown) {
    entries.push_back({"#ffffff", "#ffffff",
                       fmt::format("... {} groups in all", p.num_groups)});
  }
  bool none = false, marked = false;
  for (const PictureCell& c : p.cells) {
    none = none || (c.id >= 0 && c.group < 0);
    marked = marked || c.marked;
  }
  if (none && p.legend_none)
    entries.push_back({GroupColour(-1), "#888888", "in no group"});
  if (p.has_mismatch) {
    entries.push_back({"#ffffff", "#d00000", "differs from the HLO"});
  }
  bool placed = false;
  for (const PictureCell& c : p.cells) placed = placed || c.position >= 0;
  if (placed && CellSize(p) >= 28) {
    entries.push_back(
        {"#ffffff", "#888888", "big number: group; small: place in it"});
  } else if (placed && CellSize(p) >= 14) {
    entries.push_back(
        {"#ffffff", "#888888", "tick: place in the group (left = first)"});
  }
  if (marked) entries.push_back({"#ffffff", "#888888", "* the --core rank"});
  std::string out;
  int64_t x = 4;
  int64_t line_y = y;
  for (const Entry& e : entries) {
    const int64_t w = 24 + 7 * static_cast<int64_t>(e.text.size());
    if (x + w > width && x > 4) {
      x = 4;
      line_y += kLegendLine;
    }
    out += Swatch(x, line_y, e.fill, e.stroke, e.text);
    x += w;
  }
  *height = entries.empty() ? 0 : line_y - y + kLegendLine;
  return out;
}

}  // namespace

std::string GroupColour(int64_t g) {
  if (g < 0) return "#e4e4e4";
  // Golden-angle hues keep neighbouring groups apart; three lightness
  // bands tell apart groups whose hues come close again.
  const double hue = std::fmod(static_cast<double>(g) * 137.508, 360.0);
  const double light = 0.62 + 0.08 * static_cast<double>(g % 3);
  return Hsl(hue, 0.65, light);
}

SvgBox PictureSvg(const Picture& p) {
  const int64_t size = CellSize(p);
  const int64_t grid_w = kGutter + p.columns * size + 4;
  const int64_t width = std::max(grid_w, kMinWidth);
  const int64_t grid_h = kTop + p.rows * size + 6;
  std::string body;
  const bool numbers = size >= 14;
  body += fmt::format(
      "<text x=\"{}\" y=\"10\" font-size=\"10\" font-family=\"sans-serif\" "
      "fill=\"#555\">{} &#8594;</text>",
      kGutter, EscapeXml(p.column_axis));
  for (int64_t c = 0; numbers && c < p.columns; ++c) {
    if (size < 20 && c % 4 != 0) continue;
    body += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" "
        "font-family=\"monospace\" fill=\"#555\">{}</text>",
        kGutter + c * size + size / 2, kTop - 3, c);
  }
  for (int64_t r = 0; r < p.rows; ++r) {
    const int64_t y = kTop + r * size;
    if (numbers && (size >= 20 || r % 4 == 0)) {
      body += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"end\" "
          "font-family=\"monospace\" fill=\"#555\">{} {}</text>",
          kGutter - 4, y + size / 2 + 3, EscapeXml(p.row_axis.substr(0, 8)), r);
    }
    for (int64_t c = 0; c < p.columns; ++c) {
      const size_t i = static_cast<size_t>(r * p.columns + c);
      if (i < p.cells.size()) {
        body += Cell(p, p.cells[i], kGutter + c * size, y, size);
      }
    }
  }
  int64_t legend_h = 0;
  body += Legend(p, grid_h, width, &legend_h);
  const int64_t height = grid_h + legend_h + 4;
  SvgBox box;
  box.width = width;
  box.height = height;
  box.svg = fmt::format(
      "<svg class=\"grid\" xmlns=\"http://www.w3.org/2000/svg\" id=\"{}\" "
      "width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"{}\" data-rows=\"{}\" data-columns=\"{}\">"
      "<title>{}</title>{}</svg>",
      EscapeXml(p.id), width, height, width, height, EscapeXml(p.caption),
      p.rows, p.columns, EscapeXml(p.caption), body);
  return box;
}

std::string RenderExplainSvg(const UnitExplanation& unit,
                             const std::vector<Finding>& findings) {
  const UnitPictures pics = DrawUnit(unit, "u0", DrawBudget());
  std::string body;
  int64_t y = 4;
  int64_t width = kMinWidth;
  auto text = [&](const std::string& t, int size, bool bold) {
    y += size + 6;
    width = std::max<int64_t>(width, 8 + 7 * static_cast<int64_t>(t.size()));
    body += fmt::format(
        "<text x=\"4\" y=\"{}\" font-size=\"{}\" font-family=\"sans-serif\"{}>"
        "{}</text>",
        y, size, bold ? " font-weight=\"bold\"" : "", EscapeXml(t));
    y += 4;
  };
  // Pictures side by side (a list's grid and topology[0] beside it).
  auto row = [&](std::vector<const Picture*> row_pictures) {
    int64_t x = 4, tallest = 0;
    for (const Picture* p : row_pictures) {
      const SvgBox box = PictureSvg(*p);
      body += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-size=\"12\" "
          "font-family=\"sans-serif\">{}</text>",
          x, y + 14, EscapeXml(p->caption));
      body += fmt::format("<g transform=\"translate({},{})\">{}</g>", x, y + 20,
                          box.svg);
      x += box.width + 16;
      tallest = std::max(tallest, box.height + 20);
    }
    width = std::max(width, x);
    y += tallest + 8;
  };
  text(fmt::format("unit {}", unit.directory), 16, true);
  if (const std::string summary = BudgetSummary(pics); !summary.empty()) {
    text(summary, 12, false);
  }
  for (const ListBlock& b : pics.lists) {
    text(fmt::format("{}: {} ({} op{}: {})", b.module_file, b.groups_text,
                     b.ops.size(), b.ops.size() == 1 ? "" : "s", b.ops.front()),
         13, true);
    std::vector<const Picture*> r{&b.hlo};
    for (const Picture& n : b.neff) r.push_back(&n);
    row(r);
    if (!b.placement.empty()) text(b.placement, 12, false);
    for (const std::string& v : b.neff_verdicts) text(v, 12, false);
  }
  for (const Picture& n : pics.neff_alone) row({&n});
  for (const ConfigBlock& c : pics.configs) {
    text(fmt::format("component config {}", c.file), 13, true);
    for (const std::string& f : c.facts) text(f, 12, false);
    for (const Picture& f : c.families) row({&f});
  }
  if (pics.lnc_map.has_value()) row({&*pics.lnc_map});
  for (const std::string& u : pics.undrawn) text(u, 12, false);
  if (pics.undrawn_more > 0) {
    text(fmt::format("... and {} more not drawn", pics.undrawn_more), 12,
         false);
  }
  int64_t shown = 0;
  for (const Finding& f : findings) {
    if (shown++ == kMaxFindingLines) {
      text(fmt::format("... {} findings in all", findings.size()), 12, false);
      break;
    }
    text(fmt::format("{}:{}: {}: {} [{}]", f.loc.file, f.loc.line,
                     SeverityName(f.severity), f.message, f.rule),
         12, false);
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\"><rect width=\"100%\" height=\"100%\" "
      "fill=\"#ffffff\"/>{}</svg>\n",
      width + 4, y + 8, width + 4, y + 8, body);
}

}  // namespace topolint::explain
