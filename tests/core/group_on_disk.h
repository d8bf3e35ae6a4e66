// Test helper: the units the one walk (UnitSources, checker/core/
// unit_sources.h) forms from files written to a temporary directory with
// content of the role given, so that layout tests state a directory as a
// list of (path, role) and read the units back with the paths as given.
#ifndef TOPOLINT_TESTS_CORE_GROUP_ON_DISK_H_
#define TOPOLINT_TESTS_CORE_GROUP_ON_DISK_H_

#include <string>
#include <utility>
#include <vector>

#include "checker/core/discovery.h"
#include "checker/core/layout_groups.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {

struct RoleFile {
  std::string path;  // relative, e.g. "r/model.hlo"
  FileRole role;
};

// Content the classification gives `role` for a file of that name.
inline std::string ContentOf(FileRole role) {
  switch (role) {
    case FileRole::kHlo:
      return "HloModule m\n";
    case FileRole::kNeff:
      return std::string(2048, '\0');  // not a failure marker (< 1 KiB)
    case FileRole::kConfig:
      return R"({"neuron_config": {"tp_degree": 2}})";
    case FileRole::kDefJson:
    case FileRole::kCompileFlags:
    case FileRole::kJson:
      return "{}";
    case FileRole::kCacheMarker:
    case FileRole::kUnread:
    case FileRole::kNone:
      break;
  }
  return "";
}

// Writes `files` under a temporary directory and returns the units of a
// search of `roots` (relative, "r" by default), paths relative again;
// `*skipped` gets what the search left out.
inline std::vector<UnitSpec> GroupOnDisk(
    const std::vector<RoleFile>& files, std::vector<SkippedPath>* skipped,
    const std::vector<std::string>& roots = {"r"}) {
  TempDir d;
  for (const RoleFile& f : files) d.Write(f.path, ContentOf(f.role));
  std::vector<std::string> abs;
  for (const std::string& r : roots) abs.push_back(d.path() + "/" + r);
  std::vector<UnitSpec> units;
  DiscoveryReport report;
  absl::Status st = DiscoverUnits(abs, DiscoveryLimits{}, &units, &report);
  EXPECT_TRUE(st.ok()) << st;
  const std::string prefix = d.path() + "/";
  auto strip = [&](std::string* p) {
    if (p->compare(0, prefix.size(), prefix) == 0) p->erase(0, prefix.size());
  };
  for (UnitSpec& u : units) {
    strip(&u.directory);
    for (InputFile& f : u.files) strip(&f.path);
    for (UncheckedInput& r : u.unchecked) {
      strip(&r.path);
      size_t at;
      while ((at = r.message.find(prefix)) != std::string::npos) {
        r.message.erase(at, prefix.size());
      }
    }
  }
  for (SkippedPath& s : report.skipped) {
    strip(&s.path);
    skipped->push_back(std::move(s));
  }
  return units;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_CORE_GROUP_ON_DISK_H_
