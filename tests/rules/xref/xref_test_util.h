// Units for the xref-* rule tests, built from small HLO and def.json texts
// (so that positions are those of the texts), and a runner for CheckXref.
#ifndef TOPOLINT_TESTS_XREF_XREF_TEST_UTIL_H_
#define TOPOLINT_TESTS_XREF_XREF_TEST_UTIL_H_

#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/model/unit.h"
#include "checker/neff/def_json.h"
#include "gtest/gtest.h"
#include "rules/emitter.h"
#include "rules/families.h"
#include "tests/common/finding_print.h"

namespace topolint::testing_xref {

// An HLO module of `header` attributes whose entry holds `ops` (one per
// line; `%p` is an f32[8] parameter, `%add` a reducer). Op i (0-based) is on
// line 10 + i and starts at column 3 (the last one after `ROOT `).
inline hlo::Module Hlo(const std::string& header,
                       const std::vector<std::string>& ops) {
  std::string text = "HloModule m" + header + "\n\n" +
                     "%add (x: f32[], y: f32[]) -> f32[] {\n"
                     "  %x = f32[] parameter(0)\n"
                     "  %y = f32[] parameter(1)\n"
                     "  ROOT %s = f32[] add(%x, %y)\n"
                     "}\n"
                     "ENTRY %main (p: f32[8]) -> f32[8] {\n"
                     "  %p = f32[8]{0} parameter(0)\n";
  for (size_t i = 0; i < ops.size(); ++i) {
    text += (i + 1 == ops.size() ? "  ROOT " : "  ") + ops[i] + "\n";
  }
  text += "}\n";
  hlo::Module m = hlo::ParseHloText(text, "model.hlo");
  EXPECT_TRUE(m.syntax_errors.empty())
      << (m.syntax_errors.empty() ? "" : m.syntax_errors[0].message) << "\n"
      << text;
  return m;
}

// `%name = f32[8]{0} all-reduce(%p), <attrs>, to_apply=%add`.
inline std::string AllReduce(const std::string& name,
                             const std::string& attrs) {
  return "%" + name + " = f32[8]{0} all-reduce(%p), " + attrs +
         ", to_apply=%add";
}

// A flattened-id all-reduce with `groups` written as given.
inline std::string FlatAllReduce(const std::string& name,
                                 const std::string& groups) {
  return AllReduce(name, "channel_id=1, replica_groups=" + groups +
                             ", use_global_device_ids=true");
}

inline std::string Permute(const std::string& name, const std::string& pairs) {
  return "%" + name +
         " = f32[8]{0} collective-permute(%p), channel_id=1, "
         "source_target_pairs=" +
         pairs;
}

// A def.json: line 1 `{`, line 2 `"CCInfo": {`, then one line per
// non-empty argument (replica_groups, src_target_pairs, #rank_world_size).
inline neff::DefJson Def(const std::string& replica_groups,
                         const std::string& pairs = "",
                         const std::string& world_size = "",
                         const std::string& file = "def.json") {
  std::vector<std::string> lines;
  if (!replica_groups.empty()) {
    lines.push_back("\"replica_groups\": " + replica_groups);
  }
  if (!pairs.empty()) lines.push_back("\"src_target_pairs\": " + pairs);
  if (!world_size.empty())
    lines.push_back("\"#rank_world_size\": " + world_size);
  std::string text = "{\n\"CCInfo\": {\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    text += lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  }
  text += "}\n}\n";
  json::ParseResult r = json::Parse(text);
  EXPECT_TRUE(r.ok) << text;
  return neff::BuildDefJson(r.root, file);
}

// Runs CheckXref with the rules in `enabled` (all three when empty).
inline std::vector<Finding> RunXref(const Unit& unit,
                                    const CheckOptions& options = {},
                                    std::set<std::string> enabled = {}) {
  if (enabled.empty()) {
    enabled = {"xref-topology-mismatch", "xref-world-size",
               "xref-permute-pairs"};
  }
  Emitter emit(
      [enabled](std::string_view r) {
        return enabled.count(std::string(r)) > 0;
      },
      [](std::string_view) { return Severity::kError; });
  CheckXref(unit, options, emit);
  return emit.findings();
}

inline Unit MakeUnit(hlo::Module module, neff::DefJson def) {
  Unit u;
  u.hlo_modules.push_back(std::move(module));
  u.def_jsons.push_back(std::move(def));
  return u;
}

inline std::vector<Finding> OfRule(const std::vector<Finding>& all,
                                   std::string_view rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

}  // namespace topolint::testing_xref

#endif  // TOPOLINT_TESTS_XREF_XREF_TEST_UTIL_H_
