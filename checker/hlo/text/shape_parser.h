// Shapes: `f32[8,<=4,?]{1,0:T(8,128)S(1)}`, `token[]`, tuples
// `(s32[], (f32[2]{0}, /*index=1*/pred[]))`. Layouts are skipped, not kept.
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_SHAPE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_SHAPE_PARSER_H_

#include <string>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"

namespace topolint::hlo {

// Parses a shape into *shape. Precondition: Peek() is '(' or starts an
// identifier (the element type).
[[nodiscard]] bool ParseShape(HloLexer& lx, Shape* shape);

// Parses the rest of an array shape whose element type was already read;
// the cursor is at '['.
[[nodiscard]] bool ParseArrayShapeRest(HloLexer& lx, std::string element_type,
                                       Shape* shape);

// Parses the rest of a buffer shape `b(f32[8]{0})` whose `b` was already
// read; the cursor is at '('. The buffer is modelled as the array it holds.
[[nodiscard]] bool ParseBufferShapeRest(HloLexer& lx, Shape* shape);

// Skips the rest of an array shape (dims and optional layout) without
// building it; the cursor is at '['.
[[nodiscard]] bool SkipArrayShapeRest(HloLexer& lx);

// True when the '{' at the cursor opens a layout (`{1,0}`, `{}`,
// `{:T(2)}`) rather than, say, a computation body after `-> f32[] {`.
bool LayoutFollows(HloLexer& lx);

// The common case of ParseShape, read from the bytes [p, end) without a
// lexer (a window's bytes up to its end, or captured text that ends at `end`
// when `end_is_final`): array shapes `type[d,...]` with an optional
// `{d,...}` layout, and tuples of them separated by ',' and spaces (when
// not `end_is_final`, *end is readable: a window's NUL sentinel). Returns
// where the shape ends, or nullptr (with *shape unspecified) when the text
// is anything else (blanks before a layout, comments, dynamic dimensions,
// tiled layouts, ...) and the exact parser must decide. Where it returns
// non-null, the shape is the one ParseShape reads and the exact parser would
// stop at the same byte. It reads into the storage *shape already has (its
// strings, dims and tuple elements), so that a shape reused for every
// collective of a module allocates nothing once warm.
[[nodiscard]] const char* ReadSimpleShape(const char* p, const char* end,
                                          bool end_is_final, Shape* shape);

// Parses previously captured shape text into *shape; false, with *shape
// cleared (unknown), when it is not a complete shape. (Exact;
// ParseShapeText in fast_paths.h tries ReadSimpleShape first.)
bool ParseShapeTextExact(std::string_view text, Shape* shape);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_SHAPE_PARSER_H_
