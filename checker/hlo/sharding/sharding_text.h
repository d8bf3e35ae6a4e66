// The text form of a sharding, as XLA's HloParser reads it
// (ParseSharding / ParseSingleSharding, xla/hlo/parser/hlo_parser.cc):
//
//   sharding   = '{' single-body '}' | '{' [ single { ',' single } ] '}'
//   single     = '{' single-body '}'
//   single-body= { 'replicated' | 'manual' | 'unknown' | 'unreduced'
//                | 'maximal' | 'device=' int
//                | 'devices=' '[' int {',' int} ']' ( int {',' int}
//                    | '<=' '[' int {',' int} ']' [ 'T' '(' int {',' int} ')' ]
//                    )
//                | 'last_tile_dim_replicate' | 'last_tile_dims=' '{' type {','
//                type} '}' | 'metadata=' balanced-value | ('shard_as' |
//                'shard_like') int }
//              | named
//   named      = ('mesh' '[' axes ']' | 'maximal_mesh' '[' 'device_id=' int
//   ']')
//                { ',' ( 'device_ids=' '(' ... ')' | '[' dims ']' |
//                'replicated'
//                  | 'unreduced' | 'manual' | ('replicated' | 'unreduced'
//                  | 'manual') '=' '{' refs '}' | 'metadata=' balanced-value )
//                  }
//
// Blanks, line breaks and /*...*/ comments may separate tokens. Errors carry
// XLA's own message ("maximal shardings should have exactly one device
// assigned", ...) and the byte offset where XLA's parser reports it. Two
// problems XLA's parser lets through are errors here as well: a device list
// whose length differs from the product of its tile dimensions (XLA pads or
// overruns it) and an iota whose reshape product differs from the tile
// dimensions' product.
//
// Stateless and free of the HLO text lexer: the StableHLO front end reads
// `mhlo.sharding = "{...}"` strings with it too. Thread-safe.
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "checker/hlo/sharding/sharding.h"

namespace topolint::hlo {

struct ShardingParse {
  // Set on success.
  std::optional<Sharding> sharding;
  // On success: the bytes the value took (from its '{' to its '}' included).
  size_t end = 0;
  // On failure: the message and the byte offset in the text it applies to.
  std::string error;
  size_t error_offset = 0;

  bool ok() const { return sharding.has_value(); }
};

// Reads one sharding value at the start of `text` (its '{', after optional
// blanks). Bytes after the value are not looked at. Never throws; text of
// any size and content is fine (nesting is bounded).
ShardingParse ParseShardingText(std::string_view text);
// The same into `out`, whose sharding's lists keep their storage: for a
// reader of many shardings (no allocation once they have grown).
void ParseShardingTextInto(std::string_view text, ShardingParse* out);

// `domain={kind="sharding", entry={...}, exit={...}}`: the value after
// `domain=`. The shardings' offsets (entry_offset, exit_offset) are those of
// their '{' in `text`.
struct DomainParse {
  std::optional<Sharding> entry;
  std::optional<Sharding> exit;
  size_t entry_offset = 0;
  size_t exit_offset = 0;
  size_t end = 0;
  std::string error;
  size_t error_offset = 0;

  bool ok() const { return entry.has_value() && exit.has_value(); }
};
DomainParse ParseDomainText(std::string_view text);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_H_
