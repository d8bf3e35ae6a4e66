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

// Matches one pattern element (`?`, a class, an escaped or plain byte) at
// pat[*p] against c; on a match moves *p past the element.
bool MatchOne(std::string_view pat, size_t* p, char c) {
  const char head = pat[*p];
  if (head == '?') {
    ++*p;
    return true;
  }
  if (head == '[') {
    size_t q = *p;
    bool valid = false;
    const bool hit = MatchClass(pat, &q, c, &valid);
    if (valid) {
      if (hit) *p = q;
      return hit;
    }
  }
  size_t q = *p;
  char lit = head;
  if (head == '\\' && q + 1 < pat.size()) lit = pat[++q];
  if (lit != c) return false;
  *p = q + 1;
  return true;
}

// Wildcard matching that remembers only the last star and resumes there on
// a mismatch: O(|pattern| x |name|) at worst, never exponential, so a hostile
// pattern (`*a*a*a...` on a long name, `**/` repeated 50 times) cannot hang a
// run. `is_star(p)`: pattern element p is a star; `one(&p, n)`: element p
// matches name element n (p moved past it on a match). A star at the
// pattern's end matches the rest; one left once the name is used up matches
// nothing unless `star_matches_empty`.
template <typename IsStar, typename One>
bool Backtrack(size_t pat_size, size_t name_size, bool star_matches_empty,
               IsStar is_star, One one) {
  size_t p = 0;
  size_t n = 0;
  size_t star_p = std::string_view::npos;
  size_t star_n = 0;
  while (n < name_size) {
    if (p < pat_size && is_star(p)) {
      while (p < pat_size && is_star(p)) ++p;
      if (p == pat_size) return true;
      star_p = p;
      star_n = n;
      continue;
    }
    if (p < pat_size && one(&p, n)) {
      ++n;
      continue;
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    n = ++star_n;
  }
  while (star_matches_empty && p < pat_size && is_star(p)) ++p;
  return p == pat_size;
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

// `**` spans zero or more components (one or more at the pattern's end).
bool MatchParts(const Parts& pat, const Parts& path) {
  return Backtrack(
      pat.size(), path.size(), /*star_matches_empty=*/false,
      [&](size_t i) { return pat[i] == "**"; },
      [&](size_t* i, size_t j) {
        if (!GlobComponentMatch(pat[*i], path[j])) return false;
        ++*i;
        return true;
      });
}

// The next non-empty '/'-separated component of `s` from *pos on, *pos
// moved past it; false when there is none.
bool NextPart(std::string_view s, size_t* pos, std::string_view* part) {
  while (*pos < s.size() && s[*pos] == '/') ++*pos;
  if (*pos >= s.size()) return false;
  size_t end = s.find('/', *pos);
  if (end == std::string_view::npos) end = s.size();
  *part = s.substr(*pos, end - *pos);
  *pos = end;
  return true;
}

}  // namespace

bool GlobComponentMatch(std::string_view pattern, std::string_view name) {
  return Backtrack(
      pattern.size(), name.size(), /*star_matches_empty=*/true,
      [&](size_t p) { return pattern[p] == '*'; },
      [&](size_t* p, size_t n) { return MatchOne(pattern, p, name[n]); });
}

bool GlobPathMatch(std::string_view pattern, std::string_view path) {
  if (pattern.find("**") == std::string_view::npos) {
    // No `**`: component against component, both ending together (what
    // MatchParts does then, without splitting either into a vector).
    size_t i = 0;
    size_t j = 0;
    std::string_view p;
    std::string_view n;
    for (;;) {
      const bool more_pattern = NextPart(pattern, &i, &p);
      const bool more_path = NextPart(path, &j, &n);
      if (!more_pattern || !more_path) return more_pattern == more_path;
      if (!GlobComponentMatch(p, n)) return false;
    }
  }
  const Parts pat = Split(pattern);
  const Parts parts = Split(path);
  return MatchParts(pat, parts);
}

}  // namespace topolint
