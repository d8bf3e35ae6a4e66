/* Checks an in-memory def.json through the installed C API and prints the
 * JSON response. */
#include <stdio.h>

#include "topolint/topolint_c.h"

int main(void) {
  const char* request =
      "{\"files\": [{\"name\": \"out/def.json\", \"text\": "
      "\"{\\\"CCInfo\\\": {\\\"replica_groups\\\": [[[0,1]], []]}}\"}]}";
  char* response = topolint_check_json(request);
  if (response == NULL) return 2;
  printf("topolint %s\n%s", topolint_version(), response);
  topolint_free(response);
  return 0;
}
