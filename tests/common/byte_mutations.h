// Inputs derived from sample messages for differential tests of the binary
// reader's fast paths against their judges: every sample cut at every
// length, with every byte set to values that are tags, lengths and varint
// continuations, and with random bytes changed (and sometimes cut).
#ifndef TOPOLINT_TESTS_COMMON_BYTE_MUTATIONS_H_
#define TOPOLINT_TESTS_COMMON_BYTE_MUTATIONS_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace topolint::testing {

// Calls `check(input)` for every cut and every changed byte of every
// sample; counts in `*yes` / `*no` the inputs `check` returned true /
// false for.
template <typename Check>
void EveryCutAndChangedByte(const std::vector<std::string>& samples,
                            Check check, int* yes, int* no) {
  for (const std::string& s : samples) {
    for (size_t n = 0; n <= s.size(); ++n) {
      (check(s.substr(0, n)) ? *yes : *no) += 1;
    }
    for (size_t i = 0; i < s.size(); ++i) {
      for (int v : {0x00, 0x01, 0x02, 0x05, 0x07, 0x08, 0x0a, 0x12, 0x1a, 0x7f,
                    0x80, 0xff}) {
        std::string t = s;
        t[i] = static_cast<char>(v);
        (check(t) ? *yes : *no) += 1;
      }
    }
  }
}

// Calls `check(input)` `count` times, on the samples in turn with one to
// four random bytes changed and, one time in four, cut at a random length.
template <typename Check>
void RandomChanges(const std::vector<std::string>& samples, uint32_t seed,
                   int count, Check check) {
  std::mt19937 rng(seed);
  for (int k = 0; k < count; ++k) {
    std::string t = samples[static_cast<size_t>(k) % samples.size()];
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes && !t.empty(); ++c) {
      t[rng() % t.size()] = static_cast<char>(rng() % 256);
    }
    if (rng() % 4 == 0) t.resize(rng() % (t.size() + 1));
    check(t);
  }
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_BYTE_MUTATIONS_H_
