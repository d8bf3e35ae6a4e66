// topolint_floor: what reading a module costs before any of it is parsed or
// checked, so that bench/run.sh and bench/binary.sh can print how much of
// topolint's time is left above it (docs/performance.md, "The floors").
//
//   topolint_floor text FILE   every line's body run through the block
//                              scanner that topolint validates it with
//   topolint_floor pb FILE     every instruction of an HloModuleProto walked
//                              field by field, nothing decoded
//
// Both read FILE with read() in 256 KiB blocks, as topolint does, and print
// one line of counts (so that no work can be optimised away). They trust
// their input: they are for the benchmark's generated modules, not for
// users' files.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "checker/hlo/input_window.h"
#include "checker/hlo/text/fast_scan.h"

namespace {

using topolint::hlo::FastMode;
using topolint::hlo::FastScan;
using topolint::hlo::InputWindow;

constexpr size_t kBlockBytes = size_t{256} << 10;
constexpr size_t kSlack = InputWindow::kSlackBytes;

// Reads `fd` to its end into a sliding buffer and calls
// consume(data, size, at_end) each time a block has come in; it returns how
// many of the `size` bytes it is done with (whole lines or fields), and the
// rest stay for the next call. The bytes held are followed by a NUL and
// more zeros, as in topolint's read window, so that the block scanner may
// read past them. False on a read error or when `consume` says so (-1).
template <class Consume>
bool ReadBlocks(int fd, Consume consume) {
  std::vector<char> buf(2 * kBlockBytes + kSlack + 1);
  size_t held = 0;
  for (;;) {
    if (held + kBlockBytes + kSlack + 1 > buf.size()) {
      buf.resize(held + kBlockBytes + kSlack + 1);
    }
    const ssize_t n = read(fd, buf.data() + held, kBlockBytes);
    if (n < 0) return false;
    held += static_cast<size_t>(n);
    std::memset(buf.data() + held, 0, kSlack + 1);
    const bool at_end = n == 0;
    const long used = consume(buf.data(), held, at_end);
    if (used < 0) return false;
    if (at_end) return true;
    held -= static_cast<size_t>(used);
    std::memmove(buf.data(), buf.data() + used, held);
  }
}

// ---- text: the body scanner over every line ----

struct TextCounts {
  long lines = 0;
  long scanned = 0;   // bodies the block scanner took to the line's end
  long declined = 0;  // lines it left to the exact scanner (here: memchr)
};

// The lines of data[0, size) that end there (all of them at the end of the
// input): for each, from its first non-blank byte, the body from the first
// '(' as FastScan(kBody) scans it after an instruction's head. Where that
// '(' is not the operands' (a tuple shape, a signature, a header), the
// scanner declines and the line is left there: the floor does less than
// topolint on such lines, never more.
long ScanLines(const char* data, size_t size, bool at_end, TextCounts* c) {
  const char* const end = data + size;  // a NUL follows
  const char* p = data;
  for (;;) {
    const void* found = std::memchr(p, '\n', static_cast<size_t>(end - p));
    const char* nl = static_cast<const char*>(found);
    if (nl == nullptr) {
      if (!at_end || p == end) return p - data;
      nl = end;  // a last line without its newline
    }
    ++c->lines;
    while (p < nl && *p == ' ') ++p;
    const char* paren = static_cast<const char*>(
        std::memchr(p, '(', static_cast<size_t>(nl - p)));
    if (paren != nullptr) {
      const char* stop = FastScan(FastMode::kBody, paren, end);
      if (stop == nl) {
        ++c->scanned;
      } else {
        ++c->declined;
      }
    }
    if (nl == end) return static_cast<long>(size);
    p = nl + 1;
  }
}

// ---- pb: HloModuleProto -> computations (3) -> instructions (2) ----

// A varint at p[0, n): its value and length, or false when cut short.
bool Varint(const uint8_t* p, size_t n, uint64_t* value, size_t* len) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 10; ++i) {
    v |= uint64_t{p[i] & 0x7fu} << (7 * i);
    if (p[i] < 0x80) {
      *value = v;
      *len = i + 1;
      return true;
    }
  }
  return false;
}

