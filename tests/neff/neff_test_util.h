// Helpers for the neff tests: def.json text -> DefJson, and a unit run
// through a check family.
#ifndef TOPOLINT_TESTS_NEFF_NEFF_TEST_UTIL_H_
#define TOPOLINT_TESTS_NEFF_NEFF_TEST_UTIL_H_

#include <string>
#include <string_view>
#include <vector>

#include "checker/json/json_loader.h"
#include "checker/model/unit.h"
#include "checker/neff/def_json.h"
#include "gtest/gtest.h"
#include "rules/emitter.h"
#include "rules/families.h"

namespace topolint::testing_neff {

inline neff::DefJson LoadDefJson(std::string_view text,
                                 const std::string& file = "def.json") {
  json::ParseResult r = json::Parse(text);
  EXPECT_TRUE(r.ok) << r.error.pos.line << ":" << r.error.pos.column << ": "
                    << r.error.message;
  return neff::BuildDefJson(r.root, file);
}

// def.json text whose CCInfo is `cc_info` (other keys as a real one has).
inline neff::DefJson LoadCCInfo(std::string_view cc_info) {
  return LoadDefJson(std::string("{\"var\": {\"input0\": {\"type\": "
                                 "\"input\", \"var_id\": 0}},\n\"CCInfo\": ") +
                     std::string(cc_info) + "}");
}

inline Emitter AllRulesEmitter() {
  return Emitter([](std::string_view) { return true; },
                 [](std::string_view) { return Severity::kError; });
}

// Runs CheckNeff on a unit holding the given def.json files.
inline std::vector<Finding> RunNeff(std::vector<neff::DefJson> defs) {
  Unit unit;
  unit.def_jsons = std::move(defs);
  Emitter emit = AllRulesEmitter();
  CheckNeff(unit, CheckOptions{}, emit);
  return emit.findings();
}

// The findings of one rule.
inline std::vector<Finding> OfRule(const std::vector<Finding>& all,
                                   std::string_view rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

}  // namespace topolint::testing_neff

#endif  // TOPOLINT_TESTS_NEFF_NEFF_TEST_UTIL_H_
