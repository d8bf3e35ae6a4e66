// Resolving edits against a file's bytes, applying them, and the unified
// diff of the result.
#include "checker/diag/fix.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// Offset of the first byte of 1-based `line`, or npos.
size_t LineStart(std::string_view text, int64_t line) {
  if (line < 1) return std::string_view::npos;
  size_t at = 0;
  for (int64_t l = 1; l < line; ++l) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return at;
    ++at;
  }
  return at;
}

size_t LineEnd(std::string_view text, size_t at) {
  const size_t end = text.find('\n', at);
  return end == std::string_view::npos ? text.size() : end;
}

// The end of the integer array starting at `at` ('['), or npos when it is
// anything else.
size_t IntegerArrayEnd(std::string_view text, size_t at) {
  int depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      if (--depth == 0) return i + 1;
    } else if (!(c >= '0' && c <= '9') && c != ',' && c != ' ' && c != '\t' &&
               c != '\n' && c != '\r') {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

}  // namespace

absl::StatusOr<ByteEdit> ResolveEdit(std::string_view text,
                                     const TextEdit& edit) {
  const size_t line_start = LineStart(text, edit.line);
  if (line_start == std::string_view::npos) {
    return absl::FailedPreconditionError(
        fmt::format("the file has no line {}", edit.line));
  }
  const size_t line_end = LineEnd(text, line_start);
  if (edit.column < 1 ||
      line_start + static_cast<size_t>(edit.column - 1) > line_end) {
    return absl::FailedPreconditionError(
        fmt::format("line {} has no column {}", edit.line, edit.column));
  }
  const size_t at = line_start + static_cast<size_t>(edit.column - 1);
  ByteEdit b;
  b.begin = at;
  b.replacement = edit.replacement;
  switch (edit.kind) {
    case TextEdit::Kind::kReplace:
      if (text.substr(at, edit.original.size()) != edit.original) {
        return absl::FailedPreconditionError(fmt::format(
            "expected '{}' at {}:{}", edit.original, edit.line, edit.column));
      }
      b.end = at + edit.original.size();
      return b;
    case TextEdit::Kind::kRemoveLineComment: {
      // As the HLO lexer, a '\r' ends the comment too.
      size_t end = at;
      while (end < line_end && text[end] != '\r') ++end;
      const std::string_view comment = text.substr(at, end - at);
      if (comment.substr(0, 2) != "//" ||
          comment.find("topolint:") == std::string_view::npos) {
        return absl::FailedPreconditionError(fmt::format(
            "expected a topolint comment at {}:{}", edit.line, edit.column));
      }
      size_t begin = at;
      while (begin > line_start &&
             (text[begin - 1] == ' ' || text[begin - 1] == '\t')) {
        --begin;
      }
      if (begin == line_start) {
        // Nothing else on the line: the line goes, with its line break.
        b.begin = line_start;
        b.end = line_end < text.size() ? line_end + 1 : line_end;
      } else {
        b.begin = begin;
        b.end = end;
      }
      b.replacement.clear();
      return b;
    }
    case TextEdit::Kind::kReplaceIntegerArray: {
      const size_t end = text.size() > at && text[at] == '['
                             ? IntegerArrayEnd(text, at)
                             : std::string_view::npos;
      if (end == std::string_view::npos) {
        return absl::FailedPreconditionError(fmt::format(
            "expected an array of integers at {}:{}", edit.line, edit.column));
      }
      b.end = end;
      return b;
    }
  }
  return absl::InternalError("unknown edit kind");
}

std::string ApplyEdits(std::string_view text,
                       const std::vector<ByteEdit>& edits) {
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (const ByteEdit& e : edits) {
    out.append(text.substr(at, e.begin - at));
    out += e.replacement;
    at = e.end;
  }
  out.append(text.substr(at));
  return out;
}

std::string NotFixableReason(const std::string& file) {
  if (absl::StrContains(file, ".neff:") || absl::EndsWith(file, ".neff")) {
    return "a NEFF archive (rebuild it with the compiler)";
  }
  if (absl::EndsWith(file, ".gz")) return "a compressed file";
  if (absl::EndsWith(file, ".pb")) return "a binary HLO module";
  return "";
}

bool WritableFix(const Fix& fix) {
  if (fix.edits.empty()) return false;
  for (const TextEdit& e : fix.edits) {
    if (!NotFixableReason(e.file).empty()) return false;
  }
  return true;
}

