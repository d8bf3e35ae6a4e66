// What a file's first bytes say about MLIR: bytecode, StableHLO text, or
// the text of a dialect topolint does not read.
#include <string>
#include <string_view>

#include "checker/hlo/mlir/mlir_cursor.h"
#include "checker/hlo/mlir/mlir_reader.h"

namespace topolint::hlo {
namespace {

using mlir::IsBlank;
using mlir::IsIdByte;
using mlir::IsIdStart;

// Past blanks, `//` comment lines and `#alias = ...` / `!alias = ...`
// definition lines (one line each); npos when nothing else is in `head`.
size_t FirstStatement(std::string_view head) {
  size_t p = 0;
  while (p < head.size()) {
    const unsigned char c = static_cast<unsigned char>(head[p]);
    if (IsBlank(c)) {
      ++p;
      continue;
    }
    const bool comment = head.substr(p, 2) == "//";
    bool alias = false;
    if ((c == '#' || c == '!') && p + 1 < head.size() &&
        IsIdStart(static_cast<unsigned char>(head[p + 1]))) {
      size_t q = p + 1;
      while (q < head.size() && IsIdByte(static_cast<unsigned char>(head[q]))) {
        ++q;
      }
      while (q < head.size() && head[q] == ' ') ++q;
      alias = q < head.size() && head[q] == '=';
    }
    if (!comment && !alias) return p;
    if (alias) {
      // The value may span lines (`#CSR = #sparse_tensor.encoding<{\n...}>`):
      // to the line break after its brackets close.
      int depth = 0;
      while (p < head.size() && (depth > 0 || head[p] != '\n')) {
        const char ch = head[p];
        if (ch == '<' || ch == '{' || ch == '[' || ch == '(') ++depth;
        if ((ch == '>' || ch == '}' || ch == ']' || ch == ')') && depth > 0 &&
            !(ch == '>' && p > 0 && head[p - 1] == '-')) {
          --depth;
        }
        ++p;
      }
      continue;
    }
    const size_t nl = head.find('\n', p);
    if (nl == std::string_view::npos) return std::string_view::npos;
    p = nl + 1;
  }
  return std::string_view::npos;
}

bool StartsWord(std::string_view text, std::string_view word) {
  if (text.substr(0, word.size()) != word) return false;
  if (text.size() == word.size()) return true;
  const unsigned char next = static_cast<unsigned char>(text[word.size()]);
  return !IsIdByte(next);
}

// The dialect prefixes read here (op names and attributes).
bool OursPrefix(std::string_view dialect) {
  return dialect == "stablehlo" || dialect == "mhlo" || dialect == "sdy" ||
         dialect == "chlo";
}

// Dialects every MLIR file uses, which say nothing either way.
bool NeutralPrefix(std::string_view dialect) {
  return dialect == "func" || dialect == "builtin" || dialect == "arith" ||
         dialect == "sparse_tensor" || dialect == "quant" ||
         dialect == "tensor" || dialect == "math" || dialect == "scf" ||
         dialect == "cf" || dialect == "shape" || dialect == "check" ||
         dialect == "interpreter";
}

}  // namespace

bool IsMlirBytecode(std::string_view head) {
  return head.size() >= 4 &&
         head.substr(0, 4) == std::string_view("ML\xefR", 4);
}

bool LooksLikeMlirText(std::string_view head) {
  const size_t p = FirstStatement(head);
  if (p == std::string_view::npos) return false;
  const std::string_view s = head.substr(p);
  if (StartsWord(s, "module") || s.substr(0, 16) == "\"builtin.module\"" ||
      s.substr(0, 11) == "\"func.func\"") {
    return true;
  }
  // An op of some dialect, `dialect.op ...`: func.func public @main,
  // sdy.mesh @m, vhlo.func_v1 @main, ...
  size_t q = 0;
  while (q < s.size() && IsIdStart(static_cast<unsigned char>(s[q]))) ++q;
  if (q == 0 || q >= s.size() || s[q] != '.') return false;
  while (q < s.size() && IsIdByte(static_cast<unsigned char>(s[q]))) ++q;
  if (q >= s.size() || (s[q] != ' ' && s[q] != '\t')) return false;
  while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
  return q < s.size() && (s[q] == '@' || s[q] == '%' || s[q] == '(' ||
                          IsIdStart(static_cast<unsigned char>(s[q])));
}

bool LooksLikeMlirModule(std::string_view head) {
  const size_t p = FirstStatement(head);
  if (p == std::string_view::npos) return false;
  const std::string_view s = head.substr(p);
  if (s.substr(0, 16) == "\"builtin.module\"") return true;
  if (!StartsWord(s, "module")) return false;
  // `module @name`, `module attributes {`, `module {`.
  size_t q = 6;
  while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
  return q < s.size() && (s[q] == '@' || s[q] == '{' || s[q] == 'a');
}

MlirSniff SniffMlir(std::string_view head) {
  if (IsMlirBytecode(head)) return MlirSniff::kBytecode;
  // Comments only (so far): nothing to misread, and nothing missed.
  if (FirstStatement(head) == std::string_view::npos) {
    return MlirSniff::kStableHlo;
  }
  if (!LooksLikeMlirText(head)) return MlirSniff::kNotMlir;
  // Dotted names outside comments: `dialect.op` after `"`, `= ` or a
  // line's blanks, and `dialect.attr` keys.
  bool ours = false, other = false;
  size_t p = 0;
  while (p < head.size()) {
    size_t nl = head.find('\n', p);
    if (nl == std::string_view::npos) nl = head.size();
    std::string_view line = head.substr(p, nl - p);
    const size_t comment = line.find("//");
    if (comment != std::string_view::npos) line = line.substr(0, comment);
    for (size_t i = 0; i < line.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(line[i]);
      if (!IsIdStart(c) ||
          (i > 0 && IsIdByte(static_cast<unsigned char>(line[i - 1])))) {
        continue;
      }
      if (i > 0 &&
          (line[i - 1] == '%' || line[i - 1] == '@' || line[i - 1] == '^' ||
           line[i - 1] == '#' || line[i - 1] == '!')) {
        // values, symbols, blocks and aliases are no op names; but
        // `#stablehlo.` / `!stablehlo.` attributes and types are ours.
        if (line[i - 1] != '#' && line[i - 1] != '!') continue;
      }
      size_t j = i;
      while (j < line.size() &&
             IsIdStart(static_cast<unsigned char>(line[j]))) {
        ++j;
      }
      if (j >= line.size() || line[j] != '.' || j + 1 >= line.size() ||
          !IsIdStart(static_cast<unsigned char>(line[j + 1]))) {
        i = j;
        continue;
      }
      const std::string_view dialect = line.substr(i, j - i);
      if (OursPrefix(dialect)) {
        ours = true;
      } else if (!NeutralPrefix(dialect) &&
                 (i == 0 || line[i - 1] == '"' || line[i - 1] == ' ')) {
        other = true;
      }
      i = j;
    }
    if (ours) return MlirSniff::kStableHlo;
    p = nl + 1;
  }
  if (other) return MlirSniff::kOtherDialect;
  return MlirSniff::kStableHlo;
}

std::string MlirBytecodeAdvice() {
  return "MLIR bytecode (a StableHLO portable artifact, as jax.export "
         "serializes it): topolint reads StableHLO text; turn it into text "
         "with `stablehlo-translate --deserialize FILE`, or for a traced "
         "function print `jax.jit(f).lower(x).as_text()`";
}

std::string MlirOtherDialectAdvice() {
  return "MLIR text of a dialect topolint does not read (no StableHLO, "
         "MHLO or Shardy op): topolint reads StableHLO / MHLO text; for a "
         "JAX function print `jax.jit(f).lower(x).as_text()`, or check the "
         "HLO module compiled from it (XLA_FLAGS=--xla_dump_to=DIR)";
}

}  // namespace topolint::hlo
