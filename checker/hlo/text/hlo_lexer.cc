// HloLexer: cursor, positions, tokens, errors, marks and captures. The
// scanners are in hlo_lexer_trivia.cc (trivia, comments, directives, line
// lookahead) and hlo_lexer_scan.cc (strings, skipping).
#include "checker/hlo/text/hlo_lexer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "fmt/format.h"

namespace topolint::hlo {

static_assert(InputWindow::kSlackBytes >= 15,
              "SkipIdentBytes loads 16 bytes at a time past the sentinel");

HloLexer::HloLexer(InputWindow* window, Module* module,
                   const ParseOptions& options)
    : window_(window),
      module_(module),
      options_(options),
      p_(window->begin()),
      end_(window->end()) {
  opens_.reserve(64);
}

int HloLexer::PeekSlow() {
  while (p_ >= end_) {
    if (!Refill()) return kEof;
  }
  return static_cast<unsigned char>(*p_);
}

int HloLexer::PeekAt(size_t k) {
  while (static_cast<size_t>(end_ - p_) <= k) {
    if (!Refill()) return kEof;
  }
  return static_cast<unsigned char>(p_[k]);
}

bool HloLexer::Refill() {
  const int64_t here = Offset();
  int64_t keep = here;
  for (const Mark& m : marks_) keep = std::min(keep, m.offset);
  // One byte of look-behind: the scanners read p[-1] (see Scan).
  keep = std::max(window_->base(), keep - 1);
  FlushCaptures(keep);
  const bool got = window_->Refill(keep);
  p_ = window_->begin() + (here - window_->base());
  end_ = window_->end();
  TOPOLINT_DCHECK(*end_ == '\0');
  TOPOLINT_DCHECK(p_ >= window_->begin() && p_ <= end_);
  return got;
}

void HloLexer::FlushCaptures(int64_t keep_from) {
  for (Capture& c : captures_) {
    if (c.start >= keep_from) continue;
    const size_t n = static_cast<size_t>(keep_from - c.start);
    if (c.seen < c.cap) {
      const size_t take = std::min(n, c.cap - c.seen);
      c.out->append(window_->begin() + (c.start - window_->base()), take);
    }
    c.seen += n;
    c.start = keep_from;
  }
}

// ---- Tokens ---------------------------------------------------------------

bool HloLexer::ReadIdent(std::string* out) {
  const TextPos start = Pos();
  const char* p = SkipIdentBytes(p_);  // NUL stops
  out->assign(p_, static_cast<size_t>(p - p_));
  p_ = p;
  // The name may continue in the next chunk of the input.
  while (p_ == end_ && Refill()) {
    p = p_;
    while (IsIdentChar(*p)) ++p;
    out->append(p_, static_cast<size_t>(p - p_));
    p_ = p;
    if (static_cast<int64_t>(out->size()) > kMaxTokenBytes) break;
  }
  if (static_cast<int64_t>(out->size()) > kMaxTokenBytes) {
    return Error(start, fmt::format("name '{}...' is longer than the limit "
                                    "of {} bytes",
                                    out->substr(0, 32), kMaxTokenBytes));
  }
  return true;
}

bool HloLexer::ReadIdentViewSlow(std::string_view* out) {
  // The identifier reaches the end of the window and may continue.
  if (!ReadIdent(&ident_scratch_)) return false;
  *out = ident_scratch_;
  return true;
}

bool HloLexer::ReadName(std::string* out, std::string_view what) {
  const bool percent = Peek() == '%';
  if (percent) {
    if (!IsIdentStart(p_ + 1 < end_ ? static_cast<unsigned char>(p_[1])
                                    : PeekAt(1))) {
      return Expected(what);
    }
    Bump();
  } else if (!IsIdentStart(Peek())) {
    return Expected(what);
  }
  std::string_view name;
  if (!ReadIdentView(&name)) return false;
  out->assign(percent ? "%" : "");  // (no shift of the name for the '%')
  out->append(name);
  return true;
}

bool HloLexer::AtInt() {
  const int c = Peek();
  return IsDigit(c) || (c == '-' && IsDigit(PeekAt(1)));
}

bool HloLexer::ReadIntSlow(int64_t* value, std::string_view what) {
  const TextPos start = Pos();
  if (!AtInt()) return Expected(what);
  const bool negative = Eat('-');
  const uint64_t limit =
      negative ? uint64_t{1} << 63
               : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t acc = 0;
  bool overflow = false;
  // The first digits, kept for the overflow message only (no allocation).
  char digits[40];
  size_t n = 0;
  for (int c = Peek(); IsDigit(c); c = Peek()) {
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (acc > (limit - d) / 10) overflow = true;
    if (!overflow) acc = acc * 10 + d;
    if (n < sizeof(digits)) digits[n++] = static_cast<char>(c);
    Bump();
  }
  if (overflow) {
    return Error(start,
                 fmt::format("integer {}{}{} does not fit in 64 bits",
                             negative ? "-" : "", std::string_view(digits, n),
                             n >= sizeof(digits) ? "..." : ""));
  }
  *value = negative ? static_cast<int64_t>(0 - acc) : static_cast<int64_t>(acc);
  return true;
}

// ---- Errors ---------------------------------------------------------------

bool HloLexer::Error(TextPos pos, std::string message) {
  if (stopped_) return false;
  ++error_count_;
  if (module_ == nullptr) return false;
  if (error_count_ > options_.max_syntax_errors) {
    module_->syntax_errors.push_back(SyntaxError{
        pos, fmt::format("too many syntax errors ({}); the rest of the file "
                         "was not checked",
                         options_.max_syntax_errors)});
    stopped_ = true;
    return false;
  }
  module_->syntax_errors.push_back(SyntaxError{pos, std::move(message)});
  return false;
}

bool HloLexer::Expected(std::string_view what) {
  const int c = Peek();
  if (IsControlByte(c)) return NotText(c);
  return Error(Pos(),
               fmt::format("expected {}, found {}", what, DescribeNext()));
}

std::string HloLexer::DescribeNext() {
  const int c = Peek();
  if (c == kEof) return "end of file";
  if (c == '\n' || c == '\r') return "end of line";
  if (c == '"' || c == '\'') return "a string";
  size_t n = 0;
  if (c == '%' || IsIdentStart(c)) {
    n = 1;
    while (n < 40 && IsIdentChar(PeekAt(n))) ++n;
  } else if (AtInt()) {
    n = 1;
    while (n < 40 && IsDigit(PeekAt(n))) ++n;
  }
  if (n > 0) {
    std::string text(p_, n);  // PeekAt made the n bytes contiguous
    if (n == 40 && IsIdentChar(PeekAt(n))) text += "...";
    return fmt::format("'{}'", text);
  }
  if (c == '<' && PeekAt(1) == '=') return "'<='";
  if (c == '-' && PeekAt(1) == '>') return "'->'";
  if (c >= 0x21 && c < 0x7f) return fmt::format("'{}'", static_cast<char>(c));
  return fmt::format("byte 0x{:02x}", c);
}

std::string HloLexer::NotTextMessage(int byte) {
  return fmt::format(
      "not HLO text: found control byte 0x{:02x}; the input looks like "
      "binary data",
      byte);
}

bool HloLexer::NotText(int byte) {
  Error(Pos(), NotTextMessage(byte));
  stopped_ = true;
  return false;
}

// ---- Marks and captures ---------------------------------------------------

HloLexer::Mark HloLexer::SaveMark() {
  marks_.push_back(Mark{Offset(), line_, line_start_});
  return marks_.back();
}

void HloLexer::Restore(const Mark& mark) {
  TOPOLINT_DCHECK(!marks_.empty() && marks_.back().offset == mark.offset);
  TOPOLINT_DCHECK(mark.offset >= window_->base());
  p_ = window_->begin() + (mark.offset - window_->base());
  end_ = window_->end();
  line_ = mark.line;
  line_start_ = mark.line_start;
  marks_.pop_back();
}

void HloLexer::Release() {
  TOPOLINT_DCHECK(!marks_.empty());
  marks_.pop_back();
}

void HloLexer::BeginCapture(std::string* out, size_t cap) {
  TOPOLINT_DCHECK(captures_.size() < 2);  // at most two nest
  captures_.push_back(Capture{Offset(), out, cap, 0});
}

bool HloLexer::EndCapture() {
  TOPOLINT_DCHECK(!captures_.empty());
  FlushCaptures(Offset());
  const bool complete = captures_.back().seen <= captures_.back().cap;
  captures_.pop_back();
  return complete;
}

// ---- Statements -----------------------------------------------------------

bool HloLexer::StatementTooLong() {
  return Error(stmt_pos_,
               fmt::format("instruction is longer than the limit of {} bytes; "
                           "expected it to end sooner",
                           options_.max_instruction_bytes));
}

namespace {

// The fast path of FindControlByte: true when the window [p, end) holds n
// bytes and none of them is a control byte (IsControlByte), 16 bytes at a
// time where SSE2 is there. False (the byte-wise scan decides) otherwise.
bool TryCheckPlainText(const char* p, const char* end, size_t n) {
  if (static_cast<size_t>(end - p) < n) return false;
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if (_mm_movemask_epi8(ControlBytes(v)) != 0) return false;
  }
#endif
  for (; i < n; ++i) {
    if (IsControlByte(p[i])) return false;
  }
  return true;
}

}  // namespace

