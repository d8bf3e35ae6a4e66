// The compact building blocks of json::Value: a packed source position, a
// one-word string and a one-word list. They read like TextPos, std::string
// and std::vector (conversions, comparisons, iteration), so code written
// against those keeps compiling, at a fraction of their size.
#ifndef TOPOLINT_CHECKER_JSON_JSON_CONTAINERS_H_
#define TOPOLINT_CHECKER_JSON_JSON_CONTAINERS_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "checker/diag/location.h"
#include "fmt/format.h"

namespace topolint::json {

// A TextPos in 8 bytes. Documents are at most kMaxDocumentBytes (1 GiB), so
// lines and columns fit in 31 bits; larger values are clamped.
struct PackedPos {
  int32_t line = 0;    // 1-based
  int32_t column = 0;  // 1-based, bytes

  constexpr PackedPos() = default;
  constexpr PackedPos(int64_t line_in, int64_t column_in)
      : line(Clamp(line_in)), column(Clamp(column_in)) {}
  constexpr PackedPos(TextPos p)  // NOLINT: implicit, reads like a TextPos
      : PackedPos(p.line, p.column) {}
  constexpr operator TextPos() const {  // NOLINT
    return TextPos{line, column};
  }

 private:
  static constexpr int32_t Clamp(int64_t v) {
    return v < 0 ? 0
           : v > std::numeric_limits<int32_t>::max()
               ? std::numeric_limits<int32_t>::max()
               : static_cast<int32_t>(v);
  }
};

// An immutable-length owning string in one word. Up to 7 bytes are stored
// inline (most number literals and many keys); longer ones in one heap block.
// Converts implicitly to std::string, std::string_view and absl::string_view
// and compares with all of them. Copyable and movable.
class String {
 public:
  String() noexcept { SetInline(0); }
  String(const char* s) : String(std::string_view(s)) {}  // NOLINT
  String(std::string_view s) { Init(s); }                 // NOLINT
  String(const String& o) { Init(o.view()); }
  String(String&& o) noexcept {
    std::memcpy(rep_, o.rep_, sizeof(rep_));
    o.SetInline(0);
  }
  String& operator=(const String& o) {
    if (this != &o) Replace(o.view());
    return *this;
  }
  String& operator=(String&& o) noexcept {
    if (this != &o) {
      Release();
      std::memcpy(rep_, o.rep_, sizeof(rep_));
      o.SetInline(0);
    }
    return *this;
  }
  String& operator=(std::string_view s) {
    Replace(s);
    return *this;
  }
  String& operator=(const char* s) { return *this = std::string_view(s); }
  ~String() { Release(); }

  size_t size() const {
    return IsInline() ? static_cast<unsigned char>(rep_[0]) >> 1 : Heap()->size;
  }
  bool empty() const { return size() == 0; }
  const char* data() const { return IsInline() ? rep_ + 1 : Heap()->chars; }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }
  char operator[](size_t i) const { return data()[i]; }
  std::string_view view() const { return std::string_view(data(), size()); }
  std::string substr(size_t pos, size_t n = std::string::npos) const {
    return std::string(view().substr(pos, n));
  }

  operator std::string_view() const { return view(); }  // NOLINT
  operator absl::string_view() const {                  // NOLINT
    return absl::string_view(data(), size());
  }
  operator std::string() const { return std::string(view()); }  // NOLINT

#define TOPOLINT_JSON_STRING_COMPARE(T)                                  \
  friend bool operator==(const String& a, T b) { return a.view() == b; } \
  friend bool operator==(T b, const String& a) { return a.view() == b; } \
  friend bool operator!=(const String& a, T b) { return a.view() != b; } \
  friend bool operator!=(T b, const String& a) { return a.view() != b; }
  TOPOLINT_JSON_STRING_COMPARE(std::string_view)
  TOPOLINT_JSON_STRING_COMPARE(const std::string&)
  TOPOLINT_JSON_STRING_COMPARE(const char*)
#undef TOPOLINT_JSON_STRING_COMPARE
  friend bool operator==(const String& a, const String& b) {
    return a.view() == b.view();
  }
  friend bool operator!=(const String& a, const String& b) {
    return a.view() != b.view();
  }
  friend bool operator<(const String& a, const String& b) {
    return a.view() < b.view();
  }

  friend std::string operator+(std::string_view a, const String& b) {
    std::string out(a);
    out.append(b.data(), b.size());
    return out;
  }
  friend std::string operator+(const char* a, const String& b) {
    return std::string_view(a) + b;
  }
  friend std::ostream& operator<<(std::ostream& os, const String& s) {
    return os << s.view();
  }

