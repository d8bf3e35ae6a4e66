// The body of gzip_stream_fuzz: the gzip stream under the binary HLO
// reader (checker/hlo/gzip_stream.h). The input is read three ways:
//  1. as gzip data: the stream ends (data, or an error), never loops, and
//     gives at most 64 MiB from 4 KiB (deflate's ratio is below 1100:1);
//  2. compressed here, as one member and split into two: the stream gives
//     the input back exactly, without an error; any change to the 8-byte
//     trailer (CRC, length) or a cut of it is an error;
//  3. as a binary HLO module, plain and compressed: the reader finds the
//     same collectives and the same number of syntax errors.
// Header-only so the regression test replays inputs through the same code.
#ifndef TOPOLINT_FUZZ_GZIP_STREAM_TARGET_H_
#define TOPOLINT_FUZZ_GZIP_STREAM_TARGET_H_

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "fuzz/fuzz_util.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace topolint::fuzz {

namespace gzip_internal {

inline std::string Compress(std::string_view in) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    Fail("deflateInit2");
  }
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) Fail("deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Everything the stream gives, and its error.
inline std::string Inflate(std::string_view gz, std::string* error) {
  google::protobuf::io::ArrayInputStream raw(gz.data(),
                                             static_cast<int>(gz.size()), 7);
  topolint::hlo::GzipSource source(&raw);
  std::string out;
  char buf[4096];
  for (int reads = 0;; ++reads) {
    if (reads > (1 << 20)) Fail("the gzip stream does not end");
    const int n = source.Read(buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > (size_t{64} << 20)) Fail("inflated past 64 MiB");
  }
  *error = source.error();
  return out;
}

}  // namespace gzip_internal

inline void RunGzipStreamTarget(std::string_view input) {
  using gzip_internal::Compress;
  using gzip_internal::Inflate;
  const size_t size = input.size();
  std::string error;
  Inflate(input, &error);

  const std::string gz = Compress(input);
  if (Inflate(gz, &error) != input || !error.empty()) {
    Fail("a whole gzip member does not give its input back: " + error);
  }
  const size_t half = input.size() / 2;
  const std::string two =
      Compress(input.substr(0, half)) + Compress(input.substr(half));
  if (Inflate(two, &error) != input || !error.empty()) {
    Fail("two gzip members do not give their input back: " + error);
  }
  const size_t at =
      gz.size() - 8 + (size > 0 ? static_cast<unsigned char>(input[0]) % 8 : 0);
  std::string bad = gz;
  bad[at] = static_cast<char>(bad[at] ^ 0x5a);
  Inflate(bad, &error);
  if (error.empty()) Fail("a changed gzip trailer is not an error");
  Inflate(std::string_view(gz).substr(0, at), &error);
  if (error.empty()) Fail("a cut gzip trailer is not an error");

  topolint::hlo::Module plain, compressed;
  topolint::hlo::ParseHloProto(input, "f.pb", {}, &plain);
  if (topolint::hlo::IsGzip(input)) return;  // read as gzip already
  topolint::hlo::ParseHloProto(gz, "f.pb.gz", {}, &compressed);
  if (plain.collectives.size() != compressed.collectives.size() ||
      plain.syntax_errors.size() != compressed.syntax_errors.size()) {
    Fail("a module and its gzip differ");
  }
  for (size_t i = 0; i < plain.collectives.size(); ++i) {
    if (plain.collectives[i].name != compressed.collectives[i].name) {
      Fail("a module and its gzip name other collectives");
    }
  }
}

}  // namespace topolint::fuzz

#endif  // TOPOLINT_FUZZ_GZIP_STREAM_TARGET_H_
