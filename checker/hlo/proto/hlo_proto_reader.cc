#include "checker/hlo/proto/hlo_proto_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>

#include "checker/diag/input_file.h"
#include "checker/hlo/collective_emit.h"
#include "checker/hlo/collective_opcode.h"
#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/open_error.h"
#include "checker/hlo/proto/hlo_proto_internal.h"
#include "checker/hlo/proto/hlo_proto_wire.h"
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
  Source(int fd, bool gzip, bool check_crc)
      : file_(std::make_unique<pio::FileInputStream>(fd, kReadBlockBytes)) {
    Wrap(file_.get(), gzip, check_crc);
  }
  Source(std::string_view bytes, bool gzip, bool check_crc)
      : array_(std::make_unique<pio::ArrayInputStream>(
            bytes.data(), static_cast<int>(bytes.size()))) {
    Wrap(array_.get(), gzip, check_crc);
  }
  pio::ZeroCopyInputStream* stream() { return top_; }
  std::string gzip_error() const { return gz_ ? gz_->error() : ""; }
  int gzip_members() const { return gz_ ? gz_->members() : 0; }

 private:
  void Wrap(pio::ZeroCopyInputStream* raw, bool gzip, bool check_crc) {
    top_ = raw;
    if (!gzip) return;
    gz_ = std::make_unique<GzipSource>(raw, check_crc);
    gz_stream_ = std::make_unique<pio::CopyingInputStreamAdaptor>(
        gz_.get(), kReadBlockBytes);
    top_ = gz_stream_.get();
  }

  std::unique_ptr<pio::FileInputStream> file_;
  std::unique_ptr<pio::ArrayInputStream> array_;
  std::unique_ptr<GzipSource> gz_;
  std::unique_ptr<pio::CopyingInputStreamAdaptor> gz_stream_;
  pio::ZeroCopyInputStream* top_ = nullptr;
};

