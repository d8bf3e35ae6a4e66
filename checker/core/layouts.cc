#include "checker/core/layout_groups.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "checker/io/input_file.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"

namespace topolint {
namespace fs = std::filesystem;
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

// Longest first: `.hlo.pb` before `.pb`.
constexpr std::string_view kHloSuffixes[] = {
    ".hlo_module.pb", ".hlo.pb", ".hlo.txt", ".hlo", ".pb", ".txt"};

std::string_view StripHloSuffix(std::string_view name) {
  if (EndsWith(name, ".gz")) name.remove_suffix(3);
  for (std::string_view s : kHloSuffixes) {
    if (name.size() > s.size() && EndsWith(name, s)) {
      name.remove_suffix(s.size());
      break;
    }
  }
  return name;
}

// `module_0042` of `module_0042.jit_f.after_optimizations.txt`, or "".
std::string_view DumpModuleId(std::string_view name) {
  if (!StartsWith(name, "module_")) return {};
  size_t i = 7;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 7 || i >= name.size() || name[i] != '.') return {};
  return name.substr(0, i);
}

}  // namespace

bool IsBucketName(std::string_view name) {
  auto digits = [&](size_t* i) {
    size_t start = *i;
    while (*i < name.size() && name[*i] >= '0' && name[*i] <= '9') ++*i;
    return *i > start;
  };
  if (!StartsWith(name, "_tp")) return false;
  size_t i = 3;
  if (!digits(&i) || name.substr(i, 3) != "_bk") return false;
  i += 3;
  return digits(&i) && i == name.size();
}

std::string GroupDir(const std::string& path) {
  const std::string_view dir = ParentView(path);
  if (BaseName(dir) != "model") return std::string(dir);
  const std::string_view bucket = ParentView(dir);
  return std::string(IsBucketName(BaseName(bucket)) ? bucket : dir);
}

namespace {

bool HasMarker(const DirGroup& g, std::string_view name) {
  return std::find(g.markers.begin(), g.markers.end(), name) != g.markers.end();
}

}  // namespace

// optimum-neuron's states of an entry: locked, failed, incomplete.
std::string CacheEntryProblem(const DirGroup& g, UncheckedInput::Kind* kind) {
  if (!StartsWith(BaseName(g.dir), "MODULE_") || g.any_named) return "";
  for (const std::string& m : g.markers) {
    if (EndsWith(m, ".lock")) {
      *kind = UncheckedInput::Kind::kCacheInProgress;
      return fmt::format("compilation in progress ({})", m);
    }
  }
  const InputFile* neff = nullptr;
  for (const InputFile& f : g.neff) {
    if (BaseName(f.path) == "model.neff") neff = &f;
  }
  *kind = UncheckedInput::Kind::kCacheFailed;
  if (HasMarker(g, "model.log") && neff == nullptr) {
    return "failed compilation (model.log, no model.neff)";
  }
  if (neff != nullptr) {
    std::error_code ec;
    uintmax_t size = fs::file_size(neff->path, ec);
    if (!ec && size < 1024) {
      return fmt::format(
          "failed compilation (model.neff of {} bytes is a failure marker, "
          "not a NEFF)",
          size);
    }
  }
  if (!HasMarker(g, "model.done") && (!g.hlo.empty() || neff != nullptr)) {
    *kind = UncheckedInput::Kind::kCacheIncomplete;
    return "incomplete entry (no model.done)";
  }
  return "";
}

UnitSpec SkippedEntryUnit(std::string_view dir, UncheckedInput::Kind kind,
                          const std::string& why) {
  const char* advice =
      kind == UncheckedInput::Kind::kCacheInProgress
          ? "; check it again once the compiler is done"
      : kind == UncheckedInput::Kind::kCacheFailed
          ? "; its module was not checked (name the module file to check it "
            "alone, or delete the entry to have it compiled again)"
          : "";
  UnitSpec u;
  u.directory = std::string(dir);
  u.unchecked.push_back(
      {kind, u.directory,
       fmt::format("compile-cache entry not checked: {}{}", why, advice)});
  return u;
}

std::string UnitKeyOf(const UnitSpec& unit) {
  const std::string* best = nullptr;
  for (const InputFile& f : unit.files) {
    if (best == nullptr || f.path < *best) best = &f.path;
  }
  for (const UncheckedInput& u : unit.unchecked) {
    if (best == nullptr || u.path < *best) best = &u.path;
  }
  return best == nullptr ? std::string() : *best;
}

