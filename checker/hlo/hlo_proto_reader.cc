#include "checker/hlo/hlo_proto_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>

#include "checker/diag/input_file.h"
#include "checker/hlo/collective_parser.h"
#include "checker/hlo/gzip_stream.h"
#include "checker/hlo/hlo_proto_internal.h"
#include "checker/hlo/hlo_proto_wire.h"
#include "fmt/format.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace topolint::hlo {
namespace {

namespace pio = google::protobuf::io;
using proto::WireReader;

// Where the bytes come from: a file descriptor or memory, inflated when
// gzip. Opened once per pass.
class Source {
 public:
  Source(int fd, bool gzip)
      : file_(std::make_unique<pio::FileInputStream>(fd)) {
    Wrap(file_.get(), gzip);
  }
  Source(std::string_view bytes, bool gzip)
      : array_(std::make_unique<pio::ArrayInputStream>(
            bytes.data(), static_cast<int>(bytes.size()))) {
    Wrap(array_.get(), gzip);
  }
  pio::ZeroCopyInputStream* stream() { return top_; }
  std::string gzip_error() const { return gz_ ? gz_->error() : ""; }

 private:
  void Wrap(pio::ZeroCopyInputStream* raw, bool gzip) {
    top_ = raw;
    if (!gzip) return;
    gz_ = std::make_unique<GzipSource>(raw);
    gz_stream_ = std::make_unique<pio::CopyingInputStreamAdaptor>(gz_.get());
    top_ = gz_stream_.get();
  }

  std::unique_ptr<pio::FileInputStream> file_;
  std::unique_ptr<pio::ArrayInputStream> array_;
  std::unique_ptr<GzipSource> gz_;
  std::unique_ptr<pio::CopyingInputStreamAdaptor> gz_stream_;
  pio::ZeroCopyInputStream* top_ = nullptr;
};

struct ComputationInfo {
  std::string name;
  bool has_id = false;
  int64_t id = 0;
  bool has_root = false;
  int64_t root_id = 0;
};

// What the first pass learns.
struct Header {
  int depth = 0;  // wrappers around the HloModuleProto
  bool saw_config = false;
  bool found_module = false;
  int64_t module_begin = 0;
  int64_t module_size = -1;  // -1: up to the end of the input
  std::string name;
  std::string entry_name;
  bool has_entry_id = false;
  int64_t entry_id = 0;
  std::vector<ComputationInfo> computations;
  std::optional<int64_t> replica_count, num_partitions;
  TextPos replica_count_pos, num_partitions_pos;
  std::optional<int64_t> da_replicas, da_computations;
  TextPos da_replicas_pos, da_computations_pos;
  proto::NameBudget names;
};

bool ReadComputationHeader(WireReader& r, int wt, Header* h) {
  if (static_cast<int64_t>(h->computations.size()) >= proto::kMaxComputations) {
    return r.Fail(fmt::format("expected at most {} computations",
                              proto::kMaxComputations));
  }
  int saved = 0;
  if (!r.Enter("HloModuleProto.computations (3)", wt, &saved)) return false;
  ComputationInfo& c = h->computations.emplace_back();
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("HloComputationProto", &field, &w)) {
    bool ok;
    if (field == 1) {
      ok = r.ReadString("HloComputationProto.name", w, proto::kMaxNameBytes,
                        &c.name);
    } else if (field == 5) {
      c.has_id = true;
      ok = r.ReadInt64("HloComputationProto.id", w, &c.id);
    } else if (field == 6) {
      c.has_root = true;
      ok = r.ReadInt64("HloComputationProto.root_id", w, &c.root_id);
    } else if (field == 2) {
      ok = r.Skip("an HloInstructionProto", w);
    } else {
      ok = r.Skip("an HloComputationProto field", w);
    }
    if (!ok) return false;
  }
  h->names.Keep(&c.name);
  return !r.failed() && r.Leave(saved);
}

// A replica or partition count, as the text header's: at least 1 (an int32
// in the proto, so -1 arrives as 2^64-1 read as int64 -1).
bool PositiveCount(WireReader& r, TextPos at, const char* what, int64_t v) {
  if (v >= 1) return true;
  return r.FailAt(
      at.byte_offset(),
      fmt::format("{} must be a positive integer, found {}", what, v));
}

