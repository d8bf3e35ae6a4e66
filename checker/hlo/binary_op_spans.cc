#include "checker/hlo/binary_op_spans.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace topolint::hlo {
namespace {

// Names are packed into chunks of this size; a longer name has a chunk of
// its own.
constexpr size_t kChunkBytes = size_t{64} << 10;
constexpr size_t kLengthBytes = sizeof(uint32_t);

// Splits "prefix.123" into its prefix ("prefix.") and number: the digits
// at the end, 1 to 9 of them, without a leading zero (so that printing the
// number gives them back). False for any other name.
bool SplitNumbered(std::string_view name, std::string_view* prefix,
                   uint32_t* number) {
  size_t digits = 0;
  while (digits < name.size() && digits < 10 &&
         name[name.size() - 1 - digits] >= '0' &&
         name[name.size() - 1 - digits] <= '9') {
    ++digits;
  }
  if (digits == 0 || digits > 9) return false;
  const std::string_view tail = name.substr(name.size() - digits);
  if (tail.size() > 1 && tail.front() == '0') return false;
  uint32_t v = 0;
  for (char c : tail) v = v * 10 + static_cast<uint32_t>(c - '0');
  *prefix = name.substr(0, name.size() - digits);
  *number = v;
  return true;
}

}  // namespace

int64_t BinaryOpSpans::PrefixIndex(std::string_view prefix) {
  if (last_prefix_ < prefixes_.size() && prefixes_[last_prefix_] == prefix) {
    return last_prefix_;
  }
  if (auto it =
          prefix_index_.find(absl::string_view(prefix.data(), prefix.size()));
      it != prefix_index_.end()) {
    last_prefix_ = it->second;
    return it->second;
  }
  if (prefixes_.size() >= kMaxPrefixes) return -1;
  last_prefix_ = static_cast<uint32_t>(prefixes_.size());
  prefixes_.emplace_back(prefix);
  prefix_index_.emplace(prefixes_.back(), last_prefix_);
  return last_prefix_;
}

void BinaryOpSpans::Add(int64_t begin, int64_t end, int32_t computation,
                        std::string_view op) {
  const int64_t span = std::max<int64_t>(end - begin, 0);
  const auto length32 = static_cast<uint32_t>(
      std::min<int64_t>(span, std::numeric_limits<uint32_t>::max()));
  std::string_view prefix;
  uint32_t number = 0;
  if (SplitNumbered(op, &prefix, &number)) {
    if (const int64_t index = PrefixIndex(prefix); index >= 0) {
      entries_.push_back(Entry{begin, length32, computation,
                               kNumbered | static_cast<uint32_t>(index),
                               number});
      return;
    }
  }
  const size_t max_name = std::numeric_limits<uint32_t>::max() - kLengthBytes;
  if (op.size() > max_name) op = op.substr(0, max_name);
  const size_t need = kLengthBytes + op.size();
  if (chunks_.empty() ||
      chunks_.back().size() + need > chunks_.back().capacity()) {
    chunks_.emplace_back();
    chunks_.back().reserve(std::max(kChunkBytes, need));
  }
  std::string& chunk = chunks_.back();
  const auto offset = static_cast<uint32_t>(chunk.size());
  const auto size = static_cast<uint32_t>(op.size());
  char length[kLengthBytes];
  std::memcpy(length, &size, kLengthBytes);
  chunk.append(length, kLengthBytes);
  chunk.append(op.data(), op.size());
  entries_.push_back(Entry{begin, length32, computation,
                           static_cast<uint32_t>(chunks_.size() - 1), offset});
}

BinaryOpSpans::Span BinaryOpSpans::operator[](size_t i) const {
  const Entry& e = entries_[i];
  Span s;
  s.begin = e.begin;
  s.end = e.begin + e.length;
  s.computation = e.computation;
  if ((e.chunk & kNumbered) != 0) {
    s.op = prefixes_[e.chunk & ~kNumbered] + std::to_string(e.offset);
    return s;
  }
  const std::string& chunk = chunks_[e.chunk];
  uint32_t size = 0;
  std::memcpy(&size, chunk.data() + e.offset, kLengthBytes);
  s.op.assign(chunk.data() + e.offset + kLengthBytes, size);
  return s;
}

std::optional<BinaryOpSpans::Span> BinaryOpSpans::Find(int64_t offset) const {
  auto it =
      std::upper_bound(entries_.begin(), entries_.end(), offset,
                       [](int64_t o, const Entry& e) { return o < e.begin; });
  if (it == entries_.begin()) return std::nullopt;
  const size_t i = static_cast<size_t>(it - entries_.begin()) - 1;
  const Entry& e = entries_[i];
  if (offset >= e.begin + static_cast<int64_t>(e.length)) return std::nullopt;
  return (*this)[i];
}

}  // namespace topolint::hlo