namespace {

UnitSpec NewUnit(const DirGroup& g) {
  UnitSpec u;
  u.directory = std::string(g.dir);
  return u;
}

void Append(const RoleFiles& from, std::vector<InputFile>* to) {
  to->insert(to->end(), from.begin(), from.end());
}

void Append(RoleFiles&& from, std::vector<InputFile>* to) {
  to->insert(to->end(), std::make_move_iterator(from.begin()),
             std::make_move_iterator(from.end()));
  from.clear();
}

// The files of one pairing key of a directory of several modules or NEFFs.
struct KeyedUnit {
  UnitSpec unit;
  int modules = 0;         // HLO modules with this key
  int sides = 0;           // NEFF sides (.neff, def.json) with this key
  bool candidate = false;  // may meet the other side (not a mid-way dump)
  bool merged = false;     // moved into another key's unit
  std::string name;        // the first file's name, for messages
};

// Keys of plain `def.json` files (no stem of their own) start with this.
constexpr char kPlainDefJsonKeyPrefix[] = "\x02";

// "a, b, c and 4 more": at most kShown names of one side.
std::string NameList(const std::vector<KeyedUnit*>& keys) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < keys.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += keys[i]->name;
  }
  if (keys.size() > kShown) {
    out += fmt::format(" and {} more", keys.size() - kShown);
  }
  return out;
}

// After pairing by name: modules and NEFF sides that met no partner. A
// plain `def.json` (no stem to pair by) pairs with the only module left
// unpaired; anything else left on both sides is not guessed at (a compile
// workdir's failed compile beside another's stray NEFF must not be
// compared) but named in one unchecked-input record, reported by the first
// unpaired module's unit, since the cross-file rules then do not run on
// those files (docs/layouts.md, "Pairing modules").
void PairLeftovers(std::string_view dir,
                   std::map<std::string, KeyedUnit>* keys) {
  std::vector<KeyedUnit*> modules, sides;
  for (auto& [key, k] : *keys) {
    if (!k.candidate || (k.modules > 0 && k.sides > 0)) continue;
    (k.modules > 0 ? modules : sides).push_back(&k);
  }
  if (modules.empty() || sides.empty()) return;
  if (modules.size() == 1 && sides.size() == 1) {
    auto it = keys->begin();
    while (&it->second != sides[0]) ++it;
    if (it->first.rfind(kPlainDefJsonKeyPrefix, 0) == 0) {
      for (InputFile& f : sides[0]->unit.files) {
        modules[0]->unit.files.push_back(std::move(f));
      }
      sides[0]->merged = true;
      return;
    }
  }
  modules[0]->unit.unchecked.push_back(
      {UncheckedInput::Kind::kUnpaired, std::string(dir),
       fmt::format(
           "cross-file rules not run: cannot tell which module each NEFF "
           "belongs to (modules {}; NEFF files {}), so they are checked each "
           "on its own, without the cross-file rules (xref-*, "
           "neff-lnc-mismatch); name the pair with --hlo MODULE --neff NEFF, "
           "or name the files as the layout rule pairs them (X.hlo or "
           "X.hlo_module.pb with X.neff or X.def.json)",
           NameList(modules), NameList(sides))});
}

}  // namespace

