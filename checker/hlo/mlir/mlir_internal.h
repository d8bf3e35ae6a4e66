// The StableHLO reader's parts: the top-level scan (mlir_reader.cc), a
// collective op and its attributes (mlir_op.cc), dense integer tensors and
// types (mlir_values.cc). Internal to checker/hlo/mlir.
#ifndef TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_

#include <cstddef>
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

// The value `name` has in `table` (rows of name and value) into *value;
// false when no row has it.
template <typename T, size_t N>
bool LookUpName(const std::pair<std::string_view, T> (&table)[N],
                std::string_view name, T* value) {
  for (const auto& [text, v] : table) {
    if (name == text) {
      *value = v;
      return true;
    }
  }
  return false;
}

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
// Flat: row r holds values [row_begin(r), row_end[r]). The reader keeps
// one and clears it per value, so that reading an op's groups allocates
// nothing once the vectors have grown.
struct DenseRows {
  std::vector<int64_t> dims;  // from the type
  std::vector<int64_t> values;
  std::vector<size_t> row_end;
  std::vector<TextPos> row_pos;
  std::vector<TextPos> value_pos;  // one per value; empty when not written
  TextPos pos;                     // `dense`

  size_t row_count() const { return row_end.size(); }
  size_t row_begin(size_t r) const { return r == 0 ? 0 : row_end[r - 1]; }
  size_t row_size(size_t r) const { return row_end[r] - row_begin(r); }
  void Clear() {
    dims.clear();
    values.clear();
    row_end.clear();
    row_pos.clear();
    value_pos.clear();
    pos = TextPos();
  }
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

// A Shardy tensor sharding, `<@mesh, [{"x"}, {"y", ?}p1], replicated={...}>`
// as far as the checks need it: its mesh and the axes of each dimension
// (open `?` marks, priorities and the replicated / unreduced axes are
// skipped).
struct SdySharding {
  std::string mesh_name;  // without '@'; "" for an inline mesh
  SdyMesh inline_mesh;
  TextPos mesh_pos;
  std::vector<std::vector<MeshAxisRef>> dims;
};

// What one Shardy collective says, in either printed form (mlir_sdy.cc).
struct SdyOpRead {
  std::vector<MeshAxisRef> refs;  // its axes, in the order of the groups
  int64_t dim = 0;                // the dimension gathered, scattered, split
  std::string operand;            // `%0`, `%arg1`, `%3#1`
  SdySharding out;                // out_sharding
  bool has_out = false;
  bool axes_read = false;  // the generic form's axes attribute was read
};

// The source-target pairs of an `sdy.collective_permute` from `in`, its
// operand's sharding, to `out`, as Shardy's lowering computes them
// (mlir_sdy_permute.cc): every device of the mesh sends its shard to the
// device that holds the same shard under `out`. False with `*why` when the
// two cannot be compared (different axes, an axis the mesh lacks, ...).
bool SdyPermutePairs(const SdyMesh& in_mesh, const SdySharding& in,
                     const SdyMesh& out_mesh, const SdySharding& out,
                     std::vector<std::pair<int64_t, int64_t>>* pairs,
                     std::string* why);

// Ends the reading of a Shardy op: failures are syntax errors again.
struct SdyScope {
  bool* in_sdy_op;
  SdyScope(const SdyScope&) = delete;
  SdyScope& operator=(const SdyScope&) = delete;
  ~SdyScope() { *in_sdy_op = false; }
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
    permute_operands_.swap(from.permute_operands_);
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
  // The pre-pass at a line starting `%`: the operand of an
  // sdy.collective_permute (`%r = sdy.collective_permute %x ...` or
  // `%r = "sdy.collective_permute"(%x) ...`), into permute_operands_.
  void PrepassPermute();
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
  // out_sharding=<@mesh, [...]> : T` and the others, and their generic
  // form `"sdy.all_gather"(%0) <{gathering_axes = ..., out_sharding =
  // ...}>`. What cannot be read of one is an unchecked-input note at the
  // op (SdyNotChecked), never a syntax error: the module may be valid.
  void SdyOp(SdyOpKind kind, TextPos name_pos, const std::string& op_name);
  void SdyGeneric(SdyOpKind kind, TextPos name_pos, const std::string& op_name);
  bool SdyGenericDict(SdyOpKind kind, SdyOpRead* r);
  bool SdyGenericAttr(SdyOpKind kind, const std::string& key, SdyOpRead* r);
  void SdyStart(SdyOpKind kind, TextPos name_pos);
  void SdyFinish(SdyOpKind kind, TextPos name_pos, SdyOpRead* r);
  void SdyNotChecked(TextPos pos, const std::string& why);
  bool SdyAxes(SdyOpKind kind, std::vector<MeshAxisRef>* refs, int64_t* dim);
  bool SdyAxisRefs(std::vector<MeshAxisRef>* out);
  bool SdyOutSharding(SdySharding* out);
  // At '<': `<@mesh, [{"x"}, {}], ...>` or `<mesh<[...]>, [...]>`.
  bool SdyShardingBody(SdySharding* out);
  // The mesh a sharding names (the part's, or its inline one), else null.
  const SdyMesh* SdyMeshOf(const SdySharding& s) const;

