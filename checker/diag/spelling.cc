#include "checker/diag/spelling.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"

namespace topolint {

int EditDistance(std::string_view a, std::string_view b, int limit) {
  const size_t n = a.size();
  const size_t m = b.size();
  const size_t diff = n > m ? n - m : m - n;
  if (diff > static_cast<size_t>(limit)) return limit + 1;
  // Three rows of the optimal-string-alignment table, on the stack for
  // name-sized strings, rotated by pointer.
  absl::InlinedVector<int, 3 * 48> rows(3 * (m + 1));
  int* prev2 = rows.data();
  int* prev = prev2 + (m + 1);
  int* cur = prev + (m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    int row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        best = std::min(best, prev2[j - 2] + 1);
      }
      cur[j] = best;
      row_min = std::min(row_min, best);
    }
    if (row_min > limit) return limit + 1;
    int* const oldest = prev2;
    prev2 = prev;
    prev = cur;
    cur = oldest;
  }
  return std::min(prev[m], limit + 1);
}

int TypoLimit(size_t length) {
  return static_cast<int>(std::clamp<size_t>(length / 3, 1, 2));
}

std::string NearestSpelling(std::string_view typed,
                            absl::Span<const std::string_view> candidates,
                            int limit) {
  if (typed.size() > 256 || limit < 0) return "";
  std::string_view best;
  int best_distance = limit + 1;
  for (std::string_view c : candidates) {
    const int d = EditDistance(typed, c, limit);
    if (d < best_distance || (d == best_distance && d <= limit && c < best)) {
      best_distance = d;
      best = c;
    }
  }
  return best_distance <= limit ? std::string(best) : "";
}

}  // namespace topolint
