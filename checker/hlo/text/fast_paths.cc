// The dispatcher: each function tries its construct's fast path and falls
// back to the exact parser when it declines. See fast_paths.h for the map.
#include "checker/hlo/text/fast_paths.h"

#include <algorithm>
#include <string>

#include "checker/hlo/text/collective_attrs.h"
#include "checker/hlo/text/fast_path_checks.h"
#include "checker/hlo/text/group_list_parser.h"
#include "checker/hlo/text/shape_parser.h"

namespace topolint::hlo {

namespace {

// HloLexer::TrySkipLine, re-checked in debug builds (CheckSkippedLine),
// after which *line (the line's first byte) and the keys' braces are found
// again: the exact re-read may have refilled the window.
bool CheckedSkipLine(HloLexer& lx, bool at_operands, bool* trailing_comma,
                     ShardingBraces* sharding_keys, const char** line) {
  if constexpr (!kCheckFastPaths) {
    return lx.TrySkipLine(at_operands, trailing_comma, sharding_keys);
  } else {
    const HloLexer::Mark mark = lx.SaveMark();
    if (!lx.TrySkipLine(at_operands, trailing_comma, sharding_keys)) {
      lx.Release();
      return false;
    }
    ShardingBraces keys;  // in the line at *line, before the re-read
    if (sharding_keys != nullptr) keys = *sharding_keys;
    const char* const old_line = *line;
    CheckSkippedLine(lx, mark, at_operands, sharding_keys != nullptr, keys);
    *line = lx.cursor() - (lx.Offset() - mark.offset);
    if (sharding_keys != nullptr && keys.any()) {
      sharding_keys->first = *line + (keys.first - old_line);
      sharding_keys->last = *line + (keys.last - old_line);
    }
    return true;
  }
}

}  // namespace

bool SkipInstructionBody(HloLexer& lx, const ShardingTarget* sharding) {
  // The cursor is at '(' first, then at the start of an attribute. Each
  // piece is skipped by the fast line scanner when it can, else exactly.
  // With `sharding`, a skipped line in which the block scanner saw
  // `sharding={` has those keys read (ScanSkippedLineForShardings),
  // and each attribute the exact path meets is looked at
  // (ReadShardingAttrIfPresent).
  bool at_operands = true;
  for (;;) {
    bool trailing_comma = false;
    ShardingBraces sharding_keys;
    const char* line = lx.cursor();
    if (lx.FastPathOn(FastPath::kTrySkipLine) &&
        CheckedSkipLine(lx, at_operands, &trailing_comma,
                        sharding != nullptr ? &sharding_keys : nullptr,
                        &line)) {
      at_operands = false;
      if (sharding != nullptr &&
          !ScanSkippedLineForShardings(lx, *sharding, line, sharding_keys)) {
        return false;
      }
      if (!lx.SkipTrivia()) return false;
      if (!trailing_comma) {
        if (lx.Peek() != ',') return true;
        lx.Bump();
        if (!lx.SkipTrivia()) return false;
      }
      continue;
    }
    if (at_operands) {
      // `(... /*index=5*/...)`: the plain group scanner handles comments.
      if (!SkipAnyGroup(lx)) return false;
    } else {
      bool handled = false;
      if (sharding != nullptr &&
          !ReadShardingAttrIfPresent(lx, *sharding, &handled)) {
        return false;
      }
      if (!handled && !lx.SkipValue()) return false;
    }
    at_operands = false;
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != ',') return true;
    lx.Bump();
    if (!lx.SkipTrivia()) return false;
  }
}

bool SkipAnyGroup(HloLexer& lx) {
  return (lx.FastPathOn(FastPath::kTrySkipPlainGroup) &&
          CheckedFastPath(
              lx, "TrySkipPlainGroup", [&] { return lx.TrySkipPlainGroup(); },
              [&] {
                const HloLexer::ExactOnly exact(lx);
                return lx.SkipGroup();
              })) ||
         lx.SkipGroup();
}

bool ParseShapeText(std::string_view text, Shape* shape, bool read_simple) {
  // The fast path writes into *shape (reusing its storage); when it
  // declines, the exact parser clears *shape and decides.
  const char* const end = text.data() + text.size();
  if (read_simple &&
      ReadSimpleShape(text.data(), end, /*end_is_final=*/true, shape) == end) {
    if (kCheckFastPaths) CheckShapeText("ReadSimpleShape", text, *shape);
    return true;
  }
  return ParseShapeTextExact(text, shape);
}

bool ParseResultShape(std::string_view in_window, const char* window_limit,
                      std::string_view captured, ValueMemo* memo, Shape* shape,
                      bool read_simple) {
  // In the window the shape is followed by ` opcode(`: the fast path must
  // stop exactly where the head scan did, else the captured text decides.
  if (read_simple && !in_window.empty() &&
      ReadSimpleShape(in_window.data(), window_limit, /*end_is_final=*/false,
                      shape) == in_window.data() + in_window.size()) {
    if (kCheckFastPaths) CheckShapeText("ReadSimpleShape", in_window, *shape);
    if (memo != nullptr) memo->RememberShape(in_window, *shape);
    return true;
  }
  return ParseShapeText(captured, shape, read_simple);
}

