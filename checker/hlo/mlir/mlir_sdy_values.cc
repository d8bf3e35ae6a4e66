// The shardings of values, for the operand of an sdy.collective_permute:
// Shardy's getSharding of the value (openxla/shardy shardy/dialect/sdy/ir/
// utils.cc) is a func.func argument's `sdy.sharding`, the
// `sdy.sharding_per_value` of the op that defines it, an
// sdy.sharding_constraint / sdy.reshard's sharding, or a Shardy collective's
// out_sharding. The first two are kept as text per function (a line with
// `sdy.sharding` is otherwise skipped whole, SkipDullLine) and read when a
// permute needs one.
#include <cstdint>
#include <string>
#include <string_view>

#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {
namespace {

// The text of the balanced `<...>` at the start of `v`, else "".
std::string_view BalancedPrefix(std::string_view v) {
  int depth = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '"') {
      for (++i; i < v.size() && v[i] != '"'; ++i) {
        if (v[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == '}' || c == ')') {
      if (--depth == 0) return v.substr(0, i + 1);
    }
  }
  return {};
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

void Reader::ClearValueShardings() {
  value_shardings_.clear();
  sharding_texts_.clear();
  sharding_text_index_.clear();
  collective_outs_.clear();
  value_shardings_full_ = false;
}

void Reader::KeepValueSharding(std::string_view name, std::string_view text,
                               bool list) {
  // Only the operands of the file's permutes (the pre-pass named them).
  if (permute_operands_.count(LocKey(name)) == 0) return;
  // Bounded per function: 2^18 values, 2^14 distinct shardings of at most
  // 64 KiB each.
  constexpr size_t kMaxValues = size_t{1} << 18;
  constexpr size_t kMaxTexts = size_t{1} << 14;
  constexpr size_t kMaxTextBytes = size_t{1} << 16;
  if (text.size() > kMaxTextBytes ||
      (value_shardings_.size() >= kMaxValues &&
       value_shardings_.count(std::string(name)) == 0)) {
    value_shardings_full_ = true;
    return;
  }
  auto [it, added] = sharding_text_index_.try_emplace(
      std::string(text), static_cast<int32_t>(sharding_texts_.size()));
  if (added) {
    if (sharding_texts_.size() >= kMaxTexts) {
      sharding_text_index_.erase(it);
      value_shardings_full_ = true;
      return;
    }
    sharding_texts_.emplace_back(text);
  }
  value_shardings_[std::string(name)] = ValueShardingRef{it->second, list};
}

void Reader::NoteShardingLine(std::string_view s) {
  // `%v = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m,
  // [...]>]>} : ...`, `%v:2 = ...`, or `%v = sdy.sharding_constraint %x <@m,
  // [...]> : ...` (and sdy.reshard): one op per line, as MLIR prints it.
  if (s.size() < 2 || s[0] != '%') return;
  size_t i = 1;
  while (i < s.size() && IsIdByte(static_cast<unsigned char>(s[i]))) ++i;
  const std::string_view name = s.substr(0, i);
  if (i < s.size() && s[i] == ':') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  while (i < s.size() && s[i] == ' ') ++i;
  if (i >= s.size() || s[i] != '=') return;
  ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  const std::string_view rest = s.substr(i);
  bool list = false;
  size_t at = std::string_view::npos;
  if (StartsWith(rest, "sdy.sharding_constraint ") ||
      StartsWith(rest, "sdy.reshard ")) {
    at = rest.find('<');
  } else {
    constexpr std::string_view kAttr =
        "sdy.sharding = #sdy.sharding_per_value<";
    const size_t k = rest.find(kAttr);
    if (k != std::string_view::npos) at = k + kAttr.size() - 1;
    list = true;
  }
  if (at == std::string_view::npos) return;
  const std::string_view text = BalancedPrefix(rest.substr(at));
  if (!text.empty()) KeepValueSharding(name, text, list);
}

void Reader::FuncArgs() {
  // At '(' after `func.func @name`: the arguments, `%arg0: T {sdy.sharding
  // = #sdy.sharding<...>, mhlo.sharding = "..."} loc(...)`, through ')'.
  cur_.Advance();
  std::string arg;
  int depth = 0;
  const int64_t start = cur_.Offset();
  while (!stopped_) {
    const int c = cur_.Peek();
    if (c == kEnd || cur_.Offset() - start > options_.max_instruction_bytes) {
      return;
    }
    if (c == '"') {
      if (!cur_.ReadString(&scratch_, 4096)) return;
    } else if (c == '%' && depth == 0) {
      arg = "%";
      cur_.Advance();
      while (IsIdByte(cur_.Peek()) && arg.size() < 1024) {
        arg.push_back(static_cast<char>(cur_.Peek()));
        cur_.Advance();
      }
    } else if (IsIdStart(c)) {
      const TextPos pos = cur_.Pos();
      cur_.ReadId(&scratch_);
      if (scratch_ == "mhlo.sharding") {
        ShardingAttr(pos);
      } else if (scratch_ == "sdy.sharding" && !arg.empty()) {
        ArgSharding(arg);
      }
    } else if (c == ')' && depth == 0) {
      cur_.Advance();
      return;
    } else {
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) --depth;
      cur_.Advance();
    }
  }
}

void Reader::ArgSharding(const std::string& arg) {
  // After `sdy.sharding`: ` = #sdy.sharding<@mesh, [...]>`.
  cur_.SkipSpace();
  if (!cur_.Eat('=')) return;
  cur_.SkipSpace();
  std::string word;
  if (!cur_.Eat('#') || !cur_.ReadId(&word) || word != "sdy.sharding" ||
      cur_.Peek() != '<') {
    return;
  }
  std::string text;
  if (CaptureBalanced(&text)) KeepValueSharding(arg, text, false);
}

bool Reader::CaptureBalanced(std::string* out) {
  // At '<': the text through its matching '>', strings kept quoted.
  int depth = 0;
  std::string s;
  while (out->size() <= size_t{1} << 16) {
    const int c = cur_.Peek();
    if (c == kEnd) return false;
    if (c == '"') {
      if (!cur_.ReadString(&s, 4096)) return false;
      out->append("\"").append(s).append("\"");
      continue;
    }
    out->push_back(static_cast<char>(c));
    cur_.Advance();
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if ((c == '>' || c == ']' || c == '}' || c == ')') && --depth == 0) {
      return true;
    }
  }
  return false;
}

bool Reader::ValueSharding(const std::string& operand, SdySharding* out,
                           std::string* why) {
  std::string name = operand;
  int64_t index = 0;
  if (const size_t hash = name.find('#'); hash != std::string::npos) {
    for (size_t k = hash + 1; k < name.size() && index < (1 << 20); ++k) {
      if (!IsDigit(name[k])) break;
      index = index * 10 + (name[k] - '0');
    }
    name.resize(hash);
  }
  if (auto c = collective_outs_.find(name);
      c != collective_outs_.end() && index == 0) {
    *out = c->second;
    return true;
  }
  auto it = value_shardings_.find(name);
  if (it == value_shardings_.end()) {
    *why = fmt::format(
        "its source-target pairs follow from the sharding of its operand {}, "
        "which topolint did not find{} (it reads the sdy.sharding of a "
        "func.func argument, of an op printed on one line, of an "
        "sdy.sharding_constraint or sdy.reshard, and a Shardy collective's "
        "out_sharding)",
        operand,
        value_shardings_full_ ? ", having kept as many shardings of this "
                                "function as it keeps"
                              : "");
    return false;
  }
  // The text, read by a reader of its own.
  const std::string& text =
      sharding_texts_[static_cast<size_t>(it->second.text)];
  InputWindow window(text, options_.window_bytes);
  Module scratch;
  Reader sub(&window, &scratch, options_);
  bool ok = true;
  if (it->second.list) {
    ok = sub.cur_.Eat('<') && sub.cur_.Eat('[');
    for (int64_t k = 0; ok && k < index; ++k) {
      sub.cur_.SkipSpace();
      ok = sub.cur_.Peek() == '<' &&
           sub.cur_.SkipBalanced(options_.max_instruction_bytes,
                                 kMaxNestingDepth);
      sub.cur_.SkipSpace();
      ok = ok && sub.cur_.Eat(',');
    }
    sub.cur_.SkipSpace();
  }
  ok = ok && sub.SdyShardingBody(out);
  if (!ok) {
    *why =
        fmt::format("the sharding of its operand {} (`{}`) could not be read{}",
                    operand, text.substr(0, 200),
                    scratch.syntax_errors.empty()
                        ? ""
                        : ": " + scratch.syntax_errors.front().message);
    return false;
  }
  return true;
}

}  // namespace topolint::hlo::mlir
