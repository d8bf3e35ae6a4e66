#include "checker/hlo/text/shape_parser.h"

#include <string_view>
#include <utility>
#include <vector>

#include "checker/hlo/input_window.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

constexpr size_t kMaxDims = 4096;
constexpr int64_t kMaxShapeNodes = int64_t{1} << 16;
constexpr std::string_view kBufferType = "b";

class ShapeReader {
 public:
  explicit ShapeReader(HloLexer& lx) : lx_(lx) {}

  bool Shape(hlo::Shape* shape, int depth) {
    if (++nodes_ > kMaxShapeNodes) {
      return lx_.Error(lx_.Pos(), fmt::format("shape has more than {} "
                                              "elements",
                                              kMaxShapeNodes));
    }
    if (lx_.Peek() == '(') return Tuple(shape, depth);
    if (!IsIdentStart(lx_.Peek())) {
      return lx_.Expected(
          "a shape (an element type such as 'f32[8]' or a "
          "tuple '(...)')");
    }
    std::string type;
    if (!lx_.ReadIdent(&type) || !lx_.SkipTrivia()) return false;
    if (type == kBufferType && lx_.Peek() == '(') return Buffer(shape, depth);
    if (lx_.Peek() != '[') {
      return lx_.Expected(fmt::format("'[' after element type '{}'", type));
    }
    return ArrayRest(std::move(type), shape);
  }

  bool ArrayRest(std::string type, hlo::Shape* shape) {
    shape->known = true;
    shape->is_tuple = false;
    shape->element_type = std::move(type);
    shape->dims.clear();
    lx_.Bump();  // '['
    if (!lx_.SkipTrivia()) return false;
    if (!lx_.Eat(']')) {
      for (;;) {
        if (!lx_.SkipTrivia()) return false;
        int64_t dim = -1;
        if (lx_.Peek() == '?') {
          lx_.Bump();
        } else {
          if (lx_.Peek() == '<' && lx_.PeekAt(1) == '=') {
            lx_.Bump();
            lx_.Bump();
            if (!lx_.SkipTrivia()) return false;
          }
          if (!lx_.ReadInt(&dim, "a dimension size, '?' or '<=N'")) {
            return false;
          }
        }
        if (shape->dims.size() >= kMaxDims) {
          return lx_.Error(lx_.Pos(), fmt::format("shape has more than {} "
                                                  "dimensions",
                                                  kMaxDims));
        }
        shape->dims.push_back(dim);
        if (!lx_.SkipTrivia()) return false;
        if (lx_.Eat(',')) continue;
        if (lx_.Eat(']')) break;
        return lx_.Expected("',' or ']' in the shape dimensions");
      }
    }
    return SkipLayout();
  }

  bool SkipLayout() {
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() == '{' && LayoutFollows(lx_)) return lx_.SkipGroup();
    return true;
  }

  // `b(f32[8]{0})`: a buffer holding one array; modelled as that array.
  bool Buffer(hlo::Shape* shape, int depth) {
    lx_.Bump();  // '('
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Peek() == '(') {
      return lx_.Expected("an array shape inside the buffer shape 'b(...)'");
    }
    if (!Shape(shape, depth + 1) || !lx_.SkipTrivia()) return false;
    if (!lx_.Eat(')')) {
      return lx_.Expected("')' to close the buffer shape 'b(...)'");
    }
    return true;
  }

  bool Tuple(hlo::Shape* shape, int depth) {
    if (depth >= kMaxShapeDepth) {
      return lx_.Error(lx_.Pos(), fmt::format("tuple shape nests deeper than "
                                              "the limit of {}",
                                              kMaxShapeDepth));
    }
    shape->known = true;
    shape->is_tuple = true;
    shape->tuple.clear();
    lx_.Bump();  // '('
    if (!lx_.SkipTrivia()) return false;
    if (lx_.Eat(')')) return true;
    for (;;) {
      hlo::Shape element;
      if (!lx_.SkipTrivia() || !Shape(&element, depth + 1)) return false;
      shape->tuple.push_back(std::move(element));
      if (!lx_.SkipTrivia()) return false;
      if (lx_.Eat(',')) continue;
      if (lx_.Eat(')')) return true;
      return lx_.Expected("',' or ')' in the tuple shape");
    }
  }

 private:
  HloLexer& lx_;
  int64_t nodes_ = 0;
};

// ReadSimpleShape's reader. kChecked: every access is bounds-checked
// against `end_`; otherwise the text ends in a NUL at `end_` (a window's
// sentinel), which stops every loop here by itself (0 never continues a
// shape), so bytes are read as they are.
template <bool kChecked>
class SimpleShapeReader {
 public:
  // `end_is_final`: the text ends at `end` (captured text), rather than a
  // window whose input may go on after it.
  SimpleShapeReader(const char* end, bool end_is_final)
      : end_(end), end_is_final_(end_is_final) {}