DirUnitList DirUnits(DirGroup& g) {
  bool dump = false;
  for (const InputFile& f : g.hlo) {
    if (!DumpModuleId(BaseName(f.path)).empty()) dump = true;
  }
  if (!g.modules() || (g.hlo.size() <= 1 && g.neff.size() <= 1 && !dump)) {
    UnitSpec u = NewUnit(g);
    u.files.reserve(g.files);
    for (auto* v : {&g.hlo, &g.neff, &g.def_json})
      Append(std::move(*v), &u.files);
    Append(g.configs, &u.files);
    Append(std::move(g.shared), &u.files);
    u.unchecked = std::move(g.unread);
    g.unread.clear();
    DirUnitList units;
    units.push_back(std::move(u));
    return units;
  }
  // Each module with the NEFF side of its own name, never another's.
  std::map<std::string, KeyedUnit> by_key;
  auto add = [&](const InputFile& f, std::string key, bool module,
                 bool candidate) {
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      it = by_key.try_emplace(std::move(key)).first;
      it->second.unit = NewUnit(g);
    }
    KeyedUnit& k = it->second;
    k.unit.files.push_back(f);
    (module ? k.modules : k.sides) += 1;
    k.candidate = k.candidate || candidate;
    if (k.name.empty()) k.name = std::string(BaseName(f.path));
  };
  for (const InputFile& f : g.hlo) {
    std::string_view name = BaseName(f.path);
    std::string key = PairKey(name, FileRole::kHlo);
    bool candidate = true;
    // Only the final module of a dump is compared with a NEFF.
    if (!DumpModuleId(name).empty() && !IsFinalDumpModule(name)) {
      key = std::string(name);  // sorts after the module id: a unit of its own
      candidate = false;
    }
    add(f, key, true, candidate);
  }
  for (const InputFile& f : g.neff) {
    add(f, PairKey(BaseName(f.path), FileRole::kNeff), false, true);
  }
  for (const InputFile& f : g.def_json) {
    std::string_view name = BaseName(f.path);
    std::string key = EndsWith(name, ".def.json")
                          ? std::string(name.substr(0, name.size() - 9))
                          : kPlainDefJsonKeyPrefix + std::string(name);
    add(f, key, false, true);
  }
  PairLeftovers(g.dir, &by_key);
  DirUnitList units;
  for (auto& [key, k] : by_key) {
    if (k.merged) continue;
    Append(g.configs, &k.unit.files);
    Append(g.shared, &k.unit.files);
    units.push_back(std::move(k.unit));
  }
  if (!g.unread.empty()) {
    std::vector<UncheckedInput>& to = units.front().unchecked;
    to.insert(to.end(), std::make_move_iterator(g.unread.begin()),
              std::make_move_iterator(g.unread.end()));
    g.unread.clear();
  }
  return units;
}

UnitSpec NotSearchedUnit(std::string directory, std::string path,
                         std::string message) {
  UnitSpec u;
  u.directory = std::move(directory);
  u.unchecked.push_back({UncheckedInput::Kind::kNotSearched, std::move(path),
                         std::move(message)});
  return u;
}

namespace {

// The pairing key of a file of `role` (DirUnits' keys; "" for a plain
// def.json, which has no stem to pair by).
std::string KeyOfRoleFile(const InputFile& f, FileRole role) {
  const std::string_view name = BaseName(f.path);
  if (role == FileRole::kDefJson) {
    return EndsWith(name, ".def.json")
               ? std::string(name.substr(0, name.size() - 9))
               : std::string();
  }
  return PairKey(name, role);
}

// The pairing keys of one side of a group: the modules', or the NEFF
// sides' (.neff and def.json).
std::set<std::string> SideKeys(const DirGroup& g, bool modules) {
  std::set<std::string> keys;
  auto add = [&keys](const RoleFiles& files, FileRole role) {
    for (const InputFile& f : files) keys.insert(KeyOfRoleFile(f, role));
  };
  if (modules) {
    add(g.hlo, FileRole::kHlo);
  } else {
    add(g.neff, FileRole::kNeff);
    add(g.def_json, FileRole::kDefJson);
  }
  return keys;
}

// Keeps one name of each file of `files` (see DropSameFiles).
void DropSameFilesOfRole(RoleFiles* files, FileRole role,
                         const std::set<std::string>& partner_keys,
                         std::vector<SkippedPath>* dropped) {
  if (files->size() < 2) return;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<size_t>> names;
  for (size_t i = 0; i < files->size(); ++i) {
    FileId id;
    if (IdOfPath((*files)[i].path, &id)) names[{id.dev, id.ino}].push_back(i);
  }
  std::vector<bool> drop(files->size(), false);
  for (const auto& [id, of] : names) {
    if (of.size() < 2) continue;
    // Named first, then a name that pairs, then the file itself rather
    // than a symlink to it, then path order.
    auto rank = [&](size_t i) {
      const InputFile& f = (*files)[i];
      // A plain def.json (no stem) pairs with the module left unpaired.
      const std::string key = KeyOfRoleFile(f, role);
      const bool pairs = (role == FileRole::kDefJson && key.empty()) ||
                         partner_keys.count(key) != 0;
      std::error_code ec;
      const bool link = fs::is_symlink(fs::symlink_status(f.path, ec));
      return std::make_tuple(!f.named, !pairs, link, f.path);
    };
    size_t keep = of.front();
    for (size_t i : of) {
      if (rank(i) < rank(keep)) keep = i;
    }
    for (size_t i : of) {
      if (i == keep) continue;
      drop[i] = true;
      dropped->push_back(
          {(*files)[i].path,
           fmt::format("{} is {} (same file: one device and inode); checked "
                       "once, as {}",
                       BaseName((*files)[i].path),
                       BaseName((*files)[keep].path), (*files)[keep].path),
           1});
    }
  }
  RoleFiles kept;
  for (size_t i = 0; i < files->size(); ++i) {
    if (!drop[i]) kept.push_back(std::move((*files)[i]));
  }
  *files = std::move(kept);
}

}  // namespace

