// Structured attributes of a collective whose insides matter:
// `metadata={op_name="..." source_file="..." source_line=N ...}` and
// `frontend_attributes={k="v", _xla_send_recv_source_target_pairs=...}`.
// Internal to checker/hlo/text.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_ATTRS_H_
#define TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_ATTRS_H_

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_lexer.h"

namespace topolint::hlo {

// The cursor is at the value's '{'. (Exact; ParseMetadata in fast_paths.h
// tries TryParseSimpleMetadata first.)
[[nodiscard]] bool ParseMetadataExact(HloLexer& lx, Collective* c);

// The cursor is at the value's '{'. `_xla_send_recv_source_target_pairs`
// (quoted "{{0,1}}" or raw {{0,1}}) fills c->source_target_pairs; positions
// inside a quoted value assume it holds no escapes or line breaks.
[[nodiscard]] bool ParseFrontendAttributes(HloLexer& lx, Collective* c);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_COLLECTIVE_ATTRS_H_
