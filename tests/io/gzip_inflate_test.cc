// GzipInflate, the one zlib inflate loop (.pb.gz modules, .neff payloads):
// members concatenated and cut at every chunk boundary (a member's magic
// bytes split over two chunks included), what may follow a member in each
// mode, and every error: cut, corrupt, unreadable, empty.
#include "checker/io/gzip_inflate.h"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace topolint {
namespace {

// `text` as one gzip member.
std::string Gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                         Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

// `data` handed out in chunks of `chunk` bytes (the last one shorter).
GzipInput Chunks(const std::string& data, size_t chunk) {
  auto at = std::make_shared<size_t>(0);
  return [data, chunk, at](const char** out) -> int64_t {
    const size_t n = std::min(chunk, data.size() - *at);
    *out = data.data() + *at;
    *at += n;
    return static_cast<int64_t>(n);
  };
}

// Everything Read gives, in reads of `out_size` bytes.
std::string ReadAllOf(GzipInflate& g, size_t out_size = 7) {
  std::string all;
  std::vector<char> buf(out_size);
  int64_t n = 0;
  while ((n = g.Read(buf.data(), buf.size())) > 0) {
    all.append(buf.data(), static_cast<size_t>(n));
  }
  return all;
}

std::string Text(int seed, size_t size) {
  std::string s;
  for (size_t i = 0; s.size() < size; ++i) {
    s += "op" + std::to_string((i * 7 + seed) % 13) + " ";
  }
  return s.substr(0, size);
}

TEST(GzipInflateTest, ConcatenatedMembersCutAtEveryChunkSize) {
  const std::string a = Text(1, 3000), b = Text(2, 5);
  const std::string data = Gzip(a) + Gzip(b);
  for (size_t chunk = 1; chunk <= data.size(); ++chunk) {
    for (const auto mode : {GzipInflate::Trailing::kMembers,
                            GzipInflate::Trailing::kMembersThenAnything}) {
      GzipInflate g(Chunks(data, chunk), mode);
      EXPECT_EQ(ReadAllOf(g), a + b) << "chunk " << chunk;
      EXPECT_EQ(g.error(), GzipInflate::Error::kNone) << chunk;
      EXPECT_EQ(g.members(), 2) << chunk;
      EXPECT_EQ(g.produced(), static_cast<int64_t>(a.size() + b.size()));
    }
  }
}

TEST(GzipInflateTest, WhatMayFollowAMember) {
  const std::string a = Text(3, 400);
  const std::string data = Gzip(a) + "trailing bytes";
  for (size_t chunk : {1, 2, 3, 64, 4096}) {
    // Bytes that start no member: corrupt in kMembers ...
    GzipInflate strict(Chunks(data, chunk), GzipInflate::Trailing::kMembers);
    EXPECT_EQ(ReadAllOf(strict), a);
    EXPECT_EQ(strict.error(), GzipInflate::Error::kCorrupt);
    EXPECT_EQ(strict.zlib_message(), "incorrect header check");
    // ... left alone in kMembersThenAnything ...
    GzipInflate quiet(Chunks(data, chunk),
                      GzipInflate::Trailing::kMembersThenAnything);
    EXPECT_EQ(ReadAllOf(quiet), a);
    EXPECT_EQ(quiet.error(), GzipInflate::Error::kNone);
    EXPECT_EQ(quiet.members(), 1);
    // ... and seen by NothingFollows in kOneMember, as is a second member.
    GzipInflate one(Chunks(data, chunk), GzipInflate::Trailing::kOneMember);
    EXPECT_EQ(ReadAllOf(one), a);
    EXPECT_EQ(one.error(), GzipInflate::Error::kNone);
    EXPECT_FALSE(one.NothingFollows());
    GzipInflate two(Chunks(Gzip(a) + Gzip(a), chunk),
                    GzipInflate::Trailing::kOneMember);
    EXPECT_EQ(ReadAllOf(two), a);
    EXPECT_FALSE(two.NothingFollows());
    GzipInflate alone(Chunks(Gzip(a), chunk),
                      GzipInflate::Trailing::kOneMember);
    EXPECT_EQ(ReadAllOf(alone), a);
    EXPECT_TRUE(alone.NothingFollows());
  }
}

TEST(GzipInflateTest, AnInputThatStartsNoMember) {
  for (const std::string& data :
       {std::string(), std::string("x"), std::string("plain tar bytes")}) {
    GzipInflate quiet(Chunks(data, 3),
                      GzipInflate::Trailing::kMembersThenAnything);
    EXPECT_EQ(ReadAllOf(quiet), "");
    EXPECT_EQ(quiet.error(), GzipInflate::Error::kNone);
    EXPECT_EQ(quiet.members(), 0);
    GzipInflate strict(Chunks(data, 3), GzipInflate::Trailing::kMembers);
    EXPECT_EQ(ReadAllOf(strict), "");
    EXPECT_NE(strict.error(), GzipInflate::Error::kNone) << data;
  }
  GzipInflate empty(Chunks("", 3), GzipInflate::Trailing::kOneMember);
  EXPECT_EQ(empty.Read(nullptr, 0), 0);
  std::string buf(8, '\0');
  EXPECT_EQ(empty.Read(buf.data(), buf.size()), -1);
  EXPECT_EQ(empty.error(), GzipInflate::Error::kTruncated);
}

TEST(GzipInflateTest, CutCorruptAndUnreadable) {
  const std::string a = Text(4, 2000);
  const std::string member = Gzip(a);
  // Cut anywhere inside the member, trailer included.
  for (size_t keep = 1; keep < member.size(); keep += 5) {
    GzipInflate g(Chunks(member.substr(0, keep), 16),
                  GzipInflate::Trailing::kMembers);
    ReadAllOf(g);
    EXPECT_EQ(g.error(), GzipInflate::Error::kTruncated) << keep;
  }
  // A wrong CRC: refused, unless the CRC is not checked.
  std::string bad = member;
  bad[bad.size() - 8] = static_cast<char>(bad[bad.size() - 8] ^ 0x55);
  GzipInflate checked(Chunks(bad, 100), GzipInflate::Trailing::kMembers);
  EXPECT_EQ(ReadAllOf(checked), a);
  EXPECT_EQ(checked.error(), GzipInflate::Error::kCorrupt);
  EXPECT_EQ(checked.zlib_message(), "incorrect data check");
  GzipInflate unchecked(Chunks(bad, 100), GzipInflate::Trailing::kMembers,
                        /*check_crc=*/false);
  EXPECT_EQ(ReadAllOf(unchecked), a);
  EXPECT_EQ(unchecked.error(), GzipInflate::Error::kNone);
  // A read error after the first chunk; Read stays at -1 after any error.
  int calls = 0;
  GzipInflate unreadable(
      [&](const char** data) -> int64_t {
        if (calls++ > 0) return -1;
        *data = member.data();
        return 10;
      },
      GzipInflate::Trailing::kMembers);
  ReadAllOf(unreadable);
  EXPECT_EQ(unreadable.error(), GzipInflate::Error::kRead);
  std::string buf(8, '\0');
  EXPECT_EQ(unreadable.Read(buf.data(), buf.size()), -1);
}

}  // namespace
}  // namespace topolint
