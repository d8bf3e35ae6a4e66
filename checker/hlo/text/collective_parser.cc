// Collective instruction bodies: operands (with inline or resolved shapes,
// nested instructions) and the attributes the rules need. Every other
// attribute is skipped. Non-collective instructions are skipped whole.
#include "checker/hlo/text/collective_parser.h"

#include <cstring>
#include <string>
#include <utility>

#include "checker/hlo/text/byte_classes.h"
#include "checker/hlo/text/collective_attrs.h"
#include "checker/hlo/text/fast_path_checks.h"
#include "checker/hlo/text/fast_paths.h"
#include "checker/hlo/text/group_list_parser.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/hlo/text/shape_parser.h"
#include "checker/hlo/text/small_copy.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr int64_t kMaxOperands = int64_t{1} << 16;

// `, name=value` pairs that follow a nested instruction inside an operand
// list (`all-reduce(f32[8] add(%a, %b), %c)`): a ',' followed, on the same
// line, by `name=` is an attribute of the nested instruction; anything else
// is the next operand.
bool SkipNestedAttributes(HloLexer& lx) {
  for (;;) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != ',') return true;
    const HloLexer::Mark mark = lx.SaveMark();
    lx.Bump();
    lx.SkipBlanks();
    std::string key;
    const bool is_attr =
        IsIdentStart(lx.Peek()) && lx.ReadIdent(&key) && lx.Peek() == '=';
    if (lx.stopped()) {
      lx.Release();
      return false;
    }
    if (!is_attr) {
      lx.Restore(mark);
      return true;
    }
    lx.Release();
    lx.Bump();  // '='
    if (!lx.SkipTrivia() || !lx.SkipValue()) return false;
  }
}

// A text read as a view of the window, kept past reads that may refill
// it: a short one in a local buffer (no allocation), a long one in a
// string. Not copyable.
class KeptText {
 public:
  KeptText() = default;
  KeptText(const KeptText&) = delete;
  KeptText& operator=(const KeptText&) = delete;

  void Keep(std::string_view view) {
    if (view.size() <= sizeof(buf_)) {
      CopySmall(buf_, view.data(), view.size());
      text_ = std::string_view(buf_, view.size());
    } else {
      long_.assign(view);
      text_ = long_;
    }
  }
  std::string_view text() const { return text_; }

 private:
  char buf_[64];
  std::string long_;
  std::string_view text_;
};

// The shape of operand `name`, from its text in the table, into `shape`'s
// storage (unknown when the table has no such name).
void Resolve(const HloLexer& lx, ShapeTable& table, std::string_view name,
             Shape* shape) {
  if (std::optional<std::string_view> text = table.Find(name)) {
    ParseShapeText(*text, shape, lx.FastPathOn(FastPath::kReadSimpleShape));
  } else {
    shape->Clear();
  }
}

// An operand's name, `%name` or `name`, as a view (without the '%').
bool ReadOperandName(HloLexer& lx, std::string_view* name) {
  const int n = lx.Peek();
  const bool percent = n == '%' && IsIdentStart(lx.PeekAt(1));
  if (!percent && !IsIdentStart(n)) return lx.Expected("an operand name");
  if (percent) lx.Bump();
  return lx.ReadIdentView(name);
}

// `f32[8] add(...)`: a nested instruction (its shape is the one written),
// at its '('.
bool SkipNestedInstruction(HloLexer& lx) {
  return lx.SkipGroup() && SkipNestedAttributes(lx);
}