// The second pass: the instructions, computation by computation.
class InstructionStream {
 public:
  InstructionStream(WireReader& r, const Header& h, const ParseOptions& opts,
                    Module* m)
      : r_(r), h_(h), opts_(opts), m_(m) {
    s_.fast_shapes = opts.binary_fast_path;
    shapes_.set_fast(opts.binary_fast_path);
    // id -> computation index, sorted (16 bytes per computation).
    for (size_t i = 0; i < h.computations.size(); ++i) {
      const ComputationInfo& c = h.computations[i];
      if (c.has_id) names_.emplace_back(c.id, static_cast<uint32_t>(i));
    }
    std::stable_sort(
        names_.begin(), names_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  bool Run() {
    uint32_t field = 0;
    int wt = 0;
    size_t index = 0;
    while (r_.NextField("HloModuleProto", &field, &wt)) {
      bool ok;
      if (field == 3) {
        ok = Computation(wt, index++);
      } else {
        ok = r_.Skip("an HloModuleProto field", wt);
      }
      if (!ok) return false;
    }
    return !r_.failed();
  }

  // The instruction being read when an error struck (for its location).
  void NoteFailure() {
    if (in_instruction_ && !s_.c.name.empty()) {
      AddSpan(instruction_begin_,
              std::max(r_.error_offset(), instruction_begin_) + 1,
              "%" + s_.c.name);
    }
  }

 private:
  bool Computation(int wt, size_t index) {
    int saved = 0;
    if (!r_.Enter("HloModuleProto.computations (3)", wt, &saved)) return false;
    const ComputationInfo* info =
        index < h_.computations.size() ? &h_.computations[index] : nullptr;
    comp_name_.assign("%");
    if (info != nullptr) comp_name_.append(info->name);
    comp_index_ = info != nullptr ? static_cast<int32_t>(index) : -1;
    shapes_.Clear();
    uint32_t field = 0;
    int w = 0;
    while (r_.NextField("HloComputationProto", &field, &w)) {
      bool ok;
      if (field == 2) {
        ok = Instruction(w, info);
      } else {
        ok = r_.Skip("an HloComputationProto field", w);
      }
      if (!ok) return false;
    }
    return !r_.failed() && r_.Leave(saved);
  }

  // The fast path: an instruction held whole in the input buffer that is
  // not a collective is skipped by its length, its id and shape kept as
  // bytes (ScanInstruction). False, having read nothing, when
  // ReadInstruction must decode it.
  bool SkipNonCollective() {
    const uint8_t* p = nullptr;
    size_t n = 0;
    uint64_t len = 0;
    size_t prefix = 0;
    if (!r_.PeekBuffer(&p, &n) || !proto::DecodeVarint(p, n, &len, &prefix) ||
        len > n - prefix ||
        !proto::ScanInstruction(p + prefix, static_cast<size_t>(len), &view_) ||
        ClassifyOpcode(view_.opcode).has_value() ||
        view_.shape.size() > proto::kMaxKeptShapeBytes) {
      return false;
    }
    if (view_.has_id) {
      shapes_.KeepRaw(view_.id, view_.has_shape, view_.shape,
                      r_.offset() + static_cast<int64_t>(prefix) +
                          static_cast<int64_t>(view_.shape_offset));
    }
    return r_.SkipBytes("an HloInstructionProto",
                        static_cast<int64_t>(prefix + len));
  }

  bool Instruction(int wt, const ComputationInfo* info) {
    if (wt == proto::kLen && opts_.binary_fast_path && SkipNonCollective()) {
      return true;
    }
    instruction_begin_ = r_.offset();
    // The last collective's operand shapes keep their storage for the
    // next one's (Find decodes into it).
    for (Shape& shape : s_.c.operand_shapes) {
      if (spare_shapes_.size() >= kMaxSpareShapes) break;
      spare_shapes_.push_back(std::move(shape));
    }
    s_.Clear();
    in_instruction_ = true;
    int saved = 0;
    if (!r_.Enter("HloComputationProto.instructions (2)", wt, &saved) ||
        !proto::ReadInstruction(r_, &s_) || !r_.Leave(saved)) {
      return false;
    }
    in_instruction_ = false;
    const int64_t end = r_.offset();
    Collective& c = s_.c;
    if (s_.has_id) {
      // A shape decoded in place is kept as its bytes, as the fast path
      // keeps those of other instructions (no decoded copy to hold).
      if (s_.shape_raw) {
        shapes_.KeepRaw(s_.id, true, s_.shape_bytes, s_.shape_at);
      } else {
        shapes_.KeepDecoded(s_.id, c.result_shape);
      }
    }
    const std::optional<CollectiveOpcode> op = ClassifyOpcode(c.opcode);
    if (!op.has_value()) return true;
    SetCollectiveOpcode(*op, &c);
    if (!IsEmittedCollective(c)) return true;
    c.name.insert(0, "%");
    c.computation.assign(comp_name_);
    c.pos = TextPos::AtByte(instruction_begin_);
    c.is_root = info != nullptr && info->has_root && s_.has_id &&
                info->root_id == s_.id;
    c.operand_count = static_cast<int64_t>(s_.operand_ids.size());
    for (int64_t id : s_.operand_ids) {
      if (spare_shapes_.empty()) {
        c.operand_shapes.emplace_back();
      } else {
        c.operand_shapes.push_back(std::move(spare_shapes_.back()));
        spare_shapes_.pop_back();
      }
      if (!shapes_.Find(r_, id, &c.operand_shapes.back())) return false;
    }
    // In-place collective-permute: XLA flattens its slice_sizes lists into
    // dynamic_slice_sizes, one value per dimension of the sliced operand.
    if (c.kind == CollectiveKind::kCollectivePermute &&
        s_.dynamic_slice_sizes > 0) {
      const Shape* in =
          c.operand_shapes.empty() ? nullptr : &c.operand_shapes.front();
      const int64_t rank =
          in != nullptr && in->known && !in->is_tuple && !in->dims.empty()
              ? static_cast<int64_t>(in->dims.size())
              : 1;
      c.slice_sizes_count = std::max<int64_t>(1, s_.dynamic_slice_sizes / rank);
    }
    if (!s_.called_ids.empty()) {
      const int64_t id = s_.called_ids.front();
      auto it = std::lower_bound(
          names_.begin(), names_.end(), id,
          [](const auto& e, int64_t v) { return e.first < v; });
      if (it != names_.end() && it->first == id) {
        c.to_apply.assign("%");
        c.to_apply.append(h_.computations[it->second].name);
      }
    }
    AddSpan(instruction_begin_, end, c.name);
    EmitCollective(opts_.on_collective, m_, c);
    return true;
  }

  // A span for naming findings, within kMaxOpSpans and the name budget.
  void AddSpan(int64_t begin, int64_t end, std::string_view op) {
    if (m_->binary_ops.size() >= proto::kMaxOpSpans) return;
    m_->binary_ops.Add(begin, end, comp_index_, op_names_.Keep(op));
  }

  WireReader& r_;
  const Header& h_;
  const ParseOptions& opts_;
  Module* m_;
  std::vector<std::pair<int64_t, uint32_t>> names_;
  proto::NameBudget op_names_;
  int32_t comp_index_ = -1;
  proto::ShapeTable shapes_;
  proto::InstructionView view_;
  std::string comp_name_;  // with its '%'
  // Shapes whose storage the next collective's operands reuse.
  static constexpr size_t kMaxSpareShapes = 64;
  std::vector<Shape> spare_shapes_;
  proto::InstructionScratch s_;
  int64_t instruction_begin_ = 0;
  bool in_instruction_ = false;
};

void AddError(Module* m, int64_t offset, const std::string& message,
              const std::string& gzip_error) {
  SyntaxError e;
  e.pos = TextPos::AtByte(std::max<int64_t>(offset, 0));
  e.message = gzip_error.empty() ? message : gzip_error;
  m->syntax_errors.push_back(std::move(e));
}

// Both passes over sources made by `open` (a fresh one per pass).
template <typename OpenFn>
void ReadModule(OpenFn open, bool gzip, int64_t end_hint,
                const std::string& display_name, const ParseOptions& options,
                Module* m) {
  *m = Module();
  m->file = display_name;
  m->gzip = gzip;
  m->proto_format = "HloModuleProto";
  Header h;
  std::string first_error;
  int64_t first_error_at = -1;
  std::string gzip_error;
  int64_t first_end = 0;  // where a first pass that found no error ended
  int gzip_members = 0;
  // The first pass over the module, with `hint` as the input's size (-1:
  // unknown). Returns the inflated size of a .pb.gz that failed, when the
  // rest of it could be inflated (and dropped) within the proto limit.
  auto first_pass = [&](int64_t hint, bool check_crc) -> int64_t {
    h = Header();
    first_error.clear();
    first_error_at = -1;
    gzip_error.clear();
    std::unique_ptr<Source> src = open(check_crc);
    {
      WireReader r(src->stream(), hint, options.max_proto_bytes);
      const bool read = proto::ReadHeader(r, &h) && !r.failed();
      first_end = r.offset();
      gzip_members = src->gzip_members();
      if (!read) {
        first_error = r.error();
        first_error_at = r.error_offset();
        gzip_error = src->gzip_error();
      } else if (!src->gzip_error().empty()) {
        // The message parsed, but the gzip data around it is not sound (a
        // bad CRC or length in the trailer, a missing trailer, garbage after
        // it).
        gzip_error = src->gzip_error();
        first_error = gzip_error;
        first_error_at = r.offset();
      }
    }  // the reader gives back what it read ahead
    if (!gzip || first_error.empty() || hint >= 0) return -1;
    pio::ZeroCopyInputStream* rest = src->stream();
    const void* more = nullptr;
    int more_size = 0;
    while (rest->ByteCount() <= options.max_proto_bytes) {
      if (!rest->Next(&more, &more_size)) return rest->ByteCount();
    }
    return -1;
  };
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
  int64_t inflated_end = first_pass(gzip ? -1 : end_hint, !gzip);
  const bool crc_left = gzip && first_error.empty() && h.found_module &&
                        !h.computations.empty() && gzip_members == 1;
  if (gzip && !crc_left) inflated_end = first_pass(-1, true);
  if (inflated_end >= 0) first_pass(inflated_end, true);
  m->proto_format = proto::FormatName(h);
  m->name = h.name;
  m->has_header = true;
  m->header_pos = TextPos::AtByte(h.module_begin);
  if (h.replica_count.has_value()) {
    m->replica_count = h.replica_count;
    m->replica_count_pos = h.replica_count_pos;
  } else if (h.da_replicas.has_value()) {
    m->replica_count = h.da_replicas;
    m->replica_count_pos = h.da_replicas_pos;
  }
  if (h.num_partitions.has_value()) {
    m->num_partitions = h.num_partitions;
    m->num_partitions_pos = h.num_partitions_pos;
  } else if (h.da_computations.has_value()) {
    m->num_partitions = h.da_computations;
    m->num_partitions_pos = h.da_computations_pos;
  }
  m->computation_count = static_cast<int64_t>(h.computations.size());
  for (const ComputationInfo& c : h.computations) {
    if ((h.has_entry_id && c.has_id && c.id == h.entry_id) ||
        (!h.has_entry_id && !h.entry_name.empty() && c.name == h.entry_name)) {
      m->entry_computation = "%" + c.name;
    }
  }
  if (m->entry_computation.empty() && !h.computations.empty()) {
    m->entry_computation = "%" + h.computations.back().name;
  }
  if (!h.found_module) {
    AddError(m, first_error_at, first_error, gzip_error);
    return;
  }
  if (first_error.empty() && h.computations.empty()) {
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
  if (!first_error.empty() && first_error_at >= 0) {
    // The first pass failed there: the second one reads every instruction
    // before that place and stops at it (a bomb is inflated once, not
    // twice).
    cut.emplace(in, first_error_at);
    in = &*cut;
  }
  bool reported = !first_error.empty();
  {
    WireReader r(in, gzip ? inflated_end : end_hint, options.max_proto_bytes);
    InstructionStream stream(r, h, options, m);
    if (r.SkipBytes("the HloModuleProto", h.module_begin)) {
      r.LimitTo(h.module_size);
      stream.Run();
    }
    if (r.failed() && !first_error.empty() && r.offset() >= first_error_at) {
      // Stopped where the first pass failed: its error is the one to report.
      stream.NoteFailure();
      AddError(m, first_error_at, first_error, gzip_error);
    } else if (r.failed()) {
      stream.NoteFailure();
      AddError(m, r.error_offset(), r.error(), src->gzip_error());
      reported = true;
    } else if (!first_error.empty()) {
      AddError(m, first_error_at, first_error, gzip_error);
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
      AddError(m, first_end, src->gzip_error(), "");
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
        return std::make_unique<Source>(bytes, gzip, check_crc);
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
    return std::make_unique<Source>(fd, gzip, check_crc);
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
