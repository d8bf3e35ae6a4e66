// Shared helpers of the libFuzzer targets: running a unit through every rule,
// renderer and `explain`, and checking the invariants every finding must
// keep whatever the input (a known rule id, a location inside the document).
// A broken invariant aborts with a message, which libFuzzer reports as a
// crash.
#ifndef TOPOLINT_FUZZ_FUZZ_UTIL_H_
#define TOPOLINT_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/core/rule_selection.h"
#include "checker/core/runner.h"
#include "checker/diag/finding.h"
#include "checker/diag/render.h"
#include "checker/diag/source_cache.h"
#include "checker/explain/explain.h"
#include "checker/model/unit.h"
#include "rules/registry.h"

namespace topolint::fuzz {

// Where a broken invariant goes. Unset (the fuzzers): print and abort, so
// libFuzzer saves the input. Tests set it to record a test failure instead.
inline std::function<void(const std::string&)>& FailHook() {
  static std::function<void(const std::string&)> hook;
  return hook;
}

inline void Fail(const std::string& what) {
  if (FailHook()) {
    FailHook()(what);
    return;
  }
  std::fprintf(stderr, "topolint fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

// Number of lines of `text` as an editor counts them (a final line without
// '\n' counts; an empty text has one empty line; "\r\n" and a lone '\r'
// end a line, as the HLO parser counts them; JSON, which counts '\n'
// only, stays within this bound).
inline int64_t LineCount(std::string_view text) {
  int64_t n = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    n += text[i] == '\n' ||
         (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  }
  return n;
}

// A document the fuzzer fed in, by display name.
struct Document {
  std::string name;
  std::string text;
};

// Every finding names a registered rule and, when its file is one of
// `docs`, points inside that document (line 0 = whole file is allowed).
inline void CheckLocation(const Location& loc,
                          const std::vector<Document>& docs,
                          const std::string& what) {
  if (loc.line < 0 || loc.column < 0) {
    Fail(what + ": negative line or column at " + loc.file);
  }
  for (const Document& d : docs) {
    if (d.name != loc.file) continue;
    if (loc.line > LineCount(d.text)) {
      Fail(what + ": line " + std::to_string(loc.line) + " past the end of " +
           d.name + " (" + std::to_string(LineCount(d.text)) + " lines)");
    }
  }
}

inline void CheckFindings(const std::vector<Finding>& findings,
                          const std::vector<Document>& docs) {
  for (const Finding& f : findings) {
    if (FindRule(f.rule) == nullptr) Fail("unregistered rule id " + f.rule);
    if (f.message.empty()) Fail("empty message for " + f.rule);
    CheckLocation(f.loc, docs, f.rule);
    for (const Note& n : f.notes) CheckLocation(n.loc, docs, f.rule + " note");
  }
}

// Runs every rule over `unit` with `options`, checks the findings, renders
// them in every format and explains the unit.
inline std::vector<Finding> CheckRenderExplain(
    const Unit& unit, const CheckOptions& options,
    const std::vector<Document>& docs) {
  RuleSelection selection;
  std::vector<Finding> findings = CheckUnit(unit, options, selection);
  CheckFindings(findings, docs);

  SourceCache sources;
  for (const Document& d : docs) sources.AddInMemory(d.name, d.text);
  for (const neff::NeffArchive& a : unit.neff_archives) {
    for (const auto& [name, text] : a.member_texts) {
      sources.AddInMemory(name, text);
    }
  }
  std::string out = RenderText(findings, sources, /*color=*/true);
  out += RenderJson(findings);
  out += RenderGithub(findings);
  // SARIF's rules[] lists only the rules that fired: the full table is a
  // fixed cost per input that would halve the fuzzers' speed.
  std::vector<RuleDescriptor> rules;
  for (const RuleInfo& r : AllRules()) {
    for (const Finding& f : findings) {
      if (f.rule != r.id) continue;
      rules.push_back({std::string(r.id), r.default_severity,
                       std::string(r.summary), "", "", ""});
      break;
    }
  }
  out += RenderSarif(findings, rules, "fuzz");

  explain::ExplainSettings settings;
  settings.check = options;
  std::vector<explain::UnitExplanation> explained;
  explained.push_back(explain::ExplainUnit(unit, settings));
  out += explain::RenderExplainText(explained);
  out += explain::RenderExplainJson(explained);
  if (out.empty()) Fail("nothing rendered");
  return findings;
}

// Splits `data` at each occurrence of `sep`.
inline std::vector<std::string_view> Split(std::string_view data,
                                           std::string_view sep) {
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (;;) {
    size_t at = data.find(sep, from);
    if (at == std::string_view::npos) break;
    parts.push_back(data.substr(from, at - from));
    from = at + sep.size();
  }
  parts.push_back(data.substr(from));
  return parts;
}

}  // namespace topolint::fuzz

#endif  // TOPOLINT_FUZZ_FUZZ_UTIL_H_
