#include "checker/hlo/text/value_memo.h"

#include <cstring>

#include "checker/hlo/text/byte_classes.h"

namespace topolint::hlo {
namespace {

// The entry whose text the window holds at `at` (the window ending at
// `limit`) and after which `ends(past its text)` holds, or nullptr.
template <typename Entry, typename Ends>
const Entry* FindAt(const std::vector<Entry>& entries, const char* at,
                    const char* limit, Ends ends) {
  const size_t available = static_cast<size_t>(limit - at);
  for (const Entry& e : entries) {
    const size_t n = e.text.size();
    if (n <= available && at[0] == e.text[0] &&
        std::memcmp(at, e.text.data(), n) == 0 && ends(at + n)) {
      return &e;
    }
  }
  return nullptr;
}

// A value that ends at its closing brace, whatever follows.
bool AnyEnd(const char*) { return true; }

// A position `remembered` in a value that stood at `from` (all on one line),
// for the same value at `to`.
TextPos Moved(TextPos from, TextPos to, TextPos remembered) {
  return TextPos{to.line, remembered.column + (to.column - from.column)};
}

// *to = from, cheaply where *to (a reused shape) already holds much of it:
// strings and vectors are compared before they are assigned, and the
// elements of a tuple keep their storage.
void AssignShape(const Shape& from, Shape* to) {
  to->known = from.known;
  to->is_tuple = from.is_tuple;
  if (to->element_type != from.element_type) {
    to->element_type.assign(from.element_type);
  }
  if (to->dims != from.dims)
    to->dims.assign(from.dims.begin(), from.dims.end());
  if (to->tuple.size() != from.tuple.size()) {
    to->tuple.resize(from.tuple.size());
  }
  for (size_t i = 0; i < from.tuple.size(); ++i) {
    AssignShape(from.tuple[i], &to->tuple[i]);
  }
}

}  // namespace

bool ValueMemo::IsPlainValue(std::string_view text) {
  if (text.size() < 2 || text.size() > kMaxTextBytes) return false;
  for (const char c : text) {
    if (!IsDigit(c) && c != ',' && c != '{' && c != '}') return false;
  }
  return true;
}

bool ValueMemo::TryRecallPairs(HloLexer& lx, SourceTargetPairs* out) {
  const PairsEntry* e = FindAt(pairs_.entries, lx.cursor(), lx.limit(), AnyEnd);
  if (e == nullptr) return false;
  const TextPos at = lx.Pos();
  out->pairs.assign(e->pairs.begin(), e->pairs.end());
  out->pair_pos.resize(e->pair_pos.size());
  for (size_t i = 0; i < e->pair_pos.size(); ++i) {
    out->pair_pos[i] = Moved(e->pos, at, e->pair_pos[i]);
  }
  lx.AdvanceTo(lx.cursor() + e->text.size());
  ++recalled_;
  return true;
}

void ValueMemo::RememberPairs(std::string_view text,
                              const SourceTargetPairs& parsed) {
  if (!IsPlainValue(text)) return;
  PairsEntry& e = pairs_.Next();
  e.text.assign(text);
  e.pos = parsed.pos;
  e.pairs.assign(parsed.pairs.begin(), parsed.pairs.end());
  e.pair_pos.assign(parsed.pair_pos.begin(), parsed.pair_pos.end());
}

bool ValueMemo::TryRecallGroups(HloLexer& lx, ReplicaGroups* out) {
  const GroupsEntry* e =
      FindAt(groups_.entries, lx.cursor(), lx.limit(), AnyEnd);
  if (e == nullptr) return false;
  const TextPos at = lx.Pos();
  out->form = ReplicaGroups::Form::kExplicit;
  if (!e->group_ends.empty()) {
    // (As the parser, which takes the buffer only when there is a group.)
    out->MutableIds()->assign(e->ids.begin(), e->ids.end());
  }
  out->group_ends.assign(e->group_ends.begin(), e->group_ends.end());
  out->group_pos.resize(e->group_pos.size());
  for (size_t i = 0; i < e->group_pos.size(); ++i) {
    out->group_pos[i] = Moved(e->pos, at, e->group_pos[i]);
  }
  out->id_layout = e->id_layout;
  out->id_layout.MoveOnLine(at.line, at.column - e->pos.column);
  out->explicit_id_count = static_cast<int64_t>(e->ids.size());
  lx.AdvanceTo(lx.cursor() + e->text.size());
  ++recalled_;
  return true;
}

void ValueMemo::RememberGroups(std::string_view text,
                               const ReplicaGroups& parsed) {
  if (parsed.form != ReplicaGroups::Form::kExplicit || !IsPlainValue(text)) {
    return;
  }
  GroupsEntry& e = groups_.Next();
  e.text.assign(text);
  e.pos = parsed.pos;
  const absl::Span<const int64_t> ids = parsed.ids();
  e.ids.assign(ids.begin(), ids.end());
  e.group_ends.assign(parsed.group_ends.begin(), parsed.group_ends.end());
  e.group_pos.assign(parsed.group_pos.begin(), parsed.group_pos.end());
  e.id_layout = parsed.id_layout;
}

size_t ValueMemo::TryFindShape(std::string_view text) const {
  const std::vector<ShapeEntry>& entries = shapes_.entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].text == text) return i;
  }
  return kNoEntry;
}

void ValueMemo::RecallShapeInto(size_t entry, Shape* shape) {
  AssignShape(shapes_.entries[entry].shape, shape);
  ++recalled_;
}

const char* ValueMemo::TryRecallShapeAt(const char* p, const char* limit,
                                        Shape* shape) {
  const ShapeEntry* e = FindAt(shapes_.entries, p, limit, AnyEnd);
  if (e == nullptr) return nullptr;
  AssignShape(e->shape, shape);
  ++recalled_;
  return p + e->text.size();
}

void ValueMemo::RememberShape(std::string_view text, const Shape& shape) {
  if (text.empty() || text.size() > kMaxShortTextBytes || !shape.known ||
      (text.back() != '}' && text.back() != ')')) {
    return;
  }
  ShapeEntry& e = shapes_.Next();
  e.text.assign(text);
  e.shape = shape;
}

}  // namespace topolint::hlo
