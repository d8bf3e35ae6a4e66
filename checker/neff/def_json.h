// The CCInfo section of a NEFF def.json, as plain located data.
//
//   "CCInfo": {
//     "replica_groups": [[[0, 4], [1, 5]]],    // [topology][group][rank]
//     "src_target_pairs": [[0, 1], [1, 0]],    // collective-permute pairs
//     "#rank_world_size": 8                    // explicit world size
//   }
//
// Every other key of def.json (var, dma_queue, ...) and of CCInfo is ignored.
#ifndef TOPOLINT_CHECKER_NEFF_DEF_JSON_H_
#define TOPOLINT_CHECKER_NEFF_DEF_JSON_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checker/diag/location.h"
#include "checker/json/json_loader.h"
#include "checker/json/json_value.h"
#include "checker/neff/def_json_topology.h"

namespace topolint::neff {

// Ranks (and #rank_world_size) above this are a schema problem: the NEFF
// reader keeps ranks as 32-bit integers.
inline constexpr int64_t kMaxRank = 2147483647;

// Schema problems recorded per file before the rest are summarised in one
// last problem.
inline constexpr size_t kMaxSchemaProblems = 50;

struct Rank {
  int64_t value = 0;
  TextPos pos;
};
struct Pair {
  int64_t index = 0;  // position in src_target_pairs
  TextPos pos;        // its '['
  Rank src;
  Rank dst;
};

// A problem with the shape of CCInfo (reported as `neff-schema`).
struct SchemaProblem {
  TextPos pos;
  std::string message;
  std::string anchor;  // JSON path, e.g. "CCInfo.replica_groups[0][1][2]"
};

// CCInfo as read. Well-formed parts are kept even when other parts have
// schema problems; an element with a problem is left out of the vectors: a
// topology is kept only when all of its groups and ranks are well-formed,
// and a pair only when both endpoints are. So topologies[k].index need not
// be k: consumers that mean "topology[0]" must check `index == 0`.
struct DefJson {
  std::string file;  // display name (may be "x.neff:sg00/def.json")
  bool has_cc_info = false;
  TextPos cc_info_pos;  // the CCInfo value (or 1:1 when absent)

  // An absent replica_groups reads as no topologies (as an empty list does):
  // the NEFF reader then takes the world size from the other two sources.
  bool has_replica_groups = false;
  TextPos replica_groups_pos;
  // Byte offset of replica_groups' value when the streaming reader read it
  // (a fix rewriting it needs it); -1 otherwise.
  int64_t replica_groups_offset = -1;
  int64_t topology_count = 0;  // elements of replica_groups, kept or not
  std::vector<Topology> topologies;

  bool has_pairs = false;
  TextPos pairs_pos;
  int64_t pair_count = 0;  // elements of src_target_pairs, kept or not
  std::vector<Pair> pairs;

  bool has_explicit_world_size = false;  // present and well-formed
  Rank explicit_world_size;              // "#rank_world_size"

  std::vector<SchemaProblem> schema_problems;

  // True when every element of replica_groups was well-formed.
  bool all_topologies_kept() const {
    return static_cast<int64_t>(topologies.size()) == topology_count;
  }
};

// def.json text parsed for BuildDefJson by the streaming reader: a
// well-formed CCInfo.replica_groups (arrays of arrays of integers in
// [0, kMaxRank], its key given once) is read straight into compact
// topologies, never into located values; anything else is parsed by
// json::Parse, so the findings are the same either way.
struct DefJsonDocument {
  // json::Parse's result, except that a replica_groups read by the
  // streaming reader is an empty array in the tree.
  json::ParseResult parsed;
  bool streamed = false;         // replica_groups was read into `topologies`
  TextPos streamed_pos;          // its '[' (which member of the tree it was)
  int64_t streamed_offset = -1;  // the byte of that '['

  std::vector<Topology> topologies;
};

// Parses a def.json (or any JSON file that may turn out to be one). The
// text is shared with the topologies, which find rank positions in it.
DefJsonDocument ParseDefJson(std::shared_ptr<const std::string> text);

// Builds the model from a parsed def.json document. Never fails: whatever
// does not fit the schema becomes a SchemaProblem, including a missing
// CCInfo (at 1:1) and a document that is not an object. When a key appears
// twice the last occurrence is used (as Python's json module does) and the
// repetition is a schema problem.
DefJson BuildDefJson(const json::Value& root, const std::string& file);
// The same from ParseDefJson's result (doc.parsed.ok must be true).
DefJson BuildDefJson(DefJsonDocument doc, const std::string& file);

// True when `root` is an object with a "CCInfo" key.
bool IsDefJson(const json::Value& root);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_DEF_JSON_H_
