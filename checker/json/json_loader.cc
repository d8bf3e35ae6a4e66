// json::Parse: nlohmann's SAX parser drives a handler that builds the located
// json::Value tree. nlohmann reports no positions, so the handler finds each
// token's first byte itself: it keeps a cursor at the end of the previous
// token, skips whitespace and one separator to reach the next token, and
// learns where a string ends from how far the lexer has read (TrackedInput).
#include "checker/json/json_loader.h"

#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#include "checker/json/json_errors.h"
#include "checker/json/json_input.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint::json {
namespace {

using internal::Substitution;
using internal::TrackedInput;
using internal::TrackingIterator;
using Json = nlohmann::json;

constexpr size_t kNoLimit = std::numeric_limits<size_t>::max();

class ValueBuilder {
 public:
  ValueBuilder(std::string_view text,
               const std::vector<std::string_view>* capture_path = nullptr,
               ArraySink* sink = nullptr)
      : text_(text),
        subs_(internal::FindSubstitutions(text)),
        input_(text, &subs_),
        capture_path_(capture_path),
        sink_(sink) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") cursor_ = scanned_ = 3;
    line_start_ = 0;
  }

  // Parses the text (strict JSON, no comments, through the
  // position-tracking input); false on any failure, which error()
  // describes unless the sink refused.
  bool Run() {
    bool ok = false;
    try {
      ok = Json::sax_parse(TrackingIterator(&input_, 0),
                           TrackingIterator(&input_, text_.size()), this,
                           Json::input_format_t::json, /*strict=*/true,
                           /*ignore_comments=*/false);
    } catch (const std::bad_alloc&) {
      Fail(cursor_, "out of memory while reading the document");
    } catch (const std::exception& e) {
      Fail(cursor_, fmt::format("cannot parse: {}", e.what()));
    }
    if (!ok && !refused_) Fail(cursor_, "cannot parse");
    return ok && !failed_ && !refused_;
  }

  // --- nlohmann SAX interface ---
  bool null() {
    if (capture_depth_ > 0) return Refuse();
    return Literal(Type::kNull, false, 4);
  }
  bool boolean(bool b) {
    if (capture_depth_ > 0) return Refuse();
    return Literal(Type::kBool, b, b ? 4 : 5);
  }
  bool number_integer(Json::number_integer_t n) {
    if (capture_depth_ > 0) return CaptureInteger(n);
    return Number(Type::kInt, n, 0, 0);
  }
  bool number_unsigned(Json::number_unsigned_t n) {
    if (n <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      if (capture_depth_ > 0) return CaptureInteger(static_cast<int64_t>(n));
      return Number(Type::kInt, static_cast<int64_t>(n), 0, 0);
    }
    if (capture_depth_ > 0) return Refuse();
    return Number(Type::kUInt, 0, n, 0);
  }
  bool number_float(Json::number_float_t d, const Json::string_t& /*text*/) {
    if (capture_depth_ > 0) return Refuse();
    return Number(Type::kFloat, 0, 0, d);
  }
  bool string(Json::string_t& s) {
    if (capture_depth_ > 0) return Refuse();
    Value v;
    v.type = Type::kString;
    v.string_value = std::move(s);
    const size_t start = BeginToken();
    cursor_ = input_.delivered();  // the lexer stops at the closing quote
    return Place(std::move(v), start);
  }
  bool binary(Json::binary_t& /*unused*/) { return false; }  // not in JSON
  bool start_object(size_t /*unknown*/) {
    if (capture_depth_ > 0) return Refuse();
    return Open(Type::kObject);
  }
  bool start_array(size_t /*unknown*/) {
    if (capture_depth_ > 0) return CaptureOpen();
    if (!AtCapturePath()) return Open(Type::kArray);
    if (captured_) return Refuse();  // a second array at the path
    captured_ = true;
    if (!Open(Type::kArray)) return false;
    capture_depth_ = 1;
    const Value& placeholder = stack_.back().value;
    return sink_->OpenArray(1, cursor_ - 1, placeholder.pos) || Refuse();
  }
  bool end_object() { return Close(); }
  bool end_array() {
    if (capture_depth_ > 0) {
      if (!sink_->CloseArray(capture_depth_)) return Refuse();
      --capture_depth_;
      if (capture_depth_ > 0) {
        BeginToken();
        cursor_ = input_.delivered();
        return true;
      }
    }
    return Close();
  }
  bool key(Json::string_t& k) {
    const size_t start = BeginToken();
    cursor_ = input_.delivered();
    if (!Count(start)) return false;
    stack_.back().last_member = members_.size();
    Member& m = members_.emplace_back();
    // Each escape is longer than what it stands for: the key as written is
    // its decoded bytes in quotes exactly when it has none.
    m.key_escaped = cursor_ - start != k.size() + 2;
    m.key_offset = static_cast<uint32_t>(start);
    m.key = std::move(k);
    m.key_pos = PosOf(start);
    return true;
  }
  bool parse_error(size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) {
    internal::ErrorContext ctx;
    ctx.text = text_;
    ctx.cursor = cursor_;
    ctx.last_read = position > 0 ? position - 1 : 0;
    ctx.any_token = any_token_;
    if (!stack_.empty()) {
      ctx.open_bracket = stack_.back().value.is_array() ? '[' : '{';
      ctx.open_pos = stack_.back().value.pos;
    }
    internal::DescribedError d = internal::DescribeParseError(ctx, ex.what());
    Fail(d.offset, std::move(d.message));
    return false;
  }

