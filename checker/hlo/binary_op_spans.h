#ifndef TOPOLINT_CHECKER_HLO_BINARY_OP_SPANS_H_
#define TOPOLINT_CHECKER_HLO_BINARY_OP_SPANS_H_

// The byte span and name of each collective of a binary (protobuf) module,
// so that a finding at a byte offset can say "computation %c, op %ar".
//
// A dense module holds hundreds of thousands of collectives, so the table
// is compact: 24 bytes a span in fixed-size blocks (no reallocation copy
// while it grows). A name as XLA makes them, a prefix and a number
// ("%all-reduce.1234"), costs nothing more: its prefix is kept once and its
// number in the span. Other names are packed into 64 KiB chunks. A
// std::vector of {begin, end, computation, std::string} cost 56 bytes a span
// plus a heap block for each name past 15 bytes, and twice its size while
// it grew.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace topolint::hlo {

class BinaryOpSpans {
 public:
  struct Span {
    int64_t begin = 0;  // first byte of the HloInstructionProto
    int64_t end = 0;    // one past its last byte
    // Index into Module::binary_computations (-1: unknown).
    int32_t computation = -1;
    std::string op;  // "%name"
  };

  // Appends a span. Spans are added in file order (begin non-decreasing);
  // an instruction is under 2 GiB (the protobuf limit), so end - begin fits
  // 32 bits (longer spans are cut there).
  void Add(int64_t begin, int64_t end, int32_t computation,
           std::string_view op);

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  Span operator[](size_t i) const;
  Span back() const { return (*this)[entries_.size() - 1]; }

  // The last span that begins at or before `offset`, when it holds it.
  std::optional<Span> Find(int64_t offset) const;

 private:
  struct Entry {
    int64_t begin;
    uint32_t length;
    int32_t computation;
    // kNumbered | index into prefixes_, the number in `offset`; else an
    // index into chunks_, the offset of the name's 4-byte length there.
    uint32_t chunk;
    uint32_t offset;
  };
  static_assert(sizeof(Entry) == 24, "a span is 24 bytes");
  static constexpr uint32_t kNumbered = uint32_t{1} << 31;
  // Distinct prefixes kept; names with further ones go to the chunks.
  static constexpr size_t kMaxPrefixes = 4096;

  // The index of `prefix` in prefixes_ (added when new), or -1 when
  // kMaxPrefixes are held.
  int64_t PrefixIndex(std::string_view prefix);

  std::deque<Entry> entries_;
  std::vector<std::string> chunks_;
  std::vector<std::string> prefixes_;
  absl::flat_hash_map<std::string, uint32_t> prefix_index_;
  uint32_t last_prefix_ = 0;  // prefixes_ index of the last name numbered
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_BINARY_OP_SPANS_H_
