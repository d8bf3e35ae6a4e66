#include "checker/hlo/text/sharding_attr.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "checker/hlo/sharding/sharding_record.h"
#include "checker/hlo/sharding/sharding_text.h"
#include "checker/hlo/text/fast_paths.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr std::string_view kShardingKey = "sharding=";
constexpr std::string_view kDomainKey = "domain=";
// A sharding value's text is read whole (a device list of 2^21 ids is
// under 16 MiB).
constexpr size_t kMaxShardingBytes = size_t{16} << 20;

// The position of byte `offset` of `text`, whose first byte is at `pos`.
TextPos PosAt(std::string_view text, TextPos pos, size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const size_t last_newline = before.rfind('\n');
  if (last_newline == std::string_view::npos) {
    return TextPos{pos.line, pos.column + static_cast<int64_t>(offset)};
  }
  int64_t lines = 0;
  for (char c : before) lines += c == '\n' ? 1 : 0;
  return TextPos{pos.line + lines, static_cast<int64_t>(offset - last_newline)};
}

std::string InstructionName(const ShardingTarget& t) {
  std::string name = t.percent ? "%" : "";
  if (t.table != nullptr) name.append(t.table->PendingName());
  return name;
}

// The target's shape, parsed from its text when it has no parsed one.
Shape TargetShape(const ShardingTarget& t) {
  if (t.shape != nullptr) return *t.shape;
  Shape shape;
  if (t.shape_text && t.table != nullptr && !t.table->PendingShape().empty()) {
    (void)ParseShapeText(t.table->PendingShape(), &shape);
  }
  return shape;
}

// Parses the value in `text` (its first byte at `pos`) and records it.
// Returns false only when the parser must stop.
bool Handle(HloLexer& lx, const ShardingTarget& t, std::string_view text,
            TextPos pos, bool domain) {
  if (t.module == nullptr) return true;
  if (!domain) {
    const ShardingParse p = ParseShardingText(text);
    if (!p.ok()) {
      (void)lx.Error(PosAt(text, pos, p.error_offset), p.error);
      return !lx.stopped();
    }
    RecordSharding(*p.sharding, TargetShape(t), pos, InstructionName(t),
                   ShardingSite::kInstruction, t.module);
    return true;
  }
  const DomainParse d = ParseDomainText(text);
  if (!d.ok()) {
    (void)lx.Error(PosAt(text, pos, d.error_offset), d.error);
    return !lx.stopped();
  }
  const Shape unknown;
  RecordSharding(*d.entry, unknown, PosAt(text, pos, d.entry_offset),
                 InstructionName(t), ShardingSite::kDomain, t.module);
  RecordSharding(*d.exit, unknown, PosAt(text, pos, d.exit_offset),
                 InstructionName(t), ShardingSite::kDomain, t.module);
  return true;
}

// Whether byte `k` of [begin, end) (a line the fast scan accepted: plain
// strings, brackets balanced within it) starts a top-level attribute key:
// outside strings, at the depth the line started at or the operand list
// closed to, right after ',' and blanks (or at the line's start).
bool IsTopLevelKey(const char* begin, const char* k, bool from_operands) {
  int depth = 0;
  bool in_string = false;
  const char* last = nullptr;  // last byte that is not a blank
  for (const char* p = begin; p < k; ++p) {
    const char c = *p;
    if (in_string) {
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
    if (c != ' ' && c != '\t') last = p;
  }
  if (in_string || depth != 0) return false;
  if (last == nullptr) return !from_operands;
  return *last == ',';
}

// The first key at or after `from` in the window (up to lx.limit()), as an
// absolute offset into *scan. It looks for the key's 'h', the rarest of its
// bytes in HLO text (0.2% of a dense module's bytes), with memchr, and
// compares the key only there: a few instructions per kilobyte, where
// glibc's memmem takes 1.5 per byte and a per-line search cost 7% of a
// dense module's parse.
void SearchKey(const HloLexer& lx, const char* from, int64_t from_offset,
               ShardingKeyScan* scan) {
  const char* const limit = lx.limit();
  scan->searched_to = from_offset + (limit - from);
  scan->next_key = -1;
  const size_t key = kShardingKey.size();
  for (const char* p = from + 1; p < limit;) {
    const void* h = std::memchr(p, 'h', static_cast<size_t>(limit - p));
    if (h == nullptr) return;
    const char* k = static_cast<const char*>(h) - 1;
    if (static_cast<size_t>(limit - k) >= key &&
        std::memcmp(k, kShardingKey.data(), key) == 0) {
      scan->next_key = from_offset + (k - from);
      return;
    }
    p = k + 2;
  }
}

}  // namespace