void DropSameFiles(DirGroup* g, std::vector<SkippedPath>* dropped) {
  const bool several = g->hlo.size() > 1 || g->neff.size() > 1 ||
                       g->def_json.size() > 1 || g->configs.size() > 1 ||
                       g->shared.size() > 1;
  if (!several) return;  // a compile-cache entry: one file per role
  const std::set<std::string> module_keys = SideKeys(*g, true);
  const std::set<std::string> side_keys = SideKeys(*g, false);
  const size_t before = dropped->size();
  DropSameFilesOfRole(&g->hlo, FileRole::kHlo, side_keys, dropped);
  DropSameFilesOfRole(&g->neff, FileRole::kNeff, module_keys, dropped);
  DropSameFilesOfRole(&g->def_json, FileRole::kDefJson, module_keys, dropped);
  DropSameFilesOfRole(&g->configs, FileRole::kConfig, {}, dropped);
  DropSameFilesOfRole(&g->shared, FileRole::kJson, {}, dropped);
  g->files -= dropped->size() - before;
}

bool IsFinalDumpModule(std::string_view name) {
  if (DumpModuleId(name).empty()) return false;
  if (EndsWith(name, ".gz")) name.remove_suffix(3);
  for (std::string_view s : {".txt", ".hlo.pb", ".pb"}) {
    if (EndsWith(name, s)) {
      name.remove_suffix(s.size());
      break;
    }
  }
  // `.after_optimizations`, `.cpu_after_optimizations`, ...
  return EndsWith(name, "after_optimizations");
}

std::string PairKey(std::string_view name, FileRole role) {
  if (std::string_view id = DumpModuleId(name); !id.empty()) {
    return std::string(id);
  }
  if (role == FileRole::kNeff) {
    if (EndsWith(name, ".neff")) name.remove_suffix(5);
    if (name.find('.') != std::string_view::npos) name = StripHloSuffix(name);
    return std::string(name);
  }
  return std::string(StripHloSuffix(name));
}

void AddFileToGroup(ClassifiedFile&& c, DirGroup* group) {
  DirGroup& g = *group;
  if (g.root.empty() || c.file.root->size() < g.root.size()) {
    g.root = *c.file.root;  // `files` holds it until the end
  }
  ++g.files;
  g.any_named = g.any_named || c.file.named;
  RoleFiles* to = nullptr;
  InputKind kind = InputKind::kJson;
  switch (c.role) {
    case FileRole::kHlo:
      to = &g.hlo;
      kind = InputKind::kHlo;
      break;
    case FileRole::kNeff:
      to = &g.neff;
      kind = InputKind::kNeff;
      break;
    case FileRole::kDefJson:
      to = &g.def_json;
      break;
    case FileRole::kConfig:
      to = &g.configs;
      break;
    case FileRole::kCompileFlags:
      to = &g.shared;
      kind = InputKind::kCompileFlags;
      break;
    case FileRole::kJson:
      to = &g.shared;
      break;
    case FileRole::kCacheMarker:
      g.markers.emplace_back(BaseName(c.file.path));
      break;
    case FileRole::kUnread:
      g.unread.push_back({UncheckedInput::Kind::kUnread, std::move(c.file.path),
                          std::move(c.reason)});
      break;
    case FileRole::kNone:
      break;
  }
  if (to != nullptr) {
    to->push_back({std::move(c.file.path), kind, c.file.named,
                   /*from_stdin=*/false, c.role == FileRole::kDefJson,
                   /*seen_regular=*/true, std::move(c.config)});
  }
}

}  // namespace topolint
