// Resolving edits against a file's bytes, applying them, and the unified
// diff of the result.
#include "checker/diag/fix.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "checker/io/input_file.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint {
namespace {

bool IsLineBreak(char c) { return c == '\n' || c == '\r'; }

// The end of the integer array starting at `at` ('['), or npos when it is
// anything else. `compact` gets the array without its blanks.
size_t IntegerArrayEnd(std::string_view text, size_t at, std::string* compact) {
  int depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (!(c >= '0' && c <= '9') && c != ',') {
      return std::string_view::npos;
    }
    *compact += c;
    if (depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

// Where `edit` is, for messages: "15:5 (byte 210)".
std::string At(const TextEdit& edit) {
  return fmt::format("{}:{} (byte {})", edit.line, edit.column, edit.offset);
}

// The bytes of `s` as a message shows them: at most 60, on one line.
std::string Shown(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 60)) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  if (s.size() > 60) out += "...";
  return out;
}

}  // namespace

absl::StatusOr<ByteEdit> ResolveEdit(std::string_view text,
                                     const TextEdit& edit) {
  if (edit.offset < 0 || static_cast<uint64_t>(edit.offset) > text.size()) {
    return absl::FailedPreconditionError(
        fmt::format("the file has no byte {} (at {}:{})", edit.offset,
                    edit.line, edit.column));
  }
  const size_t at = static_cast<size_t>(edit.offset);
  ByteEdit b;
  b.begin = at;
  b.replacement = edit.replacement;
  switch (edit.kind) {
    case TextEdit::Kind::kReplace:
      if (edit.original.empty() ||
          text.substr(at, edit.original.size()) != edit.original) {
        return absl::FailedPreconditionError(
            fmt::format("expected '{}' at {}", Shown(edit.original), At(edit)));
      }
      b.end = at + edit.original.size();
      return b;
    case TextEdit::Kind::kRemoveLineComment: {
      // The whole comment the rule saw, and nothing after it on its line.
      const std::string_view comment = edit.original;
      const size_t end = at + comment.size();
      if (comment.substr(0, 2) != "//" ||
          comment.find("topolint:") == std::string_view::npos ||
          std::any_of(comment.begin(), comment.end(), IsLineBreak) ||
          text.substr(at, comment.size()) != comment ||
          (end < text.size() && !IsLineBreak(text[end]))) {
        return absl::FailedPreconditionError(fmt::format(
            "expected the comment '{}' at {}", Shown(comment), At(edit)));
      }
      size_t begin = at;
      while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) {
        --begin;
      }
      // A line starts after a line break (LF, CRLF or a lone CR), at the
      // start of the file, or after a byte order mark there.
      const bool line_start =
          begin == 0 || IsLineBreak(text[begin - 1]) ||
          (begin == 3 && text.substr(0, 3) == "\xEF\xBB\xBF");
      b.begin = begin;
      b.end = end;
      if (line_start) {
        // Nothing else on the line: the line goes, with its line break.
        if (end < text.size() && text[end] == '\r') {
          b.end = end + 1 < text.size() && text[end + 1] == '\n' ? end + 2
                                                                 : end + 1;
        } else if (end < text.size()) {
          b.end = end + 1;
        }
      }
      b.replacement.clear();
      return b;
    }
    case TextEdit::Kind::kReplaceIntegerArray: {
      std::string compact;
      const size_t end = at < text.size() && text[at] == '['
                             ? IntegerArrayEnd(text, at, &compact)
                             : std::string_view::npos;
      if (end == std::string_view::npos) {
        return absl::FailedPreconditionError(
            fmt::format("expected an array of integers at {}", At(edit)));
      }
      if (edit.original.empty() || compact != edit.original) {
        return absl::FailedPreconditionError(
            fmt::format("expected the array {} at {}, found {}",
                        Shown(edit.original), At(edit), Shown(compact)));
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
  if (SplitNeffMember(file, nullptr, nullptr) ||
      absl::EndsWith(file, ".neff")) {
    return "a NEFF archive (rebuild it with the compiler)";
  }
  if (absl::EndsWith(file, ".gz")) return "a compressed file";
  if (absl::EndsWith(file, ".pb")) return "a binary HLO module";
  return "";
}

std::string NotRegularFileReason(const std::string& path) {
  const FileKind kind = KindOfPath(path);
  if (kind == FileKind::kRegular || kind == FileKind::kMissing) return "";
  if (kind == FileKind::kPipe || kind == FileKind::kFifo) {
    return "read from a pipe";
  }
  return fmt::format("not a regular file ({})", KindName(kind));
}

bool WritableFix(const Fix& fix) {
  if (fix.edits.empty()) return false;
  for (const TextEdit& e : fix.edits) {
    if (e.offset < 0 || e.original.empty()) return false;
    if (!NotFixableReason(e.file).empty()) return false;
  }
  return true;
}

namespace {

// Diffs count lines at '\n' only, as diff(1) and patch(1) do.
size_t LineEnd(std::string_view text, size_t at) {
  const size_t end = text.find('\n', at);
  return end == std::string_view::npos ? text.size() : end;
}

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

// `file` as GNU diff writes it in a header, which GNU patch reads back: as
// it is when every byte is printable ASCII other than a blank, '"' and
// '\\'; else in double quotes with C escapes (`"x y.hlo"`, `"a\\tb"`,
// `"\\303\\251.hlo"`).
std::string DiffHeaderName(const std::string& file) {
  const bool plain =
      !file.empty() && std::all_of(file.begin(), file.end(), [](char ch) {
        const unsigned char c = static_cast<unsigned char>(ch);
        return c > 0x20 && c < 0x7f && c != '"' && c != '\\';
      });
  if (plain) return file;
  // The escapes of C with a letter, then octal for the other bytes.
  static constexpr std::string_view kEscaped = "\a\b\t\n\v\f\r\"\\";
  static constexpr std::string_view kLetter = "abtnvfr\"\\";
  std::string out = "\"";
  for (char ch : file) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (const size_t k = kEscaped.find(ch); k != std::string_view::npos) {
      out += '\\';
      out += kLetter[k];
    } else if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\{:03o}", c);
    } else {
      out += ch;
    }
  }
  return out + "\"";
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
  const std::string name = DiffHeaderName(file);
  std::string out = fmt::format("--- {}\n+++ {}\n", name, name);
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
