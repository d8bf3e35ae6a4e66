// The bodies of the fuzz targets, header-only so that both the libFuzzer
// drivers (fuzz/*_fuzz.cc) and the regression test
// (tests/reliability/fuzz_regressions_test.cc) run the exact same code on an
// input. Each function takes one raw input and never fails on its own: a
// crash, a sanitizer report or fuzz::Fail is the finding.
#ifndef TOPOLINT_FUZZ_FUZZ_TARGETS_H_
#define TOPOLINT_FUZZ_FUZZ_TARGETS_H_

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "checker/config/component_config.h"
#include "checker/config/parallel_config.h"
#include "checker/core/discovery.h"
#include "checker/core/project_config.h"
#include "checker/diag/baseline.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"
#include "checker/neff/neff_archive.h"
#include "fmt/format.h"
#include "fuzz/fuzz_util.h"

namespace topolint::fuzz {

// ---------------------------------------------------------------- HLO parser

namespace internal {

inline void AppendPos(std::string* out, TextPos p) {
  *out += fmt::format("@{}:{}", p.line, p.column);
}

// What the rules can see of a module, as text, for the differential check.
inline std::string Digest(const hlo::Module& m) {
  std::string d = fmt::format(
      "{}|{}|{}|{}|{}|{}\n", m.name, m.has_header, m.replica_count.value_or(-1),
      m.num_partitions.value_or(-1), m.entry_computation, m.computation_count);
  for (const hlo::Collective& c : m.collectives) {
    d += fmt::format("{} {} {} ch={} ugdi={}/{} rg={} n={} pairs={} ops={}",
                     c.name, c.opcode, c.computation, c.channel_id,
                     c.has_use_global_device_ids, c.use_global_device_ids,
                     static_cast<int>(c.replica_groups.form),
                     c.replica_groups.num_groups(),
                     c.source_target_pairs.pairs.size(), c.operand_count);
    AppendPos(&d, c.pos);
    AppendPos(&d, c.replica_groups.pos);
    d += '\n';
  }
  for (const hlo::SyntaxError& e : m.syntax_errors) {
    AppendPos(&d, e.pos);
    d += " " + e.message + "\n";
  }
  for (const hlo::Suppression& s : m.suppressions) {
    AppendPos(&d, s.pos);
    d += fmt::format(" -> {}\n", s.target_line);
  }
  return d;
}

}  // namespace internal

// ParseHloText (+ LooksLikeHlo) and every rule over the module. Checks that
// syntax errors are located inside the text, and the parser's documented
// window invariance: a tiny read window gives the same module.
inline void RunHloParserTarget(std::string_view input) {
  const std::string text(input);
  (void)hlo::LooksLikeHlo(text);
  hlo::Module whole = hlo::ParseHloText(text, "fuzz.hlo");
  const std::vector<Document> docs = {{"fuzz.hlo", text}};
  for (const hlo::SyntaxError& e : whole.syntax_errors) {
    CheckLocation(At("fuzz.hlo", e.pos), docs, "hlo syntax error");
    if (e.pos.line < 1 || e.pos.column < 1) Fail("unlocated hlo syntax error");
    if (e.message.empty()) Fail("hlo syntax error without a message");
  }

  hlo::ParseOptions small;
  small.window_bytes = 1 + (text.size() % 61);
  const std::string a = internal::Digest(whole);
  const std::string b =
      internal::Digest(hlo::ParseHloText(text, "fuzz.hlo", small));
  if (a != b) {
    Fail(
        fmt::format("window of {} bytes changes the parse:\n--- one window\n"
                    "{}--- small window\n{}",
                    small.window_bytes, a, b));
  }
  // Line ends (checker/hlo/input_window.h): a text without '\r' written
  // with CR-only line ends, or after a byte order mark, parses the same.
  if (text.find('\r') == std::string::npos &&
      text.compare(0, 3, "\xEF\xBB\xBF") != 0) {
    std::string cr = text;
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    for (const std::string& variant : {cr, "\xEF\xBB\xBF" + text}) {
      const std::string c =
          internal::Digest(hlo::ParseHloText(variant, "fuzz.hlo", small));
      if (c != a) {
        Fail(
            fmt::format("CR line ends or a BOM change the parse:\n--- LF\n"
                        "{}--- variant\n{}",
                        a, c));
      }
    }
  }

  Unit unit;
  unit.directory = ".";
  unit.hlo_modules.push_back(std::move(whole));
  CheckRenderExplain(unit, CheckOptions{}, docs);
}

// ------------------------------------------------------------- binary HLO

// The binary HLO reader (checker/hlo/proto/hlo_proto_reader.h) and the HLO
// rules: at most one syntax error, located at a byte offset inside the input
// (plain input), with a message; the streaming sink sees the same
// collectives as the collecting parse; every rule, renderer and explain
// runs on the result.
inline void RunHloProtoTarget(std::string_view input) {
  hlo::Module whole;
  hlo::ParseHloProto(input, "fuzz.pb", hlo::ParseOptions{}, &whole);
  if (whole.syntax_errors.size() > 1) Fail("more than one proto error");
  for (const hlo::SyntaxError& e : whole.syntax_errors) {
    if (!e.pos.is_byte()) Fail("proto syntax error without a byte offset");
    if (!whole.gzip &&
        (e.pos.byte_offset() < 0 ||
         e.pos.byte_offset() > static_cast<int64_t>(input.size()))) {
      Fail(fmt::format("proto syntax error at byte {} of {}",
                       e.pos.byte_offset(), input.size()));
    }
    if (e.message.empty()) Fail("proto syntax error without a message");
  }
  for (const hlo::Collective& c : whole.collectives) {
    if (!c.pos.is_byte()) Fail("binary collective without a byte offset");
  }
  hlo::Module streamed;
  std::string names;
  hlo::ParseOptions sink;
  sink.on_collective = [&](const hlo::Module&, hlo::Collective& op) {
    names += op.name + "\n";
  };
  hlo::ParseHloProto(input, "fuzz.pb", sink, &streamed);
  std::string expected;
  for (const hlo::Collective& c : whole.collectives) expected += c.name + "\n";
  if (names != expected) Fail("the sink sees other collectives");
  Unit unit;
  unit.directory = ".";
  unit.hlo_modules.push_back(std::move(whole));
  CheckRenderExplain(unit, CheckOptions{}, {});
}

// ------------------------------------------------------------- def.json

namespace internal {

inline bool SamePos(TextPos a, TextPos b) {
  return a.line == b.line && a.column == b.column;
}

// The streaming reader's model (rank positions found by re-scanning) must be
// the exact reading's.
inline void CompareDefJsons(const neff::DefJson& fast,
                            const neff::DefJson& exact) {
  if (fast.topology_count != exact.topology_count ||
      fast.topologies.size() != exact.topologies.size() ||
      fast.schema_problems.size() != exact.schema_problems.size() ||
      fast.pairs.size() != exact.pairs.size()) {
    Fail("the streaming def.json reader reads another model");
  }
  for (size_t i = 0; i < fast.schema_problems.size(); ++i) {
    if (fast.schema_problems[i].message != exact.schema_problems[i].message ||
        !SamePos(fast.schema_problems[i].pos, exact.schema_problems[i].pos)) {
      Fail("the streaming def.json reader reports other schema problems");
    }
  }
  for (size_t t = 0; t < fast.topologies.size(); ++t) {
    const neff::Topology& a = fast.topologies[t];
    const neff::Topology& b = exact.topologies[t];
    if (a.index != b.index || !SamePos(a.pos, b.pos) ||
        a.num_groups() != b.num_groups() || a.num_ranks() != b.num_ranks()) {
      Fail("the streaming def.json reader reads another topology");
    }
    for (int64_t g = 0; g < a.num_groups(); ++g) {
      if (a.group_size(g) != b.group_size(g) ||
          !SamePos(a.group_pos(g), b.group_pos(g))) {
        Fail("the streaming def.json reader reads another group");
      }
      for (int64_t r = 0; r < a.group_size(g); ++r) {
        if (a.rank(g, r) != b.rank(g, r) ||
            !SamePos(a.rank_pos(g, r), b.rank_pos(g, r))) {
          Fail("the streaming def.json reader locates a rank elsewhere");
        }
      }
    }
  }
}

}  // namespace internal

// json::Parse, BuildDefJson and every rule (the NEFF rules) over it; the
// streaming reader (neff::ParseDefJson) must agree with it, and the rules
// run on the streamed model (ranks located by re-scanning).
inline void RunDefJsonTarget(std::string_view input) {
  const std::string text(input);
  const std::vector<Document> docs = {{"def.json", text}};
  neff::DefJsonDocument streamed =
      neff::ParseDefJson(std::make_shared<const std::string>(text));
  json::ParseResult parsed = json::Parse(text);
  if (streamed.parsed.ok != parsed.ok ||
      (!parsed.ok &&
       (streamed.parsed.error.message != parsed.error.message ||
        !internal::SamePos(streamed.parsed.error.pos, parsed.error.pos)))) {
    Fail("the streaming def.json reader parses differently");
  }
  Unit unit;
  unit.directory = ".";
  if (!parsed.ok) {
    if (parsed.error.pos.line < 1 || parsed.error.pos.column < 1 ||
        parsed.error.message.empty()) {
      Fail("json syntax error without a location or message");
    }
    CheckLocation(At("def.json", parsed.error.pos), docs, "json error");
    unit.json_syntax.push_back(
        {At("def.json", parsed.error.pos), parsed.error.message});
  } else {
    (void)neff::IsDefJson(parsed.root);
    const neff::DefJson exact = neff::BuildDefJson(parsed.root, "def.json");
    unit.def_jsons.push_back(
        neff::BuildDefJson(std::move(streamed), "def.json"));
    internal::CompareDefJsons(unit.def_jsons.back(), exact);
  }
  CheckOptions options;
  options.num_cores = 64;  // enables lnc-rank-range
  CheckRenderExplain(unit, options, docs);
}

// ------------------------------------------------------------- configs

namespace internal {

inline constexpr char kConfigHlo[] =
    "HloModule m, replica_count=1, num_partitions=8\n"
    "%add (a: f32[], b: f32[]) -> f32[] {\n"
    "  %a = f32[] parameter(0)\n"
    "  %b = f32[] parameter(1)\n"
    "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n"
    "}\n"
    "ENTRY %main (p: f32[128]) -> f32[128] {\n"
    "  %p = f32[128]{0} parameter(0)\n"
    "  ROOT %ar = f32[128]{0} all-reduce(f32[128]{0} %p), channel_id=1, "
    "replica_groups=[2,4]<=[8], use_global_device_ids=true, to_apply=%add\n"
    "}\n";
inline constexpr char kConfigDefJson[] =
    "{\"CCInfo\": {\"replica_groups\": [[[0,1,2,3],[4,5,6,7]]]}}\n";

// A unit with a fixed HLO module and def.json, for the cross-file rules.
inline const Unit& ConfigBaseUnit() {
  static const Unit* const unit = [] {
    auto* u = new Unit;
    u->directory = ".";
    u->hlo_modules.push_back(hlo::ParseHloText(kConfigHlo, "model.hlo"));
    json::ParseResult def = json::Parse(kConfigDefJson);
    if (def.ok) {
      u->def_jsons.push_back(neff::BuildDefJson(def.root, "def.json"));
    }
    return u;
  }();
  return *unit;
}

}  // namespace internal

// One JSON document read both as a component config (LooksLikeComponentConfig,
// ReadParallelConfig, the config rules with a fixed HLO module and def.json)
// and as a `.topolint.json` (ParseProjectConfig, applied to a RuleSelection
// and CheckOptions the way the CLI applies it, then a check).
inline void RunConfigTarget(std::string_view input) {
  const std::string text(input);
  const std::vector<Document> docs = {{"model.hlo", internal::kConfigHlo},
                                      {"def.json", internal::kConfigDefJson},
                                      {"neuron_config.json", text}};
  Unit unit = internal::ConfigBaseUnit();
  json::ParseResult parsed = json::Parse(text);
  if (parsed.ok) {
    (void)config::LooksLikeComponentConfig(parsed.root);
    unit.configs.push_back(
        config::ComponentConfig{"neuron_config.json", std::move(parsed.root)});
    config::ParallelConfig pc = config::ReadParallelConfig(unit.configs.back());
    (void)pc.WorldSize();
    (void)pc.WorldSizeExplanation();
    (void)pc.EffectiveEp();
    (void)pc.LayoutFieldsOk();
  } else {
    unit.json_syntax.push_back(
        {At("neuron_config.json", parsed.error.pos), parsed.error.message});
  }
  CheckRenderExplain(unit, CheckOptions{}, docs);

  absl::StatusOr<ProjectConfig> project =
      ParseProjectConfig(text, ".topolint.json");
  if (!project.ok()) return;
  RuleSelection selection;
  for (const std::string& g : project->rules) {
    if (!selection.ApplyGlobs(g).ok()) return;
  }
  for (const auto& [rule, level] : project->severity) {
    if (!selection.SetSeverity(rule, level).ok()) return;
  }
  for (const auto& [glob, rules] : project->per_file_ignores) {
    selection.AddFileIgnore(glob, rules);
  }
  if (project->werror) selection.set_werror(*project->werror);
  CheckOptions options;
  if (project->lnc) {
    options.lnc = *project->lnc;
    options.lnc_given = true;
  }
  options.num_cores = project->num_cores;
  options.replica_count = project->replica_count;
  options.num_partitions = project->num_partitions;
  CheckFindings(CheckUnit(internal::ConfigBaseUnit(), options, selection),
                docs);
}

// ------------------------------------------------------------- .neff

namespace internal {

// One scratch file per process (ReadNeffArchive takes a path), removed at
// exit. "" when it cannot be created.
inline const std::string& NeffScratchPath() {
  static const std::string* const path = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string tmpl = std::string(dir != nullptr && *dir ? dir : "/tmp") +
                       "/topolint-neff-fuzz-XXXXXX";
    const int fd = mkstemp(tmpl.data());
    if (fd < 0) return new std::string();
    close(fd);
    auto* p = new std::string(tmpl);
    std::atexit([] { unlink(NeffScratchPath().c_str()); });
    return p;
  }();
  return *path;
}

}  // namespace internal

