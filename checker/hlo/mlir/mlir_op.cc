// One collective op in generic form,
//   %r = "stablehlo.all_gather"(%x) <{properties}> ({regions}) {attributes}
//        : (operand types) -> result types loc(...)
// into an hlo::Collective, as XLA's StableHLO -> HLO translation would
// make it (docs/reference/inputs.md, "StableHLO"): the groups, the channel
// (a handle counts only when > 0), use_global_device_ids, the dimension and
// the operand and result types.
#include <cstdint>
#include <string>
#include <utility>

#include "checker/hlo/collective_emit.h"
#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {

bool CollectiveOfOpName(std::string_view name, CollectiveKind* kind) {
  std::string_view op;
  if (name.substr(0, 10) == "stablehlo.") {
    op = name.substr(10);
  } else if (name.substr(0, 5) == "mhlo.") {
    op = name.substr(5);
  } else {
    return false;
  }
  static constexpr std::pair<std::string_view, CollectiveKind> kOps[] = {
      {"all_reduce", CollectiveKind::kAllReduce},
      {"all_gather", CollectiveKind::kAllGather},
      {"reduce_scatter", CollectiveKind::kReduceScatter},
      {"all_to_all", CollectiveKind::kAllToAll},
      {"collective_permute", CollectiveKind::kCollectivePermute},
      {"collective_broadcast", CollectiveKind::kCollectiveBroadcast},
  };
  return LookUpName(kOps, op, kind);
}

bool IsCustomCallName(std::string_view name) {
  return name == "stablehlo.custom_call" || name == "mhlo.custom_call";
}

void Reader::Op(CollectiveKind kind, TextPos name_pos,
                std::string_view op_name) {
  part_has_content_ = true;
  skip_op_ = false;
  op_.Clear();
  op_start_ = cur_.Offset();
  op_.kind = kind;
  op_.is_async_start = false;
  // The HLO opcode the op becomes: explain and messages read alike for
  // the three front ends.
  op_.opcode = CollectiveKindName(kind);
  op_.opcode_pos = name_pos;
  op_.computation = computation_;
  if (!result_name_.empty()) {
    op_.name = result_name_;
    op_.pos = result_pos_;
  } else {
    op_.name = std::string(op_name);
    op_.pos = name_pos;
  }
  result_name_.clear();
  if (!Operands(&op_)) return;
  cur_.SkipSpace();
  if (cur_.Peek() == '<' && cur_.PeekAt(1) == '{') {
    cur_.Advance();
    if (!AttrDict(&op_, true) || !Expect('>', "'>' after the properties")) {
      return;
    }
    cur_.SkipSpace();
  }
  if (cur_.Peek() == '(') {  // the reduction region
    if (!cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
      Fail(fmt::format("unterminated region of {}", op_.name));
      return;
    }
    cur_.SkipSpace();
  }
  if (cur_.Peek() == '{' && !AttrDict(&op_, false)) return;
  cur_.SkipSpace();
  if (cur_.Eat(':') && !FunctionType(&op_)) return;
  Location(&op_);
  // A custom call is a collective only as ragged_all_to_all.
  if (custom_call_ && call_target_ != kRaggedAllToAllTarget) return;
  if (skip_op_ || stopped_) return;
  if (cur_.Offset() - op_start_ > options_.max_instruction_bytes) {
    Error(op_.opcode_pos, fmt::format("{} spans more than {} bytes", op_.name,
                                      options_.max_instruction_bytes));
    return;
  }
  if (IsEmittedCollective(op_)) Emit();
}

void Reader::Unchecked(TextPos pos, const std::string& why) {
  if (skip_op_) return;
  skip_op_ = true;
  Error(pos,
        fmt::format("{} ({}) is not checked: {}", op_.name, op_.opcode, why));
}

bool Reader::Operands(Collective* c) {
  // At '(': `%a, %b#1`, counted; their types come from the function type.
  cur_.Advance();
  int64_t count = 0;
  bool in_operand = false;
  const int64_t start = cur_.Offset();
  for (;;) {
    const int ch = cur_.Peek();
    if (ch == kEnd || cur_.Offset() - start > options_.max_instruction_bytes) {
      return Fail(fmt::format("unterminated operand list of {}", c->name));
    }
    cur_.Advance();
    if (ch == ')') break;
    if (ch == ',') {
      in_operand = false;
    } else if (!IsBlank(ch) && !in_operand) {
      in_operand = true;
      ++count;
    }
  }
  c->operand_count = count;
  return true;
}

bool Reader::AttrDict(Collective* c, bool properties) {
  if (!Expect('{', "'{'")) return false;
  for (;;) {
    cur_.SkipSpace();
    if (cur_.Eat('}')) return true;
    if (stopped_) return false;
    const TextPos key_pos = cur_.Pos();
    std::string key;
    if (cur_.Peek() == '"') {
      if (!cur_.ReadString(&key)) return Fail("unterminated attribute name");
    } else if (!cur_.ReadId(&key)) {
      return Fail(fmt::format("expected an attribute name in the {} of {}",
                              properties ? "properties" : "attributes",
                              c->name));
    }
    cur_.SkipSpace();
    if (cur_.Eat('=')) {
      cur_.SkipSpace();
      if (!Attr(c, key, key_pos)) return false;
    } else if (key == "use_global_device_ids") {  // a unit attribute
      c->has_use_global_device_ids = true;
      c->use_global_device_ids = true;
      c->use_global_device_ids_pos = key_pos;
    }
    cur_.SkipSpace();
    if (cur_.Eat(',')) continue;
    if (cur_.Peek() == '}') continue;
    return Expect('}', "',' or '}' after an attribute");
  }
}

