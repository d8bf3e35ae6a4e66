#include "checker/hlo/proto/hlo_proto_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>

#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"
#include "checker/io/input_file.h"
#include "fmt/format.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace topolint::hlo {
namespace {

namespace pio = google::protobuf::io;
using proto::ComputationInfo;
using proto::Header;
using proto::WireReader;

// Bytes per read() of a file, and per block of inflated gzip data: large
// enough that system calls and buffer refills cost little next to decoding
// (protobuf's default is 8 KiB), small enough to stay in the L2 cache.
constexpr int kReadBlockBytes = 256 << 10;

// Where the bytes come from: a file descriptor or memory, inflated when
// gzip (with the CRC checked unless `check_crc` is false). Opened once per
// pass.
class Source {
 public:
  Source(std::unique_ptr<pio::ZeroCopyInputStream> raw, bool gzip,
         bool check_crc)
      : raw_(std::move(raw)), top_(raw_.get()) {
    if (!gzip) return;
    gz_ = std::make_unique<GzipSource>(raw_.get(), check_crc);
    gz_stream_ = std::make_unique<pio::CopyingInputStreamAdaptor>(
        gz_.get(), kReadBlockBytes);
    top_ = gz_stream_.get();
  }
  pio::ZeroCopyInputStream* stream() { return top_; }
  std::string gzip_error() const { return gz_ ? gz_->error() : ""; }
  int gzip_members() const { return gz_ ? gz_->members() : 0; }

