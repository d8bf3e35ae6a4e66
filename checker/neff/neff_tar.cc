#include "checker/neff/neff_tar.h"

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/neff/libarchive_api.h"
#include "checker/neff/neff_gzip_check.h"
#include "fmt/format.h"

namespace topolint::neff {
namespace {

constexpr size_t kBlockBytes = size_t{64} << 10;

// libarchive's API; only called once ReadTarMembers has loaded it.
const LibArchive& Lib() { return *LoadLibArchive(nullptr); }

// The payload window [offset, offset + length) of the file, as the client
// libarchive reads from, and as a PayloadReader. Never hands out a byte
// beyond the window.
struct FileWindow {
  std::FILE* file = nullptr;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t remaining = 0;
  std::vector<char> block;

  // Back to the payload's start; false when the file cannot seek there.
  bool Rewind() {
    remaining = length;
    return fseeko(file, static_cast<off_t>(offset), SEEK_SET) == 0;
  }

  // Up to `n` bytes into `buf`: their count (0 at the window's end, or when
  // the file shrank under us), -1 on a read error.
  int64_t Read(char* buf, size_t n) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n, remaining));
    const size_t got = want == 0 ? 0 : std::fread(buf, 1, want, file);
    if (got < want && std::ferror(file)) return -1;
    remaining = got < want ? 0 : remaining - got;
    return static_cast<int64_t>(got);
  }
};

la_ssize_t ReadBlock(struct archive* a, void* client, const void** buffer) {
  auto* w = static_cast<FileWindow*>(client);
  const int64_t got = w->Read(w->block.data(), w->block.size());
  if (got < 0) {
    Lib().set_error(a, EIO, "read error in the .neff file");
    return -1;
  }
  *buffer = w->block.data();
  return static_cast<la_ssize_t>(got);
}

la_int64_t SkipBytes(struct archive* /*a*/, void* client, la_int64_t request) {
  auto* w = static_cast<FileWindow*>(client);
  if (request <= 0) return 0;
  const uint64_t n =
      std::min<uint64_t>(static_cast<uint64_t>(request), w->remaining);
  if (n == 0 || fseeko(w->file, static_cast<off_t>(n), SEEK_CUR) != 0) {
    return 0;  // libarchive falls back to reading
  }
  w->remaining -= n;
  return static_cast<la_int64_t>(n);
}

std::string ErrorOf(struct archive* a) {
  const char* s = Lib().error_string(a);
  return s != nullptr ? std::string(s) : std::string("unknown error");
}

