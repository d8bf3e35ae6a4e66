// The SARIF 2.1.0 renderer, shaped for GitHub code scanning uploads.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "checker/diag/render.h"
#include "checker/diag/render_dump.h"
#include "checker/diag/render_sarif.h"
#include "checker/io/repo_paths.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace topolint {
namespace {

using Json = nlohmann::ordered_json;

// RFC 3986 path characters: unreserved, sub-delims, '@' and '/'. ':' is
// left out on purpose (see PathToUriReference).
bool KeepInUri(unsigned char c) {
  static constexpr std::string_view kAllowed = "-._~!$&'()*+,;=@/";
  return std::isalnum(c) || (c != '\0' && kAllowed.find(static_cast<char>(c)) !=
                                              std::string_view::npos);
}

// "xref-topology-mismatch" -> "XrefTopologyMismatch" (SARIF rule `name`).
std::string CamelCase(std::string_view id) {
  std::string out;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    out.push_back(
        upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
              : c);
    upper = false;
  }
  return out;
}

// Turns finding paths into artifact locations: as given (no roots), or
// relative to the repository root under %SRCROOT% (GitHub code scanning).
class Artifacts {
 public:
  explicit Artifacts(const SarifRoots* roots) : roots_(roots) {}

  Json Physical(const Location& loc) {
    Json pl;
    std::string_view archive, member;
    const bool in_neff =
        roots_ != nullptr && SplitNeffMember(loc.file, &archive, &member);
    if (in_neff) {
      Json al = Uri(archive);
      al["index"] = ArchiveIndex(archive, member, al);
      pl["artifactLocation"] = std::move(al);
      // The line is the member's, not the archive's: the whole .neff.
      pl["region"] = {{"startLine", 1}};
      return pl;
    }
    pl["artifactLocation"] = Uri(loc.file);
    if (loc.line > 0) {
      Json region;
      region["startLine"] = loc.line;
      if (loc.column > 0) region["startColumn"] = loc.column;
      pl["region"] = std::move(region);
    } else if (roots_ != nullptr) {
      // GitHub places a result only with a region.startLine, and a region
      // holding both a line and a byte offset must name the same bytes: for
      // code scanning a binary input (HLO proto) is the whole file, with the
      // offset in the message.
      pl["region"] = {{"startLine", 1}};
    } else if (loc.byte_offset >= 0) {  // a binary input (HLO proto)
      pl["region"] = {{"byteOffset", loc.byte_offset}};
    }
    return pl;
  }

  // `message` with the .neff member and its line named, for a location
  // inside a .neff (Physical points at the archive).
  std::string Message(const Location& loc, const std::string& message) const {
    std::string_view archive, member;
    if (roots_ != nullptr && loc.line <= 0 && loc.byte_offset >= 0) {
      // A binary input placed at its whole file (Physical): say where.
      std::string where = loc.logical.empty() ? "" : loc.logical + ", ";
      return fmt::format("{} (in {}byte {})", message, where, loc.byte_offset);
    }
    if (roots_ == nullptr || !SplitNeffMember(loc.file, &archive, &member)) {
      return message;
    }
    std::string where(member);
    if (loc.line > 0) where += fmt::format(", line {}", loc.line);
    if (loc.column > 0) where += fmt::format(", column {}", loc.column);
    return fmt::format("{} (in {} of {})", message, where, archive);
  }

  void AddBaseIds(Json& run) const {
    if (roots_ == nullptr) return;
    std::string root = PathToUriReference(roots_->root);
    if (root.empty() || root.back() != '/') root += '/';
    run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", root}}}};
  }

  const SarifRoots* roots() const { return roots_; }

  // The archives and members results named so far (empty without roots).
  const Json& List() const { return artifacts_; }

 private:
  Json Uri(std::string_view file) const {
    if (roots_ == nullptr) return {{"uri", PathToUriReference(file)}};
    std::string path;
    if (PathUnderRoot(file, roots_->root, roots_->cwd, &path)) {
      return {{"uri", PathToUriReference(path)}, {"uriBaseId", "%SRCROOT%"}};
    }
    return {{"uri", PathToUriReference(path)}};
  }

  size_t ArchiveIndex(std::string_view archive, std::string_view member,
                      const Json& archive_location) {
    const std::string key(archive);
    const auto [it, added] = index_.try_emplace(key, artifacts_.size());
    const size_t parent = it->second;
    if (added) artifacts_.push_back({{"location", archive_location}});
    const std::string member_key = key + ":" + std::string(member);
    if (index_.try_emplace(member_key, artifacts_.size()).second) {
      artifacts_.push_back({{"location", {{"uri", PathToUriReference(member)}}},
                            {"parentIndex", parent}});
    }
    return parent;
  }

