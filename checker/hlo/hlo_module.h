// The HLO model topolint checks: a module's header counts and every
// cross-device collective, each value with its source position. Nothing else
// of the module is kept (memory grows with the collectives, not the file).
#ifndef TOPOLINT_CHECKER_HLO_HLO_MODULE_H_
#define TOPOLINT_CHECKER_HLO_HLO_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "checker/diag/location.h"
#include "checker/hlo/binary_op_spans.h"
#include "checker/hlo/id_layout.h"

namespace topolint::hlo {

// The collective an instruction performs. Native and generic async `-start`
// forms map to the kind they start (`is_async_start` is set); `-done` and
// `-update` carry no groups and are not recorded.
enum class CollectiveKind {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kRaggedAllToAll,
  kCollectivePermute,
  kCollectiveBroadcast,
  kSend,  // send / recv with `_xla_send_recv_source_target_pairs`
  kRecv,
};

// "all-reduce", "all-gather", ... (the base opcode, without "-start").
const char* CollectiveKindName(CollectiveKind kind);

// `[G,S]<=[d0,d1,...]T(p0,p1,...)`.
struct IotaSpec {
  int64_t num_groups = 0;
  int64_t group_size = 0;
  std::vector<int64_t> reshape_dims;
  std::vector<int64_t> perm;  // empty when no T(...) was written

  // Back to the default value, keeping the vectors' storage.
  void Clear();
};

// `mesh['x'=2,'y'=2, device_ids=(...)] {'x', 'y':(2)2}`.
struct MeshAxis {
  std::string name;
  int64_t size = 0;
};
struct MeshAxisRef {
  std::string name;
  int64_t pre_size = 0;  // 0: the whole axis; else `name:(pre_size)size`
  int64_t size = 0;
};
struct MeshSpec {
  std::vector<MeshAxis> axes;
  std::vector<MeshAxisRef> grouped;  // axes listed in `{...}`, in order
  // device_ids: either an explicit list, or an iota `[dims]T(perm)`; both
  // empty means the plain iota over the mesh.
  std::vector<int64_t> device_ids;
  std::vector<int64_t> device_ids_dims;
  std::vector<int64_t> device_ids_perm;

  void Clear();  // as IotaSpec::Clear
};

struct ReplicaGroups {
  enum class Form { kAbsent, kExplicit, kIota, kMesh };
  Form form = Form::kAbsent;
  TextPos pos;  // first byte of the value (after `replica_groups=`)
  // kExplicit: the groups as written, flat. Group g holds
  // ids()[group_ends[g-1], group_ends[g]) (group 0 starts at 0); its '{' is
  // at group_pos[g]; id_layout says where each id was written (IdPos).
  std::vector<int64_t> group_ends;
  std::vector<TextPos> group_pos;
  IdLayout id_layout;
  IotaSpec iota;  // kIota
  MeshSpec mesh;  // kMesh
  // The value as written (truncated to 256 bytes). Empty for a list read
  // from a binary module, which has no text: Text() describes it.
  std::string text;
  // Total number of ids of a kExplicit list (sum of the group sizes).
  int64_t explicit_id_count = 0;

  // Every id of a kExplicit list, in list order.
  absl::Span<const int64_t> ids() const {
    return ids_ != nullptr ? absl::Span<const int64_t>(*ids_)
                           : absl::Span<const int64_t>();
  }
  int64_t num_groups() const { return static_cast<int64_t>(group_ends.size()); }
  // Precondition: 0 <= g < num_groups().
  absl::Span<const int64_t> group(int64_t g) const;
  // Where id k of group g was written; an unknown TextPos when it was not
  // recorded (lists built in code). O(ids of its run) (IdLayout::Locate).
  TextPos IdPos(int64_t g, int64_t k) const;
  // The groups as nested vectors (tests, messages).
  std::vector<std::vector<int64_t>> GroupVectors() const;
  // `text`, or for a list that has none (a binary module's) the value as
  // XLA prints it: `{{0,1},{2,3}}`, `[2,4]<=[4,2]T(1,0)`,
  // `mesh['x'=2,'y'=4] {'y'}`, cut after 256 characters. Built on demand:
  // only messages and explain need it.
  std::string Text() const;
  // Becomes the kExplicit list `groups`, without positions.
  void SetGroups(const std::vector<std::vector<int64_t>>& groups);

  // For parsers: the ids to append the next group's ids to (never shared
  // with SharedIds() holders: a shared buffer is left to them), then
  // EndGroup() at the end of each group.
  std::vector<int64_t>* MutableIds();
  void EndGroup(TextPos group_start);
  // The ids' storage, shared rather than copied (model::GroupList keeps it
  // for a large list). Null when there are no ids.
  std::shared_ptr<const std::vector<int64_t>> SharedIds() const { return ids_; }

  // Back to the default value, keeping the storage (unless shared).
  void Clear();

 private:
  std::shared_ptr<std::vector<int64_t>> ids_;
};

struct SourceTargetPairs {
  bool present = false;
  TextPos pos;  // first byte of the value
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::vector<TextPos> pair_pos;  // '{' of each pair

