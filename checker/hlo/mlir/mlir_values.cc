// Dense integer tensors (`dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`, empty
// `dense<>`, splats, hex `dense<"0x...">`) and tensor types, as the
// StableHLO reader needs them.
#include <string>
#include <utility>

#include "checker/hlo/mlir/mlir_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::mlir {
namespace {

int HexDigit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// MLIR's element type as HLO spells it (i32 -> s32, i1 -> pred, ...).
std::string HloElementType(const std::string& t) {
  if (t == "i1") return "pred";
  if (t.size() > 1 && t[0] == 'i' && IsDigit(t[1])) return "s" + t.substr(1);
  if (t.size() > 2 && t[0] == 'u' && t[1] == 'i') return "u" + t.substr(2);
  if (t.size() > 2 && t[0] == 's' && t[1] == 'i') return "s" + t.substr(2);
  std::string lower;
  for (char ch : t) {
    lower.push_back(ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a')
                                           : ch);
  }
  return lower;
}

// Bytes of one element of an integer type (`i64` -> 8), 0 when unknown.
int64_t ElementBytes(const std::string& hlo_type) {
  if (hlo_type == "pred") return 1;
  if (hlo_type.size() < 2) return 0;
  const char k = hlo_type[0];
  if (k != 's' && k != 'u') return 0;
  const std::string bits = hlo_type.substr(1);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  return 0;
}

}  // namespace

// The dense<...> grammar: nested lists, splat, hex, empty, one case each.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool Reader::Dense(DenseRows* out) {
  out->Clear();
  out->pos = cur_.Pos();
  std::string word;
  if (!cur_.ReadId(&word) || word != "dense") {
    return Fail("expected a dense<...> integer tensor");
  }
  if (!Expect('<', "'<' after dense")) return false;
  cur_.SkipSpace();
  enum { kEmpty, kList, kHex, kScalar } form = kEmpty;
  std::vector<int64_t> flat;  // kScalar
  std::string hex_bytes;      // kHex: the bytes, decoded
  if (cur_.Peek() == '[') {
    form = kList;
    if (!DenseList(out)) return false;
  } else if (cur_.Peek() == '"') {
    form = kHex;
    cur_.Advance();
    if (cur_.Peek() != '0' ||
        (cur_.PeekAt(1) != 'x' && cur_.PeekAt(1) != 'X')) {
      return Fail("expected a hexadecimal \"0x...\" dense value");
    }
    cur_.Advance();
    cur_.Advance();
    for (;;) {
      const int hi = cur_.Peek();
      if (hi == '"') {
        cur_.Advance();
        break;
      }
      const int a = HexDigit(hi), b = HexDigit(cur_.PeekAt(1));
      if (a < 0 || b < 0) return Fail("expected hexadecimal digits");
      cur_.Advance();
      cur_.Advance();
      if (static_cast<int64_t>(hex_bytes.size()) >= 8 * kMaxExplicitIds) {
        return Fail(fmt::format("more than {} ids in one dense value",
                                kMaxExplicitIds));
      }
      hex_bytes.push_back(static_cast<char>(a * 16 + b));
    }
  } else if (cur_.Peek() != '>') {
    form = kScalar;
    int64_t v = 0;
    if (IsIdStart(cur_.Peek())) {
      cur_.ReadId(&word);
      v = word == "true" ? 1 : 0;
    } else if (!cur_.ReadInt(&v)) {
      return Fail("expected an integer in dense<...>");
    }
    flat.push_back(v);
  }
  if (!Expect('>', "'>' closing dense<")) return false;
  if (!Expect(':', "':' and the tensor type after dense<...>")) return false;
  cur_.SkipSpace();
  Shape type;
  if (!Type(&type, 0)) return false;
  out->dims = type.dims;
  if (form == kList) return true;
  // The other forms are flat: shaped into rows by the type.
  int64_t rows = 1, cols = 1;
  if (out->dims.size() == 2) {
    rows = out->dims[0];
    cols = out->dims[1];
  } else if (out->dims.size() == 1) {
    cols = out->dims[0];
  } else if (!out->dims.empty()) {
    return Fail("expected a rank-2 tensor of ids");
  }
  int64_t total = 0;
  if (rows < 0 || cols < 0 || __builtin_mul_overflow(rows, cols, &total) ||
      total > kMaxExplicitIds) {
    return Fail(fmt::format("a dense tensor of ids may hold at most {} ids",
                            kMaxExplicitIds));
  }
  if (form == kHex) {
    const int64_t width = ElementBytes(type.element_type);
    if (width == 0) return Fail("expected an integer element type");
    const int64_t n = static_cast<int64_t>(hex_bytes.size()) / width;
    if (n * width != static_cast<int64_t>(hex_bytes.size())) {
      return Fail("hexadecimal dense value is not a whole number of elements");
    }
    for (int64_t i = 0; i < n; ++i) {
      uint64_t v = 0;
      for (int64_t b = width - 1; b >= 0; --b) {  // little-endian
        v = (v << 8) | static_cast<unsigned char>(hex_bytes[i * width + b]);
      }
      int64_t s = static_cast<int64_t>(v);
      if (width < 8 && type.element_type[0] == 's' &&
          (v >> (width * 8 - 1)) != 0) {
        s = static_cast<int64_t>(v | (~uint64_t{0} << (width * 8)));
      }
      flat.push_back(s);
    }
  }
  if (form == kEmpty && total != 0) {
    return Fail("empty dense<> for a tensor that holds ids");
  }
  const bool splat = flat.size() == 1 && total != 1;
  if (!splat && static_cast<int64_t>(flat.size()) != total) {
    return Fail(fmt::format("dense value holds {} ids but its type holds {}",
                            flat.size(), total));
  }
  for (int64_t r = 0; r < rows; ++r) {
    out->row_pos.push_back(out->pos);
    for (int64_t k = 0; k < cols; ++k) {
      out->values.push_back(splat ? flat[0]
                                  : flat[static_cast<size_t>(r * cols + k)]);
    }
    out->row_end.push_back(out->values.size());
  }
  return true;
}

