// Helpers of the C API tests (tests/api): calls that return the parsed
// response, and source-tree inputs.
#ifndef TOPOLINT_TESTS_API_API_TEST_UTIL_H_
#define TOPOLINT_TESTS_API_API_TEST_UTIL_H_

#include <fstream>
#include <iterator>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "topolint/topolint_c.h"

namespace topolint::testing {

// A module whose all-reduce lists replica 0 twice (line 12).
inline constexpr char kDuplicateIdHlo[] =
    "fixtures/hlo-duplicate-device-id/fail-repeated-replica/model.hlo";

inline std::string ReadSource(const std::string& path) {
  std::ifstream f(std::string(TOPOLINT_SOURCE_DIR) + "/" + path,
                  std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The parsed response (an array of findings, or an error object); a
// response that is not JSON fails the test.
inline nlohmann::json TakeResponse(char* out) {
  EXPECT_NE(out, nullptr);
  if (out == nullptr) return nlohmann::json();
  nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << out;
  topolint_free(out);
  return j;
}

inline nlohmann::json CallCheck(const nlohmann::json& request) {
  return TakeResponse(topolint_check_json(request.dump().c_str()));
}

inline nlohmann::json CallCheckText(const char* request, const char* name,
                                    const char* kind,
                                    const std::string& bytes) {
  return TakeResponse(
      topolint_check_text(request, name, kind, bytes.data(), bytes.size()));
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_API_API_TEST_UTIL_H_