// One field at p[0, n): its number, wire type, the length of its tag and
// length prefix (`head`) and of its value. False when it is not wholly
// there (or is a group, which HLO protos do not use).
struct Field {
  uint64_t number = 0;
  int wire_type = 0;
  size_t head = 0;
  size_t value = 0;
};
bool ReadField(const uint8_t* p, size_t n, Field* f) {
  uint64_t tag = 0;
  size_t k = 0;
  if (!Varint(p, n, &tag, &k)) return false;
  f->number = tag >> 3;
  f->wire_type = static_cast<int>(tag & 7);
  f->head = k;
  uint64_t v = 0;
  size_t kv = 0;
  switch (f->wire_type) {
    case 0:
      if (!Varint(p + k, n - k, &v, &kv)) return false;
      f->value = kv;
      return true;
    case 1:
      f->value = 8;
      return n - k >= 8;
    case 2:
      if (!Varint(p + k, n - k, &v, &kv)) return false;
      f->head += kv;
      f->value = static_cast<size_t>(v);
      return true;  // the caller decides whether it needs the value held
    case 5:
      f->value = 4;
      return n - k >= 4;
    default:
      return false;
  }
}

struct PbCounts {
  long instructions = 0;
  long collectives = 0;  // opcodes of the all-*, reduce-scatter, ... family
  long fields = 0;
};

bool IsCollectiveOpcode(std::string_view op) {
  for (std::string_view prefix : {"all-", "reduce-scatter", "collective-"}) {
    if (op.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

void WalkInstruction(const uint8_t* p, size_t n, PbCounts* c) {
  ++c->instructions;
  size_t i = 0;
  Field f;
  while (i < n && ReadField(p + i, n - i, &f) && f.value <= n - i - f.head) {
    ++c->fields;
    if (f.number == 2 && f.wire_type == 2 &&
        IsCollectiveOpcode(std::string_view(
            reinterpret_cast<const char*>(p + i + f.head), f.value))) {
      ++c->collectives;
    }
    i += f.head + f.value;
  }
}

class PbWalk {
 public:
  // The fields of data[0, size) held whole (a computation is entered, not
  // held); -1 on bytes that are not a module.
  long Consume(const char* data, size_t size, PbCounts* c) {
    const auto* p = reinterpret_cast<const uint8_t*>(data);
    size_t i = 0;
    Field f;
    while (i < size) {
      if (computation_left_ == 0) computation_left_ = -1;
      if (!ReadField(p + i, size - i, &f)) break;
      const bool in_computation = computation_left_ >= 0;
      if (!in_computation && f.number == 3 && f.wire_type == 2) {
        i += f.head;
        computation_left_ = static_cast<long>(f.value);
        continue;
      }
      if (f.value > size - i - f.head) break;  // not held whole yet
      if (in_computation && f.number == 2 && f.wire_type == 2) {
        WalkInstruction(p + i + f.head, f.value, c);
      }
      const size_t whole = f.head + f.value;
      if (in_computation) {
        if (static_cast<long>(whole) > computation_left_) return -1;
        computation_left_ -= static_cast<long>(whole);
      }
      i += whole;
    }
    return static_cast<long>(i);
  }
  bool Finished() const { return computation_left_ <= 0; }

 private:
  long computation_left_ = -1;  // bytes left of the computation entered
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "text") != 0 && std::strcmp(argv[1], "pb") != 0)) {
    std::fprintf(stderr, "usage: topolint_floor text|pb FILE\n");
    return 2;
  }
  const int fd = open(argv[2], O_RDONLY);
  if (fd < 0) {
    std::perror(argv[2]);
    return 2;
  }
  bool ok = false;
  if (std::strcmp(argv[1], "text") == 0) {
    TextCounts c;
    ok = ReadBlocks(fd, [&c](const char* data, size_t size, bool at_end) {
      return ScanLines(data, size, at_end, &c);
    });
    std::printf("%ld lines, %ld bodies scanned, %ld declined\n", c.lines,
                c.scanned, c.declined);
  } else {
    PbCounts c;
    PbWalk walk;
    ok =
        ReadBlocks(fd, [&c, &walk](const char* data, size_t size, bool at_end) {
          const long used = walk.Consume(data, size, &c);
          // At the end every byte belongs to a field, and every computation
          // has all of its bytes.
          if (at_end && (used != static_cast<long>(size) || !walk.Finished())) {
            return -1L;
          }
          return used;
        });
    std::printf("%ld instructions, %ld collectives, %ld fields\n",
                c.instructions, c.collectives, c.fields);
  }
  close(fd);
  if (!ok) std::fprintf(stderr, "%s: cannot be read to its end\n", argv[2]);
  return ok ? 0 : 1;
}