bool ReadDeviceAssignment(WireReader& r, int wt, Header* h) {
  int saved = 0;
  if (!r.Enter("device_assignment (15)", wt, &saved)) return false;
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("DeviceAssignmentProto", &field, &w)) {
    const TextPos at = r.pos();
    int64_t v = 0;
    bool ok;
    if (field == 1 || field == 2) {
      const char* what = field == 1 ? "DeviceAssignmentProto.replica_count"
                                    : "DeviceAssignmentProto.computation_count";
      ok = r.ReadInt64(what, w, &v) && PositiveCount(r, at, what, v);
      (field == 1 ? h->da_replicas : h->da_computations) = v;
      (field == 1 ? h->da_replicas_pos : h->da_computations_pos) = at;
    } else {
      ok = r.Skip("a DeviceAssignmentProto field", w);
    }
    if (!ok) return false;
  }
  return !r.failed() && r.Leave(saved);
}

bool ReadConfig(WireReader& r, int wt, Header* h) {
  int saved = 0;
  if (!r.Enter("HloModuleProtoWithConfig.config (2)", wt, &saved)) {
    return false;
  }
  h->saw_config = true;
  uint32_t field = 0;
  int w = 0;
  while (r.NextField("HloModuleConfigProto", &field, &w)) {
    const TextPos at = r.pos();
    int64_t v = 0;
    bool ok;
    if (field == 4) {
      ok = r.ReadInt64("HloModuleConfigProto.replica_count", w, &v) &&
           PositiveCount(r, at, "HloModuleConfigProto.replica_count", v);
      h->replica_count = v;
      h->replica_count_pos = at;
    } else if (field == 5) {
      ok = r.ReadInt64("HloModuleConfigProto.num_partitions", w, &v) &&
           PositiveCount(r, at, "HloModuleConfigProto.num_partitions", v);
      h->num_partitions = v;
      h->num_partitions_pos = at;
    } else {
      ok = r.Skip("an HloModuleConfigProto field", w);
    }
    if (!ok) return false;
  }
  return !r.failed() && r.Leave(saved);
}

bool ReadModuleField(WireReader& r, uint32_t field, int wt, Header* h) {
  switch (field) {
    case 1:
      return r.ReadString("HloModuleProto.name", wt, proto::kMaxNameBytes,
                          &h->name);
    case 2:
      return r.ReadString("HloModuleProto.entry_computation_name", wt,
                          proto::kMaxNameBytes, &h->entry_name);
    case 3:
      return ReadComputationHeader(r, wt, h);
    case 6:
      h->has_entry_id = true;
      return r.ReadInt64("HloModuleProto.entry_computation_id", wt,
                         &h->entry_id);
    case 15:
      return ReadDeviceAssignment(r, wt, h);
    default:
      return r.Skip("an HloModuleProto field", wt);
  }
}

// One message level of the first pass. The HloModuleProto and its wrappers
// all start with field 1, length-delimited: a module's is its name (text),
// a wrapper's is a message, whose first byte is a small tag (< 0x20), which
// no module name starts with. `begin` / `size` locate this message.
bool WalkLevel(WireReader& r, int level, int64_t begin, int64_t size,
               Header* h) {
  static constexpr const char* kWhat[] = {
      "the top-level message", "the message in field 1",
      "the message in field 1.1", "the message in field 1.1.1"};
  const char* what = kWhat[std::min(level, 3)];
  bool first = true;
  bool module_here = false;
  uint32_t field = 0;
  int wt = 0;
  while (r.NextField(what, &field, &wt)) {
    if (first) {
      first = false;
      module_here = true;
      if (field == 1 && wt == proto::kLen) {
        int saved = 0;
        const int64_t at = r.offset();
        if (!r.Enter(kWhat[std::min(level + 1, 3)], wt, &saved)) return false;
        const int64_t inner = r.offset();
        uint8_t b = 0;
        if (r.PeekByte(&b) && b < 0x20) {
          if (level >= 2) {
            return r.FailAt(at,
                            "expected an HloModuleProto within two "
                            "wrappers (HloSnapshot > HloProto), found "
                            "deeper nesting");
          }
          module_here = false;
          h->depth = level + 1;
          if (!WalkLevel(r, level + 1, inner, r.bytes_left(), h)) {
            return false;
          }
          if (!r.Leave(saved)) return false;
          continue;
        }
        if (!r.ReadRemaining("HloModuleProto.name", proto::kMaxNameBytes,
                             &h->name) ||
            !r.Leave(saved)) {
          return false;
        }
        h->found_module = true;
        h->module_begin = begin;
        h->module_size = size;
        continue;
      }
      h->found_module = true;
      h->module_begin = begin;
      h->module_size = size;
    }
    bool ok;
    if (module_here) {
      ok = ReadModuleField(r, field, wt, h);
    } else if (field == 2 && h->depth == level + 1) {
      ok = ReadConfig(r, wt, h);  // HloModuleProtoWithConfig.config
    } else {
      ok = r.Skip("a wrapper field", wt);  // buffer assignment, literals
    }
    if (!ok) return false;
  }
  if (r.failed()) return false;
  if (first && level == 0) {
    return r.FailAt(0, "expected an HLO module proto, found an empty file");
  }
  if (first) {  // an empty field 1: an empty module
    h->found_module = true;
    h->module_begin = begin;
    h->module_size = size;
  }
  return true;
}