  // --- results ---
  bool captured() const { return captured_; }
  const SyntaxError& error() const { return error_; }
  Value TakeRoot() { return std::move(root_); }

 private:
  void Fail(size_t offset, std::string message) {
    if (failed_) return;  // keep the first error
    failed_ = true;
    error_.pos = PosOf(std::min(offset, text_.size()));
    error_.message = std::move(message);
  }

  // True when the array starting now is the value of the capture path.
  bool AtCapturePath() const {
    if (sink_ == nullptr || stack_.size() != capture_path_->size()) {
      return false;
    }
    for (size_t i = 0; i < stack_.size(); ++i) {
      const OpenList& open = stack_[i];
      if (!open.value.is_object() || open.last_member == kNone ||
          members_[open.last_member].key != (*capture_path_)[i]) {
        return false;
      }
    }
    return true;
  }

  bool Refuse() {
    refused_ = true;
    return false;
  }

  bool CaptureOpen() {
    const size_t start = BeginToken();
    cursor_ = start + 1;
    // The open arrays: those of the tree (the captured one among them) and
    // those inside the captured one.
    if (stack_.size() + static_cast<size_t>(capture_depth_) - 1 >=
        static_cast<size_t>(kMaxNestingDepth)) {
      return Refuse();
    }
    if (!Count(start)) return false;
    ++capture_depth_;
    return sink_->OpenArray(capture_depth_, start, PosOf(start)) || Refuse();
  }

  bool CaptureInteger(int64_t n) {
    const size_t start = BeginToken();
    if (SpecialAt(start) != nullptr) return Refuse();  // NaN / Infinity
    cursor_ = NumberEnd(start);
    if (!Count(start)) return false;
    return sink_->Integer(n, start, PosOf(start)) || Refuse();
  }

  // Moves to the first byte of the token the lexer just produced.
  size_t BeginToken() {
    const size_t start = internal::NextTokenStart(text_, cursor_, kNoLimit);
    cursor_ = start;
    any_token_ = true;
    return start;
  }

  bool Literal(Type type, bool b, size_t length) {
    Value v;
    v.type = type;
    v.bool_value = b;
    const size_t start = BeginToken();
    cursor_ = start + length;
    return Place(std::move(v), start);
  }

  bool Number(Type type, int64_t i, uint64_t u, double d) {
    Value v;
    v.type = type;
    // One union: only the member of `type` is set.
    if (type == Type::kInt) {
      v.int_value = i;
    } else if (type == Type::kUInt) {
      v.uint_value = u;
    } else {
      v.float_value = d;
    }
    const size_t start = BeginToken();
    size_t end = NumberEnd(start);
    if (const Substitution* s = SpecialAt(start)) {
      v.type = Type::kFloat;
      v.float_value = s->kind == Substitution::Kind::kNaN
                          ? std::numeric_limits<double>::quiet_NaN()
                      : s->kind == Substitution::Kind::kInfinity
                          ? std::numeric_limits<double>::infinity()
                          : -std::numeric_limits<double>::infinity();
      end = start + s->length;
    }
    v.number_text = text_.substr(start, end - start);
    cursor_ = end;
    return Place(std::move(v), start);
  }

  // The end of the number literal starting at `start`.
  size_t NumberEnd(size_t start) const {
    size_t end = start;
    while (end < text_.size() && std::strchr("0123456789+-.eE", text_[end]) &&
           text_[end] != '\0') {
      ++end;
    }
    return end;
  }

  // The Infinity / NaN substitution starting at `offset`, if any. Tokens
  // arrive in order, so one forward index suffices.
  const Substitution* SpecialAt(size_t offset) {
    while (next_special_ < subs_.size() &&
           subs_[next_special_].offset < offset) {
      ++next_special_;
    }
    if (next_special_ < subs_.size() && subs_[next_special_].offset == offset &&
        subs_[next_special_].kind != Substitution::Kind::kNul) {
      return &subs_[next_special_];
    }
    return nullptr;
  }

  bool Open(Type type) {
    const size_t start = BeginToken();
    cursor_ = start + 1;
    if (stack_.size() >= static_cast<size_t>(kMaxNestingDepth)) {
      Fail(start, fmt::format("arrays and objects nest deeper than {} levels "
                              "here; expected at most {} levels of nesting",
                              kMaxNestingDepth, kMaxNestingDepth));
      return false;
    }
    Value v;
    v.type = type;
    return Place(std::move(v), start);
  }

