#include "checker/neff/neff_archive.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "checker/io/input_file.h"
#include "checker/json/json_loader.h"
#include "checker/neff/neff_tar.h"
#include "fmt/format.h"

namespace topolint::neff {
namespace {

uint64_t LoadLittleEndian(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void AddProblem(NeffArchive& a, std::string message) {
  a.problems.push_back({Location{a.file, 0, 0}, std::move(message)});
}

std::string MemberDisplay(const NeffArchive& a, const std::string& member) {
  return a.file + ":" + member;
}

// Checks the header (kNeffHeaderBytes at `h`) of a file of `file_size`
// bytes. Returns the payload window as ReadHeader does.
bool CheckHeader(const unsigned char* h, uint64_t file_size, NeffArchive& a,
                 uint64_t* offset, uint64_t* length) {
  const uint64_t header_size = LoadLittleEndian(&h[kNeffHeaderSizeOffset], 8);
  const uint64_t data_size = LoadLittleEndian(&h[kNeffDataSizeOffset], 8);
  const uint64_t lnc = LoadLittleEndian(&h[kNeffLncSizeOffset], 4);
  if (header_size < kNeffHeaderBytes || header_size > file_size) {
    AddProblem(a, fmt::format("header_size is {}, expected at least {} and at "
                              "most the file size {}",
                              header_size, kNeffHeaderBytes, file_size));
    return false;
  }
  a.header_ok = true;
  a.lnc_size = static_cast<int64_t>(lnc);
  if (lnc > 2) {
    AddProblem(a, fmt::format("header lnc_size is {}, expected 1 or 2 (or 0 "
                              "when not recorded)",
                              lnc));
  }
  const uint64_t payload = file_size - header_size;
  if (data_size > payload) {
    AddProblem(a, fmt::format("the file is truncated: header data_size is {} "
                              "but only {} bytes follow the {}-byte header",
                              data_size, payload, header_size));
  } else if (data_size < payload) {
    AddProblem(a, fmt::format("header data_size is {} but {} bytes follow the "
                              "{}-byte header",
                              data_size, payload, header_size));
  }
  if (payload == 0) {
    AddProblem(a, "no tar payload follows the header");
    return false;
  }
  *offset = header_size;
  *length = payload;
  return true;
}

// A .neff of at most this many bytes is read whole, in one read, and its
// payload scanned from memory (the compile-cache entries users check by the
// thousand are a few KiB); a larger one is streamed from the file.
constexpr uint64_t kWholeFileBytes = uint64_t{1} << 20;

struct FdCloser {
  void operator()(const int* fd) const { ::close(*fd); }
};

// Reads `size` bytes at offset 0 of `fd` into *out; false when fewer can be
// read (the file shrank, or a read error).
bool ReadAll(int fd, uint64_t size, std::string* out) {
  out->resize(static_cast<size_t>(size));
  size_t got = 0;
  while (got < out->size()) {
    const ssize_t n = ::pread(fd, out->data() + got, out->size() - got,
                              static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

// `path` looked at and opened for reading: nullopt, with the problem added
// to `a`, when it is not a regular file or cannot be opened.
std::optional<OpenedInput> OpenArchive(const std::string& path,
                                       NeffArchive& a) {
  // OpenInput refuses FIFOs and devices without blocking on them.
  const FileKind kind = KindOfPath(path);
  if (kind != FileKind::kRegular && kind != FileKind::kMissing) {
    AddProblem(a, fmt::format("the path is not a regular file: it is {}",
                              KindName(kind)));
    return std::nullopt;
  }
  // Just looked at: the descriptor is judged again (fstat), not the path.
  absl::StatusOr<OpenedInput> opened = OpenInput(path, OpenCheck::kSeenRegular);
  if (!opened.ok()) {
    AddProblem(a, fmt::format("cannot open the file: {}",
                              std::string(opened.status().message())));
    return std::nullopt;
  }
  return *opened;
}

// Reads and checks the 1024-byte header of the file `opened` (and closes
// it). Returns the payload window [offset, offset + length) when the header
// locates one, and a file of at most kWholeFileBytes whole in *whole (else
// *whole is left empty).
bool ReadOpenedHeader(OpenedInput& opened, NeffArchive& a, uint64_t* offset,
                      uint64_t* length, std::string* whole) {
  std::unique_ptr<const int, FdCloser> fd(&opened.fd);
  if (opened.kind != FileKind::kRegular) {
    AddProblem(a, "the path is not a regular file");
    return false;
  }
  const uint64_t file_size = static_cast<uint64_t>(opened.size);
  if (file_size < kNeffHeaderBytes) {
    AddProblem(a, fmt::format("the file is {} bytes, shorter than the {}-byte "
                              "NEFF header",
                              file_size, kNeffHeaderBytes));
    return false;
  }
  std::string head;
  if (file_size <= kWholeFileBytes && ReadAll(*fd, file_size, whole)) {
    head = whole->substr(0, kNeffHeaderBytes);
  } else {
    whole->clear();
    if (!ReadAll(*fd, kNeffHeaderBytes, &head)) {
      AddProblem(a, "the NEFF header cannot be read");
      return false;
    }
  }
  return CheckHeader(reinterpret_cast<const unsigned char*>(head.data()),
                     file_size, a, offset, length);
}

bool IsKnownJsonMember(const std::string& name) {
  return name == kKelfMember || name == "def.json" ||
         absl::EndsWith(name, "/def.json");
}

// Keeps member `member`'s text for the caret display while the archive's
// kept texts stay within kMaxKeptMemberTextBytes, and records the syntax
// error of `parsed`, its parse; returns whether it parsed.
bool KeepMember(NeffArchive& a, const std::string& member,
                const std::string& text, const json::ParseResult& parsed) {
  const std::string display = MemberDisplay(a, member);
  size_t kept = 0;
  for (const auto& [name, t] : a.member_texts) kept += t.size();
  if (text.size() <=
      kMaxKeptMemberTextBytes - std::min(kept, kMaxKeptMemberTextBytes)) {
    a.member_texts.emplace_back(display, text);
  }
  if (!parsed.ok) {
    a.json_syntax.push_back(
        {At(display, parsed.error.pos), parsed.error.message});
  }
  return parsed.ok;
}

// Parses a member's JSON into *root (KeepMember).
bool ParseMember(NeffArchive& a, const std::string& member,
                 const std::string& text, json::Value* root) {
  json::ParseResult r = json::Parse(text);
  if (!KeepMember(a, member, text, r)) return false;
  *root = std::move(r.root);
  return true;
}

// ParseMember for a graph's def.json, read by the streaming def.json reader
// (its topologies share the text).
bool ParseGraphMember(NeffArchive& a, const std::string& member,
                      std::string text, DefJsonDocument* doc) {
  auto shared = std::make_shared<const std::string>(std::move(text));
  *doc = ParseDefJson(shared);
  return KeepMember(a, member, *shared, doc->parsed);
}

// A graph as listed by kelf-0.json.
struct KelfGraph {
  std::string name;
  std::string definition;  // normalized
  TextPos pos;             // the "definition" value
};

// Reads the "graphs" array of kelf-0.json into `graphs`, reporting problems
// at their position in the member.
void ReadKelf(NeffArchive& a, const json::Value& root, int64_t max_graphs,
              std::vector<KelfGraph>* graphs) {
  const std::string display = MemberDisplay(a, kKelfMember);
  auto problem = [&](TextPos pos, std::string message) {
    a.problems.push_back({At(display, pos), std::move(message)});
  };
  const json::Value* list = root.Find("graphs");
  if (list == nullptr || !list->is_array()) {
    problem(list != nullptr ? list->pos : root.pos,
            list != nullptr
                ? fmt::format("kelf-0.json \"graphs\" is {}, expected an array "
                              "of {{\"definition\", \"name\"}} objects",
                              list->TypeName())
                : "kelf-0.json has no \"graphs\" array; expected one "
                  "{\"definition\", \"name\"} object per graph");
    return;
  }
  a.kelf_loc = At(display, list->pos);
  if (list->array.empty()) {
    problem(list->pos,
            "kelf-0.json lists no graphs; expected one per "
            "physical core");
  }
  absl::flat_hash_map<std::string, size_t> seen;
  for (size_t i = 0; i < list->array.size(); ++i) {
    if (static_cast<int64_t>(i) >= max_graphs) {
      problem(list->array[i].pos,
              fmt::format("kelf-0.json lists more than {} graphs (the limit); "
                          "the rest is not read",
                          max_graphs));
      break;
    }
    const json::Value& g = list->array[i];
    const json::Value* def = g.Find("definition");
    if (!g.is_object() || def == nullptr || !def->is_string()) {
      problem(def != nullptr ? def->pos : g.pos,
              fmt::format("kelf-0.json graph {} has no \"definition\" string "
                          "naming its def.json member",
                          i));
      continue;
    }
    KelfGraph kg;
    kg.pos = def->pos;
    if (!NormalizeMemberPath(def->string_value, &kg.definition)) {
      problem(def->pos, fmt::format("kelf-0.json graph {} definition '{}' is "
                                    "not a relative path inside the archive",
                                    i, def->string_value));
      continue;
    }
    const json::Value* name = g.Find("name");
    if (name != nullptr && name->is_string()) {
      kg.name = name->string_value;
    } else {
      kg.name = kg.definition.substr(0, kg.definition.find('/'));
    }
    auto [it, inserted] = seen.emplace(kg.definition, graphs->size());
    if (!inserted) {
      problem(def->pos,
              fmt::format("kelf-0.json graph {} repeats definition '{}' of "
                          "graph {}; each graph needs its own def.json",
                          i, kg.definition, it->second));
    }
    graphs->push_back(std::move(kg));
  }
}

// One pass over the tar payload, reading the members `want` selects.
using Scanner =
    std::function<TarScan(const std::function<bool(const std::string&)>& want)>;

// Reads kelf-0.json and the def.json members of the payload into `a`.
void ReadPayload(const Scanner& scan_tar, const NeffArchiveLimits& limits,
                 NeffArchive& a) {
  TarScan scan = scan_tar(IsKnownJsonMember);
  for (std::string& p : scan.problems) AddProblem(a, std::move(p));

  // kelf-0.json: the list of graphs.
  std::vector<KelfGraph> kelf;
  auto kelf_text = scan.texts.find(kKelfMember);
  if (kelf_text != scan.texts.end()) {
    json::Value root;
    const std::string text = std::move(kelf_text->second);
    scan.texts.erase(kelf_text);
    if (ParseMember(a, kKelfMember, text, &root)) {
      if (root.is_object()) {
        ReadKelf(a, root, limits.max_members, &kelf);
      } else {
        a.problems.push_back(
            {At(MemberDisplay(a, kKelfMember), root.pos),
             fmt::format("kelf-0.json is {}, expected an object with a "
                         "\"graphs\" array",
                         root.TypeName())});
      }
    }
  } else if (scan.complete && scan.members.count(kKelfMember) == 0) {
    AddProblem(a, "the archive has no kelf-0.json, so its graphs are unknown");
  }

  // A definition with an unusual name was not read in the first pass.
  std::set<std::string> second_pass;
  for (const KelfGraph& g : kelf) {
    if (scan.members.count(g.definition) != 0 &&
        !IsKnownJsonMember(g.definition)) {
      second_pass.insert(g.definition);
    }
  }
  if (!second_pass.empty()) {
    TarScan more = scan_tar([&](const std::string& n) {
      return second_pass.count(n) != 0;
    });  // its problems repeat the first pass's
    for (auto& [name, text] : more.texts) scan.texts[name] = std::move(text);
  }

  std::set<std::string> done;
  for (const KelfGraph& g : kelf) {
    a.graph_names.push_back(g.name);
    a.graph_definitions.push_back(g.definition);
    if (!done.insert(g.definition).second) continue;
    auto text = scan.texts.find(g.definition);
    if (text == scan.texts.end()) {
      if (scan.complete && scan.members.count(g.definition) == 0) {
        a.problems.push_back(
            {At(MemberDisplay(a, kKelfMember), g.pos),
             fmt::format("graph '{}' names definition '{}', which is not a "
                         "member of the archive",
                         g.name, g.definition)});
      }
      continue;
    }
    DefJsonDocument doc;
    if (!ParseGraphMember(a, g.definition, std::move(text->second), &doc)) {
      continue;
    }
    const json::Value& root = doc.parsed.root;
    if (!root.is_object()) {
      a.problems.push_back(
          {At(MemberDisplay(a, g.definition), root.pos),
           fmt::format("{} is {}, expected an object with a \"CCInfo\" key",
                       g.definition, root.TypeName())});
      continue;
    }
    a.graphs.push_back(
        BuildDefJson(std::move(doc), MemberDisplay(a, g.definition)));
  }
}

// The payload held in memory.
Scanner MemoryScanner(std::string_view payload,
                      const NeffArchiveLimits& limits) {
  return
      [payload, &limits](const std::function<bool(const std::string&)>& want) {
        return ScanNeffTarMemory(payload, want, limits);
      };
}

// The archive `a` names, from the file `opened` (closed on the way): its
// payload from the file read whole when it is small, else from `path`.
NeffArchive ReadOpened(OpenedInput& opened, const std::string& path,
                       const NeffArchiveLimits& limits, NeffArchive a) {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string whole;
  if (!ReadOpenedHeader(opened, a, &offset, &length, &whole)) return a;
  if (!whole.empty()) {
    ReadPayload(
        MemoryScanner(std::string_view(whole).substr(offset, length), limits),
        limits, a);
  } else {
    ReadPayload(
        [&](const std::function<bool(const std::string&)>& want) {
          return ScanNeffTar(path, offset, length, want, limits);
        },
        limits, a);
  }
  return a;
}

}  // namespace

NeffArchive ReadNeffArchive(const std::string& path,
                            const std::string& display_name,
                            const NeffArchiveLimits& limits) {
  NeffArchive a;
  a.file = display_name;
  std::optional<OpenedInput> opened = OpenArchive(path, a);
  if (!opened.has_value()) return a;
  return ReadOpened(*opened, path, limits, std::move(a));
}

NeffArchive ReadOpenedNeffArchive(OpenedInput opened, const std::string& path,
                                  const std::string& display_name,
                                  const NeffArchiveLimits& limits) {
  NeffArchive a;
  a.file = display_name;
  return ReadOpened(opened, path, limits, std::move(a));
}

NeffArchive ReadNeffArchiveFromMemory(std::string_view bytes,
                                      const std::string& display_name,
                                      const NeffArchiveLimits& limits) {
  NeffArchive a;
  a.file = display_name;
  if (bytes.size() < kNeffHeaderBytes) {
    AddProblem(a, fmt::format("the archive is {} bytes, shorter than the "
                              "{}-byte NEFF header",
                              bytes.size(), kNeffHeaderBytes));
    return a;
  }
  uint64_t offset = 0;
  uint64_t length = 0;
  if (!CheckHeader(reinterpret_cast<const unsigned char*>(bytes.data()),
                   bytes.size(), a, &offset, &length)) {
    return a;
  }
  ReadPayload(MemoryScanner(bytes.substr(offset, length), limits), limits, a);
  return a;
}

}  // namespace topolint::neff
