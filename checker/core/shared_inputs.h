// The JSON inputs that several units of one run read, loaded once: a
// component config inherited by every entry of a compile cache is read and
// parsed for the first unit that needs it, and each unit gets a copy of the
// result instead of reading the file again.
#ifndef TOPOLINT_CHECKER_CORE_SHARED_INPUTS_H_
#define TOPOLINT_CHECKER_CORE_SHARED_INPUTS_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/status/status.h"
#include "checker/core/discovery.h"
#include "checker/model/unit.h"

namespace topolint {

// Thread-safe: units load in parallel. Not copyable or movable.
class SharedInputs {
 public:
  // Loads one input into a unit (what LoadUnit does for a JSON file).
  using LoadFn = std::function<absl::Status(const InputFile&, Unit*)>;

  // No inputs yet: a streamed search adds them as it finds them (Share).
  explicit SharedInputs(LoadFn load);
  SharedInputs(const SharedInputs&) = delete;
  SharedInputs& operator=(const SharedInputs&) = delete;

  // Makes `f` (a disk JSON input not named on the command line) a shared
  // input from now on, for any number of units: its result is kept until
  // the SharedInputs is destroyed. For a search that learns which inputs
  // are shared as it goes (an inherited component config). A file already
  // shared, or one that is not shareable, is left as it is.
  void Share(const InputFile& f);

  // True when `f` is one of the shared inputs.
  bool Holds(const InputFile& f) const;

  // Adds what loading `f` (which Holds) gives to `*unit`: the same JSON
  // syntax problems, def.json, config or compile flags as loading it for
  // this unit alone, or the same error. The first call loads the file;
  // later calls copy the result.
  absl::Status LoadInto(const InputFile& f, Unit* unit) const;

  // Files read so far (for tests: each shared input is read once).
  size_t loads() const { return loads_.load(); }

  // Number of shared inputs.
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    InputFile file;
    mutable std::mutex mu;
    mutable bool loaded = false;
    mutable absl::Status status;
    mutable std::unique_ptr<Unit> result;  // the inputs loading gave
  };

  LoadFn load_;
  mutable std::mutex entries_mu_;  // Share may add while units load
  std::unordered_map<std::string, std::unique_ptr<Entry>> entries_;
  mutable std::atomic<size_t> loads_{0};
};

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_SHARED_INPUTS_H_
