// Reads a compiled `.neff`: a 1024-byte header, then a (usually gzip) tar
// holding kelf-0.json and one sgNN/def.json per graph.
//
// The container is read with libarchive (gzip or no compression, tar format
// only), streamed from the file (or read from a caller's buffer) and strictly
// bounded by NeffArchiveLimits.
// Nothing about a malformed archive is fatal: every problem becomes an
// ArchiveProblem and whatever could be read safely is kept.
#ifndef TOPOLINT_CHECKER_NEFF_NEFF_ARCHIVE_H_
#define TOPOLINT_CHECKER_NEFF_NEFF_ARCHIVE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/diag/location.h"
#include "checker/io/input_file.h"
#include "checker/neff/def_json.h"

namespace topolint::neff {

// Byte layout of `neff_header_t` (little-endian) that topolint reads.
inline constexpr uint64_t kNeffHeaderBytes = 1024;
inline constexpr uint64_t kNeffHeaderSizeOffset = 8;  // u64 header_size
inline constexpr uint64_t kNeffDataSizeOffset = 16;   // u64 data_size
inline constexpr uint64_t kNeffLncSizeOffset = 552;   // u32 lnc_size

// The member that lists the graphs, at the top of the tar.
inline constexpr char kKelfMember[] = "kelf-0.json";

// Bounds on what an archive may make topolint do. Exceeding one is a
// problem and stops (or skips) reading, never a crash.
struct NeffArchiveLimits {
  int64_t max_members = 4096;  // tar entries of any type
  // One member, uncompressed: the member is read whole and parsed, so this
  // bounds memory (real def.json members are kilobytes to a few MiB).
  int64_t max_member_bytes = int64_t{32} << 20;
  int64_t max_total_bytes = int64_t{1} << 30;  // all members, uncompressed
  // Text of the JSON members (kelf-0.json, def.json) held at once: they are
  // all read before any is parsed, so this bounds memory.
  int64_t max_held_bytes = int64_t{64} << 20;
  // A gzip payload is inflated once, for libarchive as a plain tar and for
  // its CRC check together (GzipInflater); off, libarchive inflates it and
  // CheckGzipPayload inflates it again. Tests compare the two.
  bool single_inflate = true;
};

// A problem found while reading the archive (reported by the rules as
// `neff-schema`, or `json-syntax` for a member def.json that does not parse).
struct ArchiveProblem {
  Location loc;  // the archive, or "x.neff:member:line:col"
  std::string message;
};

// Bytes of member text one archive keeps for the caret display.
inline constexpr size_t kMaxKeptMemberTextBytes = size_t{8} << 20;

struct NeffArchive {
  std::string file;  // display name of the .neff
  // The header could be read and locates the payload (header_size sane).
  bool header_ok = false;
  // Header `lnc_size` (0 when unreadable, or when the compiler did not
  // record it: older NEFFs leave the field as zero padding).
  int64_t lnc_size = 0;
  // From kelf-0.json, in order; empty when kelf-0.json could not be read.
  std::vector<std::string> graph_names;
  // The "definition" member of each graph, parallel to graph_names
  // (normalized: no leading "./").
  std::vector<std::string> graph_definitions;
  Location kelf_loc;  // kelf-0.json "graphs" array
  // The def.json of each graph that could be read, in kelf-0.json order
  // (a definition listed twice is read once); each DefJson::file is
  // "x.neff:sgNN/def.json".
  std::vector<DefJson> graphs;
  // Member texts kept for the caret display: (display name, text). Holds
  // kelf-0.json and every def.json that was read, while their total stays
  // within kMaxKeptMemberTextBytes (findings in the others show no source
  // line).
  std::vector<std::pair<std::string, std::string>> member_texts;
  std::vector<ArchiveProblem> problems;     // container / schema problems
  std::vector<ArchiveProblem> json_syntax;  // member JSON that does not parse
};

// Reads `path`, naming it `display_name` in locations. Never throws; a file
// that cannot be opened at all returns header_ok=false with a problem.
NeffArchive ReadNeffArchive(const std::string& path,
                            const std::string& display_name,
                            const NeffArchiveLimits& limits = {});

// ReadNeffArchive of a file the caller opened (OpenInput: the directory
// walk saw a regular file there, so it is not looked at again before it is
// read); the descriptor is closed. `path` reopens a file too large to be
// read whole for its payload.
NeffArchive ReadOpenedNeffArchive(OpenedInput opened, const std::string& path,
                                  const std::string& display_name,
                                  const NeffArchiveLimits& limits = {});

// Reads a whole .neff held in memory (`bytes`, e.g. from a driver's
// buffer), with the same checks and limits as a file.
NeffArchive ReadNeffArchiveFromMemory(std::string_view bytes,
                                      const std::string& display_name,
                                      const NeffArchiveLimits& limits = {});

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_NEFF_ARCHIVE_H_