 private:
  std::unique_ptr<pio::ZeroCopyInputStream> raw_;  // a file or memory
  std::unique_ptr<GzipSource> gz_;
  std::unique_ptr<pio::CopyingInputStreamAdaptor> gz_stream_;
  pio::ZeroCopyInputStream* top_;
};

void AddError(Module* m, int64_t offset, const std::string& message,
              const std::string& gzip_error) {
  SyntaxError e;
  e.pos = TextPos::AtByte(std::max<int64_t>(offset, 0));
  e.message = gzip_error.empty() ? message : gzip_error;
  m->syntax_errors.push_back(std::move(e));
}

// The module's spmd_* shardings (Header::shardings), recorded; the first
// malformed one is `*first_error` when there is none yet.
void RecordModuleShardings(const proto::Header& h, Module* m,
                           std::string* first_error, int64_t* first_error_at) {
  for (const proto::Header::RawSharding& raw : h.shardings) {
    std::string error;
    int64_t error_at = 0;
    if (!proto::RecordProtoSharding(raw.bytes, raw.at, "", Shape(), raw.field,
                                    m, &error, &error_at) &&
        first_error->empty()) {
      *first_error = std::move(error);
      *first_error_at = error_at;
    }
  }
}

// What a first pass learnt, and where and how it failed.
struct FirstPass {
  Header h;
  std::string error;  // empty: none
  int64_t error_at = -1;
  std::string gzip_error;
  int64_t end = 0;  // where a pass that found no error ended
  int gzip_members = 0;
};

// The first pass over a source made by `open`, with `hint` as the input's
// size (-1: unknown). Returns the inflated size of a .pb.gz that failed,
// when the rest of it could be inflated (and dropped) within the proto
// limit; else -1.
template <typename OpenFn>
int64_t ReadFirstPass(OpenFn& open, bool gzip, int64_t hint, bool check_crc,
                      int64_t max_bytes, FirstPass* p) {
  *p = FirstPass();
  std::unique_ptr<Source> src = open(check_crc);
  {
    WireReader r(src->stream(), hint, max_bytes);
    const bool read = proto::ReadHeader(r, &p->h) && !r.failed();
    p->end = r.offset();
    p->gzip_members = src->gzip_members();
    if (!read) {
      p->error = r.error();
      p->error_at = r.error_offset();
      p->gzip_error = src->gzip_error();
    } else if (!src->gzip_error().empty()) {
      // The message parsed, but the gzip data around it is not sound (a
      // bad CRC or length in the trailer, a missing trailer, garbage after
      // it).
      p->gzip_error = src->gzip_error();
      p->error = p->gzip_error;
      p->error_at = r.offset();
    }
  }  // the reader gives back what it read ahead
  if (!gzip || p->error.empty() || hint >= 0) return -1;
  pio::ZeroCopyInputStream* rest = src->stream();
  const void* more = nullptr;
  int more_size = 0;
  while (rest->ByteCount() <= max_bytes) {
    if (!rest->Next(&more, &more_size)) return rest->ByteCount();
  }
  return -1;
}

// The module's own fields, as the first pass read them.
void SetModuleFields(const Header& h, Module* m) {
  m->proto_format = proto::FormatName(h);
  m->name = h.name;
  m->has_header = true;
  m->header_pos = TextPos::AtByte(h.module_begin);
  // The config's counts, else the device assignment's.
  const bool config_replicas = h.replica_count.has_value();
  m->replica_count = config_replicas ? h.replica_count : h.da_replicas;
  m->replica_count_pos =
      config_replicas ? h.replica_count_pos : h.da_replicas_pos;
  const bool config_partitions = h.num_partitions.has_value();
  m->num_partitions = config_partitions ? h.num_partitions : h.da_computations;
  m->num_partitions_pos =
      config_partitions ? h.num_partitions_pos : h.da_computations_pos;
  m->computation_count = static_cast<int64_t>(h.computations.size());
  proto::NoteStackFramesCut(h.stack_frames, m);
  for (const ComputationInfo& c : h.computations) {
    if ((h.entry_id && c.id == h.entry_id) ||
        (!h.entry_id && !h.entry_name.empty() && c.name == h.entry_name)) {
      m->entry_computation = "%" + c.name;
    }
  }
  if (m->entry_computation.empty() && !h.computations.empty()) {
    m->entry_computation = "%" + h.computations.back().name;
  }
}

// Both passes over sources made by `open` (a fresh one per pass).
template <typename OpenFn>
void ReadModule(OpenFn open, bool gzip, int64_t end_hint,
                const std::string& display_name, const ParseOptions& options,
                Module* m) {
  *m = Module();
  m->file = display_name;
  m->gzip = gzip;
  FirstPass first;
  const int64_t max_bytes = options.max_proto_bytes;
  // A .pb.gz has no known size, so a length past its end shows only where
  // the data runs out. When its first pass fails, it is read again with the
  // size the failed pass learnt, as the same module uncompressed is read:
  // the same error at the same place, and no collective emitted before it
  // that the uncompressed read would not emit (a bomb is inflated at most
  // twice up to the proto limit, and the second pass stops where this one
  // failed).
  //
  // The first pass of a .pb.gz leaves the CRC to the second, which reads
  // the data again anyway (computing it is about a third of inflating).
  // That changes nothing only when the first pass finds the module sound
  // in one gzip member, whose CRC comes last: the second pass then checks
  // it at the end, reading the data through, and reports a bad one where
  // the first pass would have. In every other case (an error, no module or
  // no computation, concatenated members) the first pass is run again
  // with the CRC checked.
  int64_t inflated_end =
      ReadFirstPass(open, gzip, gzip ? -1 : end_hint, !gzip, max_bytes, &first);
  Header& h = first.h;
  const bool crc_left = gzip && first.error.empty() && h.found_module &&
                        !h.computations.empty() && first.gzip_members == 1;
  if (gzip && !crc_left) {
    inflated_end = ReadFirstPass(open, gzip, -1, true, max_bytes, &first);
  }
  if (inflated_end >= 0) {
    ReadFirstPass(open, gzip, inflated_end, true, max_bytes, &first);
  }
  SetModuleFields(h, m);
  // spmd_output_sharding / spmd_parameters_shardings: counted toward the
  // device count, not validated (XLA does not validate them either).
  // A malformed one is the module's wire error when the first pass found
  // none: the second pass then stops there, as at any first-pass error.
  RecordModuleShardings(h, m, &first.error, &first.error_at);
  if (!h.found_module) {
    AddError(m, first.error_at, first.error, first.gzip_error);
    return;
  }
  if (first.error.empty() && h.computations.empty()) {
    AddError(m, h.module_begin,
             fmt::format("expected an HloModuleProto with at least one "
                         "computation (field 3), found none in the {}",
                         m->proto_format),
             "");
    return;
  }
  std::unique_ptr<Source> src = open(true);
  pio::ZeroCopyInputStream* in = src->stream();
  std::optional<pio::LimitingInputStream> cut;
  if (!first.error.empty() && first.error_at >= 0) {
    // The first pass failed there: the second one reads every instruction
    // before that place and stops at it (a bomb is inflated once, not
    // twice).
    cut.emplace(in, first.error_at);
    in = &*cut;
  }
  bool reported = !first.error.empty();
  {
    WireReader r(in, gzip ? inflated_end : end_hint, max_bytes);
    const int64_t stopped = proto::ReadInstructions(r, h, options, m);
    if (r.failed() && (first.error.empty() || stopped < first.error_at)) {
      AddError(m, r.error_offset(), r.error(), src->gzip_error());
      reported = true;
    } else if (!first.error.empty()) {
      // Read up to where the first pass failed: its error is the one to
      // report.
      AddError(m, first.error_at, first.error, first.gzip_error);
    }
  }  // the reader gives back what it read ahead
  if (crc_left && !reported) {
    // The CRC the first pass left: the data read through to its trailer
    // (the first pass read as far), its error placed where the first pass
    // ended, as a checked first pass places it.
    const void* more = nullptr;
    int more_size = 0;
    while (in->Next(&more, &more_size)) {
    }
    if (!src->gzip_error().empty()) {
      AddError(m, first.end, src->gzip_error(), "");
    }
  }
  // The spans' computation names, moved (not copied) once pass 2 is done.
  m->binary_computations.reserve(h.computations.size());
  for (ComputationInfo& c : h.computations) {
    m->binary_computations.push_back(std::move(c.name));
  }
}

}  // namespace