bool ScanSkippedLineForShardingsSlow(HloLexer& lx, const ShardingTarget& t,
                                     const char* begin) {
  const char* const end = lx.cursor();
  const int64_t e = lx.Offset();
  const int64_t b = e - (end - begin);
  ShardingKeyScan& scan = *t.scan;
  // The hot path: the last search covers this line and found no key in it.
  if (scan.searched_to < e || (scan.next_key >= 0 && scan.next_key < b)) {
    SearchKey(lx, begin, b, &scan);
  }
  const bool key_here = scan.next_key >= b && scan.next_key < e;
  if (!key_here && !t.is_domain) return true;
  // The line's first byte: the cursor's column, less the bytes skipped (the
  // fast scan crossed no line break).
  TextPos pos = lx.Pos();
  pos.column -= end - begin;
  const bool from_operands = *begin == '(';
  while (scan.next_key >= b && scan.next_key < e) {
    const char* k = begin + (scan.next_key - b);
    const char* value = k + kShardingKey.size();
    SearchKey(lx, value,
              scan.next_key + static_cast<int64_t>(kShardingKey.size()), &scan);
    if (!IsTopLevelKey(begin, k, from_operands)) continue;
    const std::string_view text(value, static_cast<size_t>(end - value));
    const TextPos at{pos.line, pos.column + (value - begin)};
    if (!Handle(lx, t, text, at, /*domain=*/false)) return false;
  }
  // `domain=` only on the (rare) domain instructions.
  for (const char* from = begin; t.is_domain && from < end;) {
    const void* hit = memmem(from, static_cast<size_t>(end - from),
                             kDomainKey.data(), kDomainKey.size());
    if (hit == nullptr) break;
    const char* k = static_cast<const char*>(hit);
    from = k + kDomainKey.size();
    if (!IsTopLevelKey(begin, k, from_operands)) continue;
    const std::string_view text(from, static_cast<size_t>(end - from));
    const TextPos at{pos.line, pos.column + (from - begin)};
    if (!Handle(lx, t, text, at, /*domain=*/true)) return false;
  }
  return true;
}

bool ReadShardingValue(HloLexer& lx, const ShardingTarget& t, bool domain) {
  const TextPos pos = lx.Pos();
  std::string text;
  lx.BeginCapture(&text, kMaxShardingBytes);
  const bool ok = lx.SkipValue();
  const bool whole = lx.EndCapture();
  if (!ok) return false;
  if (!whole) {
    (void)lx.Error(
        pos, fmt::format("a {} value is longer than {} bytes",
                         domain ? "domain" : "sharding", kMaxShardingBytes));
    return !lx.stopped();
  }
  return Handle(lx, t, text, pos, domain);
}

bool ReadShardingAttrIfPresent(HloLexer& lx, const ShardingTarget& t,
                               bool* handled) {
  *handled = false;
  // Through the lexer's lookahead (PeekAt refills), so that a key cut by
  // the window's end, or read through a 1-byte window, is still seen.
  const auto matches = [&lx](std::string_view key) {
    for (size_t i = 0; i < key.size(); ++i) {
      if (lx.PeekAt(i) != static_cast<unsigned char>(key[i])) return false;
    }
    return true;
  };
  const int c = lx.Peek();
  bool domain = false;
  std::string_view key;
  if (c == 's' && matches(kShardingKey)) {
    key = kShardingKey;
  } else if (c == 'd' && t.is_domain && matches(kDomainKey)) {
    key = kDomainKey;
    domain = true;
  } else {
    return true;
  }
  for (char k : key) {
    if (!lx.Eat(k)) return false;  // (seen just above)
  }
  *handled = true;
  if (!lx.SkipTrivia()) return false;
  return ReadShardingValue(lx, t, domain);
}

}  // namespace topolint::hlo
