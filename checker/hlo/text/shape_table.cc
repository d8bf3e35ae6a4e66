#include "checker/hlo/text/shape_table.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/hash/hash.h"

namespace topolint::hlo {
namespace {

std::string_view StripPercent(std::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return name;
}

uint64_t HashName(std::string_view name) {
  return absl::Hash<std::string_view>{}(name);
}

}  // namespace

ShapeTable::ShapeTable(size_t max_bytes)
    : max_bytes_(std::min<size_t>(max_bytes, UINT32_MAX)) {}

void ShapeTable::Begin(std::string_view name) {
  name = StripPercent(name);
  if (Bytes() + name.size() > max_bytes_) Clear();
  if (capacity_ == 0) {
    // Reserved once and kept (Clear keeps it): the arena never shrinks and
    // regrows within a long computation. Pages are touched only as the
    // arena fills. An input known to be shorter than the budget gets room
    // for its own length (the entries never hold more than the input's
    // bytes; Grow covers the exception).
    size_t arena = max_bytes_ + kArenaSlack;
    if (input_bytes_ >= 0) {
      arena =
          std::min(arena, static_cast<size_t>(input_bytes_) + kSmallArenaSlack);
    }
    Grow(arena);
    // The entries likewise (one per instruction: growing by doubling
    // copied them all over again in a long computation). A typical entry
    // is at least 48 bytes of budget and one instruction line at least 32
    // bytes of input; more entries than that still fit, the vector then
    // grows.
    size_t entries = max_bytes_ / 48;
    if (input_bytes_ >= 0) {
      entries = std::min(entries, static_cast<size_t>(input_bytes_) / 32 + 16);
    }
    entries_.reserve(entries);
  }
  pending_name_offset_ = size_;
  AppendPending(name);
  pending_shape_offset_ = size_;
}

void ShapeTable::Grow(size_t more) {
  // Doubling, but not past the budget (with its slack) unless one entry
  // needs it.
  const size_t wanted =
      std::max(size_ + more, std::min(2 * capacity_, max_bytes_ + kArenaSlack));
  std::unique_ptr<char[]> bigger(new char[wanted]);
  if (size_ != 0) std::memcpy(bigger.get(), arena_.get(), size_);
  arena_ = std::move(bigger);
  capacity_ = wanted;
}

bool ShapeTable::Commit() {
  const size_t shape_len = size_ - pending_shape_offset_;
  const size_t name_len = pending_shape_offset_ - pending_name_offset_;
  if (Bytes() > max_bytes_ || entries_.size() >= kNone - 1) {
    // Over budget: keep only this entry, moved to the front of the same
    // storage.
    const size_t entry_len = size_ - pending_name_offset_;
    if (entry_len > max_bytes_) {
      Clear();
      return false;
    }
    std::memmove(arena_.get(), arena_.get() + pending_name_offset_, entry_len);
    Clear();
    size_ = entry_len;
    pending_name_offset_ = 0;
    pending_shape_offset_ = name_len;
  }
  entries_.push_back(Entry{static_cast<uint32_t>(pending_name_offset_),
                           static_cast<uint32_t>(name_len),
                           static_cast<uint32_t>(shape_len), kNone});
  return true;
}

void ShapeTable::Abort() { size_ = pending_name_offset_; }

std::optional<std::string_view> ShapeTable::Find(std::string_view name) {
  name = StripPercent(name);
  // An operand is most often defined a few lines before its user: look at
  // the latest entries not yet indexed first, so that the index is built
  // only when a lookup reaches further back (hashing every name of a long
  // computation costs more than all the lookups).
  const size_t recent =
      std::max(indexed_, entries_.size() -
                             std::min<size_t>(entries_.size(), kLinearLookups));
  for (size_t i = entries_.size(); i > recent; --i) {
    const Entry& e = entries_[i - 1];
    if (e.name_len == name.size() && NameOf(e) == name) return ShapeOf(e);
  }
  for (; indexed_ < entries_.size(); ++indexed_) {
    Entry& e = entries_[indexed_];
    auto [it, inserted] = index_.try_emplace(HashName(NameOf(e)),
                                             static_cast<uint32_t>(indexed_));
    if (!inserted) {
      e.prev_same_hash = it->second;
      it->second = static_cast<uint32_t>(indexed_);
    }
  }
  auto it = index_.find(HashName(name));
  if (it == index_.end()) return std::nullopt;
  for (uint32_t i = it->second; i != kNone; i = entries_[i].prev_same_hash) {
    const Entry& e = entries_[i];
    if (NameOf(e) == name) return ShapeOf(e);
  }
  return std::nullopt;
}

void ShapeTable::Clear() {
  size_ = 0;
  entries_.clear();
  index_.clear();
  indexed_ = 0;
  pending_name_offset_ = 0;
  pending_shape_offset_ = 0;
}

}  // namespace topolint::hlo
