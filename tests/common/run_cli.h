// Test helper: runs the built `topolint` binary and captures its output.
#ifndef TOPOLINT_TESTS_COMMON_RUN_CLI_H_
#define TOPOLINT_TESTS_COMMON_RUN_CLI_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace topolint::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteAll(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// Runs `topolint args...` in `cwd` (default: the source tree), with
// `stdin_text` on standard input.
inline CliResult RunTopolint(const std::vector<std::string>& args,
                             const std::string& cwd = TOPOLINT_SOURCE_DIR,
                             const std::string& stdin_text = "") {
  static int counter = 0;
  std::string base = (std::filesystem::temp_directory_path() /
                      ("topolint-cli-" + std::to_string(getpid()) + "-" +
                       std::to_string(counter++)))
                         .string();
  std::string in_path = base + ".in", out_path = base + ".out",
              err_path = base + ".err";
  WriteAll(in_path, stdin_text);
  std::string cmd =
      "cd " + ShellQuote(cwd) + " && " + ShellQuote(TOPOLINT_BINARY);
  for (const std::string& a : args) cmd += " " + ShellQuote(a);
  cmd += " <" + ShellQuote(in_path) + " >" + ShellQuote(out_path) + " 2>" +
         ShellQuote(err_path);
  int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(out_path);
  r.err = ReadAll(err_path);
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return r;
}

// A fresh temporary directory, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    static int n = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("topolint-test-" + std::to_string(getpid()) + "-" +
              std::to_string(n++)))
                .string();
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Write(const std::string& rel, const std::string& text) const {
    std::string p = path_ + "/" + rel;
    WriteAll(p, text);
    return p;
  }

 private:
  std::string path_;
};

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_RUN_CLI_H_
