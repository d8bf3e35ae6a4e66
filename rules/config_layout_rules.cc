// config-dp-divides, config-mlp-dp-with-ep, config-di-recommended: rules over
// one config's parallel layout.
#include <string>
#include <vector>

#include "checker/config/disaggregation.h"
#include "checker/config/parallel_config.h"
#include "fmt/format.h"
#include "rules/config_rule_util.h"

namespace topolint::config_rules {
namespace {

using config::ConfigForm;
using config::IntField;
using config::ParallelConfig;

// "data_parallel_size 4", "data_parallel_size 4 (from
// --data-parallel-size)" or "data_parallel_size 1 (the default)".
std::string Named(const ParallelConfig& cfg, const IntField& f) {
  const std::string key = f.key();
  if (f.IsSet()) return fmt::format("{} {}", key, f.value);
  if (&f == &cfg.data_parallel_size && !cfg.data_parallel_size_origin.empty()) {
    return fmt::format("{} {} (from {})", key, f.value,
                       cfg.data_parallel_size_origin);
  }
  return fmt::format("{} {} (the default)", key, f.value);
}

// Reports `divisor` (at `at`) when it does not divide `dividend`. Fields with
// schema problems are skipped (config-schema reports them).
void CheckDivides(const ParallelConfig& cfg, const IntField& at,
                  const IntField& divisor, const IntField& dividend,
                  const std::string& why, const IntField& note_at,
                  Emitter& emit) {
  if (!at.IsSet() || !divisor.ok || !dividend.ok) return;
  const int64_t d = divisor.value;
  const int64_t n = dividend.value;
  if (d < 1 || n % d == 0) return;
  std::string message;
  if (&at == &divisor) {
    message = fmt::format("{} does not divide {} ({} % {} = {}); {}",
                          Named(cfg, divisor), Named(cfg, dividend), n, d,
                          n % d, why);
  } else {
    message = fmt::format("{} is not divisible by {} ({} % {} = {}); {}",
                          Named(cfg, dividend), Named(cfg, divisor), n, d,
                          n % d, why);
  }
  std::vector<Note> notes;
  AddNote(cfg, note_at, fmt::format("{} is set here", Named(cfg, note_at)),
          &notes);
  emit.Report(kConfigDpDivides, At(cfg.file, at.value_pos), std::move(message),
              std::move(notes), at.path);
}

}  // namespace

void CheckDpDivides(const ParallelConfig& cfg, Emitter& emit) {
  const IntField& tp = cfg.Tp();
  // vLLM component DP sizes (written only in the vLLM form), against a
  // known data-parallel size only: an `--additional-config` JSON alone does
  // not record it (`vllm serve --data-parallel-size`), and it is not 1 then.
  if (cfg.KnownDp().has_value()) {
    for (const config::ComponentDp& c : cfg.ComponentDpSizes()) {
      CheckDivides(cfg, *c.field, *c.field, cfg.data_parallel_size,
                   fmt::format("the {} component TP group is a block of "
                               "whole DP rows, so its DP size must divide "
                               "the data-parallel size",
                               c.component),
                   cfg.data_parallel_size, emit);
    }
  }
  // The rest divide the TP degree, when the config records it (an override
  // dict alone has tp_degree only when written).
  if (!cfg.KnownTp().has_value()) return;
  // NxDI degrees: also in an NxDI override dict of the vLLM form.
  {
    CheckDivides(cfg, cfg.cp_degree, cfg.cp_degree, tp,
                 "context parallelism is carved inside each TP group "
                 "(\"TP Degree must be evenly divisible by CP Degree\")",
                 tp, emit);
    CheckDivides(cfg, cfg.attention_dp_degree, cfg.attention_dp_degree, tp,
                 "attention data parallelism is carved inside each TP group "
                 "(\"TP Degree must be evenly divisible by DP Degree\")",
                 tp, emit);
    if (cfg.attention_dp_degree.value > 1) {
      // tkg_batch_size defaults to batch_size; point at whichever is written.
      const IntField& batch =
          cfg.tkg_batch_size.present ? cfg.tkg_batch_size : cfg.batch_size;
      CheckDivides(cfg, batch, cfg.attention_dp_degree, batch,
                   "each attention DP rank decodes an equal share of the "
                   "batch (\"Batch Size must be evenly divisible by DP "
                   "Degree\")",
                   cfg.attention_dp_degree, emit);
    }
  }
  // Both forms: sampling DP splits each TP group into rows.
  CheckDivides(cfg, cfg.sampling_dp_degree, cfg.sampling_dp_degree, tp,
               "on-device sampling shards the batch inside each TP group", tp,
               emit);
}

void CheckMlpDpWithEp(const ParallelConfig& cfg, Emitter& emit) {
  if (cfg.form != ConfigForm::kVllm) return;
  const IntField& mlp = cfg.mlp_dp_size;
  if (!mlp.IsSet() || mlp.value <= 1 || !cfg.ExpertParallel()) return;
  if (cfg.all2all_backend.value == "neuron") return;
  const std::string ep = cfg.ep_degree.value > 1
                             ? fmt::format("ep_degree {}", cfg.ep_degree.value)
                             : std::string("enable_expert_parallel");
  std::string message = fmt::format(
      "mlp_dp_size {0} is not allowed with expert parallelism ({1}) on the "
      "static cross-DP-EP dispatch: the decoder layer all-gathers the rows "
      "over the {0}-rank MLP DP column and the dispatch all-gathers them "
      "again over the same ranks, making {0} identical copies of one row "
      "block; widen the draft MLP with draft_mlp_dp_size instead, or use "
      "all2all_backend \"neuron\" (the all2all-v dispatch keeps rows sequence "
      "parallel)",
      mlp.value, ep);
  std::vector<Note> notes;
  if (cfg.ep_degree.value > 1) {
    AddNote(cfg, cfg.ep_degree, "expert parallelism is set here", &notes);
  } else {
    AddNote(cfg, cfg.enable_expert_parallel, "expert parallelism is set here",
            &notes);
  }
  AddNote(cfg, cfg.all2all_backend,
          fmt::format("all2all_backend is {} here, which selects the static "
                      "dispatch",
                      cfg.all2all_backend.written),
          &notes);
  emit.Report(kConfigMlpDpWithEp, At(cfg.file, mlp.value_pos),
              std::move(message), std::move(notes), mlp.path);
}

void CheckDiRecommended(const ParallelConfig& cfg, Emitter& emit) {
  if (cfg.form != ConfigForm::kVllm) return;
  // Only where the config itself shows that disaggregated inference is off
  // or in another role; what the file cannot show (an `--additional-config`
  // JSON alone) `explain` names instead (config/disaggregation.h).
  const config::DiReading di = config::ReadDisaggregation(cfg);
  if (di.state != config::DiState::kShownOff) return;
  const std::string& found = di.shown;
  for (const IntField* f :
       {&cfg.attention_dp_size, &cfg.embedding_dp_size, &cfg.lm_head_dp_size}) {
    if (!f->IsSet() || f->value <= 1) continue;
    std::string message = fmt::format(
        "{} {} shards its component over TP x {} ranks on the decode graph "
        "only, so prefill and decode need separately loaded weights, which "
        "disaggregated inference provides; but {} (expected kv_role "
        "\"kv_consumer\" or \"kv_both\")",
        f->key(), f->value, f->value, found);
    std::vector<Note> notes;
    AddNote(cfg, cfg.kv_role, "kv_role is set here", &notes);
    emit.Report(kConfigDiRecommended, At(cfg.file, f->value_pos),
                std::move(message), std::move(notes), f->path);
  }
}

}  // namespace topolint::config_rules
