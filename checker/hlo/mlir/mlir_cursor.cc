#include "checker/hlo/mlir/mlir_cursor.h"

#include <cstring>
#include <vector>

namespace topolint::hlo::mlir {

Cursor::Cursor(InputWindow* window)
    : window_(window), p_(window->begin()), end_(window->end()) {}

bool Cursor::Fill() {
  const int64_t offset = Offset();
  const bool more = window_->Refill(offset);
  p_ = window_->begin() + (offset - window_->base());
  end_ = window_->end();
  return more && p_ < end_;
}

int Cursor::PeekAtRefill(size_t k) {
  while (static_cast<size_t>(end_ - p_) <= k) {
    const int64_t offset = Offset();
    const bool more = window_->Refill(offset);
    p_ = window_->begin() + (offset - window_->base());
    end_ = window_->end();
    if (!more) break;
  }
  if (static_cast<size_t>(end_ - p_) <= k) return kEnd;
  return static_cast<unsigned char>(p_[k]);
}

void Cursor::SkipSpace() {
  for (;;) {
    const int c = Peek();
    if (IsBlank(c)) {
      Advance();
    } else if (c == '/' && PeekAt(1) == '/') {
      SkipLine();
    } else {
      return;
    }
  }
}

bool Cursor::ReadId(std::string* out, size_t cap) {
  out->clear();
  if (!IsIdStart(Peek())) return false;
  for (int c = Peek(); IsIdByte(c); c = Peek()) {
    if (out->size() < cap) out->push_back(static_cast<char>(c));
    Advance();
  }
  return true;
}

bool Cursor::ReadString(std::string* out, size_t cap) {
  out->clear();
  if (!Eat('"')) return false;
  for (;;) {
    const int c = Peek();
    if (c == kEnd || c == '\n') return false;
    Advance();
    if (c == '"') return true;
    if (out->size() < cap) out->push_back(static_cast<char>(c));
    if (c == '\\') {
      const int e = Peek();
      if (e == kEnd) return false;
      if (out->size() < cap) out->push_back(static_cast<char>(e));
      Advance();
    }
  }
}

bool Cursor::ReadInt(int64_t* out) {
  const bool negative = Eat('-');
  if (!IsDigit(Peek())) return false;
  uint64_t v = 0;
  bool overflow = false;
  if (Peek() == '0' && (PeekAt(1) == 'x' || PeekAt(1) == 'X')) {
    Advance();
    Advance();
    for (;;) {
      const int c = Peek();
      int d;
      if (IsDigit(c)) {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        d = c - 'A' + 10;
      } else {
        break;
      }
      if (v > (UINT64_MAX >> 4)) overflow = true;
      v = (v << 4) | static_cast<uint64_t>(d);
      Advance();
    }
  } else {
    for (int c = Peek(); IsDigit(c); c = Peek()) {
      const uint64_t d = static_cast<uint64_t>(c - '0');
      if (v > (UINT64_MAX - d) / 10) overflow = true;
      v = v * 10 + d;
      Advance();
    }
  }
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (overflow || v > limit) return false;
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

void Cursor::SkipLine() {
  for (int c = Peek(); c != kEnd; c = Peek()) {
    Advance();
    if (c == '\n') return;
  }
}

void Cursor::SkipLineFast() {
  for (;;) {
    if (p_ == end_ && !Fill()) return;
    const void* nl = std::memchr(p_, '\n', static_cast<size_t>(end_ - p_));
    if (nl != nullptr) {
      p_ = static_cast<const char*>(nl) + 1;
      ++line_;
      line_start_ = Offset();
      return;
    }
    p_ = end_;
  }
}

bool Cursor::LineView(size_t max, std::string_view* out) {
  for (;;) {
    const size_t avail = static_cast<size_t>(end_ - p_);
    const void* nl = std::memchr(p_, '\n', avail);
    if (nl != nullptr) {
      *out = std::string_view(p_, static_cast<const char*>(nl) - p_);
      return true;
    }
    if (avail > max) return false;
    const int64_t offset = Offset();
    const bool more = window_->Refill(offset);
    p_ = window_->begin() + (offset - window_->base());
    end_ = window_->end();
    if (!more) {
      *out = std::string_view(p_, static_cast<size_t>(end_ - p_));
      return true;
    }
  }
}

bool Cursor::SkipOne(int c, std::string* scratch) {
  switch (c) {
    case '-':
      Advance();
      if (Peek() == '>') Advance();  // `->` closes nothing
      return true;
    case '"':
      return ReadString(scratch, 0);
    case '/':
      if (PeekAt(1) == '/') {
        SkipLine();
      } else {
        Advance();
      }
      return true;
    default:
      Advance();
      return true;
  }
}

bool Cursor::SkipBalanced(int64_t max_bytes, int max_depth) {
  const int64_t start = Offset();
  std::vector<char> closers;
  std::string scratch;
  for (;;) {
    if (Offset() - start > max_bytes) return false;
    const int c = Peek();
    switch (c) {
      case kEnd:
        return false;
      case '(':
      case '[':
      case '{':
      case '<':
        if (static_cast<int>(closers.size()) >= max_depth) return false;
        closers.push_back(c == '('   ? ')'
                          : c == '[' ? ']'
                          : c == '{' ? '}'
                                     : '>');
        Advance();
        break;
      case ')':
      case ']':
      case '}':
      case '>':
        Advance();
        if (!closers.empty() && closers.back() == c) closers.pop_back();
        break;
      default:
        if (!SkipOne(c, &scratch)) return false;
        break;
    }
    if (closers.empty()) return true;
  }
}

bool Cursor::SkipValue(int64_t max_bytes, int max_depth) {
  const int64_t start = Offset();
  std::string scratch;
  for (;;) {
    if (Offset() - start > max_bytes) return false;
    const int c = Peek();
    if (c == kEnd) return false;
    if (c == ',' || c == ')' || c == ']' || c == '}' || c == '>') return true;
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (!SkipBalanced(max_bytes, max_depth)) return false;
    } else if (!SkipOne(c, &scratch)) {
      return false;
    }
  }
}

}  // namespace topolint::hlo::mlir