  const SarifRoots* roots_;
  Json artifacts_ = Json::array();
  absl::flat_hash_map<std::string, size_t> index_;
};

// Binary inputs: the computation and op as a logical location.
void AddLogicalLocation(const Location& loc, Json* location) {
  if (loc.byte_offset < 0 || loc.logical.empty()) return;
  (*location)["logicalLocations"] = Json::array(
      {{{"fullyQualifiedName", loc.logical}, {"kind", "function"}}});
}

// Whether `v` is a Semantic Versioning 2.0.0 version ("0.1.0",
// "1.2.3-rc.1+build.5"): GitHub reads tool.driver.semanticVersion as one.
bool IsSemanticVersion(std::string_view v) {
  const size_t extra = std::min(v.find_first_of("-+"), v.size());
  const std::vector<absl::string_view> core =
      absl::StrSplit(absl::string_view(v.data(), extra), '.');
  const auto number = [](absl::string_view n) {  // no leading zero
    return !n.empty() && (n.size() == 1 || n[0] != '0') &&
           std::all_of(n.begin(), n.end(), [](char c) {
             return std::isdigit(static_cast<unsigned char>(c)) != 0;
           });
  };
  // "", or the separator and at least one identifier character after it.
  const std::string_view rest = v.substr(extra);
  return core.size() == 3 && std::all_of(core.begin(), core.end(), number) &&
         rest.size() != 1 && std::all_of(rest.begin(), rest.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                  c == '-' || c == '+';
         });
}

// A rule as GitHub code scanning shows it: the one-line summary as short
// and full description, the whole docs page once, as help.markdown (which
// GitHub shows instead of help.text), and the page's URL.
Json RuleObject(const RuleDescriptor& r) {
  const std::string& summary = r.summary.empty() ? r.id : r.summary;
  const bool absolute = r.help_uri.find("://") != std::string::npos;
  Json rule;
  rule["id"] = r.id;
  rule["name"] = CamelCase(r.id);
  rule["shortDescription"] = {{"text", summary}};
  rule["fullDescription"] = {{"text", summary}};
  Json help;
  help["text"] =
      absolute
          ? fmt::format(
                "{}\n\nThe rule's page: {} (`topolint rules {}` "
                "prints it).",
                summary, r.help_uri, r.id)
          : fmt::format("{}\n\n`topolint rules {}` prints the rule's page.",
                        summary, r.id);
  if (!r.page.empty()) help["markdown"] = r.page;
  rule["help"] = std::move(help);
  // A relative helpUri would resolve against wherever the viewer is (GitHub
  // code scanning rejects it): only an absolute URL is written.
  if (absolute) rule["helpUri"] = r.help_uri;
  rule["defaultConfiguration"] = {
      {"level", std::string(SeverityName(r.default_severity))}};
  return rule;
}

// `text` as the link text of a SARIF embedded link in a plain text message:
// '\\', '[' and ']' escaped with a backslash (SARIF 2.1.0 §3.11.6).
std::string LinkText(std::string_view text) {
  // (This Abseil's string_view is its own, not std::string_view.)
  return absl::StrReplaceAll(absl::string_view(text.data(), text.size()),
                             {{"\\", "\\\\"}, {"[", "\\["}, {"]", "\\]"}});
}

