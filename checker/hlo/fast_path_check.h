// RE2's "inconsistency" check for the HLO front ends' fast paths: in debug
// builds (NDEBUG unset, as scripts/sanitize.sh and the fuzzers' debug
// builds are) the exact parser is run again after a fast path accepted,
// and a difference aborts with the fast path's name, so that every test,
// sanitizer run and fuzz input checks every fast path it takes. Release
// builds compile the checks away (kCheckFastPaths is false).
#ifndef TOPOLINT_CHECKER_HLO_FAST_PATH_CHECK_H_
#define TOPOLINT_CHECKER_HLO_FAST_PATH_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace topolint::hlo {

#ifdef NDEBUG
inline constexpr bool kCheckFastPaths = false;
#else
inline constexpr bool kCheckFastPaths = true;
#endif

// Reports that `fast_path` read `input_offset`'s construct otherwise than
// the exact parser (`what` says how), and aborts.
[[noreturn]] inline void FastPathInconsistency(std::string_view fast_path,
                                               long long input_offset,
                                               std::string_view what) {
  std::fprintf(stderr,
               "topolint: fast path %.*s disagrees with the exact parser at "
               "byte %lld: %.*s\n",
               static_cast<int>(fast_path.size()), fast_path.data(),
               input_offset, static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_FAST_PATH_CHECK_H_
