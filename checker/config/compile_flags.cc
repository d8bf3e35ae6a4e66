#include "checker/config/compile_flags.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "checker/json/json_loader.h"
#include "fmt/format.h"

namespace topolint::config {
namespace {

struct Token {
  std::string text;
  Location loc;
};

bool IsLncFlag(std::string_view name) {
  return name == "--lnc" || name == "-lnc" || name == "--logical-nc-config";
}

// Reads the tokens into `flags`: LNC and target, last one winning.
void Interpret(const std::vector<Token>& tokens, CompileFlags* flags) {
  std::optional<int64_t> explicit_lnc;
  Location lnc_loc;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = tokens[i].text;
    std::string_view name = t, value;
    bool has_value = false;
    if (size_t eq = t.find('='); eq != std::string_view::npos) {
      name = t.substr(0, eq);
      value = t.substr(eq + 1);
      has_value = true;
    }
    bool lnc = IsLncFlag(name);
    if (!lnc && name != "--target") continue;
    if (!has_value) {
      if (i + 1 >= tokens.size()) {
        if (flags->problem.empty()) {
          flags->problem = fmt::format("{} has no value", name);
          flags->problem_loc = tokens[i].loc;
        }
        continue;
      }
      value = tokens[i + 1].text;
    }
    if (!lnc) {
      flags->target = std::string(value);
      flags->target_loc = tokens[i].loc;
    } else {
      int64_t n = 0;
      if (!absl::SimpleAtoi(absl::string_view(value.data(), value.size()),
                            &n) ||
          n <= 0) {
        if (flags->problem.empty()) {
          flags->problem = fmt::format(
              "{} must be a positive integer, got '{}'", name, value);
          flags->problem_loc = tokens[i].loc;
        }
      } else {
        explicit_lnc = n;
        lnc_loc = tokens[i].loc;
      }
    }
    if (!has_value) ++i;
  }
  if (explicit_lnc) {
    flags->lnc = explicit_lnc;
    flags->lnc_loc = lnc_loc;
  } else if (TargetDefaultsToLnc2(flags->target)) {
    flags->lnc = 2;
    flags->lnc_from_target = true;
    flags->lnc_loc = flags->target_loc;
  }
}

// The words of one JSON string, located from the string's opening quote
// (columns are exact when the string has no escapes before the word).
void AddWords(std::string_view s, const std::string& file, TextPos quote,
              std::vector<Token>* tokens) {
  std::vector<size_t> offsets;
  std::vector<std::string> words = SplitShellWords(s, &offsets);
  for (size_t i = 0; i < words.size(); ++i) {
    int64_t col = quote.column + 1 + static_cast<int64_t>(offsets[i]);
    tokens->push_back({std::move(words[i]), Location{file, quote.line, col}});
  }
}

}  // namespace

std::vector<std::string> SplitShellWords(std::string_view s,
                                         std::vector<size_t>* offsets) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  size_t start = 0;
  char quote = 0;
  auto begin = [&](size_t i) {
    if (!in_word) {
      in_word = true;
      start = i;
    }
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < s.size() &&
                 (s[i + 1] == '"' || s[i + 1] == '\\' || s[i + 1] == '$' ||
                  s[i + 1] == '`')) {
        word += s[++i];
      } else {
        word += c;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) {
        words.push_back(std::move(word));
        word.clear();
        if (offsets != nullptr) offsets->push_back(start);
        in_word = false;
      }
      continue;
    }
    begin(i);
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '\\' && i + 1 < s.size()) {
      word += s[++i];
    } else {
      word += c;
    }
  }
  if (in_word) {
    words.push_back(std::move(word));
    if (offsets != nullptr) offsets->push_back(start);
  }
  return words;
}

bool TargetDefaultsToLnc2(std::string_view target) {
  if (target.substr(0, 3) != "trn") return false;
  std::string_view rest = target.substr(3);
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
    ++digits;
  }
  int generation = 0;
  if (digits == 0 || digits > 4 ||
      !absl::SimpleAtoi(absl::string_view(rest.data(), digits), &generation)) {
    return false;
  }
  return generation >= 2;
}

CompileFlags ParseCompileFlags(std::string_view text, const std::string& file) {
  CompileFlags flags;
  flags.file = file;
  json::ParseResult parsed = json::Parse(text);
  if (!parsed.ok) {
    flags.problem = parsed.error.message;
    flags.problem_loc = At(file, parsed.error.pos);
    flags.json_syntax_error = true;
    return flags;
  }
  std::vector<Token> tokens;
  const json::Value& root = parsed.root;
  if (root.is_string()) {
    AddWords(root.string_value.view(), file, root.pos, &tokens);
  } else if (root.is_array()) {
    for (const json::Value& v : root.array) {
      if (!v.is_string()) {
        if (flags.problem.empty()) {
          flags.problem = fmt::format("compile flags must be strings, found {}",
                                      v.TypeName());
          flags.problem_loc = At(file, v.pos);
        }
        continue;
      }
      AddWords(v.string_value.view(), file, v.pos, &tokens);
    }
  } else {
    flags.problem = fmt::format(
        "expected a JSON list of compiler arguments (or one string), found "
        "{}",
        root.TypeName());
    flags.problem_loc = At(file, root.pos);
    return flags;
  }
  for (const Token& t : tokens) flags.args.push_back(t.text);
  Interpret(tokens, &flags);
  return flags;
}

}  // namespace topolint::config
