#include "checker/hlo/text/sharding_attr.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

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

// The instruction's name as written, in the scratch storage.
std::string_view InstructionName(const ShardingTarget& t) {
  std::string& name = t.scratch->name;
  name.clear();
  if (t.percent) name.push_back('%');
  if (t.table != nullptr) name.append(t.table->PendingName());
  return name;
}

// The target's shape: the parsed one, else parsed from its text into the
// scratch storage (keeping that storage), else unknown.
const Shape& TargetShape(const ShardingTarget& t) {
  if (t.shape != nullptr) return *t.shape;
  Shape& shape = t.scratch->shape;
  if (t.shape_text && t.table != nullptr && !t.table->PendingShape().empty()) {
    (void)ParseShapeText(t.table->PendingShape(), &shape);
  } else {
    shape.Clear();
  }
  return shape;
}

// Parses the value in `text` (its first byte at `pos`) and records it.
// Returns false only when the parser must stop.
bool Handle(HloLexer& lx, const ShardingTarget& t, std::string_view text,
            TextPos pos, bool domain) {
  if (t.module == nullptr) return true;
  if (!domain) {
    ShardingParse& p = t.scratch->parse;
    ParseShardingTextInto(text, &p);
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
  const std::string_view name = InstructionName(t);
  RecordSharding(*d.entry, unknown, PosAt(text, pos, d.entry_offset), name,
                 ShardingSite::kDomain, t.module);
  RecordSharding(*d.exit, unknown, PosAt(text, pos, d.exit_offset), name,
                 ShardingSite::kDomain, t.module);
  return true;
}

// Which bytes of [begin, end) (a line the fast scan accepted: plain
// strings, brackets balanced within it) start a top-level attribute key:
// outside strings, at the depth the line started at or the operand list
// closed to, right after ',' and blanks (or at the line's start). Asked
// about bytes front to back, it walks the line once: linear however many
// keys the line holds.
class TopLevelKeys {
 public:
  TopLevelKeys(const char* begin, bool from_operands)
      : p_(begin), from_operands_(from_operands) {}

  // `k` is at or after the byte of the last call.
  bool At(const char* k) {
    for (; p_ < k; ++p_) {
      const char c = *p_;
      if (in_string_) {
        if (c == '"') in_string_ = false;
        continue;
      }
      if (c == '"') {
        in_string_ = true;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth_;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth_;
      }
      if (c != ' ' && c != '\t') last_ = c;
    }
    if (in_string_ || depth_ != 0) return false;
    if (last_ == '\0') return !from_operands_;
    return last_ == ',';
  }

 private:
  const char* p_;
  bool from_operands_;
  int depth_ = 0;
  bool in_string_ = false;
  char last_ = '\0';  // the last byte that is not a blank, '\0': none
};

}  // namespace

namespace {

// Whether the key at `k`, at depth 0 and outside strings in the line that
// starts at `begin`, starts an attribute: only blanks come between it and
// the ',' before it, or the line's start when the line does not start with
// the operands (TopLevelKeys::At's answer for such a key).
bool StartsAttribute(const char* begin, const char* k, bool from_operands) {
  while (k > begin && (k[-1] == ' ' || k[-1] == '\t')) --k;
  return k == begin ? !from_operands : k[-1] == ',';
}

// Each top-level `key` of [begin, end) whose first byte is before `to`
// (sharding: whose value starts with '{'), front to back: `at(key,
// value)` is called with the key's first byte and its value's; false
// from it stops (and returns false).
template <class At>
bool EachTopLevelKey(const char* begin, const char* end, const char* to,
                     bool from_operands, std::string_view key, bool domain,
                     const At& at) {
  TopLevelKeys top_level(begin, from_operands);
  for (const char* from = begin; from < to;) {
    const void* hit =
        memmem(from, static_cast<size_t>(to - from), key.data(), key.size());
    if (hit == nullptr) return true;
    const char* k = static_cast<const char*>(hit);
    from = k + key.size();
    if (!top_level.At(k)) continue;
    // Blanks skipped as the exact path's SkipTrivia skips them; a value
    // that does not start with '{' is no sharding annotation (as on the
    // exact path, ReadShardingAttrIfPresent).
    const char* value = from;
    while (value < end && *value == ' ') ++value;
    if (!domain && (value == end || *value != '{')) continue;
    if (!at(k, value)) return false;
  }
  return true;
}

}  // namespace

bool ScanSkippedLineForShardingsSlow(HloLexer& lx, const ShardingTarget& t,
                                     const char* begin,
                                     const ShardingBraces& keys) {
  const char* const end = lx.cursor();
  // The line's first byte: the cursor's column, less the bytes skipped (the
  // fast scan crossed no line break).
  TextPos pos = lx.Pos();
  pos.column -= end - begin;
  const bool from_operands = *begin == '(';
  const auto handle = [&](const char* value, bool domain) {
    const std::string_view text(value, static_cast<size_t>(end - value));
    const TextPos at{pos.line, pos.column + (value - begin)};
    return Handle(lx, t, text, at, domain);
  };
  if (keys.first != nullptr && keys.first == keys.last) {
    // The common line: one '{' after `sharding=`, which the block scanner
    // found at depth 0 outside strings; no search.
    const char* k = keys.first;
    while (k[-1] == ' ') --k;
    k -= kShardingKey.size();
    if (StartsAttribute(begin, k, from_operands) &&
        !handle(keys.first, /*domain=*/false)) {
      return false;
    }
  } else if (keys.any() &&
             !EachTopLevelKey(begin, end, keys.last, from_operands,
                              kShardingKey, /*domain=*/false,
                              [&](const char*, const char* value) {
                                return handle(value, /*domain=*/false);
                              })) {
    // (Two keys or more: searched, up to the last one's '{'.)
    return false;
  }
  // `domain=` only on the (rare) domain instructions.
  return !t.is_domain ||
         EachTopLevelKey(begin, end, end, from_operands, kDomainKey,
                         /*domain=*/true, [&](const char*, const char* value) {
                           return handle(value, /*domain=*/true);
                         });
}

ShardingBraces LineShardingKeys(const char* begin, const char* end,
                                bool from_operands) {
  ShardingBraces keys;
  (void)EachTopLevelKey(begin, end, end, from_operands, kShardingKey,
                        /*domain=*/false, [&](const char*, const char* value) {
                          keys.Add(value);
                          return true;
                        });
  return keys;
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
  if (!domain) {
    // A sharding value starts with '{' (after blanks, or on a later line
    // after `=` + line break, as SkipTrivia finds it); any other value is
    // an ordinary attribute here as on the fast line path, which sees a
    // key only before a '{' (FastScan's sharding_keys): so the two agree
    // whatever the window. (XLA's parser rejects such a value.)
    size_t i = key.size();
    while (i < 63 && lx.PeekAt(i) == ' ') ++i;
    const int v = lx.PeekAt(i);
    const bool trivia = v != kEof && v != ' ' &&
                        HloLexer::IsTriviaStart(static_cast<char>(v)) &&
                        !(v == '\n' && i > key.size());
    if (v != '{' && !trivia) return true;
  }
  for (char k : key) {
    if (!lx.Eat(k)) return false;  // (seen just above)
  }
  *handled = true;
  if (!lx.SkipTrivia()) return false;
  return ReadShardingValue(lx, t, domain);
}

}  // namespace topolint::hlo