  // mlir_sdy_permute.cc: the shardings of values, for the operand of an
  // sdy.collective_permute (Shardy's getSharding): a func.func argument's
  // `sdy.sharding`, an op's `sdy.sharding = #sdy.sharding_per_value<...>`,
  // an sdy.sharding_constraint / sdy.reshard's sharding and a Shardy
  // collective's out_sharding, kept as text per function.
  void SdyPermute(TextPos name_pos, SdyOpRead* r);
  void FuncArgs();
  void ArgSharding(const std::string& arg);
  // From SkipDullLine: `%v = ... {sdy.sharding = #sdy.sharding_per_value<
  // [...]>} ...` or `%v = sdy.sharding_constraint %x <@m, [...]> ...`.
  void NoteShardingLine(std::string_view s);
  void KeepValueSharding(std::string_view name, std::string_view text,
                         bool list);
  bool CaptureBalanced(std::string* out);
  bool ValueSharding(const std::string& operand, SdySharding* out,
                     std::string* why);
  void ClearValueShardings();

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
  DenseRows dense_;  // Groups' and Pairs' value, reused
  std::vector<Collective> deferred_;
  int64_t deferred_bytes_ = 0;
  bool defer_off_ = false;  // the bound was reached in this part
  // The channels given to Shardy's collectives so far (one each, as
  // Shardy's lowering gives them).
  int64_t sdy_channels_ = 0;
  // A Shardy collective is being read: a failure is an unchecked-input
  // note on it, not a syntax error.
  bool in_sdy_op_ = false;
  // The shardings of the values of the current function by name (`%3`,
  // `%arg0`): an index into sharding_texts_, and whether the text is a
  // per-value list `<[<...>, <...>]>` (else one `<...>`). Bounded.
  struct ValueShardingRef {
    int32_t text = -1;
    bool list = false;
  };
  std::unordered_map<std::string, ValueShardingRef> value_shardings_;
  std::vector<std::string> sharding_texts_;
  std::unordered_map<std::string, int32_t> sharding_text_index_;
  bool value_shardings_full_ = false;  // a bound was reached in this function
  // The operands of the file's sdy.collective_permutes, by `%name/part`
  // (LocKey), from the pre-pass: only their shardings are kept, so a
  // module without a permute keeps none (bounded: 2^16).
  std::unordered_set<std::string> permute_operands_;
  // The out_sharding of each Shardy collective of the function by result
  // name (at most 4096).
  std::unordered_map<std::string, SdySharding> collective_outs_;
};

}  // namespace topolint::hlo::mlir

#endif  // TOPOLINT_CHECKER_HLO_MLIR_MLIR_INTERNAL_H_