// One operand: `[shape] name`, or a nested instruction `[shape] opcode(...)`.
bool ParseOperand(HloLexer& lx, ShapeTable& table, ValueMemo* memo,
                  Shape* shape) {
  bool has_shape = false;
  std::string word;
  const int c = lx.Peek();
  if (c == '(' || IsIdentStart(c)) {
    // The common `f32[8]{0} %x`, straight from the window, into the
    // storage `shape` has (TryReadShape clears it when it declines).
    has_shape =
        lx.FastPathOn(FastPath::kTryReadShape) &&
        CheckedFastPath(
            lx, "TryReadShape", [&] { return TryReadShape(lx, memo, shape); },
            [&] {
              const HloLexer::ExactOnly exact_only(lx);
              Shape exact;
              return ParseShape(lx, &exact) && SameShape(exact, *shape);
            },
            /*blanks_after=*/true);
  } else {
    shape->Clear();  // (keeps its storage)
  }
  if (has_shape) {
    // Read; the name follows.
  } else if (c == '(') {
    if (!ParseShape(lx, shape)) return false;
    has_shape = true;
  } else if (IsIdentStart(c)) {
    if (!lx.ReadIdent(&word) || !lx.SkipTrivia()) return false;
    if (lx.Peek() == '[') {
      if (!ParseArrayShapeRest(lx, std::move(word), shape)) return false;
      word.clear();
      has_shape = true;
    } else if (word == "b" && lx.Peek() == '(') {  // buffer `b(f32[8])`
      if (!ParseBufferShapeRest(lx, shape)) return false;
      has_shape = true;
    } else if (lx.Peek() == '(') {
      return SkipNestedInstruction(lx);  // shape unknown
    } else {
      Resolve(lx, table, word, shape);
      return true;
    }
  } else if (c != '%') {
    return lx.Expected(
        "an operand (a name such as '%p', optionally after "
        "its shape)");
  }
  std::string_view view;
  if (has_shape) {
    // The name is not needed: read as a view (no copy).
    if (!lx.SkipTrivia() || !ReadOperandName(lx, &view)) return false;
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() == '(') return SkipNestedInstruction(lx);
    return true;
  }
  // The shape is found by the name (kept without its '%', which the table
  // ignores).
  if (!ReadOperandName(lx, &view)) return false;
  KeptText name;
  name.Keep(view);
  if (!lx.SkipTrivia()) return false;
  if (lx.Peek() == '(') return SkipNestedInstruction(lx);
  Resolve(lx, table, name.text(), shape);
  return true;
}

bool ParseOperands(HloLexer& lx, ShapeTable& table, ValueMemo* memo,
                   Collective* c) {
  lx.Bump();  // '('
  if (!lx.SkipTrivia()) return false;
  if (lx.Eat(')')) return true;
  for (;;) {
    if (!lx.SkipTrivia()) return false;
    if (c->operand_count >= kMaxOperands) {
      return lx.Error(lx.Pos(), fmt::format("'{}' has more than the limit of "
                                            "{} operands",
                                            c->name, kMaxOperands));
    }
    // Into the next element, reusing one the caller left there (see
    // ParseCollectiveBody).
    const size_t i = static_cast<size_t>(c->operand_count);
    if (i == c->operand_shapes.size()) c->operand_shapes.emplace_back();
    if (!ParseOperand(lx, table, memo, &c->operand_shapes[i])) return false;
    ++c->operand_count;
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat(')')) return true;
    return lx.Expected(
        fmt::format("',' or ')' in the operand list of '{}'", c->name));
  }
}

bool Duplicate(HloLexer& lx, TextPos pos, std::string_view attr) {
  return lx.Error(pos, fmt::format("attribute '{}' is given twice; expected "
                                   "it at most once",
                                   attr));
}

// The attributes of a collective the rules read; every other key is
// skipped.
enum class AttrKey {
  kOther,
  kChannelId,
  kUseGlobalDeviceIds,
  kReplicaGroups,
  kSourceTargetPairs,
  kSliceSizes,
  kDimensions,
  kToApply,
  kMetadata,
  kFrontendAttributes,
};

// A switch on the key's length first: most keys are compared with one
// string at most (this runs for every attribute of every collective).
AttrKey ClassifyKey(std::string_view key) {
  switch (key.size()) {
    case 8:
      if (key == "to_apply") return AttrKey::kToApply;
      if (key == "metadata") return AttrKey::kMetadata;
      break;
    case 10:
      if (key == "channel_id") return AttrKey::kChannelId;
      if (key == "dimensions") return AttrKey::kDimensions;
      break;
    case 11:
      if (key == "slice_sizes") return AttrKey::kSliceSizes;
      break;
    case 14:
      if (key == "replica_groups") return AttrKey::kReplicaGroups;
      break;
    case 19:
      if (key == "source_target_pairs") return AttrKey::kSourceTargetPairs;
      if (key == "frontend_attributes") return AttrKey::kFrontendAttributes;
      break;
    case 21:
      if (key == "use_global_device_ids") {
        return AttrKey::kUseGlobalDeviceIds;
      }
      break;
    default:
      break;
  }
  return AttrKey::kOther;
}

// `true` or `false` of use_global_device_ids, read as a view (no copy).
bool ParseUseGlobalDeviceIds(HloLexer& lx, TextPos key_pos, Collective* c) {
  const TextPos value_pos = lx.Pos();
  if (!IsIdentStart(lx.Peek())) {
    return lx.Expected("'true' or 'false' for use_global_device_ids");
  }
  std::string_view word;
  if (!lx.ReadIdentView(&word)) return false;
  const bool is_true = word == "true";
  if (!is_true && word != "false") {
    return lx.Error(value_pos, fmt::format("expected 'true' or 'false' for "
                                           "use_global_device_ids, found "
                                           "'{}'",
                                           word.substr(0, 40)));
  }
  c->has_use_global_device_ids = true;
  c->use_global_device_ids = is_true;
  c->use_global_device_ids_pos = key_pos;
  return true;
}

