// HloModuleProto.stack_frame_index (17): the table modern JAX records its
// source locations in (xla/service/hlo.proto, StackFrameIndexProto), and
// the resolution of an OpMetadata.stack_frame_id into "created at
// FILE:LINE". Only the innermost frame is used, so the parent links (and
// any cycle among them) are never followed.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "checker/hlo/proto/hlo_proto_internal.h"
#include "fmt/format.h"

namespace topolint::hlo::proto {
namespace {

// Each entry counts its bytes plus this much (vector slot, string header).
constexpr size_t kEntryBytes = 32;
// File names are kept up to this many bytes, as OpMetadata.source_file.
constexpr size_t kMaxFileNameBytes = 4096;

// One entry more, within kMaxHeldStackFrameBytes: false when the table is
// (or now becomes) cut, and then holds nothing.
bool Room(StackFrames* f, size_t bytes) {
  if (f->cut) return false;
  f->held += kEntryBytes + bytes;
  if (f->held <= kMaxHeldStackFrameBytes) return true;
  *f = StackFrames();
  f->cut = true;
  return false;
}

// FileLocation: file_name_id=1, function_name_id=2 (not kept), line=3,
// column=4; the end line and column are skipped.
bool ReadFileLocation(WireReader& r, int wire_type,
                      StackFrames::FileLocation* loc) {
  auto on_field = [&](uint32_t field, int wt) {
    switch (field) {
      case 1:
        return r.ReadInt64("FileLocation.file_name_id", wt, &loc->file_name_id);
      case 3:
        return r.ReadInt64("FileLocation.line", wt, &loc->line);
      case 4:
        return r.ReadInt64("FileLocation.column", wt, &loc->column);
      default:
        return r.Skip("a FileLocation field", wt);
    }
  };
  return ReadMessage(r, "StackFrameIndexProto.file_locations (3)", wire_type,
                     "FileLocation", on_field);
}

// StackFrame: file_location_id=1; parent_frame_id=2 is skipped.
bool ReadStackFrame(WireReader& r, int wire_type, int64_t* location_id) {
  auto on_field = [&](uint32_t field, int wt) {
    return field == 1
               ? r.ReadInt64("StackFrame.file_location_id", wt, location_id)
               : r.Skip("a StackFrame field", wt);
  };
  return ReadMessage(r, "StackFrameIndexProto.stack_frames (4)", wire_type,
                     "StackFrame", on_field);
}

// The 0-based index of the 1-based `id` into `size` entries, or -1.
int64_t Index(int64_t id, size_t size) {
  return id >= 1 && static_cast<uint64_t>(id) <= size ? id - 1 : -1;
}

}  // namespace

bool ReadStackFrameIndex(WireReader& r, int wire_type, StackFrames* f) {
  // Just after the field's tag: where a table past the bound is reported.
  const int64_t begin = r.offset();
  const bool was_cut = f->cut;
  std::string name;
  auto on_field = [&](uint32_t field, int wt) {
    if (field == 1) {  // file_names; function_names (2) are not kept
      if (!r.ReadString("StackFrameIndexProto.file_names", wt,
                        kMaxFileNameBytes, &name)) {
        return false;
      }
      if (Room(f, name.size())) f->file_names.push_back(name);
      return true;
    }
    if (field == 3) {
      StackFrames::FileLocation loc;
      if (!ReadFileLocation(r, wt, &loc)) return false;
      if (Room(f, sizeof(loc))) f->file_locations.push_back(loc);
      return true;
    }
    if (field == 4) {
      int64_t location_id = 0;
      if (!ReadStackFrame(r, wt, &location_id)) return false;
      if (Room(f, sizeof(location_id))) {
        f->frame_locations.push_back(location_id);
      }
      return true;
    }
    return r.Skip("a StackFrameIndexProto field", wt);
  };
  if (!ReadMessage(r, "stack_frame_index (17)", wire_type,
                   "StackFrameIndexProto", on_field)) {
    return false;
  }
  if (f->cut && !was_cut) {
    f->cut_at = begin;
    f->cut_bytes = r.offset() - begin;
  }
  return true;
}

void NoteStackFramesCut(const StackFrames& f, Module* m) {
  if (!f.cut) return;
  UncheckedPart u;
  u.pos = TextPos::AtByte(std::max<int64_t>(f.cut_at, 0));
  u.message = fmt::format(
      "the stack-frame table (HloModuleProto.stack_frame_index, {} bytes) "
      "was not read: holding it would take more than {} MiB, topolint's "
      "bound; collectives whose OpMetadata names a stack frame get no "
      "\"created at\" location (the checks themselves are not affected)",
      f.cut_bytes, kMaxHeldStackFrameBytes >> 20);
  u.anchor = "stack-frames-not-read";
  m->unchecked.push_back(std::move(u));
}

bool StackFrames::Resolve(int64_t id, Collective* c) const {
  const int64_t frame = Index(id, frame_locations.size());
  if (frame < 0) return false;
  const int64_t loc =
      Index(frame_locations[static_cast<size_t>(frame)], file_locations.size());
  if (loc < 0) return false;
  const FileLocation& l = file_locations[static_cast<size_t>(loc)];
  const int64_t file = Index(l.file_name_id, file_names.size());
  if (file < 0) return false;
  c->source_file = file_names[static_cast<size_t>(file)];
  // int32 fields, read as OpMetadata.source_line is.
  c->source_line = static_cast<int32_t>(l.line);
  const int32_t column = static_cast<int32_t>(l.column);
  c->source_column = column > 0 ? column : 0;
  return true;
}

}  // namespace topolint::hlo::proto
