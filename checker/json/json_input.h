// The input side of the JSON loader: a pre-scan that finds the bytes
// nlohmann's lexer must see differently (Python's bare Infinity / NaN, a NUL
// byte), and an iterator that feeds the lexer while recording how far it has
// read. Internal to checker/json.
#ifndef TOPOLINT_CHECKER_JSON_JSON_INPUT_H_
#define TOPOLINT_CHECKER_JSON_JSON_INPUT_H_

#include <cstddef>
#include <iterator>
#include <string_view>
#include <vector>

namespace topolint::json::internal {

// A run of bytes, outside any string, that the lexer is shown rewritten.
// Substitutions keep the byte count, so every position stays exact:
//   NaN       -> "0  "          Infinity -> "0       "
//   -Infinity -> "-0       "    NUL      -> "\x01" (an invalid literal, so
//                                            the lexer does not take it for
//                                            the end of input)
struct Substitution {
  enum class Kind { kNaN, kInfinity, kNegInfinity, kNul };
  size_t offset = 0;
  size_t length = 0;
  Kind kind = Kind::kNaN;
};

// A byte of a bare word such as a literal ("true", "1e5", "Infinity"):
// letters, digits, '_', '.', '+' and '-'.
inline bool IsIdentifierByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '+' || c == '-';
}

// Finds the substitutions of `text`, in offset order. Tracks string literals
// (with escapes) so that "NaN" inside a string is left alone. Only the first
// NUL byte outside strings is recorded: the lexer stops there. A special
// literal is recognised only where a value may start (after '[', ',', ':' or
// at the start) and when no identifier character follows it.
std::vector<Substitution> FindSubstitutions(std::string_view text);

// The text as the lexer sees it. Reads must be sequential (each offset at or
// after the previous one); `delivered()` is the number of bytes handed out.
class TrackedInput {
 public:
  TrackedInput(std::string_view text, const std::vector<Substitution>* subs)
      : text_(text),
        subs_(subs),
        plain_until_(subs->empty() ? text.size() : subs->front().offset) {}
  TrackedInput(const TrackedInput&) = delete;
  TrackedInput& operator=(const TrackedInput&) = delete;

  // Inline for the bytes before the next substitution (all of them, most
  // often): the lexer asks for every byte.
  char At(size_t offset) {
    return offset < plain_until_ ? text_[offset] : AtSubstituted(offset);
  }
  void Delivered(size_t offset) { delivered_ = offset; }
  size_t delivered() const { return delivered_; }
  size_t size() const { return text_.size(); }

 private:
  char AtSubstituted(size_t offset);

  std::string_view text_;
  const std::vector<Substitution>* subs_;
  size_t next_sub_ = 0;
  // Offsets below this are plain bytes: the start of subs_[next_sub_], or
  // the text's end when no substitution is left.
  size_t plain_until_;
  size_t delivered_ = 0;
};

// An input iterator over a TrackedInput, for nlohmann::json::sax_parse. The
// adapter nlohmann builds keeps its own copy; the shared TrackedInput is how
// the SAX handler learns where the lexer is.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  TrackingIterator(TrackedInput* input, size_t offset)
      : input_(input), offset_(offset) {}

  char operator*() const { return input_->At(offset_); }
  TrackingIterator& operator++() {
    ++offset_;
    input_->Delivered(offset_);
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const {
    return offset_ == o.offset_;
  }
  bool operator!=(const TrackingIterator& o) const {
    return offset_ != o.offset_;
  }

 private:
  TrackedInput* input_;
  size_t offset_;
};

}  // namespace topolint::json::internal

#endif  // TOPOLINT_CHECKER_JSON_JSON_INPUT_H_
