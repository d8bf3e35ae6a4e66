// Reading scalar CCInfo values (ranks, #rank_world_size) and describing the
// ones that do not fit. Internal to checker/neff.
#ifndef TOPOLINT_CHECKER_NEFF_DEF_JSON_VALUES_H_
#define TOPOLINT_CHECKER_NEFF_DEF_JSON_VALUES_H_

#include <cstdint>
#include <string>

#include "checker/json/json_value.h"
#include "checker/neff/def_json.h"

namespace topolint::neff {

// How a value reads in a message: "-1", "1.5, a floating-point number",
// "the string \"3\"", "true, a boolean", "null", "an array", "an object".
// Long strings are cut.
std::string DescribeValue(const json::Value& v);

// Reads an integer in [0, max] with its position. Otherwise returns false
// and sets `why` to a suffix for "expected a non-negative integer" (e.g.
// " no larger than 2147483647"), possibly empty.
bool ReadNonNegative(const json::Value& v, int64_t max, Rank* out,
                     std::string* why);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_DEF_JSON_VALUES_H_
