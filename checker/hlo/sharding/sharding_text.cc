// ParseShardingText: XLA's ParseSharding / ParseSingleSharding /
// ParseTileAssignment, with their messages, over a string_view; the named
// (mesh) form is in sharding_named_text.cc.
#include "checker/hlo/sharding/sharding_text.h"

#include <utility>

#include "absl/container/inlined_vector.h"
#include "checker/hlo/sharding/sharding_lexer.h"
#include "checker/hlo/sharding/sharding_text_internal.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace sharding_internal {

bool TextParser::Fail(size_t offset, std::string message) {
  if (error_.empty()) {
    error_ = std::move(message);
    error_offset_ = offset;
  }
  return false;
}

bool TextParser::TokenError(std::string message) {
  if (lx_.kind() == Tok::kError) {
    return Fail(lx_.offset(), std::string(lx_.text()));
  }
  return Fail(lx_.offset(), std::move(message));
}

bool TextParser::Expect(char c, const char* message) {
  if (!lx_.Is(c)) return TokenError(message);
  lx_.Lex();
  return true;
}

bool TextParser::ReadInt(int64_t* out) {
  if (lx_.kind() != Tok::kInt) return TokenError("expects integer");
  *out = lx_.int_value();
  lx_.Lex();
  return true;
}

bool TextParser::ReadIntList(std::vector<int64_t>* out) {
  do {
    if (out->size() >= kMaxListValues) {
      return TokenError(fmt::format(
          "a sharding list may hold at most {} values", kMaxListValues));
    }
    int64_t v = 0;
    if (!ReadInt(&v)) return false;
    // Room for a short list (tile dimensions) at once, not 1, 2, 4, ...
    if (out->capacity() == 0) out->reserve(8);
    out->push_back(v);
  } while (EatComma());
  return true;
}

bool TextParser::EatComma() {
  if (!lx_.Is(',')) return false;
  lx_.Lex();
  return true;
}

bool TextParser::SkipBalanced() {
  // metadata={op_name="..." ...} or metadata={{...}, {...}} or a bare word.
  if (!lx_.Is('{')) {
    if (lx_.kind() == Tok::kIdent || lx_.kind() == Tok::kString ||
        lx_.kind() == Tok::kInt) {
      lx_.Lex();
      return true;
    }
    return TokenError("expected '{' to start metadata");
  }
  int depth = 0;
  do {
    if (lx_.kind() == Tok::kEof) {
      return TokenError("expected '}' to end metadata");
    }
    if (lx_.kind() == Tok::kError) return TokenError("");
    if (lx_.Is('{') || lx_.Is('[') || lx_.Is('(')) {
      if (++depth > kMaxDepth) return TokenError("metadata nests too deep");
    } else if (lx_.Is('}') || lx_.Is(']') || lx_.Is(')')) {
      --depth;
    }
    lx_.Lex();
  } while (depth > 0);
  return true;
}

bool TextParser::ParseTileAssignment(Sharding* s) {
  if (!Expect('[', "expected '[' to start sharding devices shape")) {
    return false;
  }
  if (!ReadIntList(&s->tile_dims)) return false;
  if (!Expect(']', "expected ']' to end sharding devices shape")) return false;
  if (lx_.kind() == Tok::kLeq) {
    lx_.Lex();
    if (!Expect('[', "expected '[' to start sharding iota_reshape_dims")) {
      return false;
    }
    if (lx_.Is(']')) return TokenError("expected non-empty iota_reshape_dims");
    if (!ReadIntList(&s->iota_reshape_dims)) return false;
    if (!Expect(']', "expected ']' to end sharding iota_reshape_dims")) {
      return false;
    }
    if (s->iota_reshape_dims.size() == 1) {
      s->iota_perm = {0};
      return true;
    }
    if (!lx_.IsIdent("T")) {
      return TokenError(
          "expected 'T(' to start sharding devices iota_transpose_perm");
    }
    lx_.Lex();
    if (!Expect('(',
                "expected 'T(' to start sharding devices "
                "iota_transpose_perm")) {
      return false;
    }
    do {
      const size_t at = lx_.offset();
      int64_t dim = 0;
      if (!ReadInt(&dim)) return false;
      if (dim >= static_cast<int64_t>(s->iota_reshape_dims.size())) {
        return Fail(
            at, fmt::format("Out of range iota minor_to_major value {}.", dim));
      }
      if (s->iota_perm.size() >= kMaxListValues) {
        return Fail(at, "iota_transpose_perm is too long");
      }
      s->iota_perm.push_back(dim);
    } while (EatComma());
    return Expect(')',
                  "expected ')' to end sharding devices "
                  "iota_transpose_perm");
  }
  return ReadIntList(&s->devices);
}

