// Test helpers for tests/config: parse JSON text into a ComponentConfig.
#ifndef TOPOLINT_TESTS_CONFIG_CONFIG_TEST_UTIL_H_
#define TOPOLINT_TESTS_CONFIG_CONFIG_TEST_UTIL_H_

#include <string>
#include <string_view>
#include <utility>

#include "checker/config/component_config.h"
#include "checker/json/json_loader.h"
#include "gtest/gtest.h"

namespace topolint::config::testing {

// Parses `text`, which must be valid JSON, into a config named `file`.
inline ComponentConfig ConfigFromText(std::string_view text,
                                      std::string file = "cfg.json") {
  json::ParseResult r = json::Parse(text);
  EXPECT_TRUE(r.ok) << r.error.pos.line << ":" << r.error.pos.column << ": "
                    << r.error.message;
  return ComponentConfig{std::move(file), std::move(r.root)};
}

}  // namespace topolint::config::testing

#endif  // TOPOLINT_TESTS_CONFIG_CONFIG_TEST_UTIL_H_