std::string NotATar(struct archive* a) {
  return fmt::format(
      "the payload after the header is not a readable gzip-compressed or "
      "plain tar archive: {}",
      ErrorOf(a));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
struct ArchiveFreer {
  void operator()(struct archive* a) const { Lib().read_free(a); }
};

// Reads the data of the current entry into `text`, refusing more than
// `max_bytes`. Returns false with `problem` set on failure.
bool ReadEntryData(struct archive* a, const std::string& name,
                   int64_t max_bytes, std::string* text, std::string* problem) {
  // Not zero-filled: a unit reads a few small members, and clearing 64 KiB
  // for each was a tenth of checking a compile-cache entry (callgrind).
  std::unique_ptr<char[]> buf(new char[kBlockBytes]);
  for (;;) {
    const la_ssize_t n = Lib().read_data(a, buf.get(), kBlockBytes);
    if (n == 0) return true;
    if (n < 0) {
      *problem =
          fmt::format("member '{}' cannot be read: {}", name, ErrorOf(a));
      return false;
    }
    if (static_cast<int64_t>(text->size()) + n > max_bytes) {
      *problem = fmt::format(
          "member '{}' holds more than the {}-byte limit for one member", name,
          max_bytes);
      return false;
    }
    text->append(buf.get(), static_cast<size_t>(n));
  }
}

// One pass over the archive opened by `open` (which returns libarchive's
// status for archive_read_open2 / archive_read_open_memory).
TarScan ScanOpened(const std::function<int(struct archive*)>& open,
                   const std::function<bool(const std::string&)>& want,
                   const NeffArchiveLimits& limits) {
  TarScan out;
  int64_t held = 0;  // bytes of out.texts
  std::unique_ptr<struct archive, ArchiveFreer> a(Lib().read_new());
  if (!a) {
    out.problems.push_back("libarchive could not be initialised");
    return out;
  }
  // ARCHIVE_WARN here would mean "gzip through an external program": refuse
  // rather than fork.
  if (Lib().read_support_filter_gzip(a.get()) != ARCHIVE_OK ||
      Lib().read_support_filter_none(a.get()) != ARCHIVE_OK ||
      Lib().read_support_format_tar(a.get()) != ARCHIVE_OK) {
    out.problems.push_back(
        "libarchive lacks built-in gzip or tar support; the payload is not "
        "read");
    return out;
  }
  if (open(a.get()) != ARCHIVE_OK) {
    out.problems.push_back(NotATar(a.get()));
    out.read_failed = true;
    return out;
  }

  int64_t entries = 0;
  for (;;) {
    struct archive_entry* entry = nullptr;
    const int r = Lib().read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) {
      out.complete = true;
      break;
    }
    if (r < ARCHIVE_WARN) {
      out.problems.push_back(
          entries == 0
              ? NotATar(a.get())
              : fmt::format("the tar payload is corrupt after {} member(s): {}",
                            entries, ErrorOf(a.get())));
      out.read_failed = true;
      break;
    }
    if (++entries > limits.max_members) {
      out.problems.push_back(fmt::format(
          "the archive has more than {} members (the limit); the rest is not "
          "read",
          limits.max_members));
      break;
    }
    const char* raw_name = Lib().entry_pathname(entry);
    const std::string raw = raw_name != nullptr ? raw_name : "";
    const int64_t size = Lib().entry_size_is_set(entry)
                             ? std::max<int64_t>(Lib().entry_size(entry), 0)
                             : 0;
    // Everything consumed so far (headers included) plus this member's data
    // must stay within the limit: skipping a member still decompresses it.
    const int64_t consumed = Lib().filter_bytes(a.get(), 0);
    if (consumed > limits.max_total_bytes ||
        size > limits.max_total_bytes - consumed) {
      out.problems.push_back(fmt::format(
          "the archive exceeds the {}-byte limit on uncompressed size at "
          "member '{}'; the rest is not read",
          limits.max_total_bytes, raw));
      break;
    }
    const mode_t type = Lib().entry_filetype(entry);
    if (type == AE_IFDIR) continue;
    std::string name;
    if (!NormalizeMemberPath(raw, &name)) {
      out.problems.push_back(fmt::format(
          "member '{}' has an unsafe path (empty, absolute or with '..'); "
          "skipped",
          raw));
      continue;
    }
    if (Lib().entry_hardlink(entry) != nullptr || type == AE_IFLNK) {
      out.problems.push_back(fmt::format(
          "member '{}' is a link; links are not followed; skipped", raw));
      continue;
    }
    if (type != AE_IFREG) {
      out.problems.push_back(
          fmt::format("member '{}' is not a regular file; skipped", raw));
      continue;
    }
    if (!out.members.insert(name).second) {
      out.problems.push_back(fmt::format(
          "member '{}' appears more than once; the first copy is used", raw));
      continue;
    }
    if (!want(name)) continue;
    if (size > limits.max_member_bytes) {
      out.problems.push_back(fmt::format(
          "member '{}' is {} bytes, above the {}-byte limit for one member; "
          "skipped",
          raw, size, limits.max_member_bytes));
      continue;
    }
    if (size > limits.max_held_bytes - held) {
      out.problems.push_back(fmt::format(
          "member '{}' not read: the archive's JSON members exceed {} bytes "
          "together; skipped",
          raw, limits.max_held_bytes));
      continue;
    }
    std::string text;
    std::string problem;
    if (!ReadEntryData(a.get(), raw, limits.max_member_bytes, &text,
                       &problem)) {
      out.problems.push_back(std::move(problem));
      out.read_failed = true;
      break;
    }
    held += static_cast<int64_t>(text.size());
    out.texts.emplace(name, std::move(text));
  }
  return out;
}

// Loads libarchive for a scan; when it cannot be loaded, says so in
// `out->problems` and returns false.
bool LibArchiveLoaded(TarScan* out) {
  std::string why;
  if (LoadLibArchive(&why) != nullptr) return true;
  out->problems.push_back(why + "; the archive's members are not read");
  return false;
}

la_ssize_t ReadInflated(struct archive* a, void* client, const void** buffer) {
  const char* data = nullptr;
  const int64_t n = static_cast<GzipInflater*>(client)->Read(&data);
  if (n < 0) {
    Lib().set_error(a, EIO, "the gzip-compressed payload cannot be inflated");
    return -1;
  }
  *buffer = data;
  return static_cast<la_ssize_t>(n);
}

bool StartsGzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