// ReadNeffArchive over the input written to a file, and every rule over the
// archive (with --lnc 2 --num-cores 64 so the LNC rules run).
inline void RunNeffArchiveTarget(std::string_view input) {
  const std::string& path = internal::NeffScratchPath();
  std::FILE* f = path.empty() ? nullptr : std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    Fail("cannot write the scratch file " + path);
    return;
  }
  const bool written =
      input.empty() ||
      std::fwrite(input.data(), 1, input.size(), f) == input.size();
  std::fclose(f);
  if (!written) {
    Fail("short write to the scratch file " + path);
    return;
  }
  Unit unit;
  unit.directory = ".";
  unit.neff_archives.push_back(neff::ReadNeffArchive(path, "model.neff"));
  std::vector<Document> docs;
  for (const auto& [name, text] : unit.neff_archives.back().member_texts) {
    docs.push_back({name, text});
  }
  CheckOptions options;
  options.lnc = 2;
  options.lnc_given = true;
  options.num_cores = 64;
  CheckRenderExplain(unit, options, docs);
}

// ------------------------------------------------------------- whole unit

// Separator of the unit target's parts.
inline constexpr std::string_view kUnitSeparator = "\n@@@@\n";

namespace internal {

// "lnc num_cores replica_count num_partitions"; values below 1 are left
// unset, as the CLI refuses them.
inline CheckOptions ParseCheckOptions(std::string_view text) {
  CheckOptions o;
  int i = 0;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ' ',
                      absl::SkipEmpty())) {
    int64_t v = 0;
    const int field = i++;
    if (!absl::SimpleAtoi(word, &v) || v < 1) continue;
    if (field == 0) {
      o.lnc = v;
      o.lnc_given = true;
    } else if (field == 1) {
      o.num_cores = v;
    } else if (field == 2) {
      o.replica_count = v;
    } else if (field == 3) {
      o.num_partitions = v;
    }
  }
  return o;
}

}  // namespace internal