  void Clear();  // as IotaSpec::Clear
};

// An array or tuple shape. `known` is false when the text elided it.
struct Shape {
  bool known = false;
  bool is_tuple = false;
  std::string element_type;   // "f32", "token", ... (arrays)
  std::vector<int64_t> dims;  // arrays; dynamic `?` is -1, `<=8` is 8
  std::vector<Shape> tuple;   // tuples

  // Back to the default value, keeping the storage of the strings and
  // vectors (the parser reuses one object for every collective).
  void Clear();
};

struct Collective {
  std::string name;         // as written, with '%' when written so
  std::string computation;  // enclosing computation's name
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::string opcode;  // as written: "all-gather-start", "async-start"
  bool is_async_start = false;
  TextPos pos;  // first byte of the instruction (ROOT or name)
  TextPos opcode_pos;
  bool is_root = false;  // written with ROOT

  // The *_pos of an attribute below is the first byte of its name
  // (`channel_id=...`); ReplicaGroups::pos and SourceTargetPairs::pos are the
  // first byte of the value.

  bool has_channel_id = false;
  int64_t channel_id = 0;
  TextPos channel_id_pos;

  bool has_use_global_device_ids = false;
  bool use_global_device_ids = false;
  TextPos use_global_device_ids_pos;

  ReplicaGroups replica_groups;
  // collective-permute `source_target_pairs`, or the send/recv frontend
  // attribute `_xla_send_recv_source_target_pairs`.
  SourceTargetPairs source_target_pairs;
  // In-place collective-permute: number of offset tuples in `slice_sizes`
  // (0 when absent).
  int64_t slice_sizes_count = 0;

  bool has_dimensions = false;
  std::vector<int64_t> dimensions;
  TextPos dimensions_pos;

  Shape result_shape;
  // One per operand: the shape written inline before the operand, else the
  // shape of the same-named instruction or parameter seen earlier in the same
  // computation, else unknown (`known == false`).
  std::vector<Shape> operand_shapes;
  int64_t operand_count = 0;

  // `to_apply=%add` as written ("" when absent).
  std::string to_apply;

  // metadata={... source_file="..." source_line=N}
  std::string source_file;
  int64_t source_line = 0;
  // The column of the source line, 1-based; 0 when not known (from
  // OpMetadata.source_column, text `source_column=N`, a stack frame's
  // column, or StableHLO's `loc("train.py":42:7)`).
  int32_t source_column = 0;
  std::string op_name;  // metadata op_name (truncated to 256 bytes)

  // Back to the default value, keeping the storage of the strings and
  // vectors (the parser reuses one object for every collective).
  void Clear();

  // Becomes a copy of `from` without its per-id lists (explicit groups and
  // their positions, pairs and their positions, operand shapes), which are
  // emptied: what a check keeps of a collective to report on it later, at a
  // cost that does not grow with its groups.
  void CopyForReport(const Collective& from);
};

// `// topolint: disable=a,b` (applies to its own line) or
// `// topolint: disable-next-line=a,b` (the next line that holds code).
struct Suppression {
  TextPos pos;                     // the comment
  int64_t target_line = 0;         // the line it silences
  std::vector<std::string> rules;  // ids or globs as written
  // Byte offset of the comment's "//" in the file (a byte order mark
  // counted), and the whole comment as written, from "//" to the line
  // break: what the fix that removes it checks. -1 and "" when unknown (a
  // comment longer than the lexer keeps, a module not read from a file).
  int64_t offset = -1;
  std::string comment;
};

struct SyntaxError {
  TextPos pos;
  std::string message;  // says what was expected, e.g. "expected ']' ..."
};

// A part of a module that was read but not checked: an op in a form the
// reader does not follow, or a table past a bound. Reported as an
// `unchecked-input` warning at `pos` (rules/inputs_rules.cc,
// docs/rules/unchecked-input.md), never as a syntax error: the input may be
// valid, so it must not fail a run by itself.
struct UncheckedPart {
  TextPos pos;
  std::string message;  // what was not checked, and why
  std::string anchor;   // the finding's identity for baselines
};

// A sharding annotation that XLA's verifier would refuse
// (HloSharding::Validate, checker/hlo/sharding/sharding_validate.h): which
// rule's ground it is, XLA's message (with the sharding and the shape it was
// checked against) and where.
struct ShardingIssue {
  enum class Kind {
    kDevice,  // a device negative, out of range, or repeated
    kCount,   // a tile assignment of M devices where the module has N
    kRank,    // tile rank / tuple arity / single-device tile vs the shape
  };
  Kind kind = Kind::kRank;
  TextPos pos;              // the sharding's first byte
  std::string instruction;  // as written, with '%' when written so
  std::string message;
};

// What the front ends read of a module's sharding annotations: a summary
// whose size does not grow with the module (the issues are capped).
struct ShardingSummary {
  static constexpr size_t kMaxIssues = 1000;
  static constexpr size_t kMaxCounts = 16;