// The single-inflate pass (GzipInflater): libarchive reads the payload as
// inflated here, a plain tar, and the gzip data is verified on the way and
// to its end. nullopt when it does not apply (the payload is not one sound
// gzip member, or libarchive failed): the caller then reads the payload the
// general way, which gives the same result for a sound payload and says
// what is wrong with any other.
std::optional<TarScan> ScanInflated(
    const PayloadReader& read,
    const std::function<bool(const std::string&)>& want,
    const NeffArchiveLimits& limits) {
  GzipInflater inflater(read, limits.max_total_bytes);
  TarScan out = ScanOpened(
      [&](struct archive* a) {
        return Lib().read_open2(a, &inflater, nullptr, &ReadInflated, nullptr,
                                nullptr);
      },
      want, limits);
  if (inflater.failed() || out.read_failed) return std::nullopt;
  // Stopped at a limit: the general reader does not verify the rest either.
  if (out.complete && !inflater.Finish()) return std::nullopt;
  out.single_pass = true;
  return out;
}

// The payload read the fast way (ScanInflated) when `gzip` and the limits
// allow, else with libarchive through `open_general` and its gzip data
// checked to the end by a second pass. `read` reads the payload from where
// `rewind` (false when it cannot) puts it back: its start.
TarScan ScanPayload(bool gzip, const PayloadReader& read,
                    const std::function<bool()>& rewind,
                    const std::function<int(struct archive*)>& open_general,
                    const std::function<bool(const std::string&)>& want,
                    const NeffArchiveLimits& limits) {
  if (gzip && limits.single_inflate) {
    if (std::optional<TarScan> fast = ScanInflated(read, want, limits)) {
      return std::move(*fast);
    }
    if (!rewind()) {
      TarScan out;
      out.problems.push_back("the tar payload cannot be read from the file");
      return out;
    }
  }
  TarScan out = ScanOpened(open_general, want, limits);
  // The gzip trailer libarchive never reads: a second, discarding pass;
  // after a libarchive error it says what is wrong with the gzip data.
  if (!out.complete && !out.read_failed) return out;  // stopped at a limit
  if (!rewind()) {
    out.problems.push_back("the tar payload cannot be read again to verify it");
    return out;
  }
  std::string bad = CheckGzipPayload(read, limits.max_total_bytes);
  if (!bad.empty()) out.problems.push_back(std::move(bad));
  return out;
}

}  // namespace

bool NormalizeMemberPath(std::string_view raw_path, std::string* path) {
  absl::string_view raw(raw_path.data(), raw_path.size());
  if (raw.empty() || raw.front() == '/') return false;
  for (absl::string_view part : absl::StrSplit(raw, '/')) {
    if (part == "..") return false;
  }
  while (absl::ConsumePrefix(&raw, "./")) {
    while (absl::ConsumePrefix(&raw, "/")) {
    }
  }
  if (raw.empty() || raw == ".") return false;
  *path = std::string(raw);
  return true;
}

TarScan ScanNeffTar(const std::string& path, uint64_t offset, uint64_t length,
                    const std::function<bool(const std::string&)>& want,
                    const NeffArchiveLimits& limits) {
  if (TarScan out; !LibArchiveLoaded(&out)) return out;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  // The block is no larger than the payload (a few hundred bytes in most
  // .neff files): it is zero-filled when made.
  FileWindow window{file.get(), offset, length, length,
                    std::vector<char>(static_cast<size_t>(std::max<uint64_t>(
                        1, std::min<uint64_t>(kBlockBytes, length))))};
  // The first two bytes say whether the payload is gzip (the fast path's).
  char head[2];
  bool readable = file && window.Rewind();
  const bool gzip = readable && limits.single_inflate && length >= 2 &&
                    window.Read(head, 2) == 2 &&
                    StartsGzip(std::string_view(head, 2));
  if (!readable || !window.Rewind()) {
    TarScan out;
    out.problems.push_back("the tar payload cannot be read from the file");
    return out;
  }
  return ScanPayload(
      gzip, [&](char* buf, size_t n) { return window.Read(buf, n); },
      [&] { return window.Rewind(); },
      [&](struct archive* a) {
        return Lib().read_open2(a, &window, nullptr, &ReadBlock, &SkipBytes,
                                nullptr);
      },
      want, limits);
}

TarScan ScanNeffTarMemory(std::string_view payload,
                          const std::function<bool(const std::string&)>& want,
                          const NeffArchiveLimits& limits) {
  if (TarScan out; !LibArchiveLoaded(&out)) return out;
  std::string_view rest = payload;
  return ScanPayload(
      StartsGzip(payload), MemoryPayloadReader(&rest),
      [&] {
        rest = payload;
        return true;
      },
      [&](struct archive* a) {
        return Lib().read_open_memory(a, payload.data(), payload.size());
      },
      want, limits);
}

}  // namespace topolint::neff
