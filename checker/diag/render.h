// Renderers: findings -> text, json, sarif, github. Nothing else prints.
#ifndef TOPOLINT_CHECKER_DIAG_RENDER_H_
#define TOPOLINT_CHECKER_DIAG_RENDER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/finding.h"
#include "checker/diag/source_cache.h"

namespace topolint {

// What a renderer needs to know about a rule (diag does not depend on the
// rule registry; the CLI fills these from it).
struct RuleDescriptor {
  std::string id;
  Severity default_severity = Severity::kError;
  std::string summary;      // one line
  std::string description;  // longer text (the docs page's "What it checks")
  std::string help_uri;     // absolute URL of the rule's page, or empty
  std::string page;         // the rule's whole docs page (Markdown), or empty
};

// Where the rule pages are published: helpUri and the text format's links
// are `<base>/<id>.md` unless --docs-url names another base.
inline constexpr std::string_view kDefaultDocsUrl =
    "https://github.com/topolint/topolint/blob/main/docs/rules";
// `<base>/<id>.md`, with kDefaultDocsUrl for an empty `base`.
std::string RuleDocsUrl(std::string_view base, std::string_view id);

// Where a finding in a binary input is, for every renderer: "in computation
// %c, op %ar (byte 1234)", "in module m (byte 0)" or "at byte 1234". Only
// for locations with byte_offset >= 0.
std::string BinaryPlace(const Location& loc);

// GCC style (docs/reference/output-formats.md): `file:line:col: severity:
// message [rule]`, then the source line and a caret under the column, then one
// `note:` line per note. Findings must already be sorted (FindingLess). `color`
// adds ANSI colours.
std::string RenderText(const std::vector<Finding>& findings,
                       SourceCache& sources, bool color);

struct SarifRoots;

// One JSON array of {rule, severity, message, file, line, column,
// notes:[{message, file, line, column}]}; a location in a binary input adds
// byte_offset and logical_location ("computation %c, op %ar").
// Files as given; fingerprints hashed with `fingerprint_roots`
// (RootedFingerprint).
std::string RenderJson(const std::vector<Finding>& findings,
                       const SarifRoots* fingerprint_roots = nullptr);

// SARIF 2.1.0, one run, tool.driver.name "topolint". `rules` describes
// every rule the run knows (all registered rules); tool.driver.rules lists
// those that have a result, in the order of their first result, each once:
// shortDescription and fullDescription the one-line summary, help.markdown
// the rule's whole page (help.text the summary and where the page is), and
// helpUri. As the rules are known only when the results are, run.tool comes
// after run.results (JSON objects are unordered). A note of a finding
// becomes relatedLocations[i] with id i + 1, linked from the message as
// SARIF embedded links: "... in [topology\[0\]](1)" where the message names
// what the note is about, else "... (see [topology\[0\] is declared
// here](1))". Paths become URIs as PathToUriReference says.
std::string RenderSarif(const std::vector<Finding>& findings,
                        const std::vector<RuleDescriptor>& rules,
                        std::string_view tool_version);

// Where SARIF URIs are anchored, for GitHub code scanning: `root` is the
// absolute repository root and `cwd` the absolute directory that relative
// finding paths are relative to. A path under `root` becomes a URI relative
// to it with uriBaseId "%SRCROOT%" (run.originalUriBaseIds gives
// %SRCROOT% as file://<root>/); a path outside it an absolute file:// URI.
// A member of a .neff archive ("m.neff:sg00/def.json") is reported at the
// .neff itself (no region: the line is the member's), the member and its
// line named in the message; run.artifacts lists the .neff and the member
// as a nested artifact (parentIndex).
struct SarifRoots {
  std::string root;
  std::string cwd;
};
// `file` relative to roots->root, absolute outside it (so the same from any
// working directory); as given when `roots` is null. The one path SARIF,
// GitHub, GitLab and JUnit name a finding's file by.
std::string RootRelative(const std::string& file, const SarifRoots* roots);
// `file`, `file:line` or `file:line:col` (docs/reference/output-formats.md:
// line 0 = whole file, column 0 = whole line), the file as RootRelative
// names it; with `binary`, " (BinaryPlace)" follows for a binary input.
std::string PlaceLabel(const Location& loc, const SarifRoots* roots,
                       bool binary);
// The root every format names files from: `root_flag` (--sarif-root) when
// given, else the git work tree holding the current directory, else the one
// holding (or being) `first_input` (empty or "-": none), else the current
// directory. The CLI and the library APIs use it alike.
SarifRoots FindReportRoots(std::string_view root_flag,
                           std::string_view first_input);
std::string RenderSarif(const std::vector<Finding>& findings,
                        const std::vector<RuleDescriptor>& rules,
                        std::string_view tool_version, const SarifRoots& roots);

// tool.driver.informationUri of SARIF output.
inline constexpr std::string_view kTopolintInformationUri =
    "https://github.com/topolint/topolint";

// The SARIF `artifactLocation.uri` for a path as the user gave it: a relative
// path stays a relative URI reference, with every byte outside RFC 3986's
// unreserved, sub-delims, '@' and '/' percent-encoded (so ' ' -> %20 and
// ':' -> %3A, which keeps "a.neff:sg00/def.json" from reading as a scheme);
// an absolute path becomes a `file://` URI.
std::string PathToUriReference(std::string_view path);

// GitHub Actions workflow commands:
// `::error file=F,line=L,col=C,title=RULE::message`. With `roots`, F is
// relative to roots.root (the repository root, where GitHub looks for it)
// as SARIF's URIs are, or absolute for a file outside it; without, as given.
std::string RenderGithub(const std::vector<Finding>& findings);

// A report written piece by piece, so that a run never holds its whole
// report: Begin, then Add for each batch of findings in report order, then
// End; each appends its bytes to `*out`, which the caller writes out and
// clears. The bytes are exactly those of RenderAll over all the findings
// at once (SARIF: see MakeSarifReport). Begin and End write nothing unless
// the format has a head or a tail. Not thread-safe; one per report.
class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  virtual void Begin(std::string* /*out*/) {}
  virtual void Add(const std::vector<Finding>& findings, std::string* out) = 0;
  virtual void End(std::string* /*out*/) {}