  int64_t annotations = 0;  // shardings read (instruction and domain)
  int64_t tiled = 0;        // of which tiled (explicit, iota, named)
  int64_t maximal = 0;      // of which maximal
  std::vector<ShardingIssue> issues;
  int64_t issues_dropped = 0;  // past kMaxIssues
  // The distinct device counts the tiled shardings hold (a tiled sharding
  // of an SPMD module holds num_partitions devices), each with its first
  // sharding, in the order first seen; at most kMaxCounts.
  struct TileCount {
    int64_t devices = 0;
    TextPos pos;
    std::string instruction;
    int64_t uses = 0;
  };
  std::vector<TileCount> tile_counts;
  // tile_counts as they stood when the module's first collective was read
  // (EmitCollective): what a streamed check can know of them, and so what
  // the checks and explain use (hlo::AgreedTileCount), so that a streamed
  // check and a check of the loaded module agree.
  bool frozen = false;
  std::vector<TileCount> tile_counts_at_first_collective;
  // The highest device a maximal sharding names (-1: none).
  int64_t max_maximal_device = -1;
  TextPos max_maximal_pos;
};

// A device mesh the module records, for explain's placement of each
// collective's groups on named axes: Shardy's `sdy.mesh @m = <["x"=2,
// "y"=4]>` (StableHLO), the mesh of a named sharding `{mesh[x=2,y=4], ...}`,
// or the tile grid of a tiled sharding (`{devices=[2,4]<=[8]}`: axes `d0`,
// `d1`). The devices are listed row-major over the axes.
struct DeviceMesh {
  enum class Origin {
    kSdyMesh,          // StableHLO `sdy.mesh @m = <...>`
    kSdyMeshesHeader,  // HLO header `frontend_attributes={xla.sdy.meshes=...}`
    kNamedSharding,
    kTileGrid,
  };
  // At most this many devices are kept; a larger mesh is not recorded.
  static constexpr int64_t kMaxDevices = 65536;
  Origin origin = Origin::kSdyMesh;
  std::string name;  // "@mesh" for an sdy.mesh; "" otherwise
  std::vector<MeshAxis> axes;
  // Explicit device ids, row-major over the axes; empty: 0..N-1.
  std::vector<int64_t> device_ids;
  TextPos pos;  // the `sdy.mesh` keyword, or the sharding's first byte
};

struct Module {
  std::string file;  // display name
  std::string name;  // HloModule name ("" when the header is absent)
  bool has_header = false;
  TextPos header_pos;
  std::optional<int64_t> replica_count;  // header attribute, when written
  TextPos replica_count_pos;             // `replica_count=` (the name)
  std::optional<int64_t> num_partitions;
  TextPos num_partitions_pos;  // `num_partitions=` (the name)

  // The computation marked ENTRY, else the last one ("" when none parsed).
  std::string entry_computation;
  int64_t computation_count = 0;

  std::vector<Collective> collectives;  // in source order
  std::vector<Suppression> suppressions;
  // Syntax errors. After an error the parser resynchronises at the next
  // instruction line when it can, so one file may report several.
  std::vector<SyntaxError> syntax_errors;
  // What was read but not checked (bounded by the reader that adds it).
  std::vector<UncheckedPart> unchecked;
  // The sharding annotations read (checker/hlo/sharding/sharding_record.h).
  ShardingSummary sharding;
  // The distinct device meshes the module records, in the order first seen
  // (AddMesh): at most kMaxMeshes.
  static constexpr size_t kMaxMeshes = 16;
  std::vector<DeviceMesh> meshes;

  // Binary (protobuf) modules: the message read ("HloModuleProto",
  // "HloProto", "HloSnapshot", "HloModuleProtoWithConfig"; "" for text),
  // whether it was gzip-compressed, and each collective's span, in file
  // order. Positions in a binary module are byte offsets (TextPos::AtByte).
  std::string proto_format;
  bool gzip = false;
  // Read by the StableHLO front end (checker/hlo/mlir): explain names it so.
  bool stablehlo = false;
  BinaryOpSpans binary_ops;
  // The computations' names (without '%'), in file order, for
  // BinaryOpSpans::Span::computation.
  std::vector<std::string> binary_computations;

  // Keeps `mesh` unless an equal one (same axes, same devices) is kept
  // already, kMaxMeshes are, it is not a layout of at most
  // DeviceMesh::kMaxDevices devices, or the explicit device ids of all
  // meshes would exceed kMaxDevices. Returns whether it was kept.
  bool AddMesh(DeviceMesh mesh);
  // The mesh that gave num_partitions (a StableHLO module without
  // mhlo.num_partitions takes its largest sdy.mesh's size, and
  // num_partitions_pos is then that mesh's position), else null.
  const DeviceMesh* PartitionCountMesh() const;

  bool is_binary() const { return !proto_format.empty(); }
  // "computation %c, op %ar" for the collective spanning `offset`, else
  // "module <name>" ("" for text modules and unnamed ones).
  std::string LogicalLocation(int64_t offset) const;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_HLO_MODULE_H_
