// `explain --format html`: one self-contained page (inline SVG and CSS, no
// network). The page reads without script; a few lines of it only
// highlight a hovered cell's group.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "checker/diag/xml_escape.h"
#include "checker/explain/explain_picture.h"
#include "fmt/format.h"
#include "rules/rule_ids.h"

namespace topolint::explain {
namespace {

constexpr size_t kOpsListed = 50;
// Findings listed per unit (each also linked from its picture); the rest
// are counted: `topolint check` lists them all.
constexpr size_t kFindingsListed = 500;

constexpr char kStyle[] = R"(
body{font-family:sans-serif;margin:16px;color:#222;max-width:1400px}
h1{font-size:20px}h2{font-size:17px;border-bottom:1px solid #ccc}
h3{font-size:15px}h4{font-size:14px;margin:4px 0;font-family:monospace}
.pair{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
figure{margin:0;border:1px solid #ddd;padding:6px;background:#fff}
figcaption{font-size:12px;margin-bottom:4px;font-family:monospace}
.block{border-left:4px solid #8899aa;padding-left:10px;margin:14px 0}
.facts,.ops,.verdicts{font-size:13px}
.differs{color:#a00000}.equal{color:#206020}
.findings{font-size:13px}.fix{color:#205080}
.sev-error{color:#a00000}.sev-warning{color:#8a5a00}.sev-note{color:#335}
rect.hl{stroke:#000000;stroke-width:2.5}
:target{background:#fff6c0}
code{font-size:12px}
)";

constexpr char kScript[] = R"(
for (const s of document.querySelectorAll('svg.grid')) {
  s.addEventListener('mouseover', e => {
    for (const x of s.querySelectorAll('.hl')) x.classList.remove('hl');
    const g = e.target.getAttribute && e.target.getAttribute('data-g');
    if (g !== null && g !== undefined)
      for (const x of s.querySelectorAll('rect[data-g="' + g + '"]'))
        x.classList.add('hl');
  });
}
)";

std::string E(std::string_view s) { return EscapeXml(s); }

std::string Figure(const Picture& p) {
  return fmt::format("<figure><figcaption>{}</figcaption>{}</figure>",
                     E(p.caption), PictureSvg(p).svg);
}

std::string Where(const Finding& f) {
  if (f.loc.line > 0) {
    return fmt::format("{}:{}:{}", f.loc.file, f.loc.line, f.loc.column);
  }
  if (f.loc.byte_offset >= 0) {
    return fmt::format("{} (byte {})", f.loc.file, f.loc.byte_offset);
  }
  return f.loc.file;
}

// The element a finding concerns: the list block of its op, the NEFF or
// config section of its file; "" when none is drawn.
std::string TargetOf(const Finding& f, const UnitPictures& pics,
                     const UnitExplanation& u, const std::string& prefix) {
  for (const ListBlock& b : pics.lists) {
    if (b.module_file != f.loc.file) continue;
    for (const std::string& op : b.ops) {
      if (op == f.anchor) return b.id;
    }
  }
  for (size_t k = 0; k < u.neffs.size(); ++k) {
    if (u.neffs[k].file == f.loc.file)
      return fmt::format("{}-neff{}", prefix, k);
  }
  for (const ConfigBlock& c : pics.configs) {
    if (c.file == f.loc.file || absl::StartsWith(c.file, f.loc.file + " (")) {
      return c.id;
    }
  }
  for (const ModuleExplanation& m : u.modules) {
    if (m.file == f.loc.file) return prefix + "-modules";
  }
  return "";
}

std::string FindingLinks(const std::vector<std::string>& ids,
                         const std::vector<Finding>& findings,
                         const std::vector<size_t>& which) {
  if (which.empty()) return "";
  std::string out = "<ul class=\"findings\">";
  for (size_t k : which) {
    const Finding& f = findings[k];
    out +=
        fmt::format("<li class=\"sev-{}\"><a href=\"#{}\">{}: {}</a> [{}]</li>",
                    SeverityName(f.severity), ids[k], SeverityName(f.severity),
                    E(f.message), E(f.rule));
  }
  return out + "</ul>";
}

// One unit's section of the page, top to bottom (heading, summary,
// pictures, legend, findings). Issue 47 §5 redraws the pictures and
// reshapes this function with them.
// NOLINTNEXTLINE(readability-function-size,readability-function-cognitive-complexity)
std::string Unit(const UnitExplanation& u, const std::vector<Finding>& findings,
                 size_t index, const DrawBudget& budget, int64_t* cells_drawn,
                 int64_t* pictures_drawn) {
  const std::string prefix = fmt::format("u{}", index);
  UnitPictures pics = DrawUnit(u, prefix, budget);
  *cells_drawn = pics.cells_drawn;
  *pictures_drawn = pics.pictures_drawn;
  const size_t listed = std::min(findings.size(), kFindingsListed);
  std::vector<std::string> finding_ids, targets;
  for (size_t k = 0; k < listed; ++k) {
    finding_ids.push_back(fmt::format("{}-f{}", prefix, k));
    targets.push_back(TargetOf(findings[k], pics, u, prefix));
  }
  auto about = [&](const std::string& id) {
    std::vector<size_t> which;
    for (size_t k = 0; k < listed; ++k) {
      if (targets[k] == id) which.push_back(k);
    }
    return which;
  };
  // Mismatching cells link to the op's topology-mismatch finding.
  for (ListBlock& b : pics.lists) {
    for (size_t k : about(b.id)) {
      if (findings[k].rule != kXrefTopologyMismatch.str()) continue;
      for (Picture& n : b.neff) {
        bool names_file = findings[k].notes.empty();
        for (const Note& note : findings[k].notes) {
          names_file = names_file || note.loc.file == n.file;
        }
        if (names_file && n.mismatch_href.empty()) {
          n.mismatch_href = "#" + finding_ids[k];
        }
      }
    }
  }
  std::string out = fmt::format(
      "<section class=\"unit\" id=\"{}\"><h2>unit {}</h2>"
      "<p class=\"facts\">files: {}</p>",
      prefix, E(u.directory), E(fmt::format("{}", fmt::join(u.files, ", "))));
  if (!u.modules.empty()) {
    out += fmt::format("<h3 id=\"{}-modules\">HLO modules</h3>", prefix);
    for (const ModuleExplanation& m : u.modules) {
      out += fmt::format(
          "<p class=\"facts\"><code>{}</code> ({}{}): R = {} ({}), P = {} "
          "({}), devices = {}{}</p>",
          E(m.file), m.format == "HLO" ? "" : E(m.format + " module "),
          E(m.name), m.replica_count, E(m.replica_count_label),
          m.num_partitions, E(m.num_partitions_label),
          m.devices.has_value() ? std::to_string(*m.devices) : "overflow",
          m.counts_recorded ? ""
                            : " (not recorded: taken from the ids listed)");
    }
    out += FindingLinks(finding_ids, findings, about(prefix + "-modules"));
  }
  if (const std::string summary = BudgetSummary(pics); !summary.empty()) {
    out += fmt::format("<p class=\"facts budget\">{}</p>", E(summary));
  }
  for (const ListBlock& b : pics.lists) {
    std::string ops;
    for (size_t i = 0; i < b.ops.size() && i < kOpsListed; ++i) {
      ops += (i > 0 ? ", " : "") + fmt::format("<code>{}</code>", E(b.ops[i]));
    }
    if (b.ops.size() > kOpsListed) {
      ops += fmt::format(" and {} more", b.ops.size() - kOpsListed);
    }
    std::string verdicts;
    for (const std::string& v : b.neff_verdicts) {
      verdicts += fmt::format(
          "<li class=\"{}\">{}</li>",
          absl::StrContains(v, ": differs:") ? "differs" : "equal", E(v));
    }
    std::string figures = Figure(b.hlo);
    for (const Picture& n : b.neff) figures += Figure(n);
    out += fmt::format(
        "<div class=\"block list\" id=\"{}\"><h4>{}</h4>"
        "<p class=\"facts\">{} &#8212; {}</p>{}"
        "<p class=\"ops\">used by {} collective{}: {}</p>"
        "<div class=\"pair\">{}</div><ul class=\"verdicts\">{}</ul>{}</div>",
        b.id, E(b.groups_text), E(b.module_file), E(b.mode),
        b.placement.empty() ? std::string()
                            : fmt::format("<p class=\"facts placement\">{}</p>",
                                          E(b.placement)),
        b.ops.size(), b.ops.size() == 1 ? "" : "s", ops, figures, verdicts,
        FindingLinks(finding_ids, findings, about(b.id)));
  }
  if (!pics.undrawn.empty()) {
    out += "<p class=\"facts\">not drawn:</p><ul class=\"facts\">";
    for (const std::string& s : pics.undrawn) {
      out += fmt::format("<li>{}</li>", E(s));
    }
    if (pics.undrawn_more > 0) {
      out += fmt::format("<li>... and {} more</li>", pics.undrawn_more);
    }
    out += "</ul>";
  }
  for (size_t k = 0; k < u.neffs.size(); ++k) {
    const NeffExplanation& n = u.neffs[k];
    const std::string id = fmt::format("{}-neff{}", prefix, k);
    std::string alone;
    for (const Picture& p : pics.neff_alone) {
      if (p.id == fmt::format("{}-n{}", prefix, k)) alone = Figure(p);
    }
    std::string world =
        n.mpmd.empty()
            ? fmt::format("world size = max({}, {}, {}, 1) = {}", n.world.ws_rg,
                          n.world.ws_pairs, n.world.ws_expl, n.world.world_size)
            : E(fmt::format("{}", fmt::join(n.mpmd, "; ")));
    out += fmt::format(
        "<div class=\"block neff\" id=\"{}\"><h3>NEFF <code>{}</code></h3>"
        "<p class=\"facts\">replica_groups[topology][group][rank], shape {}; "
        "{}; {} src_target_pairs</p><div class=\"pair\">{}</div>{}</div>",
        id, E(n.file), E(n.shape), world, n.pairs.size(), alone,
        FindingLinks(finding_ids, findings, about(id)));
  }
  for (const ConfigBlock& c : pics.configs) {
    std::string facts;
    for (const std::string& f : c.facts) {
      facts += fmt::format("<p class=\"facts\">{}</p>", E(f));
    }
    std::string figures;
    for (const Picture& p : c.families) figures += Figure(p);
    out += fmt::format(
        "<div class=\"block config\" id=\"{}\"><h3>component config "
        "<code>{}</code></h3>{}<p class=\"facts\">group families on the DP "
        "&#215; TP rank grid (component TP groups, DP column groups, ...):</p>"
        "<div class=\"pair\">{}</div>{}</div>",
        c.id, E(c.file), facts, figures,
        FindingLinks(finding_ids, findings, about(c.id)));
  }
  if (pics.lnc_map.has_value()) {
    out += fmt::format("<div class=\"block lnc\"><h3>LNC</h3>{}</div>",
                       Figure(*pics.lnc_map));
  }
  out += fmt::format("<h3>Findings ({})</h3>", findings.size());
  if (findings.empty()) {
    out += "<p class=\"facts\">none</p>";
  } else {
    out += "<ol class=\"findings\">";
    for (size_t k = 0; k < listed; ++k) {
      const Finding& f = findings[k];
      const std::string link =
          targets[k].empty()
              ? ""
              : fmt::format(" <a href=\"#{}\">&#8593; picture</a>", targets[k]);
      const std::string fix =
          f.fix == nullptr
              ? ""
              : fmt::format(
                    " <span class=\"fix\">(fix: {}; <code>topolint check "
                    "--fix{}</code>)</span>",
                    E(f.fix->title),
                    f.fix->needs_fix_from.empty()
                        ? ""
                        : " --fix-from " + E(f.fix->needs_fix_from));
      out += fmt::format(
          "<li id=\"{}\" class=\"sev-{}\"><code>{}</code>: {}: {} [{}]{}{}"
          "</li>",
          finding_ids[k], SeverityName(f.severity), E(Where(f)),
          SeverityName(f.severity), E(f.message), E(f.rule), fix, link);
    }
    out += "</ol>";
    if (listed < findings.size()) {
      out += fmt::format(
          "<p class=\"facts\">... and {} more findings: run <code>topolint "
          "check</code> for all of them</p>",
          findings.size() - listed);
    }
  }
  return out + "</section>";
}

}  // namespace

std::string RenderExplainHtml(
    const std::vector<UnitExplanation>& units,
    const std::vector<std::vector<Finding>>& findings) {
  std::string body;
  std::string nav;
  static const std::vector<Finding> kNone;
  int64_t cells_left = kMaxDrawnCellsPerPage;
  int64_t pictures_left = kMaxDrawnPicturesPerPage;
  for (size_t i = 0; i < units.size(); ++i) {
    nav += fmt::format("<li><a href=\"#u{}\">{}</a></li>", i,
                       E(units[i].directory));
    // The unit's budget, or what is left of the page's when that is less.
    DrawBudget budget;
    if (cells_left < kMaxDrawnCellsPerUnit ||
        pictures_left < kMaxDrawnPicturesPerUnit) {
      budget.cells = std::min(cells_left, kMaxDrawnCellsPerUnit);
      budget.pictures = std::min(pictures_left, kMaxDrawnPicturesPerUnit);
      budget.name =
          fmt::format("{} cells and {} pictures per page",
                      kMaxDrawnCellsPerPage, kMaxDrawnPicturesPerPage);
    }
    int64_t cells = 0, pictures = 0;
    body += Unit(units[i], i < findings.size() ? findings[i] : kNone, i, budget,
                 &cells, &pictures);
    cells_left -= cells;
    pictures_left -= pictures;
  }
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>topolint explain</title><style>{}</style></head><body>"
      "<h1>topolint explain</h1><p class=\"facts\">Each cell is a device (or "
      "rank) coloured by its group, with its group's number and, small in "
      "its corner, its position in the group (0 = first); hover a cell for "
      "both. Cells of topology[0] whose group or position differs from the "
      "HLO are outlined in red and marked with a small red "
      "cross.</p><nav><ul>{}</ul></nav>{}"
      "<script>{}</script></body></html>\n",
      kStyle, nav, body, kScript);
}

}  // namespace topolint::explain