  // The whole report of `findings` in one call (Begin, one Add, End): what
  // the Render* functions return, the same bytes as streaming.
  std::string RenderAll(const std::vector<Finding>& findings) {
    std::string out;
    Begin(&out);
    Add(findings, &out);
    End(&out);
    return out;
  }
};

// A report of one piece of text per finding, appended by `append` (given
// the writer's `roots`), and nothing before or after: GitHub and concise.
using AppendFinding = void (*)(const Finding& f, const SarifRoots* roots,
                               std::string* out);
std::unique_ptr<ReportWriter> MakePerFindingReport(AppendFinding append,
                                                   const SarifRoots* roots);

// Text: each Add reads the source lines its findings show (one scan per
// file per batch) and then forgets them (SourceCache::ForgetLines), so the
// cache holds one batch's lines. `sources` must outlive the writer.
// With `roots`, files are named as RootRelative names them, as in every
// other format (null: as given); `roots` must outlive the writer. With
// `links` (a terminal that shows colour), `[rule-id]` is an OSC 8 hyperlink
// to the rule's page, RuleDocsUrl(`docs_url`, id).
struct TextStyle {
  bool color = false;
  bool links = false;
  std::string docs_url;  // "" = kDefaultDocsUrl
};
std::unique_ptr<ReportWriter> MakeTextReport(SourceCache* sources,
                                             const TextStyle& style,
                                             const SarifRoots* roots);
// JSON: "[" with each finding's object written as it comes, then "]".
// Files (of findings, notes and fix edits) as RootRelative names them with
// `roots` (null: as given).
std::unique_ptr<ReportWriter> MakeJsonReport(const SarifRoots* roots = nullptr);
// GitHub code scanning rejects a SARIF run of more than 25,000 results
// (docs.github.com, "SARIF results exceed limit"). A report of more
// findings holds the first 24,999 and, as the last result, a note
// (ruleId "topolint-results-omitted", at the first finding left out)
// saying how many were left out; run.invocations carries the same text as
// a tool execution notification.
inline constexpr size_t kSarifMaxResults = 25000;

// SARIF: the log up to `"results": [` first, each result as it comes, then
// the trailer. What the trailer needs is kept: run.artifacts (with `roots`,
// one entry per .neff archive and per member that a finding names; bounded
// by the inputs, not by the findings) and run.tool (its rules those with
// results, bounded by the rule table) come after run.results, where the
// whole-report RenderSarif writes them too. `rules` and `roots` must
// outlive the writer; `roots` may be null (URIs as given, no artifacts).
std::unique_ptr<ReportWriter> MakeSarifReport(
    const std::vector<RuleDescriptor>* rules, std::string_view tool_version,
    const SarifRoots* roots);
// GitHub workflow commands, one per finding; `roots` (may be null) as for
// RenderGithub, and must outlive the writer.
std::unique_ptr<ReportWriter> MakeGithubReport(const SarifRoots* roots);

// Concise: one line per finding, `file:line:col: severity: message [rule]`
// (a binary input's place in parentheses), no source lines or notes.
// Files as RootRelative names them with `roots` (null: as given).
std::unique_ptr<ReportWriter> MakeConciseReport(
    const SarifRoots* roots = nullptr);

// JUnit XML: each finding a failed <testcase> (classname the rule, name the
// place, <failure type="severity">); each batch one <testsuite>; a run
// without findings one passing case.
// With `roots`, files are named relative to roots.root, as SARIF, GitLab and
// GitHub name them (null: as given).
std::unique_ptr<ReportWriter> MakeJunitReport(
    const SarifRoots* roots = nullptr);

// GitLab Code Quality: a JSON array of {type, description, check_name,
// fingerprint (unique per issue), severity (major/minor/info), location:
// {path, lines: {begin}}}; paths relative to roots->root as for
// RenderGithub (`roots` may be null: as given), a .neff member's issue at
// its .neff.
std::unique_ptr<ReportWriter> MakeGitlabReport(const SarifRoots* roots);

// A stable fingerprint of a finding that survives unrelated edits: hashes
// rule, file and anchor (or message when there is no anchor), never the
// line. The file is RootRelative(its file, roots): the path relative to
// the repository root, so that one finding has one fingerprint from
// whichever directory topolint ran (as given when `roots` is null, as the
// C++ API, which has no root, gives it). The one fingerprint of every
// format (SARIF partialFingerprints) and of baselines.
std::string RootedFingerprint(const Finding& finding,
                              const SarifRoots* roots = nullptr);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_RENDER_H_