namespace {

// The lines of `text`, each with its line break.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = LineEnd(text, at);
    const size_t next = end < text.size() ? end + 1 : end;
    lines.push_back(text.substr(at, next - at));
    at = next;
  }
  return lines;
}

void AddLine(char mark, std::string_view line, std::string* out) {
  *out += mark;
  out->append(line.data(), line.size());
  if (line.empty() || line.back() != '\n') {
    *out += "\n\\ No newline at end of file\n";
  }
}

// A changed region: old lines [first, last) become `lines`.
struct Region {
  size_t first = 0;
  size_t last = 0;
  std::vector<std::string> lines;
};

}  // namespace

std::string UnifiedDiff(const std::string& file, std::string_view before,
                        const std::vector<ByteEdit>& edits) {
  if (edits.empty()) return "";
  const std::vector<std::string_view> old_lines = Lines(before);
  std::vector<size_t> starts;  // offset of each old line
  for (size_t i = 0, at = 0; i < old_lines.size(); ++i) {
    starts.push_back(at);
    at += old_lines[i].size();
  }
  auto line_of = [&](size_t offset) {
    return static_cast<size_t>(
        std::upper_bound(starts.begin(), starts.end(), offset) -
        starts.begin() - 1);
  };
  // Group edits by the old lines they touch (merging edits that share one).
  std::vector<Region> regions;
  std::vector<std::vector<ByteEdit>> region_edits;
  for (const ByteEdit& e : edits) {
    const size_t first = starts.empty() ? 0 : line_of(e.begin);
    size_t last = e.end > e.begin ? line_of(e.end - 1) + 1 : first + 1;
    last = std::min(std::max(last, first + 1), old_lines.size());
    if (!regions.empty() && first < regions.back().last) {
      regions.back().last = std::max(regions.back().last, last);
      region_edits.back().push_back(e);
    } else {
      regions.push_back({first, last, {}});
      region_edits.push_back({e});
    }
  }
  for (size_t r = 0; r < regions.size(); ++r) {
    Region& g = regions[r];
    const size_t base = g.first < starts.size() ? starts[g.first] : 0;
    const size_t end = g.last < starts.size() ? starts[g.last] : before.size();
    std::vector<ByteEdit> local = region_edits[r];
    for (ByteEdit& e : local) {
      e.begin -= base;
      e.end -= base;
    }
    const std::string text = ApplyEdits(before.substr(base, end - base), local);
    for (std::string_view l : Lines(text)) g.lines.emplace_back(l);
  }
  // Hunks: regions whose 3 lines of context overlap are one hunk.
  constexpr size_t kContext = 3;
  std::string out = fmt::format("--- {}\n+++ {}\n", file, file);
  int64_t delta = 0;  // new line numbers minus old, before the hunk
  for (size_t r = 0; r < regions.size();) {
    size_t r_end = r + 1;
    while (r_end < regions.size() &&
           regions[r_end].first <= regions[r_end - 1].last + 2 * kContext) {
      ++r_end;
    }
    const size_t from =
        regions[r].first >= kContext ? regions[r].first - kContext : 0;
    const size_t to =
        std::min(regions[r_end - 1].last + kContext, old_lines.size());
    std::string body;
    size_t old_count = 0, new_count = 0;
    size_t at = from;
    for (size_t k = r; k < r_end; ++k) {
      for (; at < regions[k].first; ++at, ++old_count, ++new_count) {
        AddLine(' ', old_lines[at], &body);
      }
      for (; at < regions[k].last; ++at, ++old_count) {
        AddLine('-', old_lines[at], &body);
      }
      for (const std::string& l : regions[k].lines) {
        AddLine('+', l, &body);
        ++new_count;
      }
    }
    for (; at < to; ++at, ++old_count, ++new_count) {
      AddLine(' ', old_lines[at], &body);
    }
    const int64_t old_start = old_count == 0 ? static_cast<int64_t>(from)
                                             : static_cast<int64_t>(from) + 1;
    const int64_t new_start = new_count == 0
                                  ? static_cast<int64_t>(from) + delta
                                  : static_cast<int64_t>(from) + 1 + delta;
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_start, old_count, new_start,
                       new_count);
    out += body;
    delta += static_cast<int64_t>(new_count) - static_cast<int64_t>(old_count);
    r = r_end;
  }
  return out;
}

}  // namespace topolint
