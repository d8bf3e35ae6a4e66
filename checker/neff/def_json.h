// The CCInfo section of a NEFF def.json, as plain located data.
#ifndef TOPOLINT_CHECKER_NEFF_DEF_JSON_H_
#define TOPOLINT_CHECKER_NEFF_DEF_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "checker/diag/location.h"
#include "checker/json/json_value.h"

namespace topolint::neff {

struct Rank {
  int64_t value = 0;
  TextPos pos;
};
struct Group {
  TextPos pos;  // its '['
  std::vector<Rank> ranks;
};
struct Topology {
  TextPos pos;  // its '['
  std::vector<Group> groups;
};
struct Pair {
  TextPos pos;  // its '['
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
// schema problems; an element with a problem is left out of the vectors.
struct DefJson {
  std::string file;  // display name (may be "x.neff:sg00/def.json")
  bool has_cc_info = false;
  TextPos cc_info_pos;  // the CCInfo value (or 1:1 when absent)

  bool has_replica_groups = false;
  TextPos replica_groups_pos;
  std::vector<Topology> topologies;

  bool has_pairs = false;
  TextPos pairs_pos;
  std::vector<Pair> pairs;

  bool has_explicit_world_size = false;
  Rank explicit_world_size;  // "#rank_world_size"

  std::vector<SchemaProblem> schema_problems;
};

// Builds the model from a parsed def.json document (a top-level object).
DefJson BuildDefJson(const json::Value& root, const std::string& file);

// True when `root` is an object with a "CCInfo" key.
bool IsDefJson(const json::Value& root);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_DEF_JSON_H_