bool Reader::DenseList(DenseRows* out) {
  // `[[0, 1], [2, 3]]` (rank 2) or `[0, 1]` (rank 1: one row).
  cur_.Advance();  // '['
  cur_.SkipSpace();
  int64_t count = 0;
  auto values = [&](bool nested) -> bool {
    for (;;) {
      cur_.SkipSpace();
      if (cur_.Eat(']')) {
        out->row_end.push_back(out->values.size());
        return true;
      }
      const TextPos pos = cur_.Pos();
      int64_t v = 0;
      if (!cur_.ReadInt(&v)) return Fail("expected an integer id");
      if (++count > kMaxExplicitIds) {
        return Fail(fmt::format("more than {} ids in one dense value",
                                kMaxExplicitIds));
      }
      out->values.push_back(v);
      out->value_pos.push_back(pos);
      cur_.SkipSpace();
      if (cur_.Eat(',')) continue;
      if (cur_.Peek() == ']') continue;
      return Expect(']', nested ? "',' or ']' in a group" : "',' or ']'");
    }
  };
  if (cur_.Peek() != '[') {
    out->row_pos.push_back(out->pos);
    return values(false);
  }
  for (;;) {
    cur_.SkipSpace();
    if (cur_.Eat(']')) return true;
    out->row_pos.push_back(cur_.Pos());
    if (!Expect('[', "'[' opening a group")) return false;
    cur_.SkipSpace();
    if (cur_.Peek() == '[') {
      return Fail("expected a rank-2 tensor of ids (a list of groups)");
    }
    if (!values(true)) return false;
    cur_.SkipSpace();
    if (cur_.Eat(',')) continue;
    if (cur_.Peek() == ']') continue;
    return Expect(']', "',' or ']' between groups");
  }
}