void ParseHloProto(std::string_view bytes, const std::string& display_name,
                   const ParseOptions& options, Module* module) {
  const bool gzip = IsGzip(bytes);
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    *module = Module();
    module->file = display_name;
    module->proto_format = "HloModuleProto";
    AddError(module, INT_MAX,
             "expected at most 2 GiB of input (the protobuf message limit)",
             "");
    return;
  }
  ReadModule(
      [&](bool check_crc) {
        return std::make_unique<Source>(
            std::make_unique<pio::ArrayInputStream>(
                bytes.data(), static_cast<int>(bytes.size())),
            gzip, check_crc);
      },
      gzip, static_cast<int64_t>(bytes.size()), display_name, options, module);
}

absl::Status ParseHloProtoFd(int fd, const std::string& display_name,
                             const ParseOptions& options, Module* module) {
  std::string bytes;
  int64_t size = 0;
  absl::StatusOr<bool> piped = ReadIfPipe(fd, display_name, &bytes, &size);
  if (!piped.ok()) return piped.status();
  if (*piped) {
    ParseHloProto(bytes, display_name, options, module);
    return absl::OkStatus();
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t got = ::pread(fd, magic, 2, 0);
  const bool gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  // Passes run one after the other (the first one's source is gone before
  // the second opens), so each rewinds the one descriptor.
  auto open_pass = [&](bool check_crc) {
    ::lseek(fd, 0, SEEK_SET);
    return std::make_unique<Source>(
        std::make_unique<pio::FileInputStream>(fd, kReadBlockBytes), gzip,
        check_crc);
  };
  ReadModule(open_pass, gzip, size, display_name, options, module);
  ::close(fd);
  return absl::OkStatus();
}

absl::Status ParseHloProtoFile(const std::string& path,
                               const std::string& display_name,
                               const ParseOptions& options, Module* module) {
  absl::StatusOr<int> fd = OpenInputFd(path);
  if (!fd.ok()) return OpenError(fd.status(), path, display_name);
  return ParseHloProtoFd(*fd, display_name, options, module);
}

}  // namespace topolint::hlo