// The second pass: the instructions, computation by computation.
class InstructionStream {
 public:
  InstructionStream(WireReader& r, const Header& h, const ParseOptions& opts,
                    Module* m)
      : r_(r), h_(h), opts_(opts), m_(m) {
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
    comp_name_ = info != nullptr ? info->name : "";
    comp_index_ = info != nullptr ? static_cast<int32_t>(index) : -1;
    shapes_.clear();
    shape_bytes_ = 0;
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

  static size_t ShapeBytes(const Shape& s) {
    size_t n = sizeof(Shape) + s.dims.size() * 8 + s.element_type.size();
    for (const Shape& t : s.tuple) n += ShapeBytes(t);
    return n;
  }

  bool Instruction(int wt, const ComputationInfo* info) {
    instruction_begin_ = r_.offset();
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
      const size_t bytes = ShapeBytes(c.result_shape);
      if (shape_bytes_ + bytes > kMaxShapeTableBytes) {
        shapes_.clear();
        shape_bytes_ = 0;
      }
      shape_bytes_ += bytes;
      shapes_[s_.id] = c.result_shape;
    }
    const std::optional<CollectiveOpcode> op = ClassifyOpcode(c.opcode);
    if (!op.has_value()) return true;
    const bool send_recv =
        op->kind == CollectiveKind::kSend || op->kind == CollectiveKind::kRecv;
    if (send_recv && !c.source_target_pairs.present) return true;
    c.name.insert(0, "%");
    c.computation = "%" + comp_name_;
    c.kind = op->kind;
    c.is_async_start = op->async_start;
    c.pos = TextPos::AtByte(instruction_begin_);
    c.is_root = info != nullptr && info->has_root && s_.has_id &&
                info->root_id == s_.id;
    c.operand_count = static_cast<int64_t>(s_.operand_ids.size());
    for (int64_t id : s_.operand_ids) {
      auto it = shapes_.find(id);
      c.operand_shapes.push_back(it != shapes_.end() ? it->second : Shape());
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
        c.to_apply = "%" + h_.computations[it->second].name;
      }
    }
    AddSpan(instruction_begin_, end, c.name);
    if (opts_.on_collective) {
      opts_.on_collective(*m_, c);
    } else {
      m_->collectives.push_back(c);
    }
    return true;
  }

  // A span for naming findings, within kMaxOpSpans and the name budget.
  void AddSpan(int64_t begin, int64_t end, std::string op) {
    if (m_->binary_ops.size() >= proto::kMaxOpSpans) return;
    op_names_.Keep(&op);
    m_->binary_ops.emplace_back(begin, end, comp_index_, std::move(op));
  }

  WireReader& r_;
  const Header& h_;
  const ParseOptions& opts_;
  Module* m_;
  std::vector<std::pair<int64_t, uint32_t>> names_;
  proto::NameBudget op_names_;
  int32_t comp_index_ = -1;
  std::unordered_map<int64_t, Shape> shapes_;
  size_t shape_bytes_ = 0;
  std::string comp_name_;
  proto::InstructionScratch s_;
  int64_t instruction_begin_ = 0;
  bool in_instruction_ = false;
};

