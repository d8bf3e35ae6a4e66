// gzip data (RFC 1952) inflated with zlib: the one inflate loop of topolint,
// under the `.pb.gz` reader (checker/hlo/gzip_stream.h) and the .neff
// payload's check and single-inflate pass (checker/neff/neff_gzip_check.h).
#ifndef TOPOLINT_CHECKER_IO_GZIP_INFLATE_H_
#define TOPOLINT_CHECKER_IO_GZIP_INFLATE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace topolint {

// True when `head` starts with the gzip magic bytes 1f 8b.
bool IsGzipMagic(std::string_view head);

// Where compressed bytes come from: points *data at the next chunk and
// returns its size (> 0), 0 at the end of the input, -1 on a read error.
// The chunk stays valid until the next call.
using GzipInput = std::function<int64_t(const char** data)>;

// Inflates the gzip members of an input, one after another, into the
// caller's buffers. Not copyable.
class GzipInflate {
 public:
  // What the input may hold after a member (and, for kMembersThenAnything,
  // at its start).
  enum class Trailing {
    // Only more members: anything else is corrupt data.
    kMembers,
    // More members; the first bytes that start no member (or the end)
    // end the data quietly, and are left alone.
    kMembersThenAnything,
    // The data is the first member; NothingFollows() says whether the
    // input ends with it.
    kOneMember,
  };
  enum class Error {
    kNone,
    kInit,       // zlib could not be initialised
    kRead,       // the input returned -1
    kTruncated,  // the input ended inside a member (or held none)
    kCorrupt,    // zlib refused the data: zlib_message() says why
  };

  // `check_crc` false: members' CRC-32 and length are neither computed nor
  // checked (zlib's inflateValidate), for a pass that a checked one follows.
  GzipInflate(GzipInput input, Trailing trailing, bool check_crc = true);
  ~GzipInflate();
  GzipInflate(const GzipInflate&) = delete;
  GzipInflate& operator=(const GzipInflate&) = delete;

  // Inflates up to `size` bytes into `out`: their count (> 0), 0 at the end
  // of the data, -1 once error() is set (bytes inflated before an error
  // are returned first).
  int64_t Read(char* out, size_t size);

  Error error() const { return error_; }
  // zlib's message for kCorrupt ("incorrect data check", ...).
  const std::string& zlib_message() const { return zlib_message_; }
  // Members inflated to their end so far.
  int members() const { return members_; }
  // Bytes inflated so far.
  int64_t produced() const { return produced_; }
  // For kOneMember, once Read returned 0: whether the input ends there
  // (reads at most one more chunk).
  bool NothingFollows();

 private:
  bool Pull();
  bool HaveTwoBytes();

  GzipInput input_;
  Trailing trailing_;
  struct State;
  std::unique_ptr<State> z_;
  Error error_ = Error::kNone;
  std::string zlib_message_;
  bool ended_ = false;
  bool input_done_ = false;
  bool between_members_ = true;  // at the start or after a member's end
  int members_ = 0;
  int64_t produced_ = 0;
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_IO_GZIP_INFLATE_H_