bool TextParser::ParseShardingTypeList(std::vector<ShardingType>* out) {
  if (!Expect('{', "expected '{' to start sharding type list")) return false;
  if (!lx_.Is('}')) {
    do {
      const std::string_view word = lx_.text();
      ShardingType t;
      if (lx_.kind() != Tok::kIdent) {
        return TokenError("expected sharding type");
      } else if (word == "replicated") {
        t = ShardingType::kReplicated;
      } else if (word == "manual") {
        t = ShardingType::kManual;
      } else if (word == "unreduced") {
        t = ShardingType::kUnreduced;
      } else if (word == "maximal") {
        t = ShardingType::kMaximal;
      } else if (word == "unknown") {
        t = ShardingType::kUnknown;
      } else {
        return TokenError("expected sharding type");
      }
      out->push_back(t);
      lx_.Lex();
    } while (EatComma());
  }
  return Expect('}', "expected '}' to end sharding type list");
}

// XLA's ParseSingleSharding grammar, one case per keyword, kept in one place to
// compare with hlo_parser.cc.
// NOLINTNEXTLINE(readability-function-cognitive-complexity,readability-function-size)
bool TextParser::ParseSingle(Sharding* out, bool lbrace_pre_lexed) {
  if (!lbrace_pre_lexed &&
      !Expect('{', "expected '{' to start sharding attribute")) {
    return false;
  }
  if (lx_.IsIdent("mesh") || lx_.IsIdent("maximal_mesh")) {
    return ParseNamed(out);
  }
  const size_t loc = lx_.offset();
  bool maximal = false, replicated = false, manual = false, unknown = false,
       unreduced = false, has_device = false;
  // Read in place, into the lists' storage *out has (the callers drop *out
  // on failure).
  Sharding& s = *out;
  s.Clear();
  while (!lx_.Is('}')) {
    if (lx_.kind() == Tok::kIdent) {
      const std::string_view w = lx_.text();
      if (w == "maximal") {
        maximal = true;
      } else if (w == "replicated") {
        replicated = true;
      } else if (w == "manual") {
        manual = true;
      } else if (w == "unknown") {
        unknown = true;
      } else if (w == "unreduced") {
        unreduced = true;
      } else if (w == "last_tile_dim_replicate") {
        s.last_tile_dim_replicate = true;
      } else if (w == "shard_as" || w == "shard_like") {
        lx_.Lex();
        ShardGroup g;
        g.shard_as = w == "shard_as";
        if (!ReadInt(&g.id)) return false;
        s.shard_group = g;
        continue;
      } else {
        return TokenError("unexpected token");
      }
      lx_.Lex();
    } else if (lx_.kind() == Tok::kAttrName) {
      const std::string_view w = lx_.text();
      if (w == "device") {
        if (lx_.Lex() != Tok::kInt) {
          return TokenError("device= attribute must be an integer");
        }
        s.devices = {lx_.int_value()};
        has_device = true;
        lx_.Lex();
      } else if (w == "devices") {
        lx_.Lex();
        s.devices.clear();
        s.tile_dims.clear();
        s.iota_reshape_dims.clear();
        s.iota_perm.clear();
        if (!ParseTileAssignment(&s)) return false;
        has_device = !s.devices.empty();
      } else if (w == "metadata") {
        lx_.Lex();
        if (!SkipBalanced()) return false;
      } else if (w == "last_tile_dims") {
        lx_.Lex();
        if (!ParseShardingTypeList(&s.subgroup_types)) return false;
      } else {
        return TokenError(
            "unknown attribute in sharding: expected device=, devices= "
            "metadata= or last_tile_dims= ");
      }
    } else if (lx_.kind() == Tok::kEof) {
      return TokenError("expected '}' to end sharding attribute");
    } else {
      return TokenError("unexpected token");
    }
  }
  (void)has_device;
  if (replicated || manual || unknown || unreduced) {
    const char* what = replicated ? "replicated"
                       : manual   ? "manual"
                       : unknown  ? "unknown"
                                  : "unreduced";
    if (!s.devices.empty()) {
      return Fail(
          loc, fmt::format("{} shardings should not have any devices assigned",
                           what));
    }
    s.type = replicated ? ShardingType::kReplicated
             : manual   ? ShardingType::kManual
             : unknown  ? ShardingType::kUnknown
                        : ShardingType::kUnreduced;
    s.tile_dims.clear();
    s.iota_reshape_dims.clear();
    s.iota_perm.clear();
    s.subgroup_types.clear();
    s.last_tile_dim_replicate = false;
  } else if (maximal) {
    if (s.devices.size() != 1) {
      return Fail(loc,
                  "maximal shardings should have exactly one device assigned");
    }
    s.type = ShardingType::kMaximal;
    s.tile_dims.clear();
    s.subgroup_types.clear();
    s.last_tile_dim_replicate = false;
  } else {
    if (s.tile_dims.empty()) {
      return Fail(loc,
                  "non-maximal shardings must have a tile assignment list "
                  "including dimensions");
    }
    if (s.iota_perm.size() != s.iota_reshape_dims.size()) {
      return Fail(loc,
                  fmt::format("iota_transpose_perm should have the same "
                              "rank as iota_reshape_dims : expected {}, "
                              "saw {}.",
                              s.iota_reshape_dims.size(), s.iota_perm.size()));
    }
    if (s.last_tile_dim_replicate) {
      if (!s.subgroup_types.empty()) {
        return Fail(loc,
                    "last_tile_dim_replicate and last_tile_dims= cannot both "
                    "be given");
      }
      s.subgroup_types.push_back(ShardingType::kReplicated);
    }
    if (!s.is_iota() && s.devices.size() <= 1) {
      return Fail(
          loc, "non-maximal shardings must have more than one device assigned");
    }
    if (s.subgroup_types.size() > s.tile_dims.size()) {
      return Fail(loc,
                  fmt::format("the tile assignment has {} dimensions but "
                              "{} subgroup types",
                              s.tile_dims.size(), s.subgroup_types.size()));
    }
    if (!CheckTileProduct(s, loc)) return false;
    s.type = ShardingType::kTiled;
  }
  lx_.Lex();  // '}'
  return true;
}

