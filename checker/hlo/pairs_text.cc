#include "checker/hlo/pairs_text.h"

#include <cstdint>

#include "checker/hlo/parse_options.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace {

class PairsReader {
 public:
  PairsReader(std::string_view text, std::string_view attr)
      : text_(text), attr_(attr) {}

  std::optional<PairsTextProblem> Run(SourceTargetPairs* out,
                                      std::vector<size_t>* offsets) {
    Blanks();
    if (!Eat('{')) return Expected(fmt::format("'{{' to start {}", attr_));
    Blanks();
    if (!Eat('}')) {
      for (size_t i = 0;; ++i) {
        Blanks();
        const size_t pair_at = at_;
        if (!Eat('{')) {
          return Expected(fmt::format("'{{' to start pair {} of {}", i, attr_));
        }
        int64_t ids[2] = {0, 0};
        size_t count = 0;
        Blanks();
        if (!Eat('}')) {
          for (;;) {
            Blanks();
            int64_t v = 0;
            if (!Int(&v)) {
              return Expected(
                  fmt::format("an integer in pair {} of {}", i, attr_));
            }
            if (count < 2) ids[count] = v;
            ++count;
            Blanks();
            if (Eat(',')) continue;
            if (Eat('}')) break;
            return Expected(
                fmt::format("',' or '}}' in pair {} of {}", i, attr_));
          }
        }
        if (count != 2) {
          return PairsTextProblem{
              pair_at, fmt::format("expected a pair {{source,target}} as "
                                   "entry {} of {}, found {} ids",
                                   i, attr_, count)};
        }
        if (2 * static_cast<int64_t>(out->pairs.size() + 1) > kMaxExplicitIds) {
          return PairsTextProblem{
              0, fmt::format("{} lists more than the limit of {} ids", attr_,
                             kMaxExplicitIds)};
        }
        out->pairs.emplace_back(ids[0], ids[1]);
        offsets->push_back(pair_at);
        Blanks();
        if (Eat(',')) continue;
        if (Eat('}')) break;
        return Expected(
            fmt::format("',' or '}}' after pair {} of {}", i, attr_));
      }
    }
    Blanks();
    if (at_ != text_.size()) {
      return Expected(fmt::format("the end of the {} string", attr_));
    }
    return std::nullopt;
  }

 private:
  // Blanks, line breaks and comments (`/* ... */`, `// ...` to the end of
  // the line), as the text parser's trivia.
  void Blanks() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++at_;
      } else if (text_.substr(at_, 2) == "/*") {
        const size_t end = text_.find("*/", at_ + 2);
        if (end == std::string_view::npos) return;  // then "expected ..."
        at_ = end + 2;
      } else if (text_.substr(at_, 2) == "//") {
        const size_t end = text_.find_first_of("\r\n", at_);
        at_ = end == std::string_view::npos ? text_.size() : end;
      } else {
        return;
      }
    }
  }
  bool Eat(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  static bool Digit(char c) { return c >= '0' && c <= '9'; }
  // -?[0-9]+ that fits in 64 bits.
  bool Int(int64_t* v) {
    size_t p = at_;
    const bool negative = p < text_.size() && text_[p] == '-';
    if (negative) ++p;
    if (p >= text_.size() || !Digit(text_[p])) return false;
    int64_t n = 0;
    for (; p < text_.size() && Digit(text_[p]); ++p) {
      const int d = text_[p] - '0';
      if (__builtin_mul_overflow(n, 10, &n) ||
          __builtin_add_overflow(n, negative ? -d : d, &n)) {
        return false;
      }
    }
    *v = n;
    at_ = p;
    return true;
  }
  std::string Next() const {
    if (at_ >= text_.size()) return "the end of the string";
    const char c = text_[at_];
    if (c == '\n' || c == '\r') return "end of line";
    size_t n = 1;
    if (Digit(c) || c == '-') {
      while (at_ + n < text_.size() && n < 40 && Digit(text_[at_ + n])) ++n;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return fmt::format("byte 0x{:02x}", u);
    return fmt::format("'{}'", text_.substr(at_, n));
  }
  PairsTextProblem Expected(const std::string& what) const {
    return PairsTextProblem{at_,
                            fmt::format("expected {}, found {}", what, Next())};
  }

  std::string_view text_;
  std::string_view attr_;
  size_t at_ = 0;
};

}  // namespace

std::optional<PairsTextProblem> ParsePairsText(
    std::string_view text, std::string_view attr, SourceTargetPairs* out,
    std::vector<size_t>* pair_offsets) {
  return PairsReader(text, attr).Run(out, pair_offsets);
}

}  // namespace topolint::hlo