bool TryReadShape(HloLexer& lx, ValueMemo* memo, Shape* shape) {
  const char* const start = lx.cursor();
  if (memo != nullptr && lx.FastPathOn(FastPath::kTryRecallShapeAt)) {
    if (const char* end = memo->TryRecallShapeAt(start, lx.limit(), shape)) {
      lx.AdvanceTo(end);
      return true;
    }
  }
  if (const char* end = lx.FastPathOn(FastPath::kReadSimpleShape)
                            ? ReadSimpleShape(start, lx.limit(),
                                              /*end_is_final=*/false, shape)
                            : nullptr) {
    if (memo != nullptr) {
      memo->RememberShape(
          std::string_view(start, static_cast<size_t>(end - start)), *shape);
    }
    lx.AdvanceTo(end);
    return true;
  }
  shape->Clear();  // (keeps its storage)
  return false;
}

bool ParseMetadata(HloLexer& lx, Collective* c) {
  if (lx.AtByte('{') && lx.FastPathOn(FastPath::kTryParseSimpleMetadata) &&
      CheckedFastPath(
          lx, "TryParseSimpleMetadata",
          [&] { return TryParseSimpleMetadata(lx, c); },
          [&] {
            // Keys absent from the value keep what `c` had, as both keep.
            Collective exact;
            exact.op_name = c->op_name;
            exact.source_file = c->source_file;
            exact.source_line = c->source_line;
            exact.source_column = c->source_column;
            return ParseMetadataExact(lx, &exact) &&
                   exact.op_name == c->op_name &&
                   exact.source_file == c->source_file &&
                   exact.source_line == c->source_line &&
                   exact.source_column == c->source_column;
          })) {
    return true;
  }
  return ParseMetadataExact(lx, c);
}

bool ParseIotaGroups(HloLexer& lx, IotaSpec* out) {
  out->Clear();
  return (lx.FastPathOn(FastPath::kTryParseSimpleIota) &&
          CheckedFastPath(
              lx, "TryParseSimpleIota",
              [&] { return TryParseSimpleIota(lx, out); },
              [&] {
                IotaSpec exact;
                return ParseIotaGroupsExact(lx, &exact) &&
                       exact.num_groups == out->num_groups &&
                       exact.group_size == out->group_size &&
                       exact.reshape_dims == out->reshape_dims &&
                       exact.perm == out->perm;
              })) ||
         ParseIotaGroupsExact(lx, out);
}

bool ParseSourceTargetPairs(HloLexer& lx, std::string_view attr,
                            SourceTargetPairs* out, ValueMemo* memo) {
  out->Clear();
  out->present = true;
  out->pos = lx.Pos();
  if (lx.AtByte('{')) {
    // Both fast paths are checked against the exact parser alike.
    const auto exact_agrees = [&] {
      SourceTargetPairs exact;
      return ParseSourceTargetPairsExact(lx, attr, &exact) &&
             exact.pairs == out->pairs &&
             SamePositions(exact.pair_pos, out->pair_pos);
    };
    if (memo != nullptr && lx.FastPathOn(FastPath::kTryRecallPairs) &&
        CheckedFastPath(
            lx, "TryRecallPairs", [&] { return memo->TryRecallPairs(lx, out); },
            exact_agrees)) {
      return true;
    }
    if (lx.FastPathOn(FastPath::kTryParseSimplePairs) &&
        ParseRemembering(
            lx, memo,
            [&] {
              return CheckedFastPath(
                  lx, "TryParseSimplePairs",
                  [&] { return TryParseSimplePairs(lx, out); }, exact_agrees);
            },
            [&](ValueMemo* m, std::string_view text) {
              m->RememberPairs(text, *out);
            })) {
      return true;
    }
  }
  return ParseSourceTargetPairsExact(lx, attr, out);
}

bool ParseExplicitReplicaGroups(HloLexer& lx, ReplicaGroups* out,
                                ValueMemo* memo) {
  // In debug builds the value, however its groups were read, is read again
  // with the exact group parser alone and compared, every id's position
  // included (SameExplicitGroups: linear).
  return CheckedFastPath(
      lx, "TryRecallGroups/TryParsePlainGroups",
      [&] {
        return (memo != nullptr && lx.FastPathOn(FastPath::kTryRecallGroups) &&
                memo->TryRecallGroups(lx, out)) ||
               (lx.FastPathOn(FastPath::kTryParsePlainGroups) &&
                ParseRemembering(
                    lx, memo, [&] { return TryParsePlainGroups(lx, out); },
                    [&](ValueMemo* m, std::string_view text) {
                      m->RememberGroups(text, *out);
                    })) ||
               ParseExplicitGroups(lx, out);
      },
      [&] {
        const HloLexer::ExactOnly exact_only(lx);
        ReplicaGroups exact;
        exact.pos = out->pos;
        return ParseExplicitGroups(lx, &exact) &&
               SameExplicitGroups(exact, *out);
      });
}

}  // namespace topolint::hlo
