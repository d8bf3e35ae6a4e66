// Readable gtest output for findings: gtest finds PrintTo by ADL, so a
// failing EXPECT on a Finding or a vector of them prints
// "file:line:column: [rule] message".
#ifndef TOPOLINT_TESTS_COMMON_FINDING_PRINT_H_
#define TOPOLINT_TESTS_COMMON_FINDING_PRINT_H_

#include <ostream>

#include "checker/diag/finding.h"

namespace topolint {

inline void PrintTo(const Finding& f, std::ostream* os) {
  *os << f.loc.file << ":" << f.loc.line << ":" << f.loc.column << ": ["
      << f.rule << "] " << f.message;
}

}  // namespace topolint

#endif  // TOPOLINT_TESTS_COMMON_FINDING_PRINT_H_