  const char* Shape(const char* p, hlo::Shape* shape, int depth) {
    if (++nodes_ > kMaxShapeNodes) return nullptr;
    if (At(p) == '(') return Tuple(p, shape, depth);
    if (!IsIdentStart(At(p))) return nullptr;
    const char* type = p;
    while (IsIdentChar(At(p))) ++p;
    if (p - type > kMaxTokenBytes || At(p) != '[') return nullptr;
    shape->known = true;
    shape->is_tuple = false;
    const std::string_view type_view(type, static_cast<size_t>(p - type));
    // A reused shape most often has the same type already (no call).
    if (shape->element_type != type_view) shape->element_type.assign(type_view);
    shape->dims.clear();
    shape->tuple.clear();
    ++p;  // '['
    if (At(p) != ']') {
      // No counting pass to reserve: the shapes read here are mostly
      // reused and keep their capacity; a new one gets room for 8 dims.
      if (shape->dims.capacity() == 0) shape->dims.reserve(8);
      for (;;) {
        const char* digits = p;
        uint64_t dim = 0;  // unsigned: more than 18 digits wrap, then decline
        while (IsDigit(At(p))) {
          dim = dim * 10 + static_cast<uint64_t>(*p - '0');
          ++p;
        }
        if (p == digits || p - digits > 18 || shape->dims.size() >= kMaxDims) {
          return nullptr;
        }
        shape->dims.push_back(static_cast<int64_t>(dim));
        if (At(p) == ',') {
          ++p;
          continue;
        }
        if (At(p) != ']') return nullptr;
        break;
      }
    }
    ++p;  // ']'
    if (At(p) == '{') {
      // A layout of digits and commas, then maybe a tail of tiles
      // `:T(8,128)(2,1)` (LayoutFollows() holds for it; the exact parser
      // skips it as one group, as SkipPlainLayoutTail says).
      ++p;
      // LayoutFollows() needs a digit, ':' or '}' first: `{,0}` is no
      // layout to the exact parser (found by the debug re-check).
      if (!IsDigit(At(p)) && At(p) != ':' && At(p) != '}') return nullptr;
      while (IsDigit(At(p)) || At(p) == ',') ++p;
      if (At(p) == ':') return LayoutTail(p);
      if (At(p) != '}') return nullptr;
      return p + 1;
    }
    // The exact parser looks past blanks (and line breaks and comments) for
    // a layout; decline when anything of that kind follows.
    const char* q = p;
    while (At(q) == ' ') ++q;
    const int next = At(q);
    if (next == '{' || next == '/' || next == 0 || IsSpace(next)) {
      return end_is_final_ && q == end_ && q == p ? p : nullptr;
    }
    return p;
  }

 private:
  const char* Tuple(const char* p, hlo::Shape* shape, int depth) {
    if (depth >= kMaxShapeDepth) return nullptr;
    shape->known = true;
    shape->is_tuple = true;
    shape->element_type.clear();
    shape->dims.clear();
    ++p;  // '('
    // The elements a reused shape already holds are read into again (their
    // strings and vectors keep their storage), then the rest dropped.
    std::vector<hlo::Shape>& tuple = shape->tuple;
    size_t n = 0;
    if (At(p) != ')') {
      for (;;) {
        if (n == tuple.size()) tuple.emplace_back();
        p = Shape(p, &tuple[n], depth + 1);
        if (p == nullptr) return nullptr;
        ++n;
        if (At(p) == ')') break;
        if (At(p) != ',') return nullptr;
        ++p;
        while (At(p) == ' ') ++p;
      }
    }
    tuple.resize(n);
    return p + 1;
  }

  // SkipPlainLayoutTail through At().
  const char* LayoutTail(const char* p) const {
    bool open = false;
    for (++p;; ++p) {
      const int c = At(p);
      if (IsIdentChar(c) || c == ',' || c == '*') continue;
      if (c == '(' && !open) {
        open = true;
      } else if (c == ')' && open) {
        open = false;
      } else {
        return c == '}' && !open ? p + 1 : nullptr;
      }
    }
  }

  // The byte at `p`, or 0 at the end (0 never continues a shape).
  int At(const char* p) const {
    if (!kChecked) return static_cast<unsigned char>(*p);
    return p < end_ ? static_cast<unsigned char>(*p) : 0;
  }

  const char* end_;
  bool end_is_final_;
  int64_t nodes_ = 0;
};

}  // namespace

const char* ReadSimpleShape(const char* p, const char* end, bool end_is_final,
                            Shape* shape) {
  if (!end_is_final && *end == '\0') {
    return SimpleShapeReader<false>(end, end_is_final).Shape(p, shape, 0);
  }
  return SimpleShapeReader<true>(end, end_is_final).Shape(p, shape, 0);
}

bool ParseShape(HloLexer& lx, Shape* shape) {
  return ShapeReader(lx).Shape(shape, 0);
}

bool ParseArrayShapeRest(HloLexer& lx, std::string element_type, Shape* shape) {
  return ShapeReader(lx).ArrayRest(std::move(element_type), shape);
}

bool ParseBufferShapeRest(HloLexer& lx, Shape* shape) {
  return ShapeReader(lx).Buffer(shape, 0);
}

bool SkipArrayShapeRest(HloLexer& lx) {
  if (!lx.SkipGroup() || !lx.SkipTrivia()) return false;
  if (lx.Peek() == '{' && LayoutFollows(lx)) return lx.SkipGroup();
  return true;
}

bool LayoutFollows(HloLexer& lx) {
  for (size_t k = 1; k < 60; ++k) {
    const int c = lx.PeekAt(k);
    if (IsBlank(c) || c == '\n') continue;
    return IsDigit(c) || c == '}' || c == ':';
  }
  return false;
}

bool ParseShapeTextExact(std::string_view text, Shape* shape) {
  shape->Clear();
  InputWindow window(text, text.size() + 1);
  HloLexer lx(&window, /*module=*/nullptr, ParseOptions{});
  Shape parsed;
  if (!lx.SkipTrivia()) return false;
  const int c = lx.Peek();
  if (c != '(' && !IsIdentStart(c)) return false;
  if (!ParseShape(lx, &parsed) || !lx.SkipTrivia() || lx.Peek() != kEof) {
    return false;
  }
  *shape = std::move(parsed);
  return true;
}

}  // namespace topolint::hlo
