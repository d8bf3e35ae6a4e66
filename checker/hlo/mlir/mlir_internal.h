// The StableHLO reader's parts: the top-level scan (mlir_reader.cc), a
// collective op and its attributes (mlir_op.cc), dense integer tensors and
// types (mlir_values.cc). Internal to checker/hlo/mlir.
#ifndef TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/mlir/mlir_cursor.h"
#include "checker/hlo/parse_options.h"

namespace topolint::hlo::mlir {

// The collective an op name (`stablehlo.all_gather`, `mhlo.all_to_all`)
// names; false for any other name.
bool CollectiveOfOpName(std::string_view name, CollectiveKind* kind);

// Shardy's collectives (mlir_sdy.cc). sdy.all_slice and the
// *_to_unreduced ops move no data between devices (Shardy lowers them to
// local slices) and are not collectives.
enum class SdyOpKind {
  kAllGather,
  kAllReduce,
  kReduceScatter,
  kAllToAll,
  kCollectivePermute,
};
// The Shardy collective an op name (`sdy.all_gather`, ...) names; false for
// any other name.
bool SdyCollectiveOfOpName(std::string_view name, SdyOpKind* kind);

// `stablehlo.custom_call` or `mhlo.custom_call`.
bool IsCustomCallName(std::string_view name);
// The custom-call target jax.lax.ragged_all_to_all lowers to (XLA's
// export makes it the HLO ragged-all-to-all).
inline constexpr std::string_view kRaggedAllToAllTarget = "ragged_all_to_all";

// A dense integer tensor as read: its rows (a rank-2 tensor's; a rank-1 or
// scalar one is one row), with where each row and each value was written.
struct DenseRows {
  std::vector<int64_t> dims;  // from the type
  std::vector<std::vector<int64_t>> rows;
  std::vector<TextPos> row_pos;
  std::vector<std::vector<TextPos>> value_pos;  // empty when not written
  TextPos pos;                                  // `dense`
};

// One `#locN = loc(...)` alias or inline location, reduced to the first
// file location it holds.
struct SourceLoc {
  std::string file;
  int64_t line = 0;
  int64_t column = 0;
};

// The device count an `mhlo.sharding = "{devices=[2,4]<=[8]}"` string names
// (HLO sharding syntax, read by checker/hlo/sharding), for modules that
// state no mhlo.num_partitions (torch_xla, GSPMD exports): the tile's device
// count when the string is a tiled sharding (the tiled leaves of a tuple
// must agree), else nothing.
std::optional<int64_t> DeviceCountOfSharding(std::string_view sharding);

// A Shardy mesh: its axes in order.
struct SdyMesh {
  std::vector<MeshAxis> axes;
  std::vector<int64_t> device_ids;  // empty: the iota
  TextPos pos;
};

class Reader {
 public:
  Reader(InputWindow* window, Module* module, const ParseOptions& options);
  void Run();
  // The pre-pass: only the `#alias = loc(...)` and `sdy.mesh` lines (MLIR
  // prints aliases after the ops that use them, and a symbol may be used
  // before its definition), line starts only, so that Run resolves an op's
  // `loc(#loc12)` and `mesh = @m` whatever the order.
  void CollectLocs();
  // Takes the aliases (and meshes) another reader collected.
  void AdoptLocs(Reader& from) {
    later_meshes_.swap(from.later_meshes_);
    locs_.swap(from.locs_);
    loc_files_.swap(from.loc_files_);
    loc_file_index_.swap(from.loc_file_index_);
  }

 private:
  // mlir_reader.cc
  void TopLevelComment();
  // At a line start: skips the line when nothing on it can matter (no
  // comment, module, collective, func.func, sdy.mesh, mhlo.sharding or
  // run_parallel), a window at a time; false to read it byte by byte.
  bool SkipDullLine();
  void ModuleHeader(TextPos pos);
  void ModuleAttributes();
  void FuncHeader();
  // `sdy.mesh @m = <...>` (or the generic `"sdy.mesh"() <{...}>`): the
  // mesh by name, and the device count when none is stated.
  void SdyMeshDef(TextPos pos, bool generic);
  bool MeshBody(SdyMesh* mesh);
  bool MeshDict(SdyMesh* mesh);
  bool ReadSdyMesh(std::string* name, SdyMesh* mesh);
  bool ReadGenericSdyMesh(std::string* name, SdyMesh* mesh);
  void PrepassMesh(bool generic);
  // A mesh by `@name`: defined before in this part, else later in it (the
  // pre-pass), else null.
  const SdyMesh* FindMesh(const std::string& name) const;
  void LocAlias();
  void ResultName();
  void Split();
  void StartPart();
  void NamePart();
  void Error(TextPos pos, std::string message);
  void RunParallel();
  void ShardingAttr(TextPos pos);
  // A part that states no counts may take them from a later
  // `interpreter.run_parallel` (StableHLO's interpreter tests): its
  // collectives wait, within a bound, until the part ends.
  bool CountsStated() const {
    return module_->num_partitions.has_value() ||
           module_->replica_count.has_value();
  }
  void Emit();
  void FlushDeferred();

