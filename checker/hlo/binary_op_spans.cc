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

}  // namespace

void BinaryOpSpans::Add(int64_t begin, int64_t end, int32_t computation,
                        std::string_view op) {
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
  const int64_t span = std::max<int64_t>(end - begin, 0);
  const auto length32 = static_cast<uint32_t>(
      std::min<int64_t>(span, std::numeric_limits<uint32_t>::max()));
  entries_.push_back(Entry{begin, length32, computation,
                           static_cast<uint32_t>(chunks_.size() - 1), offset});
}

BinaryOpSpans::Span BinaryOpSpans::operator[](size_t i) const {
  const Entry& e = entries_[i];
  const std::string& chunk = chunks_[e.chunk];
  uint32_t size = 0;
  std::memcpy(&size, chunk.data() + e.offset, kLengthBytes);
  Span s;
  s.begin = e.begin;
  s.end = e.begin + e.length;
  s.computation = e.computation;
  s.op = std::string_view(chunk.data() + e.offset + kLengthBytes, size);
  return s;
}

std::optional<BinaryOpSpans::Span> BinaryOpSpans::Find(int64_t offset) const {
  auto it =
      std::upper_bound(entries_.begin(), entries_.end(), offset,
                       [](int64_t o, const Entry& e) { return o < e.begin; });
  if (it == entries_.begin()) return std::nullopt;
  const size_t i = static_cast<size_t>(it - entries_.begin()) - 1;
  const Span s = (*this)[i];
  if (offset >= s.end) return std::nullopt;
  return s;
}

}  // namespace topolint::hlo
