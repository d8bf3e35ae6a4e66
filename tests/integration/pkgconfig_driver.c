/* A C driver built with pkg-config against an installed topolint
 * (tests/integration/install_test.sh): checks the compile-time version
 * macros against the run-time version, checks an in-memory def.json, asks
 * for an explanation, and gets a coded error for a bad option. */
#include <stdio.h>
#include <string.h>

#include <topolint/topolint_c.h>

#if !defined(TOPOLINT_VERSION_NUMBER) || TOPOLINT_VERSION_NUMBER < 100
#error "topolint_c.h lacks the version macros, or is older than 0.1.0"
#endif

static int expect(const char* what, const char* response, const char* text) {
  if (response == NULL || strstr(response, text) == NULL) {
    fprintf(stderr, "%s: response lacks %s:\n%s\n", what, text,
            response ? response : "(null)");
    return 1;
  }
  return 0;
}

int main(void) {
  int failures = 0;
  char* r;
  if (strcmp(topolint_version(), TOPOLINT_VERSION_STRING) != 0) {
    fprintf(stderr, "header %s, library %s\n", TOPOLINT_VERSION_STRING,
            topolint_version());
    return 1;
  }
  r = topolint_check_json(
      "{\"files\": [{\"name\": \"out/def.json\", \"text\": "
      "\"{\\\"CCInfo\\\": {\\\"replica_groups\\\": [[[0,1]], []]}}\"}],"
      " \"options\": {\"severity\": {\"neff-empty-topology\": \"warning\"}}}");
  failures += expect("check", r, "\"rule\": \"neff-empty-topology\"");
  failures += expect("check", r, "\"severity\": \"warning\"");
  topolint_free(r);
  r = topolint_explain_json(
      "{\"files\": [{\"name\": \"out/def.json\", \"text\": "
      "\"{\\\"CCInfo\\\": {\\\"replica_groups\\\": [[[0,1],[2,3]]]}}\"}]}");
  failures += expect("explain", r, "out/def.json");
  topolint_free(r);
  r = topolint_check_json("{\"options\": {\"lnc\": 0}}");
  failures += expect("bad option", r, "\"code\":\"invalid_argument\"");
  topolint_free(r);
  r = topolint_check_json("{\"paths\": [\"/nonexistent/def.json\"]}");
  failures += expect("missing path", r, "\"code\":");
  topolint_free(r);
  if (failures == 0)
    printf("pkgconfig_driver: OK (topolint %s)\n", topolint_version());
  return failures == 0 ? 0 : 1;
}
