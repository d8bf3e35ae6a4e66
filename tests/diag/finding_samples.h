// Findings shared by the renderer tests.
#ifndef TOPOLINT_TESTS_DIAG_FINDING_SAMPLES_H_
#define TOPOLINT_TESTS_DIAG_FINDING_SAMPLES_H_

#include <string>
#include <utility>

#include "checker/diag/finding.h"

namespace topolint {

inline Finding SampleFinding(std::string rule, Location loc,
                             std::string message,
                             Severity severity = Severity::kError,
                             std::string anchor = {}) {
  Finding f;
  f.rule = std::move(rule);
  f.loc = std::move(loc);
  f.message = std::move(message);
  f.severity = severity;
  f.anchor = std::move(anchor);
  return f;
}

}  // namespace topolint

#endif  // TOPOLINT_TESTS_DIAG_FINDING_SAMPLES_H_