 private:
  struct HeapBlock {
    size_t size;
    char chars[1];  // size bytes (and a NUL)
  };
  static constexpr size_t kInlineMax = 7;
  static_assert(sizeof(void*) == 8, "String packs a pointer in 8 bytes");
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                "String tells inline from heap by the pointer's low byte");

  // Inline: rep_[0] = size * 2 + 1, bytes in rep_[1..7] (no NUL). Heap: rep_
  // holds the block pointer (copied with memcpy); malloc aligns it, so its
  // low byte, rep_[0] on a little-endian machine, is even.
  bool IsInline() const { return (static_cast<unsigned char>(rep_[0]) & 1); }
  HeapBlock* Heap() const {
    HeapBlock* h;
    std::memcpy(&h, rep_, sizeof(h));
    return h;
  }
  void SetInline(size_t n) { rep_[0] = static_cast<char>(n * 2 + 1); }
  void Init(std::string_view s) {
    if (s.size() <= kInlineMax) {
      SetInline(s.size());
      if (!s.empty()) std::memcpy(rep_ + 1, s.data(), s.size());
      return;
    }
    void* mem = std::malloc(offsetof(HeapBlock, chars) + s.size() + 1);
    if (mem == nullptr) throw std::bad_alloc();
    HeapBlock* h = static_cast<HeapBlock*>(mem);
    h->size = s.size();
    std::memcpy(h->chars, s.data(), s.size());
    h->chars[s.size()] = '\0';
    std::memcpy(rep_, &h, sizeof(h));
  }
  void Replace(std::string_view s) {
    String fresh(s);  // s may point into *this
    *this = std::move(fresh);
  }
  void Release() {
    if (!IsInline()) std::free(Heap());
    SetInline(0);
  }

  char rep_[8];
};

// A growable list of T in one word (size and capacity live in the heap
// block). Reads like std::vector: size, [], iteration, push_back.
// T must be trivially relocatable (no pointers into itself): the block is
// grown with realloc, which for large lists remaps pages instead of copying,
// so a list of n elements never needs 2n of memory while it grows.
template <class T>
class Children {
 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  Children() = default;
  Children(const Children& o) {
    reserve(o.size());
    for (const T& x : o) push_back(x);
  }
  Children(Children&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Children(std::vector<T>&& v) {  // NOLINT: takes over a built vector
    reserve(v.size());
    for (T& x : v) push_back(std::move(x));
  }
  Children& operator=(const Children& o) {
    if (this != &o) {
      Children copy(o);
      std::swap(h_, copy.h_);
    }
    return *this;
  }
  Children& operator=(Children&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Children& operator=(std::vector<T>&& v) {
    Children fresh(std::move(v));
    std::swap(h_, fresh.h_);
    return *this;
  }
  ~Children() {
    clear();
    std::free(h_);
  }

  size_t size() const { return h_ ? h_->size : 0; }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return h_ ? h_->capacity : 0; }
  T* data() { return h_ ? Elements() : nullptr; }
  const T* data() const { return h_ ? Elements() : nullptr; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

  void push_back(T&& x) { emplace_back(std::move(x)); }
  void push_back(const T& x) { emplace_back(T(x)); }  // x may be an element
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size() == capacity()) {
      Reallocate(capacity() < 4 ? 4 : capacity() * 2);
    }
    T* slot = Elements() + h_->size;
    new (slot) T(std::forward<Args>(args)...);
    ++h_->size;
    return *slot;
  }
  void reserve(size_t n) {
    if (n > capacity()) Reallocate(n);
  }
  void clear() {
    if (h_ == nullptr) return;
    for (T& x : *this) x.~T();
    h_->size = 0;
  }

 private:
  struct alignas(alignof(T) > 8 ? alignof(T) : 8) Header {
    uint32_t size;
    uint32_t capacity;
  };
  T* Elements() const {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(h_) + sizeof(Header));
  }
  void Reallocate(size_t n) {
    if (n > std::numeric_limits<uint32_t>::max() ||
        n > (std::numeric_limits<size_t>::max() - sizeof(Header)) / sizeof(T)) {
      throw std::bad_alloc();
    }
    const uint32_t old_size = h_ ? h_->size : 0;
    // Relocation by realloc: T is trivially relocatable (see above).
    void* mem =
        std::realloc(static_cast<void*>(h_), sizeof(Header) + n * sizeof(T));
    if (mem == nullptr) throw std::bad_alloc();
    h_ = static_cast<Header*>(mem);
    h_->size = old_size;
    h_->capacity = static_cast<uint32_t>(n);
  }

  Header* h_ = nullptr;
};

}  // namespace topolint::json

template <>
struct fmt::formatter<topolint::json::String>
    : fmt::formatter<fmt::string_view> {
  template <typename FormatContext>
  auto format(const topolint::json::String& s, FormatContext& ctx) const
      -> decltype(ctx.out()) {
    return fmt::formatter<fmt::string_view>::format(
        fmt::string_view(s.data(), s.size()), ctx);
  }
};

#endif  // TOPOLINT_CHECKER_JSON_JSON_CONTAINERS_H_