bool Reader::IntAttr(int64_t* out) {
  if (!cur_.ReadInt(out)) return Fail("expected an integer");
  cur_.SkipSpace();
  if (cur_.Eat(':')) {  // `1 : i64`
    cur_.SkipSpace();
    std::string type;
    if (!cur_.ReadId(&type)) return Fail("expected an integer type");
  }
  return true;
}

bool Reader::Attr(Collective* c, const std::string& key, TextPos key_pos) {
  if (custom_call_ && CustomCallAttr(c, key, key_pos)) return !stopped_;
  if (key == "replica_groups") return Groups(c, key_pos);
  if (key == "source_target_pairs") return Pairs(c);
  if (key == "channel_handle") return ChannelHandle(c, key_pos);
  if (key == "use_global_device_ids") {
    std::string word;
    cur_.ReadId(&word);
    c->has_use_global_device_ids = true;
    c->use_global_device_ids = word != "false";
    c->use_global_device_ids_pos = key_pos;
    return true;
  }
  const bool dim = key == "all_gather_dim" || key == "scatter_dimension" ||
                   key == "split_dimension";
  if (dim) {
    int64_t d = 0;
    if (!IntAttr(&d)) return false;
    c->has_dimensions = true;
    c->dimensions.assign(1, d);
    c->dimensions_pos = key_pos;
    return true;
  }
  // Everything else (concat_dimension, split_count, mhlo.sharding (read
  // by the top-level scan, ShardingAttr), frontend attributes, ...) plays
  // no part in the checks.
  if (!cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth)) {
    return Fail(fmt::format("unterminated value of attribute {}", key));
  }
  return true;
}

bool Reader::CustomCallAttr(Collective* c, const std::string& key,
                            TextPos key_pos) {
  // The attributes of a custom call that make it a ragged all-to-all (jax's
  // _ragged_all_to_all_lowering, XLA's export of the custom call): the
  // target, and backend_config = {replica_groups = dense<...>, channel_id =
  // N : i64}. True when `key` was one of them (read).
  if (key == "call_target_name") {
    if (cur_.Peek() != '"' || !cur_.ReadString(&call_target_, 256)) {
      Fail("expected a string for call_target_name");
    }
    return true;
  }
  if (key == "backend_config" && cur_.Peek() == '{') {
    AttrDict(c, false);
    return true;
  }
  if (key == "channel_id") {
    int64_t v = 0;
    if (!IntAttr(&v)) return true;
    // As a channel handle: XLA keeps a channel only when it is positive.
    c->channel_id = v;
    c->has_channel_id = v > 0;
    c->channel_id_pos = key_pos;
    return true;
  }
  return false;
}

bool Reader::Groups(Collective* c, TextPos /*key_pos*/) {
  ReplicaGroups& rg = c->replica_groups;
  if (cur_.Peek() == '#') return MeshAxesGroups(c);
  DenseRows& rows = dense_;
  if (!Dense(&rows)) return false;
  rg.form = ReplicaGroups::Form::kExplicit;
  rg.pos = rows.pos;
  std::vector<int64_t>* ids = rg.MutableIds();
  int64_t index = 0;
  for (size_t r = 0; r < rows.row_count(); ++r) {
    for (size_t k = rows.row_begin(r); k < rows.row_end[r]; ++k) {
      // XLA's exporter drops -1, JAX's padding of uneven groups.
      const int64_t id = rows.values[k];
      if (id == -1) continue;
      ids->push_back(id);
      if (!rows.value_pos.empty()) {
        rg.id_layout.Add(index, id, rows.value_pos[k]);
      }
      ++index;
    }
    rg.EndGroup(rows.row_pos[r]);
  }
  rg.explicit_id_count = static_cast<int64_t>(ids->size());
  return true;
}

bool Reader::Pairs(Collective* c) {
  SourceTargetPairs& p = c->source_target_pairs;
  DenseRows& rows = dense_;
  if (!Dense(&rows)) return false;
  p.present = true;
  p.pos = rows.pos;
  for (size_t r = 0; r < rows.row_count(); ++r) {
    if (rows.row_size(r) != 2) {
      Error(rows.row_pos[r],
            fmt::format("source_target_pairs of {} must be a Nx2 tensor; "
                        "row {} holds {} values",
                        c->name, r, rows.row_size(r)));
      skip_op_ = true;
      return true;
    }
    const size_t b = rows.row_begin(r);
    p.pairs.emplace_back(rows.values[b], rows.values[b + 1]);
    p.pair_pos.push_back(rows.row_pos[r]);
  }
  return true;
}

