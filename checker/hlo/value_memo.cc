#include "checker/hlo/value_memo.h"

#include <cstring>

#include "checker/hlo/byte_classes.h"

namespace topolint::hlo {
namespace {

// The entry whose text the window holds at the cursor, or nullptr.
template <typename Entry>
const Entry* Find(const std::vector<Entry>& entries, const HloLexer& lx) {
  const char* const at = lx.cursor();
  const size_t available = static_cast<size_t>(lx.limit() - at);
  for (const Entry& e : entries) {
    const size_t n = e.text.size();
    // (Every text starts with '{' and ends with '}': compare the second
    // byte first, then the rest.)
    if (n <= available && at[1] == e.text[1] &&
        std::memcmp(at, e.text.data(), n) == 0) {
      return &e;
    }
  }
  return nullptr;
}

// The slot a new entry goes to: a new one until there are kMaxEntries,
// then each in turn.
template <typename Entry>
Entry& Slot(std::vector<Entry>& entries, size_t* next) {
  if (entries.size() < ValueMemo::kMaxEntries) return entries.emplace_back();
  Entry& e = entries[*next];
  *next = (*next + 1) % ValueMemo::kMaxEntries;
  return e;
}

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
  const PairsEntry* e = Find(pairs_, lx);
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
  PairsEntry& e = Slot(pairs_, &next_pairs_);
  e.text.assign(text);
  e.pos = parsed.pos;
  e.pairs.assign(parsed.pairs.begin(), parsed.pairs.end());
  e.pair_pos.assign(parsed.pair_pos.begin(), parsed.pair_pos.end());
}

bool ValueMemo::TryRecallGroups(HloLexer& lx, ReplicaGroups* out) {
  const GroupsEntry* e = Find(groups_, lx);
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
  GroupsEntry& e = Slot(groups_, &next_groups_);
  e.text.assign(text);
  e.pos = parsed.pos;
  const absl::Span<const int64_t> ids = parsed.ids();
  e.ids.assign(ids.begin(), ids.end());
  e.group_ends.assign(parsed.group_ends.begin(), parsed.group_ends.end());
  e.group_pos.assign(parsed.group_pos.begin(), parsed.group_pos.end());
  e.id_layout = parsed.id_layout;
}

bool ValueMemo::TryRecallIota(HloLexer& lx, IotaSpec* out) {
  const char* const at = lx.cursor();
  const size_t available = static_cast<size_t>(lx.limit() - at);
  for (const IotaEntry& e : iotas_) {
    const size_t n = e.text.size();
    // (The byte after the value is within the window or its NUL.)
    if (n < available && std::memcmp(at, e.text.data(), n) == 0) {
      const char next = at[n];
      if (next != ',' && next != '\n' && next != '}' && next != ')') continue;
      out->num_groups = e.iota.num_groups;
      out->group_size = e.iota.group_size;
      out->reshape_dims.assign(e.iota.reshape_dims.begin(),
                               e.iota.reshape_dims.end());
      out->perm.assign(e.iota.perm.begin(), e.iota.perm.end());
      lx.AdvanceTo(at + n);
      ++recalled_;
      return true;
    }
  }
  return false;
}

void ValueMemo::RememberIota(std::string_view text, const IotaSpec& parsed) {
  if (text.empty() || text.size() > kMaxShapeTextBytes) return;
  IotaEntry& e = Slot(iotas_, &next_iotas_);
  e.text.assign(text);
  e.iota.num_groups = parsed.num_groups;
  e.iota.group_size = parsed.group_size;
  e.iota.reshape_dims.assign(parsed.reshape_dims.begin(),
                             parsed.reshape_dims.end());
  e.iota.perm.assign(parsed.perm.begin(), parsed.perm.end());
}

size_t ValueMemo::TryFindShape(std::string_view text) const {
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const ShapeEntry& e = shapes_[i];
    if (e.text.size() == text.size() &&
        std::memcmp(e.text.data(), text.data(), text.size()) == 0) {
      return i;
    }
  }
  return kNoEntry;
}

void ValueMemo::RecallShapeInto(size_t entry, Shape* shape) {
  AssignShape(shapes_[entry].shape, shape);
  ++recalled_;
}

const char* ValueMemo::TryRecallShapeAt(const char* p, const char* limit,
                                        Shape* shape) {
  const size_t available = static_cast<size_t>(limit - p);
  for (const ShapeEntry& e : shapes_) {
    const size_t n = e.text.size();
    if (n <= available && p[0] == e.text[0] &&
        std::memcmp(p, e.text.data(), n) == 0) {
      AssignShape(e.shape, shape);
      ++recalled_;
      return p + n;
    }
  }
  return nullptr;
}

void ValueMemo::RememberShape(std::string_view text, const Shape& shape) {
  if (text.empty() || text.size() > kMaxShapeTextBytes || !shape.known ||
      (text.back() != '}' && text.back() != ')')) {
    return;
  }
  ShapeEntry& e = Slot(shapes_, &next_shapes_);
  e.text.assign(text);
  e.shape = shape;
}

}  // namespace topolint::hlo
