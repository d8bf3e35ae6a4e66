#include "rules/hlo_rule_util.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint::hlo_rules {
namespace {

namespace fs = std::filesystem;

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// Where `source` (a metadata source_file, usually a path on the producer's
// machine) is for the user: as written (absolute, or relative to the working
// directory), relative to the module's directory, or relative to the
// repository holding the module (the nearest ancestor with a `.git`). Empty
// when it is nowhere, so that no note points at a missing file.
std::string LocateSourceFile(const std::string& source,
                             const std::string& module_file) {
  const fs::path src(source);
  if (IsFile(src)) return source;
  if (src.is_absolute()) return {};
  const fs::path beside = fs::path(module_file).parent_path() / src;
  if (IsFile(beside)) return beside.lexically_normal().string();
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(module_file), ec).parent_path();
  if (ec) return {};
  const std::string root = FindGitRoot(dir.string());
  if (root.empty()) return {};
  const fs::path in_repo = fs::path(root) / src;
  if (!IsFile(in_repo)) return {};
  const fs::path rel = fs::proximate(in_repo, ec);
  return ec ? in_repo.string() : rel.string();
}

// "%ar in %main": the location-independent identity of an op.
std::string Anchor(const hlo::Collective& op) {
  if (op.computation.empty()) return op.name;
  return fmt::format("{} in {}", op.name, op.computation);
}

}  // namespace

void Report(Emitter& emit, RuleId rule, const OpView& v, TextPos pos,
            std::string message, std::vector<Note> notes) {
  const hlo::Collective& op = *v.op;
  if (!op.source_file.empty() && op.source_line > 0) {
    // Findings of one module usually name one source file: the last lookup
    // is remembered (per thread, as units are checked in parallel), so a
    // module with many findings does not stat the same paths again.
    thread_local std::string last_source, last_module, last_here;
    if (op.source_file != last_source || v.module->file != last_module) {
      last_here = LocateSourceFile(op.source_file, v.module->file);
      last_source = op.source_file;
      last_module = v.module->file;
    }
    const std::string& here = last_here;
    // `train.py:42:7` when the producer recorded a column (StableHLO's
    // loc(...)), `train.py:42` otherwise (HLO text metadata).
    const std::string line =
        op.source_column > 0
            ? fmt::format("{}:{}", op.source_line, op.source_column)
            : fmt::format("{}", op.source_line);
    if (!here.empty()) {
      notes.push_back(Note{
          Location{here, op.source_line, op.source_column},
          fmt::format("{} created at {}:{}", op.name, op.source_file, line)});
    } else {
      // A path from the producer's machine: named in the text only.
      constexpr size_t kMaxShown = 160;
      const std::string shown =
          op.source_file.size() > kMaxShown
              ? "..." + op.source_file.substr(op.source_file.size() - kMaxShown)
              : op.source_file;
      message += fmt::format(" (created at {}:{}, as the producer recorded it)",
                             shown, line);
    }
  }
  emit.Report(rule, At(v.module->file, pos), std::move(message),
              std::move(notes), Anchor(op));
}

TextPos OpPos(const hlo::Collective& op) {
  return op.opcode_pos.known() ? op.opcode_pos : op.pos;
}

TextPos GroupsPos(const hlo::Collective& op) {
  if (op.replica_groups.form != hlo::ReplicaGroups::Form::kAbsent &&
      op.replica_groups.pos.known()) {
    return op.replica_groups.pos;
  }
  return OpPos(op);
}

TextPos GroupPos(const hlo::Collective& op, int64_t g) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit && g >= 0 &&
      g < static_cast<int64_t>(rg.group_pos.size()) &&
      rg.group_pos[static_cast<size_t>(g)].known()) {
    return rg.group_pos[static_cast<size_t>(g)];
  }
  return GroupsPos(op);
}

TextPos IdPos(const hlo::Collective& op, int64_t g, int64_t k) {
  const hlo::ReplicaGroups& rg = op.replica_groups;
  if (rg.form == hlo::ReplicaGroups::Form::kExplicit) {
    // Recomputed from the group's layout (hlo::IdLayout), not stored per id.
    const TextPos pos = rg.IdPos(g, k);
    if (pos.known()) return pos;
  }
  return GroupPos(op, g);
}

const char* IdNoun(model::GroupMode mode) {
  switch (mode) {
    case model::GroupMode::kCrossPartition:
      return "partition";
    case model::GroupMode::kFlattenedId:
      return "flattened id";
    default:
      return "replica";
  }
}

const char* CountNoun(model::GroupMode mode) {
  switch (mode) {
    case model::GroupMode::kCrossPartition:
      return "partitions";
    case model::GroupMode::kFlattenedId:
      return "flattened IDs";
    default:
      return "replicas";
  }
}

std::string KindWithArticle(hlo::CollectiveKind kind) {
  const char* name = hlo::CollectiveKindName(kind);
  return fmt::format("{} {}", name[0] == 'a' ? "an" : "a", name);
}

std::string PartitionsFromSharding(const model::ModuleParams& params) {
  if (params.num_partitions_source != model::CountSource::kSharding &&
      params.num_partitions_source != model::CountSource::kMesh) {
    return "";
  }
  return fmt::format(" (num_partitions={} from the {}: the header has none)",
                     params.num_partitions,
                     model::NumPartitionsSourceText(params));
}

}  // namespace topolint::hlo_rules