  // mlir_op.cc
  void Op(CollectiveKind kind, TextPos name_pos, std::string_view op_name);
  bool Operands(Collective* c);
  bool AttrDict(Collective* c, bool properties);
  bool Attr(Collective* c, const std::string& key, TextPos key_pos);
  bool CustomCallAttr(Collective* c, const std::string& key, TextPos key_pos);
  void PrettyCustomCall(TextPos pos);
  bool Groups(Collective* c, TextPos key_pos);
  bool MeshAxesGroups(Collective* c);
  // The op being read cannot be checked: dropped, with an error at `pos`
  // that names it and says why (never a silent skip).
  void Unchecked(TextPos pos, const std::string& why);
  bool Pairs(Collective* c);
  bool ChannelHandle(Collective* c, TextPos key_pos);
  bool IntAttr(int64_t* out);
  bool FunctionType(Collective* c);
  void Location(Collective* c);
  bool ReadLoc(SourceLoc* out, int depth);

  // mlir_sdy.cc: Shardy's collectives, `sdy.all_gather [{"y"}, {}] %0
  // out_sharding=<@mesh, [...]> : T` and the others.
  void SdyOp(SdyOpKind kind, TextPos name_pos, const std::string& op_name);
  void SdyGeneric(SdyOpKind kind, TextPos name_pos, const std::string& op_name);
  void SdyStart(SdyOpKind kind, TextPos name_pos);
  bool SdyAxes(SdyOpKind kind, std::vector<MeshAxisRef>* refs, int64_t* dim);
  bool SdyAxisRefs(std::vector<MeshAxisRef>* out);
  bool SdyOutSharding(SdyMesh* inline_mesh, std::string* mesh_name,
                      TextPos* mesh_pos);

  // mlir_values.cc
  bool Dense(DenseRows* out);
  bool DenseList(DenseRows* out);
  bool Type(Shape* out, int depth);
  bool TypeList(std::vector<Shape>* out);

  bool Fail(std::string message);  // an error at the cursor; false
  bool Expect(int c, const char* what);

  InputWindow* window_;
  Cursor cur_;
  Module* module_;
  ParseOptions options_;
  Collective op_;
  std::string result_name_;  // `%name =` just before an op, else ""
  TextPos result_pos_;
  std::string computation_;    // the enclosing func's name
  int pending_next_line_ = 0;  // disable-next-line directives to place
  bool part_has_content_ = false;
  // num_partitions came from an sdy.mesh, not mhlo.num_partitions.
  bool partitions_from_mesh_ = false;
  bool partitions_from_sharding_ = false;
  // The op being read cannot be checked (a groups form not read): it is
  // dropped rather than checked with groups it does not have.
  bool skip_op_ = false;
  // The op being read is a custom call (a ragged all-to-all only when its
  // target, read with the attributes in the generic form, says so).
  bool custom_call_ = false;
  std::string call_target_;
  int64_t op_start_ = 0;  // offset of the op being read
  // Aliases by name and part (`#loc3/0`: each `// -----` part has its own
  // names), file names interned; at most 2^18 aliases and 2^16 files.
  struct LocRef {
    int32_t file = -1;
    int64_t line = 0;
    int64_t column = 0;
  };
  std::string LocKey(std::string_view name) const {
    return std::string(name) + "/" + std::to_string(part_index_);
  }
  void AddLoc(std::string_view name, const SourceLoc& loc);
  std::unordered_map<std::string, LocRef> locs_;
  std::vector<std::string> loc_files_;
  std::unordered_map<std::string, int32_t> loc_file_index_;
  int part_index_ = 0;  // `// -----` lines so far
  int parts_done_ = 0;  // parts handed to on_module_split (and named)
  std::unordered_set<std::string> part_names_;
  std::unordered_map<std::string, SdyMesh> meshes_;
  // Every mesh of the file by `@name/part`, from the pre-pass.
  std::unordered_map<std::string, SdyMesh> later_meshes_;
  bool stopped_ = false;  // the syntax error limit was reached
  std::string scratch_;
  std::vector<Collective> deferred_;
  int64_t deferred_bytes_ = 0;
  bool defer_off_ = false;  // the bound was reached in this part
  // The channels given to Shardy's collectives so far (one each, as
  // Shardy's lowering gives them).
  int64_t sdy_channels_ = 0;
};

}  // namespace topolint::hlo::mlir

#endif  // TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_