bool WordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Where `phrase` stands in `message` at or after `from` (the links already
// made all end before it), not as a piece of a longer word ("rank 3" is
// not in "rank 30"), or npos.
size_t FindPhrase(std::string_view message, std::string_view phrase,
                  size_t from) {
  for (size_t at = message.find(phrase, from); at != std::string_view::npos;
       at = message.find(phrase, at + 1)) {
    const size_t end = at + phrase.size();
    const bool starts =
        at == 0 || !WordChar(message[at - 1]) || !WordChar(phrase.front());
    const bool ends = end == message.size() || !WordChar(message[end]) ||
                      !WordChar(phrase.back());
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

// What a note is about, as the message may name it: the longest run of
// the note's first words that is more than one plain word ("topology[0]",
// "kv_role", "rank 3", "expert parallelism" of "... is set here").
std::vector<std::string_view> NoteSubjects(std::string_view note) {
  std::vector<std::string_view> out;
  size_t end = note.size();
  while (end != std::string_view::npos && end > 0) {
    const std::string_view prefix = note.substr(0, end);
    const bool several = prefix.find(' ') != std::string_view::npos;
    bool marked = false;  // a digit, bracket, '_' or '%' in it
    for (char c : prefix) {
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != ' ' &&
          c != '-') {
        marked = true;
      }
    }
    // A subject does not end in a verb or a little word ("kv_role is").
    const std::string_view last = prefix.substr(prefix.rfind(' ') + 1);
    static constexpr std::string_view kLittle[] = {
        "is", "are", "was", "has", "have", "uses", "of", "in", "the", "a"};
    bool little = false;
    for (std::string_view w : kLittle) little = little || last == w;
    if ((several || marked) && !little) out.push_back(prefix);
    end = note.rfind(' ', end - 1);
  }
  return out;
}

// `message` with each note linked as a SARIF embedded link to its related
// location (id i + 1): where the message names the note's subject, that
// phrase becomes the link ("in [topology\[0\]](1)" before JSON
// encoding), the first such place
// after the previous link; the others are listed at the end
// (" (see [topology\[0\] is declared here](1))"). GitHub code scanning
// shows related locations only through such links.
std::string LinkNotes(const std::string& message,
                      const std::vector<Note>& notes) {
  std::string out;
  std::vector<std::string> unlinked;
  size_t done = 0;  // message[0, done) is in `out`
  for (size_t i = 0; i < notes.size(); ++i) {
    const std::string& note = notes[i].message;
    size_t at = std::string::npos;
    std::string_view subject;
    for (std::string_view s : NoteSubjects(note)) {
      at = FindPhrase(message, s, done);
      if (at != std::string::npos) {
        subject = s;
        break;
      }
    }
    const std::string text = note.empty() ? "here" : note;
    if (at == std::string::npos) {
      unlinked.push_back(fmt::format("[{}]({})", LinkText(text), i + 1));
      continue;
    }
    out.append(message, done, at - done);
    out += fmt::format("[{}]({})", LinkText(subject), i + 1);
    done = at + subject.size();
  }
  out.append(message, done, std::string::npos);
  if (!unlinked.empty()) {
    out += fmt::format(" (see {})", fmt::join(unlinked, "; "));
  }
  return out;
}

// `rule_index` is the result's index in tool.driver.rules (the rule
// listed there on its first result), or -1 for a rule not described.
Json ResultObject(const Finding& f, int64_t rule_index, Artifacts& artifacts) {
  Json result;
  result["ruleId"] = f.rule;
  if (rule_index >= 0) result["ruleIndex"] = rule_index;
  result["level"] = std::string(SeverityName(f.severity));
  result["message"] = {
      {"text", artifacts.Message(f.loc, LinkNotes(f.message, f.notes))}};
  Json primary;
  primary["physicalLocation"] = artifacts.Physical(f.loc);
  AddLogicalLocation(f.loc, &primary);
  result["locations"] = Json::array({std::move(primary)});
  if (!f.notes.empty()) {
    Json related = Json::array();
    for (size_t i = 0; i < f.notes.size(); ++i) {
      const Note& n = f.notes[i];
      Json note = {
          {"id", i + 1},
          {"physicalLocation", artifacts.Physical(n.loc)},
          {"message", {{"text", artifacts.Message(n.loc, n.message)}}}};
      AddLogicalLocation(n.loc, &note);
      related.push_back(std::move(note));
    }
    result["relatedLocations"] = std::move(related);
  }
  result["partialFingerprints"] = {
      {"topolint/v1", RootedFingerprint(f, artifacts.roots())}};
  return result;
}

}  // namespace

std::string RootRelative(const std::string& file, const SarifRoots* roots) {
  if (roots == nullptr) return file;
  std::string path;
  PathUnderRoot(file, roots->root, roots->cwd, &path);
  return path;
}

std::string PlaceLabel(const Location& loc, const SarifRoots* roots,
                       bool binary) {
  std::string out = RootRelative(loc.file, roots);
  if (loc.line > 0) {
    out += fmt::format(":{}", loc.line);
    if (loc.column > 0) out += fmt::format(":{}", loc.column);
  }
  if (binary && loc.byte_offset >= 0) out += " (" + BinaryPlace(loc) + ")";
  return out;
}

std::string RuleDocsUrl(std::string_view base, std::string_view id) {
  if (base.empty()) base = kDefaultDocsUrl;
  while (base.size() > 1 && base.back() == '/') base.remove_suffix(1);
  return fmt::format("{}/{}.md", base, id);
}

std::string PathToUriReference(std::string_view path) {
  std::string out;
  if (!path.empty() && path.front() == '/') out = "file://";
  for (unsigned char c : path) {
    if (KeepInUri(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

namespace {

constexpr std::string_view kOmittedRuleId = "topolint-results-omitted";

std::string OmittedText(size_t omitted) {
  return fmt::format(
      "{} more findings are not in this SARIF run: GitHub code scanning "
      "rejects a run of more than {} results. The first left out is at "
      "this location; `topolint check --format text` (or json) lists "
      "them all, and --rules or .topolint.json narrows the check.",
      omitted, kSarifMaxResults);
}

// The result of level note (what code scanning shows) that ends a capped
// run, at `where` (the physicalLocation of the first finding left out; none
// when null). Its properties count what was left out, so that runs joined
// later (CapSarifRun) can count it again.
Json OmittedResultsNote(size_t omitted, Json where) {
  Json result;
  result["ruleId"] = std::string(kOmittedRuleId);
  result["level"] = "note";
  result["message"] = {{"text", OmittedText(omitted)}};
  if (!where.is_null()) {
    Json primary;
    primary["physicalLocation"] = std::move(where);
    result["locations"] = Json::array({std::move(primary)});
  }
  result["properties"] = {{"omittedResults", omitted}};
  return result;
}

// The same as a tool execution notification, for SARIF viewers that show
// a run's notifications.
Json OmittedResultsInvocations(size_t omitted) {
  Json notification;
  notification["level"] = "warning";
  notification["message"] = {{"text", OmittedText(omitted)}};
  notification["descriptor"] = {{"id", std::string(kOmittedRuleId)}};
  Json invocation;
  invocation["executionSuccessful"] = true;
  invocation["toolExecutionNotifications"] =
      Json::array({std::move(notification)});
  return Json::array({std::move(invocation)});
}

// The log is written as a 2-space indented dump of
//   {"$schema", "version", "runs": [{"originalUriBaseIds", "results",
//                                    "artifacts", "invocations", "tool"}]}
// would be, with results and artifacts added as they come; tool.driver.rules
// (the rules that have results) is known, and written, last.
class SarifReport : public ReportWriter {
 public:
  SarifReport(const std::vector<RuleDescriptor>* rules,
              std::string_view tool_version, const SarifRoots* roots)
      : rules_(rules), tool_version_(tool_version), artifacts_(roots) {}

  void Begin(std::string* out) override {
    for (const RuleDescriptor& r : *rules_) described_.emplace(r.id, &r);
    // Columns are byte offsets; SARIF's default columnKind (UTF-16 code
    // units) is not claimed to be anything else, so no columnKind is written.
    Json run;
    artifacts_.AddBaseIds(run);
    run["results"] = Json::array();
    Json log;
    log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
    log["version"] = "2.1.0";
    log["runs"] = Json::array();
    log["runs"].push_back(std::move(run));
    // Everything up to the results array, which ends the dump.
    std::string head = DumpJson(log);
    head.resize(head.size() - kEmptyResultsTail.size());
    *out += head;
  }

  // The last result slot (kSarifMaxResults) is held back until the run
  // is known to fit: a finding after it makes the slot the note saying
  // how many were left out.
  void Add(const std::vector<Finding>& findings, std::string* out) override {
    for (const Finding& f : findings) {
      if (omitted_ > 0) {
        ++omitted_;
      } else if (count_ + 1 < kSarifMaxResults) {
        AppendResult(ResultObject(f, RuleIndex(f.rule), artifacts_), out);
      } else if (!held_) {
        held_ = f;
      } else {  // one more than fits: the held slot becomes the note
        first_omitted_ = held_->loc;
        held_.reset();
        omitted_ = 2;
      }
    }
  }

  void End(std::string* out) override {
    if (held_) {
      AppendResult(ResultObject(*held_, RuleIndex(held_->rule), artifacts_),
                   out);
    }
    if (omitted_ > 0) AppendResult(OmittedNote(), out);
    *out += count_ == 0 ? "[]" : "\n      ]";
    // The run's members after its results, as the whole dump nests them.
    const auto member = [out](std::string_view key, const Json& value) {
      *out += fmt::format(",\n      \"{}\": ", key);
      AppendNested(DumpJson(value), 6, out);
    };
    if (!artifacts_.List().empty()) member("artifacts", artifacts_.List());
    if (omitted_ > 0)
      member("invocations", OmittedResultsInvocations(omitted_));
    member("tool", Tool());
    *out += "\n    }\n  ]\n}\n";
  }

 private:
  void AppendResult(const Json& result, std::string* out) {
    *out += count_++ == 0 ? "[\n" : ",\n";
    *out += "        ";
    AppendNested(DumpJson(result), 8, out);
  }

  // The index in tool.driver.rules of a result's rule, listing the rule
  // there on its first result; -1 for a rule `rules_` does not describe.
  int64_t RuleIndex(const std::string& id) {
    auto it = rule_index_.find(id);
    if (it != rule_index_.end()) return static_cast<int64_t>(it->second);
    auto d = described_.find(id);
    if (d == described_.end()) return -1;
    const size_t index = used_rules_.size();
    rule_index_.emplace(id, index);
    used_rules_.push_back(RuleObject(*d->second));
    return static_cast<int64_t>(index);
  }

  Json Tool() const {
    Json driver;
    driver["name"] = "topolint";
    if (!tool_version_.empty()) {
      driver["version"] = tool_version_;
      if (IsSemanticVersion(tool_version_)) {
        driver["semanticVersion"] = tool_version_;
      }
    }
    driver["informationUri"] = std::string(kTopolintInformationUri);
    driver["rules"] = used_rules_;
    return {{"driver", std::move(driver)}};
  }

  Json OmittedNote() {
    return OmittedResultsNote(omitted_, artifacts_.Physical(first_omitted_));
  }

  // How the dump of the log ends when run.results (its last key) is empty.
  static constexpr std::string_view kEmptyResultsTail = "[]\n    }\n  ]\n}";

  const std::vector<RuleDescriptor>* rules_;
  std::string tool_version_;
  Artifacts artifacts_;
  absl::flat_hash_map<std::string, const RuleDescriptor*> described_;
  absl::flat_hash_map<std::string, size_t> rule_index_;
  Json used_rules_ = Json::array();  // tool.driver.rules
  size_t count_ = 0;                 // results written
  std::optional<Finding> held_;
  size_t omitted_ = 0;
  Location first_omitted_;
};

// The physicalLocation of `result`'s first location, or null.
Json FirstPhysicalLocation(const Json& result) {
  if (!result.contains("locations") || !result["locations"].is_array() ||
      result["locations"].empty()) {
    return Json();
  }
  const Json& first = result["locations"][0];
  return first.is_object() && first.contains("physicalLocation")
             ? first["physicalLocation"]
             : Json();
}

}  // namespace

void CapSarifRun(nlohmann::ordered_json* run) {
  if (!run->is_object() || !run->contains("results") ||
      !(*run)["results"].is_array()) {
    return;
  }
  Json& results = (*run)["results"];
  auto is_note = [](const Json& r) {
    if (!r.is_object()) return false;
    const auto id = r.find("ruleId");
    return id != r.end() && id->is_string() &&
           id->get_ref<const std::string&>() == kOmittedRuleId;
  };
  size_t total = 0;
  bool capped_before = false;
  for (const Json& r : results) {
    if (!is_note(r)) {
      ++total;
      continue;
    }
    capped_before = true;
    const auto props = r.find("properties");
    if (props != r.end() && props->is_object()) {
      const auto n = props->find("omittedResults");
      if (n != props->end() && n->is_number_unsigned()) {
        total += n->get<size_t>();
      }
    }
  }
  if (!capped_before && total <= kSarifMaxResults) return;
  // As SarifReport::Add: the first kSarifMaxResults - 1 findings, then the
  // note, at the first finding left out.
  Json kept = Json::array();
  Json where;
  bool where_found = false;
  for (Json& r : results) {
    if (!is_note(r) && kept.size() + 1 < kSarifMaxResults) {
      kept.push_back(std::move(r));
    } else if (!where_found) {
      where = FirstPhysicalLocation(r);
      where_found = true;
    }
  }
  const size_t omitted = total - kept.size();
  kept.push_back(OmittedResultsNote(omitted, std::move(where)));
  results = std::move(kept);
  (*run)["invocations"] = OmittedResultsInvocations(omitted);
}

std::unique_ptr<ReportWriter> MakeSarifReport(
    const std::vector<RuleDescriptor>* rules, std::string_view tool_version,
    const SarifRoots* roots) {
  return std::make_unique<SarifReport>(rules, tool_version, roots);
}

std::string RenderSarif(const std::vector<Finding>& findings,
                        const std::vector<RuleDescriptor>& rules,
                        std::string_view tool_version) {
  return SarifReport(&rules, tool_version, nullptr).RenderAll(findings);
}

std::string RenderSarif(const std::vector<Finding>& findings,
                        const std::vector<RuleDescriptor>& rules,
                        std::string_view tool_version,
                        const SarifRoots& roots) {
  return SarifReport(&rules, tool_version, &roots).RenderAll(findings);
}

}  // namespace topolint
