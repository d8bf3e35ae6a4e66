// TOPOLINT_DCHECK(condition): the parser's invariants (cursor within the
// window, sentinel in place, marks and captures balanced), checked in debug
// builds and compiled out (not evaluated) under NDEBUG, like assert() but
// with a message that names the invariant. Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_HLO_CHECK_H_
#define TOPOLINT_CHECKER_HLO_TEXT_HLO_CHECK_H_

#include <cstdio>
#include <cstdlib>

#ifdef NDEBUG
#define TOPOLINT_DCHECK(condition) static_cast<void>(0)
#else
#define TOPOLINT_DCHECK(condition)                                             \
  ((condition) ? static_cast<void>(0)                                          \
               : ::topolint::hlo::internal::DcheckFailed(#condition, __FILE__, \
                                                         __LINE__))
namespace topolint::hlo::internal {
[[noreturn]] inline void DcheckFailed(const char* condition, const char* file,
                                      int line) {
  std::fprintf(stderr, "%s:%d: parser invariant violated: %s\n", file, line,
               condition);
  std::abort();
}
}  // namespace topolint::hlo::internal
#endif

#endif  // TOPOLINT_CHECKER_HLO_TEXT_HLO_CHECK_H_
