/* topolint's C interface: one call that takes a JSON request and returns the
 * findings as JSON, for drivers written in C or loaded through an FFI
 * (Python ctypes, Rust, Go). Lives in the shared library `libtopolint_c`
 * (CMake: topolint::topolint_c); only the functions below are exported.
 *
 * Request (UTF-8 JSON object; every key optional, unknown keys are errors):
 *
 *   {
 *     "files":   [{"name": "out/model.hlo", "text": "HloModule ...",
 *                  "kind": "auto"},
 *                 {"name": "out/model.neff", "base64": "TkVGRg..."}],
 *     "paths":   ["out/def.json"],
 *     "search":  ["models/", "/var/tmp/neuron-compile-cache"],
 *     "options": {"lnc": 2, "num_cores": 64, "replica_count": 1,
 *                 "num_partitions": 8, "rules": "-*,neff-*",
 *                 "severity": {"hlo-not-flattened-id": "error"},
 *                 "werror": false, "baseline": "topolint-baseline.json",
 *                 "config": "path/.topolint.json"}
 *   }
 *
 * "files" are in-memory inputs (the name is the display name used in
 * findings and, with kind "auto", decides the input's kind, else the
 * content does, as for the CLI's standard input: HLO text, a binary module
 * or StableHLO text is HLO, a JSON object is read by content, anything else
 * is "invalid_request"); "kind" is one
 * of "auto", "hlo", "def_json", "component_config", "neff". Each file has
 * either "text" (a string) or "base64" (its bytes, standard base64 with
 * optional '=' padding) for binary content: a whole .neff archive (named
 * *.neff or kind "neff"), or a binary HLO module (HloModuleProto, HloProto,
 * HloSnapshot, plain or gzip, named e.g. *.hlo.pb or kind "hlo"; HLO text
 * and binary are told apart by content). A .neff from memory is read with
 * the same checks and limits as a file: a truncated or malformed archive is
 * a finding (neff-schema), not an error; "base64" that does not decode is
 * "invalid_request". "paths" are files on
 * disk (kind decided as the CLI does). All files and paths of one request
 * form ONE unit, so cross-file rules compare them. "rules" is a string or a
 * list of strings, each like one --rules value. "config" names a
 * .topolint.json applied before the other options.
 *
 * "search" (since 0.1.0 of this header; not with "files" or "paths", not
 * for topolint_explain_json) checks files and directories exactly as
 * `topolint check PATH...` does: directories are searched recursively,
 * compile caches, compiler work directories and NxD buckets are found,
 * files are grouped into units (each checked on its own, with the nearest
 * .topolint.json unless "config" names one, whose "include" / "exclude"
 * filters apply), and the findings of all units come back in report order.
 * Named files of no known kind are skipped.
 *
 * Response: on success exactly what `topolint check --format json` prints
 * for the same inputs (a JSON array of findings with rule, severity,
 * message, file, line, column, notes, fingerprint), possibly "[]\n". When
 * the request cannot be carried out (malformed request, missing file, bad
 * option, rule glob matching no rule): {"error": "<one-line reason>",
 * "code": "<what went wrong>"}, the code one of
 *   "invalid_request"   the request is not JSON or has the wrong shape
 *   "invalid_argument"  an option, rule glob, severity or settings file
 *   "not_found"         a path (input, baseline) that cannot be opened
 *   "unreadable"        a read error, or an input over the size limits
 *   "internal"          a bug in topolint
 * An input that does not parse is a finding, not an error. "severity"
 * overrides levels ("error", "warning", "note", "off") as .topolint.json
 * does; "baseline" hides the findings recorded by --write-baseline.
 *
 * Thread safety: topolint_check_json and topolint_check_text may be called
 * from several threads at once (also on one shared buffer).
 */
#ifndef TOPOLINT_TOPOLINT_C_H_
#define TOPOLINT_TOPOLINT_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; topolint_version() gives the library's. */
#define TOPOLINT_VERSION_MAJOR 0
#define TOPOLINT_VERSION_MINOR 1
#define TOPOLINT_VERSION_PATCH 0
#define TOPOLINT_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons. */
#define TOPOLINT_VERSION_NUMBER                                    \
  (TOPOLINT_VERSION_MAJOR * 10000 + TOPOLINT_VERSION_MINOR * 100 + \
   TOPOLINT_VERSION_PATCH)

#if defined(__GNUC__) || defined(__clang__)
#define TOPOLINT_C_EXPORT __attribute__((visibility("default")))
#else
#define TOPOLINT_C_EXPORT
#endif

/* Checks the request (a NUL-terminated UTF-8 JSON text; NULL is answered
 * with an error object). Returns a NUL-terminated JSON text owned by the
 * caller, to be released with topolint_free(); returns NULL only when memory
 * runs out. Never prints, exits or lets an exception escape. */
TOPOLINT_C_EXPORT char* topolint_check_json(const char* request_json);

/* topolint_check_json with one more input given as bytes, which are read
 * in place and never copied: `size` bytes at `data` (need not end with a
 * NUL, may hold NULs; binary content needs no base64), kept alive and
 * unchanged by the caller until the call returns. An HLO text of N bytes
 * then costs N plus bounded working memory, as a file on disk does (a
 * "text" inside the request is decoded into a copy first). `name` is its
 * display name (as "files"[].name: used in findings and, with kind "auto",
 * deciding the kind); `kind` is NULL (= "auto") or a "files"[].kind value.
 * The input comes first in the unit, before the request's "files" and
 * "paths"; `request_json` may be NULL (= "{}") and may not hold "search".
 * A NULL or empty name, or NULL data with a non-zero size, is an
 * "invalid_request" error. */
TOPOLINT_C_EXPORT char* topolint_check_text(const char* request_json,
                                            const char* name, const char* kind,
                                            const char* data, size_t size);

/* `topolint explain --format json` for the unit of the request (same
 * request and error objects as topolint_check_json; the response on
 * success is {"units": [...]}, one object per unit: its modules, their
 * collectives with expanded groups and device grids, def.json topologies,
 * the comparison and, with "lnc"/"num_cores", the rank map). */
TOPOLINT_C_EXPORT char* topolint_explain_json(const char* request_json);

/* Releases a string returned by topolint_check_json or
 * topolint_explain_json. NULL is ignored. */
TOPOLINT_C_EXPORT void topolint_free(char* response);

/* The library version, e.g. "0.1.0" (static storage; do not free). */
TOPOLINT_C_EXPORT const char* topolint_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TOPOLINT_TOPOLINT_C_H_ */
