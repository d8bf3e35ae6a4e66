#include "checker/core/path_glob.h"

#include <vector>

#include "absl/strings/str_split.h"

namespace topolint {
namespace {

// A bracket expression at pattern[*p] == '['; advances *p past it. Returns
// whether it matches `c`; `*valid` is false when there is no closing ']'
// (the '[' is then a literal).
bool MatchClass(std::string_view pattern, size_t* p, char c, bool* valid) {
  size_t i = *p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  while (i < pattern.size() && (first || pattern[i] != ']')) {
    first = false;
    char lo = pattern[i];
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' &&
        pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      if (hi == '\\' && i + 3 < pattern.size()) {
        hi = pattern[i + 3];
        ++i;
      }
      i += 2;
    }
    if (lo <= c && c <= hi) matched = true;
    ++i;
  }
  if (i >= pattern.size()) {
    *valid = false;
    return false;
  }
  *valid = true;
  *p = i + 1;
  return matched != negate;
}

bool MatchFrom(std::string_view pat, size_t p, std::string_view name,
               size_t n) {
  while (p < pat.size()) {
    const char c = pat[p];
    if (c == '*') {
      while (p < pat.size() && pat[p] == '*') ++p;
      if (p == pat.size()) return true;
      for (size_t k = n; k <= name.size(); ++k) {
        if (MatchFrom(pat, p, name, k)) return true;
      }
      return false;
    }
    if (n >= name.size()) return false;
    if (c == '?') {
      ++p;
      ++n;
      continue;
    }
    if (c == '[') {
      size_t q = p;
      bool valid = false;
      const bool hit = MatchClass(pat, &q, name[n], &valid);
      if (valid) {
        if (!hit) return false;
        p = q;
        ++n;
        continue;
      }
    }
    char lit = c;
    if (c == '\\' && p + 1 < pat.size()) lit = pat[++p];
    if (lit != name[n]) return false;
    ++p;
    ++n;
  }
  return n == name.size();
}

using Parts = std::vector<std::string_view>;

Parts Split(std::string_view s) {
  Parts out;
  for (absl::string_view piece : absl::StrSplit(
           absl::string_view(s.data(), s.size()), '/', absl::SkipEmpty())) {
    out.emplace_back(piece.data(), piece.size());
  }
  return out;
}

bool MatchParts(const Parts& pat, size_t i, const Parts& path, size_t j) {
  while (i < pat.size()) {
    if (pat[i] == "**") {
      if (i + 1 == pat.size()) return j < path.size();  // one or more
      for (size_t k = j; k <= path.size(); ++k) {
        if (MatchParts(pat, i + 1, path, k)) return true;
      }
      return false;
    }
    if (j >= path.size() || !GlobComponentMatch(pat[i], path[j])) {
      return false;
    }
    ++i;
    ++j;
  }
  return j == path.size();
}

}  // namespace

bool GlobComponentMatch(std::string_view pattern, std::string_view name) {
  return MatchFrom(pattern, 0, name, 0);
}

bool GlobPathMatch(std::string_view pattern, std::string_view path) {
  const Parts pat = Split(pattern);
  const Parts parts = Split(path);
  return MatchParts(pat, 0, parts, 0);
}

}  // namespace topolint
