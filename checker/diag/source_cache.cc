#include "checker/diag/source_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace topolint {
namespace {

// Bytes read per fread call: the only buffer a file scan holds.
constexpr size_t kReadChunk = 64 * 1024;
// Columns above this are treated as "no column" (keeps arithmetic in range).
constexpr int64_t kMaxColumn = int64_t{1} << 40;

struct WantedLine {
  // Columns whose excerpt may reach past the kept prefix of the line.
  std::vector<int64_t> window_columns;
};

struct CollectedLine {
  std::string prefix;  // the first kMaxLineBytes bytes
  int64_t length = 0;  // the whole line, without terminator
  std::vector<std::pair<int64_t, LineExcerpt>> windows;  // column -> window
};

bool NeedsWindow(int64_t column) {
  return column > 0 && column <= kMaxColumn &&
         column - 1 + SourceCache::kExcerptRadius >= SourceCache::kMaxLineBytes;
}

// Scans a text given in chunks and keeps the wanted lines (their prefix and
// the windows around wanted columns). Skips unwanted lines with memchr and
// stops as soon as the last wanted line is complete.
class LineCollector {
 public:
  explicit LineCollector(std::map<int64_t, WantedLine> wanted)
      : wanted_(std::move(wanted)), next_(wanted_.begin()) {
    MaybeStartLine();
  }

  bool Done() const { return next_ == wanted_.end(); }

  void Feed(const char* data, size_t size) {
    size_t i = 0;
    while (i < size && !Done()) {
      if (line_ < next_->first || pos_ >= keep_until_) {
        // Nothing of this line is kept: jump to its end.
        const char* nl =
            static_cast<const char*>(std::memchr(data + i, '\n', size - i));
        const size_t stop = nl ? static_cast<size_t>(nl - data) : size;
        if (stop > i) {
          pos_ += static_cast<int64_t>(stop - i);
          last_was_cr_ = data[stop - 1] == '\r';
        }
        i = stop;
        if (nl) {
          ++i;
          EndLine();
        }
        continue;
      }
      const char c = data[i++];
      if (c == '\n') {
        EndLine();
        continue;
      }
      Keep(c);
      last_was_cr_ = c == '\r';
      ++pos_;
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
    keep_until_ = 0;
    if (Done() || line_ != next_->first) return;
    keep_until_ = SourceCache::kMaxLineBytes;
    for (int64_t column : next_->second.window_columns) {
      LineExcerpt w;
      w.first_column =
          std::max<int64_t>(1, column - SourceCache::kExcerptRadius);
      current_.windows.emplace_back(column, std::move(w));
      keep_until_ = std::max(keep_until_, column + SourceCache::kExcerptRadius);
    }
  }

  void Keep(char c) {
    if (pos_ < SourceCache::kMaxLineBytes) current_.prefix.push_back(c);
    for (auto& [column, w] : current_.windows) {
      if (pos_ >= w.first_column - 1 &&
          pos_ <= column - 1 + SourceCache::kExcerptRadius) {
        w.text.push_back(c);
      }
    }
  }

  void EndLine() {
    if (!Done() && line_ == next_->first) {
      const int64_t length = pos_ - (last_was_cr_ ? 1 : 0);
      current_.length = length;
      if (static_cast<int64_t>(current_.prefix.size()) > length) {
        current_.prefix.resize(static_cast<size_t>(length));
      }
      for (auto& [column, w] : current_.windows) {
        const int64_t room =
            std::max<int64_t>(0, length - (w.first_column - 1));
        if (static_cast<int64_t>(w.text.size()) > room) {
          w.text.resize(static_cast<size_t>(room));
        }
        w.line_length = length;
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
  int64_t pos_ = 0;         // bytes of the current line seen so far
  int64_t keep_until_ = 0;  // bytes at or past this are not kept
  bool last_was_cr_ = false;
  CollectedLine current_;
};

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
  auto drop = [&file](auto& container, auto file_of) {
    for (auto it = container.begin(); it != container.end();) {
      it = file_of(*it) == file ? container.erase(it) : std::next(it);
    }
  };
  drop(lines_,
       [](const auto& e) -> const std::string& { return e.first.first; });
  drop(line_lengths_,
       [](const auto& e) -> const std::string& { return e.first.first; });
  drop(windows_, [](const auto& e) -> const std::string& {
    return std::get<0>(e.first);
  });
  drop(missing_, [](const auto& e) -> const std::string& { return e.first; });
}

bool SourceCache::Cached(const Location& loc) const {
  const LineKey key{loc.file, loc.line};
  if (missing_.count(key)) return true;
  if (!lines_.count(key)) return false;
  if (!NeedsWindow(loc.column)) return true;
  auto len = line_lengths_.find(key);
  if (len != line_lengths_.end() && len->second <= kMaxLineBytes) return true;
  if (len != line_lengths_.end() && loc.column - 1 > len->second) return true;
  return windows_.count(ColumnKey{loc.file, loc.line, loc.column}) > 0;
}

void SourceCache::Prefetch(const std::vector<Location>& locs) {
  std::map<std::string, std::map<int64_t, WantedLine>> by_file;
  for (const Location& loc : locs) {
    if (loc.line <= 0 || Cached(loc)) continue;
    WantedLine& w = by_file[loc.file][loc.line];
    if (NeedsWindow(loc.column) &&
        std::find(w.window_columns.begin(), w.window_columns.end(),
                  loc.column) == w.window_columns.end()) {
      w.window_columns.push_back(loc.column);
    }
  }
  for (auto& [file, wanted] : by_file) {
    std::vector<int64_t> lines;
    for (const auto& [line, unused] : wanted) lines.push_back(line);
    LineCollector collector(std::move(wanted));
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
      lines_[key] = std::move(it->second.prefix);
      line_lengths_[key] = it->second.length;
      for (auto& [column, w] : it->second.windows) {
        windows_[ColumnKey{file, line, column}] = std::move(w);
      }
    }
  }
}

std::optional<std::string> SourceCache::Line(const std::string& file,
                                             int64_t line) {
  if (line <= 0) return std::nullopt;
  const Location loc{file, line, 0};
  if (!Cached(loc)) Prefetch({loc});
  auto it = lines_.find(LineKey{file, line});
  if (it == lines_.end()) return std::nullopt;
  return it->second;
}

std::optional<LineExcerpt> SourceCache::Excerpt(const std::string& file,
                                                int64_t line, int64_t column) {
  if (line <= 0) return std::nullopt;
  const Location loc{file, line, column};
  if (!Cached(loc)) Prefetch({loc});
  const LineKey key{file, line};
  auto it = lines_.find(key);
  if (it == lines_.end()) return std::nullopt;
  const std::string& prefix = it->second;
  auto len_it = line_lengths_.find(key);
  const int64_t length = len_it != line_lengths_.end()
                             ? len_it->second
                             : static_cast<int64_t>(prefix.size());
  const bool usable_column =
      column > 0 && column <= kMaxColumn && column - 1 <= length;
  if (usable_column && NeedsWindow(column) && length > kMaxLineBytes) {
    auto w = windows_.find(ColumnKey{file, line, column});
    if (w != windows_.end()) return w->second;
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
