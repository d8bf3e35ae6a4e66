#include "checker/hlo/shape_parser.h"

#include <utility>

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
      return lx_.Expected("a shape (an element type such as 'f32[8]' or a "
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

}  // namespace

bool ParseShape(HloLexer& lx, Shape* shape) {
  return ShapeReader(lx).Shape(shape, 0);
}

bool ParseArrayShapeRest(HloLexer& lx, std::string element_type,
                         Shape* shape) {
  return ShapeReader(lx).ArrayRest(std::move(element_type), shape);
}

bool ParseBufferShapeRest(HloLexer& lx, Shape* shape) {
  return ShapeReader(lx).Buffer(shape, 0);
}

bool SkipArrayShapeRest(HloLexer& lx) {
  if (lx.TrySkipSimpleDims()) return true;
  if (!lx.SkipGroup() || !lx.SkipTrivia()) return false;
  if (lx.Peek() == '{' && LayoutFollows(lx)) return lx.SkipGroup();
  return true;
}

bool LayoutFollows(HloLexer& lx) {
  for (size_t k = 1; k < 60; ++k) {
    const int c = lx.PeekAt(k);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return IsDigit(c) || c == '}' || c == ':';
  }
  return false;
}

bool ParseShapeText(std::string_view text, Shape* shape) {
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