bool Reader::ChannelHandle(Collective* c, TextPos key_pos) {
  // #stablehlo.channel_handle<handle = H, type = T>, #mhlo.channel_handle<>,
  // or the old dictionary {handle = H : i64, type = T : i64}.
  if (cur_.Eat('#')) {
    std::string name;
    cur_.ReadId(&name);
    if (!Expect('<', "'<' after the channel handle's name")) return false;
  } else if (!cur_.Eat('{')) {
    return Fail("expected a #stablehlo.channel_handle<...>");
  }
  bool have = false;
  int64_t handle = 0;
  for (;;) {
    cur_.SkipSpace();
    if (cur_.Eat('>') || cur_.Eat('}')) break;
    std::string key;
    if (!cur_.ReadId(&key)) return Fail("expected handle = N in the channel");
    if (!Expect('=', "'='")) return false;
    cur_.SkipSpace();
    int64_t v = 0;
    if (!IntAttr(&v)) return false;
    if (key == "handle") {
      handle = v;
      have = true;
    }
    cur_.SkipSpace();
    cur_.Eat(',');
  }
  if (!have) return true;
  // XLA copies `handle` into channel_id and keeps a channel only when it is
  // positive (HloInstruction::CreateFromProto): handle 0 is no channel.
  c->channel_id = handle;
  c->has_channel_id = handle > 0;
  c->channel_id_pos = key_pos;
  return true;
}

bool Reader::FunctionType(Collective* c) {
  cur_.SkipSpace();
  if (cur_.Peek() != '(') {
    // `: T` alone: one type for operands and result.
    Shape s;
    if (!Type(&s, 0)) return false;
    c->result_shape = s;
    c->operand_shapes.assign(static_cast<size_t>(c->operand_count), s);
    return true;
  }
  if (!TypeList(&c->operand_shapes)) return false;
  cur_.SkipSpace();
  if (!cur_.Eat('-') || !cur_.Eat('>')) {
    return Fail(fmt::format("expected '->' in the type of {}", c->name));
  }
  cur_.SkipSpace();
  if (cur_.Peek() == '(') {
    std::vector<Shape> results;
    if (!TypeList(&results)) return false;
    if (results.size() == 1) {
      c->result_shape = std::move(results[0]);
    } else {
      c->result_shape.known = true;
      c->result_shape.is_tuple = true;
      c->result_shape.tuple = std::move(results);
    }
    return true;
  }
  return Type(&c->result_shape, 0);
}

void Reader::Location(Collective* c) {
  // `loc(...)` on the op's line (where MLIR prints it): blanks only, so that
  // the next line is left to the top-level scan from its start (a
  // `// topolint:` directive, a dull line skipped whole, a value's
  // sdy.sharding).
  while (cur_.Peek() == ' ' || cur_.Peek() == '\t') cur_.Advance();
  if (cur_.Peek() != 'l' || cur_.PeekAt(1) != 'o' || cur_.PeekAt(2) != 'c' ||
      cur_.PeekAt(3) != '(') {
    return;
  }
  cur_.Advance();
  cur_.Advance();
  cur_.Advance();
  SourceLoc loc;
  if (ReadLoc(&loc, 0) && !loc.file.empty()) {
    c->source_file = std::move(loc.file);
    c->source_line = loc.line;
    // A column past int32 is no column a printer writes.
    c->source_column = loc.column > 0 && loc.column <= INT32_MAX
                           ? static_cast<int32_t>(loc.column)
                           : 0;
  }
}

bool Reader::ReadLoc(SourceLoc* out, int /*depth*/) {
  // At '(' after `loc`: the first file location inside, `"f.py":42:7`
  // (of a name, callsite or fused location too), or the first alias that
  // resolves to one. Consumed through the matching ')'.
  if (!cur_.Eat('(')) return false;
  int depth = 1;
  const int64_t start = cur_.Offset();
  std::string text;
  while (depth > 0) {
    if (cur_.Offset() - start > options_.max_instruction_bytes) return false;
    const int ch = cur_.Peek();
    if (ch == kEnd) return false;
    if (ch == '"') {
      if (!cur_.ReadString(&text, 4096)) return false;
      if (out->file.empty() && cur_.Peek() == ':' && IsDigit(cur_.PeekAt(1))) {
        cur_.Advance();
        int64_t line = 0, column = 0;
        if (cur_.ReadInt(&line) && cur_.Eat(':')) cur_.ReadInt(&column);
        out->file = text;
        out->line = line;
        out->column = column;
      }
    } else if (ch == '#') {
      cur_.Advance();
      std::string name;
      cur_.ReadId(&name);
      if (out->file.empty()) {
        auto it = locs_.find(LocKey("#" + name));
        if (it != locs_.end()) {
          out->file = loc_files_[static_cast<size_t>(it->second.file)];
          out->line = it->second.line;
          out->column = it->second.column;
        }
      }
    } else {
      if (ch == '(' || ch == '[' || ch == '<') ++depth;
      if (ch == ')' || ch == ']' || ch == '>') --depth;
      cur_.Advance();
    }
  }
  return true;
}

}  // namespace topolint::hlo::mlir
