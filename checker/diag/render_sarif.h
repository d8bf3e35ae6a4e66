// What the SARIF renderer (render_sarif.cc) offers beyond render.h: the
// cap of a run put together from runs written separately.
#ifndef TOPOLINT_CHECKER_DIAG_RENDER_SARIF_H_
#define TOPOLINT_CHECKER_DIAG_RENDER_SARIF_H_

#include "nlohmann/json.hpp"

namespace topolint {

// Caps `run` (a SARIF run object whose results were joined from several
// runs, as `topolint exec` joins its two checks) as one report is capped
// (kSarifMaxResults, checker/diag/render.h): when its findings, with those
// the notes of runs already capped left out, are more than
// kSarifMaxResults, it keeps the first kSarifMaxResults - 1 and ends with
// one "topolint-results-omitted" note, at the first finding left out,
// counting all the others; run.invocations says the same. A run within
// the cap is left as it is.
void CapSarifRun(nlohmann::ordered_json* run);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_DIAG_RENDER_SARIF_H_
