#include "checker/neff/def_json.h"

#include <algorithm>
#include <utility>

#include "fmt/format.h"

namespace topolint::neff {
namespace {

using json::Value;

// An integer literal too large for int64/uint64 arrives as kFloat; its text
// still has no fraction or exponent.
bool IsIntegerText(const std::string& text) {
  if (text.empty()) return false;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

// How a value reads in a message: "-1", "1.5, a floating-point number",
// "the string \"3\"", "true, a boolean", "null", "an array", "an object".
// Long strings are cut.
std::string DescribeValue(const json::Value& v) {
  switch (v.type) {
    case json::Type::kNull:
      return "null";
    case json::Type::kBool:
      return v.bool_value ? "true, a boolean" : "false, a boolean";
    case json::Type::kInt:
    case json::Type::kUInt:
      return v.number_text;
    case json::Type::kFloat:
      if (IsIntegerText(v.number_text)) return v.number_text;
      return fmt::format("{}, a floating-point number", v.number_text);
    case json::Type::kString: {
      constexpr size_t kShown = 40;
      if (v.string_value.size() <= kShown) {
        return fmt::format("the string \"{}\"", v.string_value);
      }
      return fmt::format("the string \"{}...\"",
                         v.string_value.substr(0, kShown));
    }
    case json::Type::kArray:
      return v.array.empty() ? "an empty array" : "an array";
    case json::Type::kObject:
      return "an object";
  }
  return "a value";
}

// Reads an integer in [0, max] with its position. Otherwise returns false
// and sets `why` to a suffix for "expected a non-negative integer" (e.g.
// " no larger than 2147483647"), possibly empty.
bool ReadNonNegative(const json::Value& v, int64_t max, Rank* out,
                     std::string* why) {
  why->clear();
  // Formatted only for a value that fails (a def.json lists thousands).
  auto too_large = [max] { return fmt::format(" no larger than {}", max); };
  if (v.type == json::Type::kInt) {
    if (v.int_value < 0) return false;
    if (v.int_value > max) {
      *why = too_large();
      return false;
    }
    out->value = v.int_value;
    out->pos = v.pos;
    return true;
  }
  if (v.type == json::Type::kUInt ||
      (v.type == json::Type::kFloat && IsIntegerText(v.number_text) &&
       v.number_text[0] != '-')) {
    *why = too_large();
  }
  return false;
}

// Collects schema problems, up to kMaxSchemaProblems plus one summary.
class Problems {
 public:
  explicit Problems(std::vector<SchemaProblem>* out) : out_(out) {}
  // Adds the summary of the problems that were not recorded.
  void Finish() {
    if (dropped_ > 0 && !out_->empty()) {
      SchemaProblem last = out_->back();
      out_->push_back({last.pos,
                       fmt::format("{} more schema problem{} in this file not "
                                   "shown",
                                   dropped_, dropped_ == 1 ? "" : "s"),
                       "CCInfo"});
    }
  }
  void Add(TextPos pos, std::string message, std::string path) {
    if (out_->size() >= kMaxSchemaProblems) {
      ++dropped_;
      return;
    }
    out_->push_back({pos, std::move(message), std::move(path)});
  }

 private:
  std::vector<SchemaProblem>* out_;
  int64_t dropped_ = 0;
};

// The last member named `key` (Python's json keeps the last duplicate); each
// earlier duplicate is a problem at the later key.
const json::Member* LastMember(const Value& object, std::string_view key,
                               std::string_view owner, Problems& problems) {
  const json::Member* found = nullptr;
  for (const json::Member& m : object.object) {
    if (m.key != key) continue;
    if (found != nullptr) {
      problems.Add(
          m.key_pos,
          fmt::format("{} has \"{}\" twice (first at {}:{}); readers "
                      "disagree on which one counts, so expected it "
                      "once",
                      owner, key, found->key_pos.line, found->key_pos.column),
          fmt::format("CCInfo.{}", key));
    }
    found = &m;
  }
  return found;
}

// True when every element of `v` is a number: a 2-D list where a 3-D one
// was expected.
bool IsListOfNumbers(const Value& v) {
  if (v.array.empty()) return false;
  for (const Value& e : v.array) {
    if (!e.is_number()) return false;
  }
  return true;
}

// Reads one topology; false (with problems recorded) when any part of it is
// malformed.
bool ReadTopology(const Value& v, int64_t t, Problems& problems,
                  Topology* out) {
  const std::string path = fmt::format("replica_groups[{}]", t);
  if (!v.is_array()) {
    problems.Add(v.pos,
                 fmt::format("{} is {}; expected a topology (an array of "
                             "groups, each an array of ranks)",
                             path, DescribeValue(v)),
                 "CCInfo." + path);
    return false;
  }
  if (IsListOfNumbers(v)) {
    problems.Add(
        v.pos,
        fmt::format("{} is a list of ranks, not of groups; expected "
                    "replica_groups to be 3-D [topology][group][rank], "
                    "e.g. [[[0, 1], [2, 3]]]",
                    path),
        "CCInfo." + path);
    return false;
  }
  bool ok = true;
  out->index = t;
  out->pos = v.pos;
  for (size_t g = 0; g < v.array.size(); ++g) {
    const Value& gv = v.array[g];
    // Paths are formatted only for what is reported (a def.json may list
    // a million ranks).
    if (!gv.is_array()) {
      const std::string gpath = fmt::format("{}[{}]", path, g);
      problems.Add(gv.pos,
                   fmt::format("{} is {}; expected a group (an array of ranks)",
                               gpath, DescribeValue(gv)),
                   "CCInfo." + gpath);
      ok = false;
      continue;
    }
    out->AddGroup(gv.pos);
    for (size_t r = 0; r < gv.array.size(); ++r) {
      Rank rank;
      std::string why;
      if (!ReadNonNegative(gv.array[r], kMaxRank, &rank, &why)) {
        const std::string rpath = fmt::format("{}[{}][{}]", path, g, r);
        problems.Add(gv.array[r].pos,
                     fmt::format("rank {} is {}; expected a non-negative "
                                 "integer{}",
                                 rpath, DescribeValue(gv.array[r]), why),
                     "CCInfo." + rpath);
        ok = false;
        continue;
      }
      out->AddRank(rank.value, rank.pos);
    }
  }
  out->Finish();
  return ok;
}

void ReadReplicaGroups(const Value& v, Problems& problems, DefJson* d,
                       DefJsonDocument* doc) {
  d->has_replica_groups = true;
  d->replica_groups_pos = v.pos;
  if (doc != nullptr && doc->streamed && v.is_array() &&
      v.pos.line == doc->streamed_pos.line &&
      v.pos.column == doc->streamed_pos.column) {
    // Read by the streaming reader: well-formed, every topology kept.
    d->replica_groups_offset = doc->streamed_offset;
    d->topology_count = static_cast<int64_t>(doc->topologies.size());
    d->topologies = std::move(doc->topologies);
    return;
  }
  if (!v.is_array()) {
    problems.Add(v.pos,
                 fmt::format("replica_groups is {}; expected a 3-D array "
                             "[topology][group][rank]",
                             DescribeValue(v)),
                 "CCInfo.replica_groups");
    return;
  }
  d->topology_count = static_cast<int64_t>(v.array.size());
  // The common mistake of writing the 2-D XLA list: one problem, not one
  // per "topology".
  if (v.array.size() > 1 &&
      std::all_of(v.array.begin(), v.array.end(), IsListOfNumbers)) {
    problems.Add(v.pos,
                 "replica_groups is a 2-D list [group][rank]; expected 3-D "
                 "[topology][group][rank], e.g. [[[0, 1], [2, 3]]] (wrap the "
                 "groups in one more [...])",
                 "CCInfo.replica_groups");
    return;
  }
  for (size_t t = 0; t < v.array.size(); ++t) {
    Topology topology;
    if (ReadTopology(v.array[t], static_cast<int64_t>(t), problems,
                     &topology)) {
      d->topologies.push_back(std::move(topology));
    }
  }
}

// Endpoint `end` (0: src, 1: dst) of src_target_pairs[pair]; its path is
// formatted only when it is reported.
bool ReadEndpoint(const Value& v, size_t pair, int end, Problems& problems,
                  Rank* out) {
  std::string why;
  if (ReadNonNegative(v, kMaxRank, out, &why)) return true;
  const std::string path = fmt::format("src_target_pairs[{}][{}]", pair, end);
  const std::string_view role = end == 0 ? "src" : "dst";
  problems.Add(v.pos,
               fmt::format("{} ({}) is {}; expected a non-negative integer "
                           "rank{}",
                           path, role, DescribeValue(v), why),
               "CCInfo." + path);
  return false;
}

void ReadPairs(const Value& v, Problems& problems, DefJson* d) {
  d->has_pairs = true;
  d->pairs_pos = v.pos;
  if (!v.is_array()) {
    problems.Add(v.pos,
                 fmt::format("src_target_pairs is {}; expected an array of "
                             "[src, dst] pairs",
                             DescribeValue(v)),
                 "CCInfo.src_target_pairs");
    return;
  }
  d->pair_count = static_cast<int64_t>(v.array.size());
  for (size_t i = 0; i < v.array.size(); ++i) {
    const Value& pv = v.array[i];
    if (!pv.is_array() || pv.array.size() != 2) {
      const std::string path = fmt::format("src_target_pairs[{}]", i);
      const std::string found =
          pv.is_array()
              ? fmt::format("an array of {} element{}", pv.array.size(),
                            pv.array.size() == 1 ? "" : "s")
              : DescribeValue(pv);
      problems.Add(pv.pos,
                   fmt::format("{} is {}; expected a [src, dst] pair of ranks",
                               path, found),
                   "CCInfo." + path);
      continue;
    }
    Pair pair;
    pair.index = static_cast<int64_t>(i);
    pair.pos = pv.pos;
    const bool src_ok = ReadEndpoint(pv.array[0], i, 0, problems, &pair.src);
    const bool dst_ok = ReadEndpoint(pv.array[1], i, 1, problems, &pair.dst);
    if (src_ok && dst_ok) d->pairs.push_back(pair);
  }
}

void ReadExplicitWorldSize(const Value& v, Problems& problems, DefJson* d) {
  std::string why;
  if (ReadNonNegative(v, kMaxRank, &d->explicit_world_size, &why)) {
    d->has_explicit_world_size = true;
    return;
  }
  problems.Add(v.pos,
               fmt::format("#rank_world_size is {}; expected a non-negative "
                           "integer{}",
                           DescribeValue(v), why),
               "CCInfo.#rank_world_size");
}

void ReadCcInfo(const json::Value& root, Problems& problems, DefJson& d,
                DefJsonDocument* doc) {
  if (!root.is_object()) {
    problems.Add(root.pos,
                 fmt::format("def.json is {}; expected an object with a "
                             "\"CCInfo\" section",
                             DescribeValue(root)),
                 "CCInfo");
    return;
  }
  const json::Member* cc = LastMember(root, "CCInfo", "def.json", problems);
  if (cc == nullptr) {
    problems.Add(TextPos{1, 1},
                 "def.json has no CCInfo section; expected \"CCInfo\": "
                 "{\"replica_groups\": [...]}",
                 "CCInfo");
    return;
  }
  d.has_cc_info = true;
  d.cc_info_pos = cc->value.pos;
  if (!cc->value.is_object()) {
    problems.Add(cc->value.pos,
                 fmt::format("CCInfo is {}; expected an object such as "
                             "{{\"replica_groups\": [[[0, 1]]]}}",
                             DescribeValue(cc->value)),
                 "CCInfo");
    return;
  }
  const Value& info = cc->value;
  if (const json::Member* m =
          LastMember(info, "replica_groups", "CCInfo", problems)) {
    ReadReplicaGroups(m->value, problems, &d, doc);
  }
  if (const json::Member* m =
          LastMember(info, "src_target_pairs", "CCInfo", problems)) {
    ReadPairs(m->value, problems, &d);
  }
  if (const json::Member* m =
          LastMember(info, "#rank_world_size", "CCInfo", problems)) {
    ReadExplicitWorldSize(m->value, problems, &d);
  }
}

// The DefJson of `root` (a parsed def.json named `file`); `doc`, when not
// null, holds what the streaming reader read of it.
DefJson ReadDefJson(const json::Value& root, const std::string& file,
                    DefJsonDocument* doc) {
  DefJson d;
  d.file = file;
  d.cc_info_pos = TextPos{1, 1};
  Problems problems(&d.schema_problems);
  ReadCcInfo(root, problems, d, doc);
  problems.Finish();
  return d;
}

}  // namespace

bool IsDefJson(const json::Value& root) {
  return root.is_object() && root.Find("CCInfo") != nullptr;
}

DefJson BuildDefJson(const json::Value& root, const std::string& file) {
  return ReadDefJson(root, file, nullptr);
}

DefJson BuildDefJson(DefJsonDocument doc, const std::string& file) {
  return ReadDefJson(doc.parsed.root, file, &doc);
}

}  // namespace topolint::neff