const char* FormatName(const Header& h) {
  switch (h.depth) {
    case 0:
      return "HloModuleProto";
    case 1:
      return h.saw_config ? "HloModuleProtoWithConfig" : "HloProto";
    default:
      return "HloSnapshot";
  }
}

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
  {
    std::unique_ptr<Source> src = open();
    WireReader r(src->stream(), gzip ? -1 : end_hint);
    if (!WalkLevel(r, 0, 0, -1, &h) || r.failed()) {
      first_error = r.error();
      first_error_at = r.error_offset();
      gzip_error = src->gzip_error();
    } else if (!src->gzip_error().empty()) {
      // The message parsed, but the gzip data around it is not sound (a bad
      // CRC or length in the trailer, a missing trailer, garbage after it).
      gzip_error = src->gzip_error();
      first_error = gzip_error;
      first_error_at = r.offset();
    }
  }
  m->proto_format = FormatName(h);
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
  std::unique_ptr<Source> src = open();
  pio::ZeroCopyInputStream* in = src->stream();
  std::optional<pio::LimitingInputStream> cut;
  if (!first_error.empty() && first_error_at >= 0) {
    // The first pass failed there: the second one reads every instruction
    // before that place and stops at it (a bomb is inflated once, not
    // twice).
    cut.emplace(in, first_error_at);
    in = &*cut;
  }
  WireReader r(in, gzip ? -1 : end_hint);
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
  } else if (!first_error.empty()) {
    AddError(m, first_error_at, first_error, gzip_error);
  }
  // The spans' computation names, moved (not copied) once pass 2 is done.
  m->binary_computations.reserve(h.computations.size());
  for (ComputationInfo& c : h.computations) {
    m->binary_computations.push_back(std::move(c.name));
  }
}

// "PATH: <reason>" from the shared opener as "DISPLAY: cannot open:
// <reason>", the text reader's wording.
absl::Status OpenError(const absl::Status& st, const std::string& path,
                       const std::string& display_name) {
  const std::string message(st.message());
  std::string_view reason = message;
  if (reason.substr(0, path.size() + 2) == path + ": ") {
    reason.remove_prefix(path.size() + 2);
  }
  if (reason.substr(0, 13) == "cannot open: ") reason.remove_prefix(13);
  return absl::Status(st.code(),
                      fmt::format("{}: cannot open: {}", display_name, reason));
}

}  // namespace

std::string_view WideTextEncoding(std::string_view head) {
  auto at = [&](size_t i) {
    return i < head.size() ? static_cast<unsigned char>(head[i]) : 0x100u;
  };
  if (at(0) == 0xff && at(1) == 0xfe) {
    return at(2) == 0 && at(3) == 0 ? "UTF-32LE" : "UTF-16LE";
  }
  if (at(0) == 0xfe && at(1) == 0xff) return "UTF-16BE";
  if (at(0) == 0 && at(1) == 0 && at(2) == 0xfe && at(3) == 0xff) {
    return "UTF-32BE";
  }
  // Without a BOM: ASCII text with NULs between its bytes (at least 8
  // characters, every one printable or a line break).
  auto wide = [&](size_t unit, size_t offset) {
    const size_t n = std::min<size_t>(head.size() / unit, 64);
    if (n < 8) return false;
    for (size_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < unit; ++k) {
        const unsigned char c = at(i * unit + k);
        const bool is_char = k == offset;
        if (is_char ? (c == 0 ||
                       (c < 0x20 && c != '\n' && c != '\r' && c != '\t') ||
                       c >= 0x7f)
                    : c != 0) {
          return false;
        }
      }
    }
    return true;
  };
  if (wide(4, 0)) return "UTF-32LE";
  if (wide(4, 3)) return "UTF-32BE";
  if (wide(2, 0)) return "UTF-16LE";
  if (wide(2, 1)) return "UTF-16BE";
  return "";
}

namespace {

// A binary module whose name (field 1) is longer than the sniffed head:
// tag 0x0a, a varint length of two bytes or more reaching past the head,
// then printable bytes. Text HLO never starts with a line break followed by
// a byte >= 0x80.
bool IsLongNamedProto(std::string_view head) {
  if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x0a ||
      (static_cast<unsigned char>(head[1]) & 0x80) == 0) {
    return false;
  }
  uint64_t len = 0;
  size_t p = 1;
  for (int shift = 0; p < head.size() && shift < 35; shift += 7) {
    const unsigned char b = static_cast<unsigned char>(head[p++]);
    len |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  return len >= head.size() - p && len > 0;
}

// A syntax error at byte 0 for HLO text in a wide encoding.
void ReportWideText(std::string_view encoding, const std::string& display_name,
                    Module* module) {
  *module = Module();
  module->file = display_name;
  SyntaxError e;
  e.pos = TextPos::AtByte(0);
  e.message = fmt::format(
      "expected UTF-8 HLO text, found {} text; convert it (iconv -f {} -t "
      "UTF-8)",
      encoding, encoding);
  module->syntax_errors.push_back(std::move(e));
}

}  // namespace