  // The list is complete: its elements move from the scratch stack into
  // one block of their number, and it takes its place in its parent.
  bool Close() {
    BeginToken();
    cursor_ = input_.delivered();
    OpenList& open = stack_.back();
    Value v = std::move(open.value);
    if (v.is_array()) {
      MoveTail(&items_, open.begin, &v.array);
    } else {
      MoveTail(&members_, open.begin, &v.object);
    }
    stack_.pop_back();
    Attach(std::move(v));
    return true;
  }

  template <typename T>
  static void MoveTail(std::vector<T>* from, size_t begin, Children<T>* to) {
    to->reserve(from->size() - begin);
    for (size_t i = begin; i < from->size(); ++i) {
      to->push_back(std::move((*from)[i]));
    }
    from->erase(from->begin() + static_cast<ptrdiff_t>(begin), from->end());
  }

  bool Count(size_t start) {
    if (++count_ <= kMaxValueCount) return true;
    Fail(start, fmt::format("the document holds more than {} values and keys; "
                            "expected at most {}",
                            kMaxValueCount, kMaxValueCount));
    return false;
  }

  // A value begins: a list stays open (its elements gather on the scratch
  // stacks until it closes), anything else takes its place at once.
  bool Place(Value v, size_t start) {
    if (!Count(start)) return false;
    v.pos = PosOf(start);
    if (v.is_array() || v.is_object()) {
      const size_t begin = v.is_array() ? items_.size() : members_.size();
      stack_.push_back({std::move(v), begin, kNone});
      return true;
    }
    Attach(std::move(v));
    return true;
  }

  // A complete value: the root, the next element of the open array, or
  // the value of the open object's last key.
  void Attach(Value v) {
    if (stack_.empty()) {
      root_ = std::move(v);
    } else if (stack_.back().value.is_array()) {
      items_.push_back(std::move(v));
    } else {
      members_.back().value = std::move(v);
    }
  }

  // Line and byte column of `offset`; offsets are asked for in increasing
  // order, so newlines are counted once.
  TextPos PosOf(size_t offset) {
    if (offset < scanned_) {
      scanned_ = 0;
      line_ = 1;
      line_start_ = 0;
    }
    while (scanned_ < offset) {
      const void* nl =
          std::memchr(text_.data() + scanned_, '\n', offset - scanned_);
      if (nl == nullptr) break;
      ++line_;
      line_start_ = static_cast<const char*>(nl) - text_.data() + 1;
      scanned_ = line_start_;
    }
    scanned_ = offset;
    return TextPos{line_, static_cast<int64_t>(offset - line_start_) + 1};
  }

  std::string_view text_;
  const std::vector<Substitution> subs_;
  TrackedInput input_;
  size_t next_special_ = 0;
  const std::vector<std::string_view>* capture_path_;
  ArraySink* sink_;
  int capture_depth_ = 0;  // open arrays inside the captured one, itself too
  bool captured_ = false;
  bool refused_ = false;

  size_t cursor_ = 0;   // end of the last token
  size_t scanned_ = 0;  // newlines before this offset are counted
  int64_t line_ = 1;
  size_t line_start_ = 0;
  bool any_token_ = false;
  size_t count_ = 0;

  // An open array or object: its type and position, and where its
  // elements start on items_ (array) or members_ (object).
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  struct OpenList {
    Value value;
    size_t begin;
    size_t last_member;  // an object's last key, in members_ (or kNone)
  };

  Value root_;
  std::vector<OpenList> stack_;  // open containers, innermost last
  // Elements of the open arrays and members of the open objects, in
  // document order: each list is allocated once, at its size, when it
  // closes (not grown element by element and shrunk).
  std::vector<Value> items_;
  std::vector<Member> members_;
  bool failed_ = false;
  SyntaxError error_;
};

}  // namespace

CapturedParse ParseCapturing(std::string_view text,
                             const std::vector<std::string_view>& path,
                             ArraySink* sink) {
  CapturedParse out;
  out.outcome = CapturedParse::Outcome::kRefused;
  if (text.size() > kMaxDocumentBytes) return out;
  ValueBuilder builder(text, &path, sink);
  if (!builder.Run()) return out;
  out.outcome = builder.captured() ? CapturedParse::Outcome::kCaptured
                                   : CapturedParse::Outcome::kNotFound;
  out.parsed.ok = true;
  out.parsed.root = builder.TakeRoot();
  return out;
}

ParseResult Parse(std::string_view text) {
  ParseResult result;
  if (text.size() > kMaxDocumentBytes) {
    result.error.pos = TextPos{1, 1};
    result.error.message =
        fmt::format("the document is {} bytes; expected at most {} bytes",
                    text.size(), kMaxDocumentBytes);
    return result;
  }
  ValueBuilder builder(text);
  result.ok = builder.Run();
  if (result.ok) {
    result.root = builder.TakeRoot();
  } else {
    result.error = builder.error();
  }
  return result;
}

}  // namespace topolint::json