// One `name=value` of a collective; the cursor is after '=' and trivia.
bool ParseAttribute(HloLexer& lx, std::string_view key, TextPos key_pos,
                    ValueMemo* memo, Collective* c) {
  switch (ClassifyKey(key)) {
    case AttrKey::kChannelId:
      if (c->has_channel_id) return Duplicate(lx, key_pos, key);
      c->has_channel_id = true;
      c->channel_id_pos = key_pos;
      return lx.ReadInt(&c->channel_id, "an integer channel_id");
    case AttrKey::kUseGlobalDeviceIds:
      if (c->has_use_global_device_ids) return Duplicate(lx, key_pos, key);
      return ParseUseGlobalDeviceIds(lx, key_pos, c);
    case AttrKey::kReplicaGroups:
      if (c->replica_groups.form != ReplicaGroups::Form::kAbsent) {
        return Duplicate(lx, key_pos, key);
      }
      return ParseReplicaGroups(lx, &c->replica_groups, memo);
    case AttrKey::kSourceTargetPairs:
      if (c->source_target_pairs.present) return Duplicate(lx, key_pos, key);
      return ParseSourceTargetPairs(lx, key, &c->source_target_pairs, memo);
    case AttrKey::kSliceSizes:
      return CountInnerLists(lx, "slice_sizes", &c->slice_sizes_count);
    case AttrKey::kDimensions:
      if (c->has_dimensions) return Duplicate(lx, key_pos, key);
      c->has_dimensions = true;
      c->dimensions_pos = key_pos;
      return ParseIntList(lx, '{', '}', "dimensions", &c->dimensions, nullptr,
                          4096);
    case AttrKey::kToApply:
      // `to_apply={ ... }`: a nested (inline) computation, as XLA's parser
      // accepts and its canonical printer writes. It is skipped whole.
      if (lx.Peek() == '{') return lx.SkipGroup();
      return lx.ReadName(&c->to_apply, "a computation name after 'to_apply='");
    case AttrKey::kMetadata:
      return ParseMetadata(lx, c);
    case AttrKey::kFrontendAttributes:
      return ParseFrontendAttributes(lx, c);
    case AttrKey::kOther:
      break;
  }
  // backend_config, sharding, ...: skipped (FastScan, else the exact
  // scanner).
  return lx.SkipValue();
}

}  // namespace

bool ExpectValueEnd(HloLexer& lx, std::string_view attr) {
  lx.SkipBlanks();
  const int c = lx.Peek();
  if (c == ',' || c == '\n' || c == kEof || c == '}' || c == '/' || c == ')') {
    return true;
  }
  return lx.Expected(
      fmt::format("',' or end of line after the value of '{}'", attr));
}

bool ParseCollectiveBody(HloLexer& lx, ShapeTable& table, ValueMemo* memo,
                         Collective* c, const ShardingTarget* sharding) {
  const bool operands_ok = ParseOperands(lx, table, memo, c);
  // Elements past the operands (left by the caller for reuse) go.
  c->operand_shapes.resize(static_cast<size_t>(c->operand_count));
  if (!operands_ok) return false;
  // The key must outlive reads of its value (which may refill the window).
  KeptText kept_key;
  for (;;) {
    TextPos key_pos;
    std::string_view view;
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != ',') return true;
    lx.Bump();
    if (!lx.SkipTrivia()) return false;
    key_pos = lx.Pos();
    if (!IsIdentStart(lx.Peek())) {
      return lx.Expected("an attribute name after ','");
    }
    if (!lx.ReadIdentView(&view)) return false;
    kept_key.Keep(view);
    const std::string_view key = kept_key.text();
    if (!lx.SkipTrivia()) return false;
    if (!lx.Eat('=')) {
      return lx.Expected(fmt::format("'=' after attribute name '{}'", key));
    }
    if (!lx.SkipTrivia()) return false;
    // (A value that does not start with '{' is no sharding annotation:
    // sharding_attr.h.)
    if (sharding != nullptr && key == "sharding" && lx.Peek() == '{') {
      if (!ReadShardingValue(lx, *sharding, /*domain=*/false)) return false;
    } else if (!ParseAttribute(lx, key, key_pos, memo, c)) {
      return false;
    }
    // (The next ',' or line break right after the value: no call.)
    if (!lx.AtByte(',') && !lx.AtByte('\n') && !ExpectValueEnd(lx, key)) {
      return false;
    }
  }
}

}  // namespace topolint::hlo
