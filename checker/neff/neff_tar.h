// Bounded reading of the tar payload of a `.neff` with libarchive (an
// implementation detail of neff_archive.cc, separate so it can be tested).
#ifndef TOPOLINT_CHECKER_NEFF_NEFF_TAR_H_
#define TOPOLINT_CHECKER_NEFF_NEFF_TAR_H_

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checker/neff/neff_archive.h"

namespace topolint::neff {

// The result of one pass over the tar payload.
struct TarScan {
  // Regular-file members that were accepted (normalized paths).
  std::set<std::string> members;
  // Text of each accepted member that `want` selected, by normalized path.
  std::map<std::string, std::string> texts;
  // Problems, each a complete message naming the member when there is one.
  std::vector<std::string> problems;
  // The end of the archive was reached; when false, members after the point
  // where reading stopped are unknown (do not report them as missing).
  bool complete = false;
  // Reading stopped at an error libarchive reported (not at a limit).
  bool read_failed = false;
  // The gzip payload was inflated once (NeffArchiveLimits::single_inflate,
  // GzipInflater), not by libarchive and then again to verify it.
  bool single_pass = false;
};

// Strips leading "./" components. Returns false (and leaves `path` alone)
// when the path is absolute, empty after stripping, or has a ".." component.
bool NormalizeMemberPath(std::string_view raw, std::string* path);

// Reads the tar stored in bytes [offset, offset + length) of `path`
// (gzip-compressed or plain), visiting at most limits.max_members entries.
// Directories are skipped; links, devices and unsafe paths are skipped with
// a problem; a member bigger than limits.max_member_bytes is skipped with a
// problem; reading stops with a problem when the members together exceed
// limits.max_total_bytes or libarchive reports a fatal error. A member path
// seen twice keeps its first copy, with a problem. Never throws.
TarScan ScanNeffTar(const std::string& path, uint64_t offset, uint64_t length,
                    const std::function<bool(const std::string&)>& want,
                    const NeffArchiveLimits& limits);

// ScanNeffTar over a tar payload held in memory (same rules and limits).
TarScan ScanNeffTarMemory(std::string_view payload,
                          const std::function<bool(const std::string&)>& want,
                          const NeffArchiveLimits& limits);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_NEFF_TAR_H_
