// Helpers shared by the tests of checker/hlo.
#ifndef TOPOLINT_TESTS_HLO_HLO_TEST_UTIL_H_
#define TOPOLINT_TESTS_HLO_HLO_TEST_UTIL_H_

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"

namespace topolint::hlo::testing {

// The whole file at `path` ("" when it cannot be read).
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Module Parse(std::string_view text) {
  return ParseHloText(text, "test.hlo");
}

// The dump of `text` parsed through a window of `window` bytes (1: no fast
// path can engage, so the exact parser reads everything).
inline std::string DumpWithWindow(std::string_view text, size_t window) {
  ParseOptions options;
  options.window_bytes = window;
  return ModuleDebugString(ParseHloText(text, "test.hlo", options));
}

// Writes `text` to a fresh temporary file and returns its path.
inline std::string WriteTemp(std::string_view text) {
  char path[] = "/tmp/topolint_hlo_test_XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  return path;
}

// Parses `text` through ParseHloFile with the given window size.
inline Module ParseViaFile(std::string_view text, size_t window_bytes) {
  const std::string path = WriteTemp(text);
  ParseOptions options;
  options.window_bytes = window_bytes;
  Module module;
  const absl::Status status = ParseHloFile(path, "test.hlo", options, &module);
  EXPECT_TRUE(status.ok()) << status;
  std::remove(path.c_str());
  return module;
}

// Every syntax error of `m`, one per line, as "line:column: message".
inline std::string Errors(const Module& m) {
  std::string out;
  for (const SyntaxError& e : m.syntax_errors) {
    out += std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column) +
           ": " + e.message + "\n";
  }
  return out;
}

// The single collective of `m` (fails the test when there is not exactly
// one).
inline const Collective& Only(const Module& m) {
  static const Collective kNone;
  EXPECT_EQ(m.collectives.size(), 1u) << ModuleDebugString(m);
  return m.collectives.empty() ? kNone : m.collectives.front();
}

// Wraps instruction lines in a module with an %add computation and an ENTRY
// computation whose parameter %p is f32[8,16].
inline std::string InEntry(std::string_view body) {
  std::string text =
      "HloModule m\n"
      "%add (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(%a, %b)\n"
      "}\n"
      "ENTRY %main (p: f32[8,16]) -> f32[8,16] {\n";
  text.append(body);
  text.append("\n}\n");
  return text;
}
// The line of the first body line in InEntry() text.
inline constexpr int64_t kEntryFirstLine = 8;

}  // namespace topolint::hlo::testing

#endif  // TOPOLINT_TESTS_HLO_HLO_TEST_UTIL_H_
