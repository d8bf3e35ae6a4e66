#include "checker/hlo/id_layout.h"

#include <algorithm>

namespace topolint::hlo {

int64_t IdLayout::DecimalLength(int64_t value) {
  uint64_t magnitude = value < 0 ? uint64_t{0} - static_cast<uint64_t>(value)
                                 : static_cast<uint64_t>(value);
  int64_t n = value < 0 ? 2 : 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++n;
  }
  return n;
}

void IdLayout::Clear() {
  runs_.clear();
  last_index_ = -1;
  last_value_ = 0;
  last_pos_ = TextPos();
}

void IdLayout::Add(int64_t index, int64_t value, TextPos pos) {
  bool extends = false;
  if (!runs_.empty() && index == last_index_ + 1 &&
      pos.line == last_pos_.line) {
    Run& run = runs_.back();
    const int64_t gap = pos.column - last_pos_.column -
                        WrittenLength(last_value_, last_pos_.is_byte());
    if (run.gap < 0 && gap >= 0) {
      run.gap = gap;  // the run's second id sets its gap
      extends = true;
    } else {
      extends = gap == run.gap;
    }
  }
  if (!extends) {
    Run run;
    run.first = index;
    run.pos = pos;
    runs_.push_back(run);
  }
  last_index_ = index;
  last_value_ = value;
  last_pos_ = pos;
}

void IdLayout::AddPacked(int64_t first_index, absl::Span<const int64_t> values,
                         int64_t end_byte) {
  int64_t begin_byte = end_byte;
  for (int64_t v : values) begin_byte -= VarintLength(v);
  AddPacked(first_index, values, begin_byte, end_byte);
}

void IdLayout::AddPacked(int64_t first_index, absl::Span<const int64_t> values,
                         int64_t begin_byte, int64_t end_byte) {
  int64_t at = begin_byte;
  size_t k = 0;
  // Add() starts or extends a run and settles its gap; from the third id
  // at the latest the run is one of ids back to back (gap 0), if it is
  // ever going to be.
  for (; k < values.size() && k < 3; ++k) {
    Add(first_index + static_cast<int64_t>(k), values[k], TextPos::AtByte(at));
    at += VarintLength(values[k]);
  }
  if (k == values.size()) return;
  if (runs_.back().gap != 0) {
    for (; k < values.size(); ++k) {
      Add(first_index + static_cast<int64_t>(k), values[k],
          TextPos::AtByte(at));
      at += VarintLength(values[k]);
    }
    return;
  }
  // Every later id follows the one before it directly: the same run, so
  // only the last one is remembered (as Add() would leave it).
  const size_t last = values.size() - 1;
  last_index_ = first_index + static_cast<int64_t>(last);
  last_value_ = values[last];
  last_pos_ = TextPos::AtByte(end_byte - VarintLength(values[last]));
}

void IdLayout::MoveOnLine(int64_t line, int64_t column_delta) {
  for (Run& run : runs_) {
    run.pos.line = line;
    run.pos.column += column_delta;
  }
  if (last_index_ >= 0) {
    last_pos_.line = line;
    last_pos_.column += column_delta;
  }
}

size_t IdLayout::RunOf(int64_t index) const {
  if (runs_.empty() || index < runs_.front().first || index > last_index_) {
    return runs_.size();
  }
  auto it =
      std::upper_bound(runs_.begin(), runs_.end(), index,
                       [](int64_t i, const Run& run) { return i < run.first; });
  return static_cast<size_t>(it - runs_.begin()) - 1;
}

TextPos IdLayout::Locate(absl::Span<const int64_t> ids, int64_t index) const {
  Cursor cursor(*this, ids);
  return cursor.At(index);
}

TextPos IdLayout::Cursor::At(int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(ids_.size())) {
    return TextPos();
  }
  const size_t r = layout_.RunOf(index);
  if (r == layout_.runs_.size()) return TextPos();
  const Run& run = layout_.runs_[r];
  if (index_ < 0 || r != run_ || index < index_) {
    run_ = r;
    index_ = run.first;
    column_ = run.pos.column;
  }
  const bool byte = run.pos.is_byte();
  for (; index_ < index; ++index_) {
    column_ += WrittenLength(ids_[static_cast<size_t>(index_)], byte) + run.gap;
  }
  TextPos pos;
  pos.line = run.pos.line;
  pos.column = column_;
  return pos;
}

bool operator==(const IdLayout& a, const IdLayout& b) {
  if (a.runs_.size() != b.runs_.size() || a.last_index_ != b.last_index_) {
    return false;
  }
  for (size_t i = 0; i < a.runs_.size(); ++i) {
    const IdLayout::Run& x = a.runs_[i];
    const IdLayout::Run& y = b.runs_[i];
    if (x.first != y.first || x.pos.line != y.pos.line ||
        x.pos.column != y.pos.column || x.gap != y.gap) {
      return false;
    }
  }
  return true;
}

}  // namespace topolint::hlo