bool TextParser::CheckTileProduct(const Sharding& s, size_t loc) {
  // XLA fills an Array of the tile dimensions from the device list without
  // comparing their sizes (a short list leaves zeros, a long one overruns),
  // and CHECK-fails on an iota of another size.
  int64_t product = 1;
  for (int64_t d : s.tile_dims) {
    if (d <= 0) {
      return Fail(loc,
                  fmt::format("sharding tile dimension {} is not positive", d));
    }
    if (product > (int64_t{1} << 40) / d) {
      return Fail(loc, "the sharding's tile dimensions hold too many devices");
    }
    product *= d;
  }
  if (s.is_iota()) {
    int64_t iota = 1;
    for (int64_t d : s.iota_reshape_dims) {
      if (d <= 0 || iota > (int64_t{1} << 40) / d) {
        return Fail(loc, fmt::format("iota_reshape_dims dimension {} is not "
                                     "valid",
                                     d));
      }
      iota *= d;
    }
    absl::InlinedVector<bool, 16> seen(s.iota_perm.size(), false);
    for (int64_t p : s.iota_perm) {
      if (p < 0 || seen[static_cast<size_t>(p)]) {
        return Fail(loc, "iota_transpose_perm is not a permutation");
      }
      seen[static_cast<size_t>(p)] = true;
    }
    if (iota != product) {
      return Fail(loc, fmt::format("the tile assignment [{}] holds {} devices "
                                   "but its iota <=[...] holds {}",
                                   fmt::join(s.tile_dims, ","), product, iota));
    }
    return true;
  }
  if (static_cast<int64_t>(s.devices.size()) != product) {
    return Fail(
        loc,
        fmt::format("the tile assignment [{}] holds {} devices but "
                    "{} are listed",
                    fmt::join(s.tile_dims, ","), product, s.devices.size()));
  }
  return true;
}

bool TextParser::ParseSharding(Sharding* out) {
  if (!Expect('{', "expected '{' to start sharding attribute")) return false;
  if (!lx_.Is('{') && !lx_.Is('}')) {
    return ParseSingle(out, /*lbrace_pre_lexed=*/true);
  }
  Sharding tuple;
  tuple.type = ShardingType::kTuple;
  if (!lx_.Is('}')) {
    do {
      if (tuple.tuple.size() >= kMaxListValues) {
        return TokenError("a tuple sharding has too many elements");
      }
      Sharding element;
      if (!ParseSingle(&element, /*lbrace_pre_lexed=*/false)) return false;
      tuple.tuple.push_back(std::move(element));
    } while (EatComma());
  }
  if (!Expect('}', "expected '}' to end sharding attribute")) return false;
  *out = std::move(tuple);
  return true;
}

}  // namespace sharding_internal

ShardingParse ParseShardingText(std::string_view text) {
  ShardingParse out;
  ParseShardingTextInto(text, &out);
  return out;
}

void ParseShardingTextInto(std::string_view text, ShardingParse* out) {
  sharding_internal::TextParser p(text);
  // (The sharding is kept, not reset: its lists keep their storage.)
  Sharding& s =
      out->sharding.has_value() ? *out->sharding : out->sharding.emplace();
  if (p.ParseSharding(&s)) {
    out->end = p.consumed();
    out->error.clear();
    out->error_offset = 0;
  } else {
    out->sharding.reset();
    out->end = 0;
    out->error = p.error();
    out->error_offset = p.error_offset();
  }
}

}  // namespace topolint::hlo