HloEncoding SniffHloEncoding(std::string_view head) {
  if (IsGzip(head)) return HloEncoding::kGzip;
  if (!WideTextEncoding(head).empty()) return HloEncoding::kText;
  if (IsLongNamedProto(head)) return HloEncoding::kProto;
  if (LooksLikeHlo(head)) return HloEncoding::kText;
  for (char ch : head) {
    const unsigned char u = static_cast<unsigned char>(ch);
    if (u < 0x20 && u != '\t' && u != '\n' && u != '\r') {
      return HloEncoding::kProto;
    }
  }
  return HloEncoding::kText;
}

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
  ReadModule([&]() { return std::make_unique<Source>(bytes, gzip); }, gzip,
             static_cast<int64_t>(bytes.size()), display_name, options, module);
}

namespace {

// Reads the binary module from `fd` (from the shared opener), which it
// closes. A regular file is streamed, each pass from offset 0; a pipe is
// read once into memory, bounded like every pipe input.
absl::Status ParseProtoFd(int fd, const std::string& display_name,
                          const ParseOptions& options, Module* module) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    std::string bytes;
    absl::Status read =
        ReadFdBounded(fd, display_name, kMaxStdinBytes, "pipes", &bytes);
    ::close(fd);
    if (!read.ok()) return read;
    ParseHloProto(bytes, display_name, options, module);
    return absl::OkStatus();
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t got = ::pread(fd, magic, 2, 0);
  const bool gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  // Passes run one after the other (the first one's source is gone before
  // the second opens), so each rewinds the one descriptor.
  auto open_pass = [&]() {
    ::lseek(fd, 0, SEEK_SET);
    return std::make_unique<Source>(fd, gzip);
  };
  ReadModule(open_pass, gzip, static_cast<int64_t>(st.st_size), display_name,
             options, module);
  ::close(fd);
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseHloProtoFile(const std::string& path,
                               const std::string& display_name,
                               const ParseOptions& options, Module* module) {
  absl::StatusOr<int> fd = OpenInputFd(path);
  if (!fd.ok()) return OpenError(fd.status(), path, display_name);
  return ParseProtoFd(*fd, display_name, options, module);
}

absl::Status ParseHloAnyFile(const std::string& path,
                             const std::string& display_name,
                             const ParseOptions& options, Module* module) {
  // The shared opener refuses directories, devices, named FIFOs and sockets
  // (without blocking on them) and follows symlinks, as for text.
  absl::StatusOr<int> opened = OpenInputFd(path);
  if (!opened.ok()) return OpenError(opened.status(), path, display_name);
  const int fd = *opened;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    // A pipe: sniffing its head would consume it, so it is read once,
    // bounded, and told apart in memory.
    std::string bytes;
    absl::Status read =
        ReadFdBounded(fd, display_name, kMaxStdinBytes, "pipes", &bytes);
    ::close(fd);
    if (!read.ok()) return read;
    ParseHloAny(bytes, display_name, options, module);
    return absl::OkStatus();
  }
  char head[4096];
  ssize_t n;
  do {
    n = ::pread(fd, head, sizeof(head), 0);
  } while (n < 0 && errno == EINTR);
  if (n > 0 && SniffHloEncoding(std::string_view(
                   head, static_cast<size_t>(n))) != HloEncoding::kText) {
    return ParseProtoFd(fd, display_name, options, module);
  }
  ::close(fd);
  if (n > 0) {
    const std::string_view wide =
        WideTextEncoding(std::string_view(head, static_cast<size_t>(n)));
    if (!wide.empty()) {
      ReportWideText(wide, display_name, module);
      return absl::OkStatus();
    }
  }
  return ParseHloFile(path, display_name, options, module);
}

void ParseHloAny(std::string_view bytes, const std::string& display_name,
                 const ParseOptions& options, Module* module) {
  if (SniffHloEncoding(bytes.substr(0, 4096)) != HloEncoding::kText) {
    ParseHloProto(bytes, display_name, options, module);
  } else if (const std::string_view wide =
                 WideTextEncoding(bytes.substr(0, 4096));
             !wide.empty()) {
    ReportWideText(wide, display_name, module);
  } else {
    ParseHloText(bytes, display_name, options, module);
  }
}

}  // namespace topolint::hlo
