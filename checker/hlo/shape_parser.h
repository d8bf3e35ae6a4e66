// Shapes: `f32[8,<=4,?]{1,0:T(8,128)S(1)}`, `token[]`, tuples
// `(s32[], (f32[2]{0}, /*index=1*/pred[]))`. Layouts are skipped, not kept.
// Internal to checker/hlo.
#ifndef TOPOLINT_CHECKER_HLO_SHAPE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_SHAPE_PARSER_H_

#include <string>
#include <string_view>

#include "checker/hlo/hlo_lexer.h"
#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

// Parses a shape into *shape. Precondition: Peek() is '(' or starts an
// identifier (the element type).
bool ParseShape(HloLexer& lx, Shape* shape);

// Parses the rest of an array shape whose element type was already read;
// the cursor is at '['.
bool ParseArrayShapeRest(HloLexer& lx, std::string element_type, Shape* shape);

// Parses the rest of a buffer shape `b(f32[8]{0})` whose `b` was already
// read; the cursor is at '('. The buffer is modelled as the array it holds.
bool ParseBufferShapeRest(HloLexer& lx, Shape* shape);

// Skips the rest of an array shape (dims and optional layout) without
// building it; the cursor is at '['.
bool SkipArrayShapeRest(HloLexer& lx);

// True when the '{' at the cursor opens a layout (`{1,0}`, `{}`,
// `{:T(2)}`) rather than, say, a computation body after `-> f32[] {`.
bool LayoutFollows(HloLexer& lx);

// Parses previously captured shape text; false (shape unknown) when it is
// not a complete shape.
bool ParseShapeText(std::string_view text, Shape* shape);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHAPE_PARSER_H_
