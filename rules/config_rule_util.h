// Internal to the config rule family (rules/config_*.cc): the checks that
// CheckConfig runs over one config. Not a public API.
#ifndef TOPOLINT_RULES_CONFIG_RULE_UTIL_H_
#define TOPOLINT_RULES_CONFIG_RULE_UTIL_H_

#include <string>
#include <vector>

#include "checker/config/parallel_config.h"
#include "checker/diag/finding.h"
#include "rules/emitter.h"

namespace topolint::config_rules {

// config-schema (config_rules.cc): the reader's SchemaProblems.
void CheckSchema(const config::ParallelConfig& cfg, Emitter& emit);
// config-unknown-key (config_rules.cc).
void CheckUnknownKeys(const config::ParallelConfig& cfg, Emitter& emit);
// config-unknown-key for misspelled container keys such as
// `override-neuron-config` (config_rules.cc).
void CheckMisspelledKeys(const config::ComponentConfig& c, Emitter& emit);
// config-dp-divides (config_layout_rules.cc).
void CheckDpDivides(const config::ParallelConfig& cfg, Emitter& emit);
// config-mlp-dp-with-ep (config_layout_rules.cc).
void CheckMlpDpWithEp(const config::ParallelConfig& cfg, Emitter& emit);
// config-di-recommended (config_layout_rules.cc).
void CheckDiRecommended(const config::ParallelConfig& cfg, Emitter& emit);

// A note at a field's value ("<text>"), or nothing when it is not written.
template <typename F>
void AddNote(const config::ParallelConfig& cfg, const F& f, std::string text,
             std::vector<Note>* notes) {
  if (!f.present) return;
  notes->push_back({At(cfg.file, f.value_pos), std::move(text)});
}

}  // namespace topolint::config_rules

#endif  // TOPOLINT_RULES_CONFIG_RULE_UTIL_H_
