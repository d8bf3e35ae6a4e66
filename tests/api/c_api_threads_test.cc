// 16 threads calling the C API at once, on distinct and on shared inputs
// (one buffer read by every thread through topolint_check_text), get
// byte-identical responses to one thread's. Run by the sanitizer build too
// (scripts/sanitize.sh), where a data race on shared state would show as a
// heap error or a differing response.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/api/api_test_util.h"
#include "topolint/topolint_c.h"

namespace topolint::testing {
namespace {

using Json = nlohmann::json;

std::string Take(char* out) {
  EXPECT_NE(out, nullptr);
  std::string s = out == nullptr ? "" : out;
  topolint_free(out);
  return s;
}

struct Call {
  std::string request;       // topolint_check_json, or the text's request
  const std::string* bytes;  // non-null: topolint_check_text on these
  std::string name;

  std::string Run() const {
    if (bytes == nullptr) return Take(topolint_check_json(request.c_str()));
    return Take(topolint_check_text(request.c_str(), name.c_str(), nullptr,
                                    bytes->data(), bytes->size()));
  }
};

TEST(CApiThreadsTest, SixteenThreadsGetWhatOneThreadGets) {
  const std::vector<std::string> modules = {
      kDuplicateIdHlo,
      "fixtures/hlo-group-coverage/fail-not-enough-replicas/model.hlo",
      "fixtures/hlo-permute-pairs/fail-same-source-twice/model.hlo",
      "fixtures/hlo-syntax/fail-truncated/model.hlo",
  };
  std::vector<std::string> texts;
  for (const std::string& m : modules) texts.push_back(ReadSource(m));
  const std::string shared = texts[0];  // one buffer, read by all threads
  const std::string def_json =
      R"({"CCInfo": {"replica_groups": [[[0,3],[1,2],[4,5]]]}})";
  std::vector<Call> calls;
  for (size_t i = 0; i < texts.size(); ++i) {
    calls.push_back(Call{
        Json{{"files",
              {{{"name", "m" + std::to_string(i) + ".hlo"}, {"text", texts[i]}},
               {{"name", "def.json"}, {"text", def_json}}}}}
            .dump(),
        nullptr, ""});
    calls.push_back(Call{
        Json{{"paths", {std::string(TOPOLINT_SOURCE_DIR) + "/" + modules[i]}},
             {"options", {{"lnc", 2}}}}
            .dump(),
        nullptr, ""});
  }
  calls.push_back(Call{"{}", &shared, "shared.hlo"});
  calls.push_back(
      Call{R"({"options": {"werror": true}})", &shared, "shared.hlo"});
  calls.push_back(Call{"not json", nullptr, ""});

  std::vector<std::string> expected;
  for (const Call& c : calls) expected.push_back(c.Run());
  for (const std::string& e : expected) ASSERT_FALSE(e.empty());

  constexpr int kThreads = 16, kRounds = 3;
  std::vector<std::vector<std::string>> got(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      // Each thread starts at a different call, so distinct requests run
      // at the same time as well as the same ones.
      for (int r = 0; r < kRounds; ++r) {
        for (size_t k = 0; k < calls.size(); ++k) {
          got[t].push_back(calls[(k + t) % calls.size()].Run());
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(got[t].size(), kRounds * calls.size());
    for (size_t i = 0; i < got[t].size(); ++i) {
      const size_t k = (i % calls.size() + t) % calls.size();
      EXPECT_EQ(got[t][i], expected[k]) << "thread " << t << ", call " << k;
    }
  }
}

}  // namespace
}  // namespace topolint::testing
