// The recursive-descent reader behind ParseShardingText and ParseDomainText
// (internal to checker/hlo/sharding; sharding_text.cc, sharding_named_text.cc).
#ifndef TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_INTERNAL_H_
#define TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/sharding/sharding.h"
#include "checker/hlo/sharding/sharding_lexer.h"

namespace topolint::hlo::sharding_internal {

// At most this many values in one list (devices, dims, tuple elements):
// 2^21, the id cap of replica groups (checker/hlo/parse_options.h).
inline constexpr size_t kMaxListValues = size_t{1} << 21;
inline constexpr int kMaxDepth = 1000;

class TextParser {
 public:
  explicit TextParser(std::string_view text) : lx_(text) {}

  bool ParseSharding(Sharding* out);
  // `{kind="sharding", entry={...}, exit={...}}`.
  bool ParseDomain(Sharding* entry, size_t* entry_offset, Sharding* exit,
                   size_t* exit_offset);

  const std::string& error() const { return error_; }
  size_t error_offset() const { return error_offset_; }
  // Bytes read up to the end of the last token consumed.
  size_t consumed() const { return lx_.last_end(); }

 private:
  bool ParseSingle(Sharding* out, bool lbrace_pre_lexed);
  bool ParseTileAssignment(Sharding* s);
  bool ParseShardingTypeList(std::vector<ShardingType>* out);
  bool CheckTileProduct(const Sharding& s, size_t loc);
  bool ParseNamed(Sharding* out);
  bool ParseMeshAxes(NamedSharding* n);
  bool ParseNamedDeviceIds(NamedSharding* n);
  bool ParseAxisName(std::string* name);
  bool ParseAxisRefs(char close, std::vector<NamedAxisRef>* out, bool* open);
  bool SkipBalanced();

  bool Fail(size_t offset, std::string message);
  bool TokenError(std::string message);
  bool Expect(char c, const char* message);
  bool ReadInt(int64_t* out);
  bool ReadIntList(std::vector<int64_t>* out);
  bool EatComma();

  ShardingLexer lx_;
  std::string error_;
  size_t error_offset_ = 0;
};

}  // namespace topolint::hlo::sharding_internal

#endif  // TOPOLINT_CHECKER_HLO_SHARDING_SHARDING_TEXT_INTERNAL_H_
