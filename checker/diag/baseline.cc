#include "checker/diag/baseline.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>
#include <memory>
#include <streambuf>
#include <tuple>

#include "checker/diag/render.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

constexpr int kBaselineVersion = 1;

using Json = nlohmann::json;

// A JSON string literal for `s` (invalid UTF-8 replaced, as before).
std::string Quote(const std::string& s) {
  return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The SAX handler of LoadBaseline. Levels: 0 the document, 1 the top-level
// object, 2 the "findings" array, 3 one entry. Values of keys it does not
// know are skipped (`skip_` counts the open containers being skipped).
class BaselineReader {
 public:
  explicit BaselineReader(Baseline* out) : out_(out) {}

  bool null() { return Scalar("null"); }
  bool boolean(bool b) { return Scalar(b ? "true" : "false"); }
  bool number_integer(Json::number_integer_t n) {
    return Scalar(std::to_string(n), n == kBaselineVersion);
  }
  bool number_unsigned(Json::number_unsigned_t n) {
    return Scalar(std::to_string(n), n == kBaselineVersion);
  }
  bool number_float(Json::number_float_t /*d*/, const Json::string_t& text) {
    return Scalar(text);
  }
  bool string(Json::string_t& s) {
    if (skip_ > 0 || level_ != 3 || !IsEntryField()) {
      return Scalar(Quote(s));
    }
    if (key_ == "fingerprint") {
      fingerprint_ = std::move(s);
      has_fingerprint_ = true;
    }
    return true;
  }
  bool binary(Json::binary_t& /*unused*/) { return Fail("not valid JSON"); }
  bool start_object(size_t /*unknown*/) { return Open(true); }
  bool start_array(size_t /*unknown*/) { return Open(false); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(Json::string_t& k) {
    if (skip_ == 0) key_ = std::move(k);
    return true;
  }
  bool parse_error(size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*ex*/) {
    if (error_.empty()) {
      error_ = fmt::format("not valid JSON (at byte {})", position);
    }
    return false;
  }

  // The reason the parse stopped, or the first missing part, or "not
  // valid JSON" when the parser stopped (`parsed` false) for no other
  // reason; "" when fine.
  std::string Finish(bool parsed) {
    if (!error_.empty()) return error_;
    if (!seen_version_) return "missing \"version\"";
    if (!seen_findings_) return "\"findings\": expected an array";
    return parsed ? "" : "not valid JSON";
  }

 private:
  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  bool IsEntryField() const {
    return key_ == "fingerprint" || key_ == "rule" || key_ == "file" ||
           key_ == "message";
  }

  // A value that is not a string, or one at a place no string is expected;
  // also a container where none opens (`text` "an object", "an array").
  bool Scalar(const std::string& text, bool is_version_one = false) {
    if (skip_ > 0) return true;
    switch (level_) {
      case 0:
        return Fail("expected a JSON object with \"version\" and \"findings\"");
      case 1:
        if (key_ == "version") {
          seen_version_ = true;
          if (!is_version_one) {
            return Fail(
                fmt::format("unsupported baseline version {} (expected {})",
                            text, kBaselineVersion));
          }
        } else if (key_ == "findings") {
          return Fail("\"findings\": expected an array");
        }
        return true;
      case 2:
        return Fail(fmt::format("findings[{}]: expected an object", index_));
      default:
        if (IsEntryField()) {
          return Fail(
              fmt::format("findings[{}].{}: expected a string", index_, key_));
        }
        return true;
    }
  }

  bool Open(bool object) {
    if (++depth_ > kMaxBaselineDepth) {
      return Fail(
          fmt::format("nested deeper than {} levels", kMaxBaselineDepth));
    }
    if (skip_ > 0) {
      ++skip_;
      return true;
    }
    // The document, an entry, and the "findings" array open a level; any
    // other container is refused as a scalar in its place is, or skipped
    // where nothing is read.
    const bool opens =
        object ? level_ == 0 || level_ == 2 : level_ == 1 && key_ == "findings";
    if (!opens) {
      if (!Scalar(object ? "an object" : "an array")) return false;
      skip_ = 1;
      return true;
    }
    if (level_ == 1) {
      if (seen_findings_) return Fail("\"findings\" appears twice");
      seen_findings_ = true;
    } else if (level_ == 2) {
      has_fingerprint_ = false;
      fingerprint_.clear();
      key_.clear();
    }
    ++level_;
    return true;
  }

  bool Close() {
    --depth_;
    if (skip_ > 0) {
      --skip_;
      return true;
    }
    switch (level_) {
      case 3:
        if (!has_fingerprint_) {
          return Fail(
              fmt::format("findings[{}]: missing \"fingerprint\"", index_));
        }
        if (fingerprint_.empty()) {
          return Fail(fmt::format("findings[{}].fingerprint: must not be empty",
                                  index_));
        }
        ++out_->counts[fingerprint_];
        ++out_->size;
        ++index_;
        level_ = 2;
        return true;
      case 2:
        level_ = 1;
        key_.clear();
        return true;
      default:
        level_ = 0;
        return true;
    }
  }

  Baseline* out_;
  std::string error_;
  std::string key_;
  std::string fingerprint_;
  int level_ = 0;
  int depth_ = 0;
  int skip_ = 0;
  size_t index_ = 0;
  bool has_fingerprint_ = false;
  bool seen_version_ = false;
  bool seen_findings_ = false;
};

}  // namespace

void BaselineWriter::Begin(std::string* out) {
  *out +=
      fmt::format("{{\n  \"version\": {},\n  \"findings\": ", kBaselineVersion);
}

void BaselineWriter::Add(const Finding& f, std::string* out) {
  std::string file = RootRelative(f.loc.file, roots_);
  if (!group_.empty() && group_.back().file != file) Flush(out);
  group_.push_back(
      {f.rule, std::move(file), RootedFingerprint(f, roots_), f.message});
}

void BaselineWriter::End(std::string* out) {
  Flush(out);
  *out += written_ == 0 ? "[]\n}\n" : "\n  ]\n}\n";
}

void BaselineWriter::Flush(std::string* out) {
  std::sort(group_.begin(), group_.end(),
            [](const BaselineEntry& a, const BaselineEntry& b) {
              return std::tie(a.file, a.rule, a.fingerprint, a.message) <
                     std::tie(b.file, b.rule, b.fingerprint, b.message);
            });
  // Entry by entry (no document tree), in the layout of a 2-space indented
  // dump.
  for (const BaselineEntry& e : group_) {
    *out += written_++ == 0 ? "[\n" : ",\n";
    *out += fmt::format(
        "    {{\n      \"rule\": {},\n      \"file\": {},\n      "
        "\"fingerprint\": {},\n      \"message\": {}\n    }}",
        Quote(e.rule), Quote(e.file), Quote(e.fingerprint), Quote(e.message));
  }
  group_.clear();
}

std::string WriteBaseline(const std::vector<Finding>& findings) {
  // Sorted by file first, so each file's findings form one group.
  std::vector<const Finding*> by_file;
  by_file.reserve(findings.size());
  for (const Finding& f : findings) by_file.push_back(&f);
  std::stable_sort(by_file.begin(), by_file.end(),
                   [](const Finding* a, const Finding* b) {
                     return a->loc.file < b->loc.file;
                   });
  BaselineWriter writer;
  std::string out;
  writer.Begin(&out);
  for (const Finding* f : by_file) writer.Add(*f, &out);
  writer.End(&out);
  return out;
}

std::optional<Baseline> LoadBaseline(std::string_view text,
                                     std::string* error) {
  Baseline baseline;
  BaselineReader reader(&baseline);
  // sax_parse is iterative; the reader refuses depth before it matters.
  const bool ok = Json::sax_parse(text.begin(), text.end(), &reader,
                                  nlohmann::detail::input_format_t::json,
                                  /*strict=*/true);
  std::string reason = reader.Finish(ok);
  if (!reason.empty()) {
    *error = std::move(reason);
    return std::nullopt;
  }
  return baseline;
}

namespace {

// An istream buffer over a descriptor that refuses more than `limit` bytes.
class BoundedFdBuffer : public std::streambuf {
 public:
  BoundedFdBuffer(int fd, std::string path, size_t limit)
      : fd_(fd), path_(std::move(path)), limit_(limit) {}

  const absl::Status& status() const { return status_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (!status_.ok()) return traits_type::eof();
    ssize_t n;
    do {
      n = read(fd_, buffer_, sizeof(buffer_));
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      status_ = absl::DataLossError(
          fmt::format("{}: read error: {}", path_, std::strerror(errno)));
      return traits_type::eof();
    }
    if (n == 0) return traits_type::eof();
    total_ += static_cast<size_t>(n);
    if (total_ > limit_) {
      status_ = absl::ResourceExhaustedError(fmt::format(
          "{}: more than {} bytes; the limit for baselines is {} bytes", path_,
          limit_, limit_));
      return traits_type::eof();
    }
    setg(buffer_, buffer_, buffer_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  int fd_;
  std::string path_;
  size_t limit_;
  size_t total_ = 0;
  absl::Status status_;
  char buffer_[1 << 16];
};

}  // namespace

absl::StatusOr<Baseline> ReadBaselineFile(const std::string& path) {
  absl::StatusOr<int> fd = OpenInputFd(path);
  if (!fd.ok()) return fd.status();
  auto buffer = std::make_unique<BoundedFdBuffer>(*fd, path, kMaxBaselineBytes);
  Baseline baseline;
  BaselineReader reader(&baseline);
  bool ok;
  {
    std::istream in(buffer.get());
    ok = Json::sax_parse(in, &reader, nlohmann::detail::input_format_t::json,
                         /*strict=*/true);
  }
  close(*fd);
  if (!buffer->status().ok()) return buffer->status();
  const std::string reason = reader.Finish(ok);
  if (!reason.empty()) {
    return absl::InvalidArgumentError(fmt::format("{}: {}", path, reason));
  }
  return baseline;
}

BaselineResult ApplyBaseline(std::vector<Finding> findings,
                             const Baseline& baseline,
                             const SarifRoots* roots) {
  absl::flat_hash_map<std::string, int64_t> remaining = baseline.counts;
  BaselineResult result;
  for (Finding& f : findings) {
    auto it = remaining.find(RootedFingerprint(f, roots));
    if (it != remaining.end() && it->second > 0) {
      --it->second;
      ++result.suppressed;
    } else {
      result.kept.push_back(std::move(f));
    }
  }
  for (const auto& [fingerprint, count] : remaining) result.stale += count;
  return result;
}

}  // namespace topolint