// The whole check of a unit as the CLI runs it on in-memory inputs:
//   model.hlo SEP def.json SEP neuron_config.json SEP options
// (SEP = kUnitSeparator; each part optional, an empty part is no file),
// through LoadUnit, CheckUnit, every renderer and explain.
inline void RunUnitTarget(std::string_view input) {
  static constexpr const char* kNames[] = {"model.hlo", "def.json",
                                           "neuron_config.json"};
  const std::vector<std::string_view> parts = Split(input, kUnitSeparator);
  UnitSpec spec;
  spec.directory = ".";
  std::vector<InMemoryInput> in_memory;
  std::vector<Document> docs;
  for (size_t i = 0; i < 3 && i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    InputFile f;
    f.path = kNames[i];
    f.kind = i == 0 ? InputKind::kHlo : InputKind::kJson;
    f.named = true;
    f.from_stdin = true;
    spec.files.push_back(f);
    in_memory.push_back({f.path, std::string(parts[i])});
    docs.push_back({f.path, std::string(parts[i])});
  }
  const CheckOptions options =
      parts.size() > 3 ? internal::ParseCheckOptions(parts[3]) : CheckOptions{};
  Unit unit;
  if (absl::Status st = LoadUnit(spec, in_memory, &unit); !st.ok()) {
    Fail("LoadUnit failed on in-memory input: " + std::string(st.message()));
    return;
  }
  CheckRenderExplain(unit, options, docs);
}

