// RecentEntries: a few keys and values found lately, tried before a dearer
// lookup (a hash map keyed by a string, a comparison of lists).
//
// A partitioned module's collectives take turns among a few replica-group
// lists in a cycle that repeats layer after layer, and each check meets
// them once per collective: the entry after the one found last is tried
// first, then the others, each by one comparison of small keys.
//
// The owner decides what a value means and empties the object whenever a
// value may no longer hold. Not thread-safe; not copyable.
#ifndef TOPOLINT_CHECKER_MODEL_RECENT_ENTRIES_H_
#define TOPOLINT_CHECKER_MODEL_RECENT_ENTRIES_H_

#include <cstddef>
#include <utility>

namespace topolint::model {

template <typename Key, typename Value, size_t kSize = 8>
class RecentEntries {
 public:
  RecentEntries() = default;
  RecentEntries(const RecentEntries&) = delete;
  RecentEntries& operator=(const RecentEntries&) = delete;

  // The value added for `key`, or null. Valid until the next Add or Clear.
  const Value* Find(const Key& key) {
    return FindIf([&key](const Key& k) { return k == key; });
  }

  // The value of the first key, in the order Find tries them, for which
  // `match(key)` holds (for keys compared with something else), or null.
  template <typename Match>
  const Value* FindIf(const Match& match) {
    size_t i = last_;
    for (size_t k = 0; k < count_; ++k) {
      if (++i == count_) i = 0;
      if (match(keys_[i])) {
        last_ = i;
        return &values_[i];
      }
    }
    return nullptr;
  }

  // `key`, which Find does not know, with its value: in a free slot, else
  // in place of the entry that was to be tried first next time.
  void Add(const Key& key, Value value) {
    size_t i = count_;
    if (i < kSize) {
      ++count_;
    } else {
      i = last_ + 1 == kSize ? 0 : last_ + 1;
    }
    keys_[i] = key;
    values_[i] = std::move(value);
    last_ = i;
  }

  void Clear() {
    for (size_t i = 0; i < count_; ++i) values_[i] = Value();
    count_ = 0;
    last_ = 0;
  }

 private:
  Key keys_[kSize] = {};
  Value values_[kSize] = {};
  size_t count_ = 0;
  size_t last_ = 0;  // where the last entry found or added is
};

}  // namespace topolint::model

#endif  // TOPOLINT_CHECKER_MODEL_RECENT_ENTRIES_H_