std::optional<HloLexer::ControlByte> HloLexer::FindControlByte(size_t n) {
  // The window holds the n bytes (once Peek has read the first chunk: a
  // whole small file, or the first window of a large one) and they are
  // text: nothing found, and the cursor and line count stay as they are.
  // Otherwise the byte-wise scan below finds where (line and column) the
  // first control byte is. (Byte by byte this was a tenth of checking a
  // 34 KB unit.)
  const bool plain = Peek() != kEof &&
                     FastPathOn(FastPath::kTryCheckPlainText) &&
                     TryCheckPlainText(p_, end_, n);
  // (Debug builds scan byte by byte anyway and compare: fast_path_check.h.)
  if (plain && !kCheckFastPaths) return std::nullopt;
  const Mark mark = SaveMark();
  std::optional<ControlByte> found;
  for (size_t i = 0; i < n; ++i) {
    const int c = Peek();
    if (c == kEof) break;
    if (IsControlByte(c)) {
      found = ControlByte{Pos(), c};
      break;
    }
    if (c == '\n') NewlineAt(p_);
    ++p_;
  }
  Restore(mark);
  if (plain && found.has_value()) {
    FastPathInconsistency("TryCheckPlainText", Offset(),
                          "the byte-wise scan finds a control byte");
  }
  return found;
}

void HloLexer::SkipLine() {
  for (;;) {
    const char* nl = static_cast<const char*>(
        std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
    if (nl != nullptr) {
      NewlineAt(nl);
      p_ = nl + 1;
      return;
    }
    p_ = end_;
    if (!Refill()) return;
  }
}

}  // namespace topolint::hlo