// ------------------------------------------------------------------ baseline

// The --baseline reader: never crashes at any depth or size; what it
// accepts applies cleanly, and a baseline written for findings reads back
// with one entry per finding.
inline void RunBaselineTarget(std::string_view input) {
  std::string error;
  std::optional<Baseline> baseline = LoadBaseline(input, &error);
  if (!baseline) {
    if (error.empty()) Fail("baseline refused without a reason");
    return;
  }
  int64_t total = 0;
  for (const auto& [fingerprint, count] : baseline->counts) {
    if (fingerprint.empty() || count < 1) Fail("empty or uncounted entry");
    total += count;
  }
  if (total != baseline->size) Fail("baseline counts disagree with its size");
  Finding f;
  f.rule = "hlo-syntax";
  f.loc = {"model.hlo", 1, 1};
  f.message = std::string(input.substr(0, 64));
  const BaselineResult r = ApplyBaseline({f, f}, *baseline);
  if (r.suppressed + static_cast<int64_t>(r.kept.size()) != 2) {
    Fail("ApplyBaseline lost a finding");
  }
  std::optional<Baseline> again = LoadBaseline(WriteBaseline({f, f}), &error);
  if (!again || again->size != 2) Fail("written baseline does not read back");
}

// ---------------------------------------------------- .topolint.json reader

// The settings reader alone: every accepted file applies or is refused
// with a message naming the file.
inline void RunProjectConfigTarget(std::string_view input) {
  absl::StatusOr<ProjectConfig> cfg =
      ParseProjectConfig(std::string(input), ".topolint.json");
  if (!cfg.ok()) {
    if (cfg.status().message().find(".topolint.json") ==
        std::string_view::npos) {
      Fail("settings error does not name the file");
    }
    return;
  }
  cfg->path = ".topolint.json";
  RuleSelection selection;
  CheckOptions options;
  absl::Status st = ApplyProjectConfig(*cfg, &selection, &options);
  if (!st.ok() &&
      st.message().find(".topolint.json") == std::string_view::npos) {
    Fail("settings error does not name the file");
  }
}

}  // namespace topolint::fuzz

#endif  // TOPOLINT_FUZZ_FUZZ_TARGETS_H_
