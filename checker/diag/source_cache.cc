#include "checker/diag/source_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <memory>

namespace topolint {
namespace {

// Bytes read per fread call: the only buffer a file scan holds.
constexpr size_t kReadChunk = 64 * 1024;
// Columns above this are treated as "no column" (keeps arithmetic in range).
constexpr int64_t kMaxColumn = int64_t{1} << 40;

// A half-open range [begin, end) of 0-based byte offsets in one line.
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
};

struct WantedLine {
  // Columns whose excerpt may reach past the kept prefix of the line
  // (unsorted, possibly repeated until Prefetch tidies them).
  std::vector<int64_t> window_columns;
};

struct CollectedLine {
  std::string prefix;  // the first kMaxLineBytes bytes
  int64_t length = 0;  // the whole line, without terminator
  // The merged windows of the wanted columns: (start offset, bytes).
  std::vector<std::pair<int64_t, std::string>> segments;
};

bool NeedsWindow(int64_t column) {
  return column > 0 && column <= kMaxColumn &&
         column - 1 + SourceCache::kExcerptRadius >= SourceCache::kMaxLineBytes;
}

// The bytes an excerpt around `column` shows, before clipping to the line.
ByteRange WindowOf(int64_t column) {
  return {std::max<int64_t>(0, column - 1 - SourceCache::kExcerptRadius),
          column + SourceCache::kExcerptRadius};
}

// The union of the windows of `columns` (sorted and de-duplicated here), as
// sorted, disjoint, non-adjacent ranges: O(columns log columns).
std::vector<ByteRange> MergedWindows(std::vector<int64_t> columns) {
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  std::vector<ByteRange> out;
  for (int64_t column : columns) {
    const ByteRange r = WindowOf(column);
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

// Scans a text given in chunks and keeps the wanted lines (their prefix and
// the merged windows around wanted columns). Skips unwanted bytes with
// memchr, copies kept bytes in runs, and stops as soon as the last wanted
// line is complete: O(bytes scanned + windows).
class LineCollector {
 public:
  // `editor_lines`: lines end where an editor ends them (HLO text, whose
  // parser counts so: checker/hlo/input_window.h): at "\n", "\r\n" and a
  // lone "\r", and a UTF-8 byte order mark at the start is no part of line
  // 1. Otherwise (JSON, whose loader counts "\n" only) at "\n".
  LineCollector(std::map<int64_t, WantedLine> wanted, bool editor_lines)
      : wanted_(std::move(wanted)),
        next_(wanted_.begin()),
        editor_lines_(editor_lines) {
    MaybeStartLine();
  }

  bool Done() const { return next_ == wanted_.end(); }

  void Feed(const char* data, size_t size) {
    size_t i = 0;
    if (at_start_ && size > 0) {
      at_start_ = false;
      if (editor_lines_ && size >= 3 &&
          std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        i = 3;
      }
    }
    while (i < size && !Done()) {
      if (after_cr_) {  // the "\n" of a "\r\n" already ended the line
        after_cr_ = false;
        if (data[i] == '\n') {
          ++i;
          continue;
        }
      }
      const char* nl =
          static_cast<const char*>(std::memchr(data + i, '\n', size - i));
      size_t stop = nl ? static_cast<size_t>(nl - data) : size;
      bool cr = false;
      if (editor_lines_) {
        if (const void* at = std::memchr(data + i, '\r', stop - i)) {
          stop = static_cast<size_t>(static_cast<const char*>(at) - data);
          cr = true;
        }
      }
      if (stop > i) {
        if (line_ == next_->first) Keep(data + i, stop - i);
        pos_ += static_cast<int64_t>(stop - i);
        last_was_cr_ = data[stop - 1] == '\r';
      }
      i = stop;
      if (cr || nl) {
        ++i;
        after_cr_ = cr;
        EndLine();
      }
    }
  }

  // End of input: the line in progress (even an empty one) is complete.
  void Finish() {
    if (!Done() && line_ == next_->first) EndLine();
  }

  std::map<int64_t, CollectedLine>& collected() { return collected_; }

 private:
  void MaybeStartLine() {
    current_ = CollectedLine{};
    ranges_.clear();
    next_range_ = 0;
    if (Done() || line_ != next_->first) return;
    ranges_ = MergedWindows(std::move(next_->second.window_columns));
    current_.segments.reserve(ranges_.size());
    for (const ByteRange& r : ranges_)
      current_.segments.emplace_back(r.begin, "");
  }

  // Keeps what the wanted line's bytes [pos_, pos_ + n) hold of the prefix
  // and of the windows.
  void Keep(const char* bytes, size_t n) {
    const int64_t begin = pos_;
    const int64_t end = pos_ + static_cast<int64_t>(n);
    if (begin < SourceCache::kMaxLineBytes) {
      const int64_t stop = std::min(end, SourceCache::kMaxLineBytes);
      current_.prefix.append(bytes, static_cast<size_t>(stop - begin));
    }
    while (next_range_ < ranges_.size() && ranges_[next_range_].begin < end) {
      const ByteRange& r = ranges_[next_range_];
      const int64_t from = std::max(begin, r.begin);
      const int64_t to = std::min(end, r.end);
      if (from < to) {
        current_.segments[next_range_].second.append(
            bytes + (from - begin), static_cast<size_t>(to - from));
      }
      if (r.end > end) break;  // continues in the next run of bytes
      ++next_range_;
    }
  }

  void EndLine() {
    if (!Done() && line_ == next_->first) {
      const int64_t length = pos_ - (last_was_cr_ ? 1 : 0);
      current_.length = length;
      if (static_cast<int64_t>(current_.prefix.size()) > length) {
        current_.prefix.resize(static_cast<size_t>(length));
      }
      for (auto& [start, text] : current_.segments) {
        const int64_t room = std::max<int64_t>(0, length - start);
        if (static_cast<int64_t>(text.size()) > room) {
          text.resize(static_cast<size_t>(room));
        }
      }
      collected_[line_] = std::move(current_);
      ++next_;
    }
    ++line_;
    pos_ = 0;
    last_was_cr_ = false;
    MaybeStartLine();
  }

  std::map<int64_t, WantedLine> wanted_;
  std::map<int64_t, WantedLine>::iterator next_;
  std::map<int64_t, CollectedLine> collected_;
  int64_t line_ = 1;
  int64_t pos_ = 0;  // bytes of the current line seen so far
  bool last_was_cr_ = false;
  const bool editor_lines_;
  bool at_start_ = true;
  bool after_cr_ = false;
  CollectedLine current_;
  std::vector<ByteRange> ranges_;  // windows of the current wanted line
  size_t next_range_ = 0;          // first range not yet complete
};

// Adds `text` at `start` to `segments`, merging with the ranges it overlaps
// or touches (rescans of a line read the same bytes again).
void AddSegment(int64_t start, std::string text,
                std::map<int64_t, std::string>* segments) {
  int64_t end = start + static_cast<int64_t>(text.size());
  auto it = segments->upper_bound(start);
  if (it != segments->begin()) {
    auto prev = std::prev(it);
    const int64_t prev_end =
        prev->first + static_cast<int64_t>(prev->second.size());
    if (prev_end >= start) {
      if (prev_end < end) {
        prev->second.append(text, static_cast<size_t>(prev_end - start),
                            std::string::npos);
      }
      start = prev->first;
      text = std::move(prev->second);
      end = start + static_cast<int64_t>(text.size());
      it = segments->erase(prev);
    }
  }
  while (it != segments->end() && it->first <= end) {
    const int64_t it_end = it->first + static_cast<int64_t>(it->second.size());
    if (it_end > end) {
      text.append(it->second, static_cast<size_t>(end - it->first),
                  std::string::npos);
      end = it_end;
    }
    it = segments->erase(it);
  }
  segments->emplace(start, std::move(text));
}

// The segment of `segments` that holds all of [r.begin, r.end), or nullptr.
const std::pair<const int64_t, std::string>* SegmentCovering(
    const std::map<int64_t, std::string>& segments, ByteRange r) {
  auto it = segments.upper_bound(r.begin);
  if (it == segments.begin()) return nullptr;
  --it;
  if (it->first + static_cast<int64_t>(it->second.size()) < r.end) {
    return nullptr;
  }
  return &*it;
}

// Reads `path` chunk by chunk into `collector`. False when the file cannot be
// opened or read (what was collected before a read error stays valid).
bool ScanFile(const std::string& path, LineCollector& collector) {
  std::error_code ec;
  // Never open FIFOs or devices: reading them would block or consume input.
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  std::unique_ptr<char[]> buffer(new char[kReadChunk]);
  while (!collector.Done()) {
    const size_t n = std::fread(buffer.get(), 1, kReadChunk, f.get());
    if (n > 0) collector.Feed(buffer.get(), n);
    if (n < kReadChunk) {
      if (std::ferror(f.get())) return false;
      break;
    }
  }
  collector.Finish();
  return true;
}

}  // namespace

void SourceCache::AddInMemory(const std::string& file, std::string text) {
  in_memory_[file] = std::move(text);
  // Forget anything read earlier under that name.
  ForgetLinesOf(file);
}

void SourceCache::RemoveInMemory(const std::string& file) {
  in_memory_.erase(file);
  ForgetLinesOf(file);
}

void SourceCache::ForgetLines() {
  lines_.clear();
  missing_.clear();
}

void SourceCache::ForgetLinesOf(const std::string& file) {
  auto drop = [&file](auto& container, auto file_of) {
    for (auto it = container.begin(); it != container.end();) {
      it = file_of(*it) == file ? container.erase(it) : std::next(it);
    }
  };
  drop(lines_,
       [](const auto& e) -> const std::string& { return e.first.first; });
  drop(missing_, [](const auto& e) -> const std::string& { return e.first; });
}

bool SourceCache::Cached(const Location& loc) const {
  const LineKey key{loc.file, loc.line};
  if (missing_.count(key)) return true;
  const auto it = lines_.find(key);
  if (it == lines_.end()) return false;
  const KeptLine& kept = it->second;
  if (!NeedsWindow(loc.column) || kept.length <= kMaxLineBytes) return true;
  if (loc.column - 1 > kept.length) return true;
  ByteRange want = WindowOf(loc.column);
  want.end = std::min(want.end, kept.length);
  return SegmentCovering(kept.segments, want) != nullptr;
}

void SourceCache::Prefetch(const std::vector<Location>& locs) {
  std::map<std::string, std::map<int64_t, WantedLine>> by_file;
  for (const Location& loc : locs) {
    if (loc.line <= 0 || Cached(loc)) continue;
    WantedLine& w = by_file[loc.file][loc.line];
    // Repeats are dropped when the line's windows are merged.
    if (NeedsWindow(loc.column)) w.window_columns.push_back(loc.column);
  }
  for (auto& [file, wanted] : by_file) {
    std::vector<int64_t> lines;
    for (const auto& [line, unused] : wanted) lines.push_back(line);
    const bool json =
        file.size() >= 5 && file.compare(file.size() - 5, 5, ".json") == 0;
    LineCollector collector(std::move(wanted), /*editor_lines=*/!json);
    auto mem = in_memory_.find(file);
    if (mem != in_memory_.end()) {
      collector.Feed(mem->second.data(), mem->second.size());
      collector.Finish();
    } else {
      ScanFile(file, collector);
    }
    auto& collected = collector.collected();
    for (int64_t line : lines) {
      const LineKey key{file, line};
      auto it = collected.find(line);
      if (it == collected.end()) {
        missing_.insert(key);
        continue;
      }
      KeptLine& kept = lines_[key];
      kept.prefix = std::move(it->second.prefix);
      kept.length = it->second.length;
      for (auto& [start, text] : it->second.segments) {
        AddSegment(start, std::move(text), &kept.segments);
      }
    }
  }
}

std::optional<LineExcerpt> SourceCache::Excerpt(const std::string& file,
                                                int64_t line, int64_t column) {
  if (line <= 0) return std::nullopt;
  const Location loc{file, line, column};
  if (!Cached(loc)) Prefetch({loc});
  auto it = lines_.find(LineKey{file, line});
  if (it == lines_.end()) return std::nullopt;
  const std::string& prefix = it->second.prefix;
  const int64_t length = it->second.length;
  const bool usable_column =
      column > 0 && column <= kMaxColumn && column - 1 <= length;
  if (usable_column && NeedsWindow(column) && length > kMaxLineBytes) {
    ByteRange want = WindowOf(column);
    want.end = std::min(want.end, length);
    if (const auto* seg = SegmentCovering(it->second.segments, want)) {
      LineExcerpt ex;
      ex.first_column = want.begin + 1;
      ex.line_length = length;
      ex.text = seg->second.substr(static_cast<size_t>(want.begin - seg->first),
                                   static_cast<size_t>(want.end - want.begin));
      return ex;
    }
  }
  LineExcerpt ex;
  ex.line_length = length;
  if (!usable_column) {
    ex.text = prefix;
    return ex;
  }
  const int64_t size = static_cast<int64_t>(prefix.size());
  const int64_t start =
      std::min(size, std::max<int64_t>(0, column - 1 - kExcerptRadius));
  const int64_t end = std::min(size, column + kExcerptRadius);
  ex.first_column = start + 1;
  ex.text =
      prefix.substr(static_cast<size_t>(start),
                    static_cast<size_t>(std::max<int64_t>(0, end - start)));
  return ex;
}

}  // namespace topolint
