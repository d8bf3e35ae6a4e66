// Checks an in-memory def.json with the installed C++ API and prints the
// findings, one line each; exits 1 when there are errors, as the CLI does.
#include <iostream>
#include <string>
#include <vector>

#include "topolint/topolint.h"

int main() {
  namespace api = topolint::api;
  std::cout << "topolint " << api::Version() << "\n";
  api::Unit unit;
  api::Status st = unit.AddText(
      "out/def.json", R"({"CCInfo": {"replica_groups": [[[0,1]], []]}})",
      api::InputKind::kDefJson);
  std::vector<api::Finding> findings;
  if (st.ok()) st = api::Check(unit, api::Options(), &findings);
  if (!st.ok()) {
    std::cerr << "error: " << st.message << "\n";
    return 2;
  }
  for (const api::Finding& f : findings) {
    std::cout << api::FormatFinding(f) << "\n";
  }
  return api::HasErrors(findings) ? 1 : 0;
}