// The tensor type grammar (dims, element type, encoding) in order.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool Reader::Type(Shape* out, int depth) {
  out->Clear();
  if (depth > kMaxShapeDepth) return Fail("types nested too deeply");
  cur_.SkipSpace();
  if (cur_.Eat('!')) {  // !stablehlo.token, !mhlo.token, other dialect types
    std::string name;
    cur_.ReadId(&name);
    if (cur_.Peek() == '<' &&
        !cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
      return Fail("unterminated type");
    }
    if (name.size() >= 6 && name.substr(name.size() - 6) == ".token") {
      out->known = true;
      out->element_type = "token";
    }
    return true;
  }
  std::string name;
  if (!cur_.ReadId(&name)) return Fail("expected a type");
  if (name == "tuple") {
    if (!Expect('<', "'<' after tuple")) return false;
    out->known = true;
    out->is_tuple = true;
    cur_.SkipSpace();
    if (cur_.Eat('>')) return true;
    for (;;) {
      out->tuple.emplace_back();
      if (!Type(&out->tuple.back(), depth + 1)) return false;
      cur_.SkipSpace();
      if (cur_.Eat(',')) continue;
      return Expect('>', "',' or '>' in a tuple type");
    }
  }
  if (name != "tensor") {
    if (cur_.Peek() == '<' &&
        !cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
      return Fail("unterminated type");
    }
    return true;  // vector<...>, memref<...>, a scalar: not checked
  }
  if (!Expect('<', "'<' after tensor")) return false;
  bool ranked = true;
  // Dimensions: `2x`, `?x`, `*x`, then the element type.
  for (;;) {
    const int ch = cur_.Peek();
    if (ch == '?' || ch == '*') {
      if (ch == '*') ranked = false;
      cur_.Advance();
      out->dims.push_back(-1);
    } else if (IsDigit(ch)) {
      int64_t v = 0;
      while (IsDigit(cur_.Peek())) {
        if (v < (int64_t{1} << 58)) v = v * 10 + (cur_.Peek() - '0');
        cur_.Advance();
      }
      out->dims.push_back(v);
    } else {
      break;
    }
    if (!cur_.Eat('x')) return Fail("expected 'x' after a dimension");
  }
  if (!ranked) out->dims.clear();
  std::string element;
  if (cur_.Eat('!')) {  // a dialect type: !quant.uniform<i8:f32, ...>
    cur_.ReadId(&element);
    if (cur_.Peek() == '<' &&
        !cur_.SkipBalanced(options_.max_instruction_bytes, kMaxNestingDepth)) {
      return Fail("unterminated element type");
    }
  } else if (!cur_.ReadId(&element)) {
    return Fail("expected an element type");
  } else if (element == "complex" && cur_.Peek() == '<') {
    std::string inner;
    cur_.Advance();
    cur_.ReadId(&inner);
    element = inner == "f64" ? "c128" : "c64";
    if (!Expect('>', "'>' after complex<")) return false;
  } else {
    element = HloElementType(element);
  }
  cur_.SkipSpace();
  if (cur_.Eat(',')) {  // an encoding: #stablehlo.bounds<...>, a sharding
    cur_.SkipSpace();
    if (!cur_.SkipValue(options_.max_instruction_bytes, kMaxNestingDepth)) {
      return Fail("unterminated tensor encoding");
    }
  }
  if (!Expect('>', "'>' closing tensor<")) return false;
  out->known = ranked;
  out->element_type = std::move(element);
  return true;
}

bool Reader::TypeList(std::vector<Shape>* out) {
  out->clear();
  cur_.Advance();  // '('
  cur_.SkipSpace();
  if (cur_.Eat(')')) return true;
  for (;;) {
    out->emplace_back();
    if (!Type(&out->back(), 0)) return false;
    cur_.SkipSpace();
    if (cur_.Eat(',')) continue;
    return Expect(')', "',' or ')' in a type list");
  }
}

}  // namespace topolint::hlo::mlir
