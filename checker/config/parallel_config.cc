#include "checker/config/parallel_config.h"

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "fmt/format.h"

namespace topolint::config {
namespace {

constexpr size_t kMaxWrittenChars = 40;

// The value as written, short enough for a one-line message.
std::string Written(const json::Value& v) {
  std::string s;
  switch (v.type) {
    case json::Type::kNull:
      return "null";
    case json::Type::kBool:
      return v.bool_value ? "true" : "false";
    case json::Type::kInt:
    case json::Type::kUInt:
    case json::Type::kFloat:
      s = v.number_text;
      break;
    case json::Type::kString:
      s = "\"" + v.string_value + "\"";
      break;
    case json::Type::kArray:
      return "[...]";
    case json::Type::kObject:
      return "{...}";
  }
  if (s.size() > kMaxWrittenChars) s = s.substr(0, kMaxWrittenChars) + "...";
  return s;
}

// "4.5 (a number)": the value and, unless the type is obvious from the text,
// its JSON type.
std::string Describe(const json::Value& v) {
  std::string_view type = v.TypeName();
  const char* article =
      (type == "integer" || type == "array" || type == "object") ? "an" : "a";
  if (v.is_null()) return "null";
  return fmt::format("{} ({} {})", Written(v), article, type);
}

struct IntSpec {
  int64_t def = 1;
  int64_t min = 1;
  int64_t max = 0;  // 0: no upper bound
  bool nullable = false;
  const char* expected = nullptr;  // overrides "an integer >= min"
};
// Python None default: null counts as absent.
constexpr IntSpec kNullable{/*def=*/0, /*min=*/1, /*max=*/0, /*nullable=*/true};
constexpr IntSpec kNonNegative{/*def=*/0, /*min=*/0};
constexpr IntSpec kOneOrTwo{/*def=*/1, /*min=*/1, /*max=*/2, false, "1 or 2"};

class Reader {
 public:
  explicit Reader(ParallelConfig* pc) : pc_(pc) {}

  // Finds `key` in `obj` (an object, or nullptr) and records where it is.
  // Returns the value, or nullptr when absent.
  template <typename T>
  const json::Value* Locate(const json::Value* obj, std::string_view obj_path,
                            std::string_view key, Field<T>* f) {
    f->path = JoinPath(obj_path, key);
    if (obj == nullptr) return nullptr;
    const json::Member* m = obj->FindMember(key);
    if (m == nullptr) return nullptr;
    f->present = true;
    f->key_pos = m->key_pos;
    f->value_pos = m->value.pos;
    f->written = Written(m->value);
    return &m->value;
  }

  // An integer field. JSON null on a `nullable` field counts as absent.
  void Int(const json::Value* obj, std::string_view obj_path,
           std::string_view key, IntField* f, IntSpec spec = {}) {
    f->value = spec.def;
    const json::Value* v = Locate(obj, obj_path, key, f);
    if (v == nullptr) return;
    if (v->is_null() && spec.nullable) {
      f->present = false;
      return;
    }
    const bool in_range = v->type == json::Type::kInt &&
                          v->int_value >= spec.min &&
                          (spec.max == 0 || v->int_value <= spec.max);
    if (in_range) {
      f->value = v->int_value;
      return;
    }
    f->ok = false;
    const std::string expected =
        spec.expected != nullptr ? std::string(spec.expected)
                                 : fmt::format("an integer >= {}", spec.min);
    const std::string found = v->type == json::Type::kUInt
                                  ? Written(*v) + ", too large"
                              : v->is_integer() ? Written(*v)
                                                : Describe(*v);
    Problem(*v, f->path,
            fmt::format("{} is {}; expected {}", f->path, found, expected));
  }

  void Bool(const json::Value* obj, std::string_view obj_path,
            std::string_view key, BoolField* f) {
    const json::Value* v = Locate(obj, obj_path, key, f);
    if (v == nullptr) return;
    if (v->is_bool()) {
      f->value = v->bool_value;
      return;
    }
    f->ok = false;
    Problem(
        *v, f->path,
        fmt::format("{} is {}; expected true or false", f->path, Describe(*v)));
  }

  // A string, or null when `null_ok`. Range checks are the caller's.
  const json::Value* String(const json::Value* obj, std::string_view obj_path,
                            std::string_view key, StringField* f,
                            bool null_ok) {
    const json::Value* v = Locate(obj, obj_path, key, f);
    if (v == nullptr) return nullptr;
    if (v->is_string()) {
      f->value = v->string_value;
      f->is_null = false;
      return v;
    }
    if (v->is_null() && null_ok) return v;
    f->ok = false;
    return v;
  }

  void Problem(const json::Value& v, std::string path, std::string message) {
    pc_->problems.push_back({v.pos, std::move(path), std::move(message)});
  }

 private:
  ParallelConfig* pc_;
};

bool HasAnyVllmKey(const json::Value* engine, const json::Value* nc) {
  constexpr std::string_view kVllmEngineKeys[] = {
      "tensor_parallel_size", "data_parallel_size", "enable_expert_parallel",
      "kv_transfer_config",   "additional_config",  "override_neuron_config"};
  if (engine != nullptr && HasKeyOf(*engine, kVllmEngineKeys)) return true;
  if (nc == nullptr) return false;
  for (const json::Member& m : nc->object) {
    if (absl::EndsWith(m.key, "_dp_size") || m.key == "all2all_backend") {
      return true;
    }
  }
  return false;
}

// all2all_backend may be null or any string (only "neuron" selects the
// all2all-v dispatch; vLLM's own backends are other strings).
void ReadAll2AllBackend(Reader& r, const json::Value* engine,
                        const std::string& engine_path, const json::Value* nc,
                        const std::string& nc_path, ParallelConfig* pc) {
  StringField top, inner;
  const json::Value* v_top =
      r.String(engine, engine_path, "all2all_backend", &top, /*null_ok=*/true);
  const json::Value* v_inner =
      nc != nullptr && nc != engine
          ? r.String(nc, nc_path, "all2all_backend", &inner, /*null_ok=*/true)
          : nullptr;
  for (auto [v, f] : {std::pair{v_top, &top}, std::pair{v_inner, &inner}}) {
    if (v == nullptr || f->ok) continue;
    f->value.clear();
    f->is_null = true;
    r.Problem(*v, f->path,
              fmt::format("{} is {}; expected null or a string", f->path,
                          Describe(*v)));
  }
  pc->all2all_backend = inner.present ? inner : top;
}

void ReadKvTransfer(Reader& r, const json::Value* engine,
                    const std::string& engine_path, ParallelConfig* pc) {
  const std::string kv_path = JoinPath(engine_path, "kv_transfer_config");
  const json::Member* m =
      engine != nullptr ? engine->FindMember("kv_transfer_config") : nullptr;
  pc->kv_role.path = JoinPath(kv_path, "kv_role");
  if (m != nullptr && m->value.is_null()) {
    pc->kv_transfer_config_null = true;
    pc->kv_transfer_config_pos = m->key_pos;
  }
  if (m == nullptr || m->value.is_null()) return;
  if (!m->value.is_object()) {
    r.Problem(m->value, kv_path,
              fmt::format("{} is {}; expected an object or null", kv_path,
                          Describe(m->value)));
    return;
  }
  pc->has_kv_transfer_config = true;
  pc->kv_transfer_config_pos = m->key_pos;
  const json::Value* v = r.String(&m->value, kv_path, "kv_role", &pc->kv_role,
                                  /*null_ok=*/true);
  if (v == nullptr || (pc->kv_role.ok && pc->kv_role.is_null)) return;
  const std::string& role = pc->kv_role.value;
  if (pc->kv_role.ok &&
      (role == "kv_producer" || role == "kv_consumer" || role == "kv_both")) {
    return;
  }
  pc->kv_role.ok = false;
  pc->kv_role.value.clear();
  pc->kv_role.is_null = true;
  r.Problem(*v, pc->kv_role.path,
            fmt::format("{} is {}; expected \"kv_producer\", "
                        "\"kv_consumer\" or \"kv_both\"",
                        pc->kv_role.path,
                        v->is_string() ? Written(*v) : Describe(*v)));
}

// One located section of `cfg`.
ParallelConfig ReadParallelConfigSection(const ComponentConfig& cfg,
                                         const ConfigSection& section) {
  ParallelConfig pc;
  pc.file = cfg.file;
  pc.section = section.name;
  pc.kind = section.kind;
  Reader r(&pc);
  const json::Value* engine = section.engine;
  const std::string& ep = section.engine_path;
  const json::Value* nc =
      section.kind == NeuronDictKind::kFlat ? nullptr : section.fields;
  if (section.name.empty() && section.kind == NeuronDictKind::kFlat) {
    // A neuron_config that is not an object (the locator only takes objects).
    if (const json::Member* m = cfg.root().FindMember("neuron_config");
        m != nullptr && !m->value.is_object() && !m->value.is_null()) {
      r.Problem(m->value, "neuron_config",
                fmt::format("neuron_config is {}; expected an object",
                            Describe(m->value)));
    }
  }
  pc.neuron_config = nc;
  pc.neuron_config_path = section.fields_path;
  const json::Value* fields = section.fields;
  const std::string& fp = section.fields_path;
  const bool vllm_dict = section.kind == NeuronDictKind::kPlugin ||
                         section.kind == NeuronDictKind::kOverride ||
                         section.kind == NeuronDictKind::kVisionPlugin;
  pc.form = vllm_dict || HasAnyVllmKey(engine, fields) ? ConfigForm::kVllm
                                                       : ConfigForm::kNxdi;

  // vLLM engine arguments.
  pc.records_engine_args =
      engine != nullptr && HasKeyOf(*engine, kParallelEngineKeys);
  r.Int(engine, ep, "tensor_parallel_size", &pc.tensor_parallel_size);
  r.Int(engine, ep, "data_parallel_size", &pc.data_parallel_size);
  r.Bool(engine, ep, "enable_expert_parallel", &pc.enable_expert_parallel);
  ReadAll2AllBackend(r, engine, ep, nc, fp, &pc);
  ReadKvTransfer(r, engine, ep, &pc);

  // vLLM plugin NeuronConfig.
  r.Int(fields, fp, "attention_dp_size", &pc.attention_dp_size);
  r.Int(fields, fp, "embedding_dp_size", &pc.embedding_dp_size);
  r.Int(fields, fp, "mlp_dp_size", &pc.mlp_dp_size);
  r.Int(fields, fp, "draft_mlp_dp_size", &pc.draft_mlp_dp_size);
  r.Int(fields, fp, "lm_head_dp_size", &pc.lm_head_dp_size);
  r.Bool(fields, fp, "apply_prefill_dcp", &pc.apply_prefill_dcp);

  // Both forms.
  r.Int(fields, fp, "ep_degree", &pc.ep_degree);
  {
    const json::Value* ods = fields->Find("on_device_sampling_config");
    r.Int(ods != nullptr && ods->is_object() ? ods : nullptr,
          JoinPath(fp, "on_device_sampling_config"), "sampling_dp_degree",
          &pc.sampling_dp_degree);
  }

  // NxDI NeuronConfig.
  r.Int(fields, fp, "tp_degree", &pc.tp_degree);
  r.Int(fields, fp, "cp_degree", &pc.cp_degree);
  r.Int(fields, fp, "mlp_cp_degree", &pc.mlp_cp_degree);
  r.Int(fields, fp, "attention_dp_degree", &pc.attention_dp_degree);
  r.Int(fields, fp, "pp_degree", &pc.pp_degree);
  r.Int(fields, fp, "world_size", &pc.world_size, kNullable);
  r.Int(fields, fp, "batch_size", &pc.batch_size);
  const int64_t batch = pc.batch_size.value;
  r.Int(fields, fp, "ctx_batch_size", &pc.ctx_batch_size, IntSpec{batch});
  r.Int(fields, fp, "tkg_batch_size", &pc.tkg_batch_size, IntSpec{batch});
  r.Int(fields, fp, "max_batch_size", &pc.max_batch_size, IntSpec{batch});
  r.Int(fields, fp, "moe_tp_degree", &pc.moe_tp_degree);
  r.Int(fields, fp, "moe_ep_degree", &pc.moe_ep_degree);
  r.Int(fields, fp, "local_ranks_size", &pc.local_ranks_size, kNullable);
  r.Int(fields, fp, "start_rank_id", &pc.start_rank_id, kNonNegative);
  r.Bool(fields, fp, "is_continuous_batching", &pc.is_continuous_batching);
  r.Bool(fields, fp, "sequence_parallel_enabled",
         &pc.sequence_parallel_enabled);
  r.Bool(fields, fp, "switch_cc", &pc.switch_cc);
  r.Bool(fields, fp, "enable_ve_data_parallel", &pc.enable_ve_data_parallel);

  // logical_nc_config (or its deprecated alias logical_neuron_cores).
  const bool alias_only = fields->FindMember("logical_nc_config") == nullptr &&
                          fields->FindMember("logical_neuron_cores") != nullptr;
  r.Int(fields, fp, alias_only ? "logical_neuron_cores" : "logical_nc_config",
        &pc.logical_nc_config, kOneOrTwo);
  r.String(fields, fp, "target", &pc.target, /*null_ok=*/true);
  return pc;
}

}  // namespace

const char* ConfigFormName(ConfigForm form) {
  return form == ConfigForm::kVllm ? "vLLM-on-Neuron" : "NxD Inference";
}

std::vector<ComponentDp> ParallelConfig::ComponentDpSizes() const {
  return {{"attention", &attention_dp_size},
          {"embedding", &embedding_dp_size},
          {"mlp", &mlp_dp_size},
          {"draft_mlp", &draft_mlp_dp_size},
          {"lm_head", &lm_head_dp_size}};
}

bool ParallelConfig::ExpertParallel() const {
  if (ep_degree.value > 1) return true;
  return form == ConfigForm::kVllm && enable_expert_parallel.value;
}

int64_t ParallelConfig::EffectiveEp() const {
  if (ep_degree.value > 1) return ep_degree.value;
  if (form == ConfigForm::kVllm && enable_expert_parallel.value) {
    return WorldSize().value_or(1);
  }
  return 1;
}

const IntField& ParallelConfig::Tp() const {
  if (form != ConfigForm::kVllm) return tp_degree;
  if (kind == NeuronDictKind::kOverride && tp_degree.IsSet()) return tp_degree;
  return tensor_parallel_size;
}

std::optional<int64_t> ParallelConfig::WorldSize() const {
  int64_t out = 0;
  if (form == ConfigForm::kVllm) {
    if (__builtin_mul_overflow(Tp().value, data_parallel_size.value, &out)) {
      return std::nullopt;
    }
    return out;
  }
  if (world_size.IsSet()) {
    return world_size.value;
  }
  if (__builtin_mul_overflow(tp_degree.value, pp_degree.value, &out) ||
      __builtin_mul_overflow(out, ep_degree.value, &out)) {
    return std::nullopt;
  }
  return out;
}

std::string ParallelConfig::WorldSizeExplanation() const {
  if (form == ConfigForm::kVllm) {
    const std::optional<int64_t> known_tp = KnownTp();
    const std::optional<int64_t> known_dp = KnownDp();
    const std::string tp_text =
        known_tp.has_value() ? fmt::format("{}", *known_tp) : "not recorded";
    std::string dp_text =
        known_dp.has_value() ? fmt::format("{}", *known_dp) : "not recorded";
    if (known_dp.has_value() && !data_parallel_size.present &&
        !data_parallel_size_origin.empty()) {
      dp_text += fmt::format(" (from {})", data_parallel_size_origin);
    }
    return fmt::format("{} {} x data_parallel_size {}", Tp().key(), tp_text,
                       dp_text);
  }
  if (world_size.IsSet()) return "world_size as written";
  return fmt::format("tp_degree {} x pp_degree {} x ep_degree {}",
                     tp_degree.value, pp_degree.value, ep_degree.value);
}

std::optional<int64_t> ParallelConfig::KnownTp() const {
  const IntField& tp = Tp();
  if (!tp.ok) return std::nullopt;
  if (form == ConfigForm::kNxdi || tp.present || records_engine_args) {
    return tp.value;
  }
  return std::nullopt;
}

std::optional<int64_t> ParallelConfig::KnownDp() const {
  if (form != ConfigForm::kVllm || !data_parallel_size.ok) return std::nullopt;
  if (data_parallel_size.present || !data_parallel_size_origin.empty() ||
      records_engine_args) {
    return data_parallel_size.value;
  }
  return std::nullopt;
}

bool ParallelConfig::WorldRecorded() const {
  if (form == ConfigForm::kNxdi) return true;
  return KnownTp().has_value() && KnownDp().has_value();
}

std::optional<ParallelConfig> WithDataParallelSize(const ParallelConfig& cfg,
                                                   std::optional<int64_t> dp,
                                                   const std::string& origin) {
  if (!dp.has_value() || *dp < 1 || cfg.form != ConfigForm::kVllm ||
      cfg.data_parallel_size.present) {
    return std::nullopt;
  }
  ParallelConfig out = cfg;
  out.data_parallel_size.value = *dp;
  out.data_parallel_size.written = fmt::format("{}", *dp);
  out.data_parallel_size_origin = origin.empty() ? "topolint" : origin;
  return out;
}

bool ParallelConfig::LayoutFieldsOk() const {
  for (const IntField* f :
       {&tensor_parallel_size, &data_parallel_size, &attention_dp_size,
        &embedding_dp_size, &mlp_dp_size, &draft_mlp_dp_size, &lm_head_dp_size,
        &ep_degree, &sampling_dp_degree, &tp_degree, &cp_degree, &mlp_cp_degree,
        &attention_dp_degree, &pp_degree, &world_size, &moe_tp_degree,
        &moe_ep_degree}) {
    if (!f->ok) return false;
  }
  return enable_expert_parallel.ok && switch_cc.ok;
}

const IntField* ParallelConfig::WorldSizeField() const {
  const IntField* order[2];
  if (form == ConfigForm::kVllm) {
    order[0] = &Tp();
    order[1] = &data_parallel_size;
  } else {
    order[0] = &world_size;
    order[1] = &tp_degree;
  }
  for (const IntField* f : order) {
    if (f->present) return f;
  }
  return nullptr;
}

const std::vector<ParallelConfig>& ReadParallelConfigs(
    const ComponentConfig& cfg) {
  return *SharedParallelConfigs(cfg);
}

std::shared_ptr<const std::vector<ParallelConfig>> SharedParallelConfigs(
    const ComponentConfig& cfg) {
  ComponentConfigData& d = *cfg.data;
  std::lock_guard<std::mutex> lock(d.mu);
  if (d.parallel == nullptr) {
    const ConfigSections cs = LocateSections(d.root);
    auto out = std::make_shared<std::vector<ParallelConfig>>();
    out->reserve(cs.sections.size());
    for (const ConfigSection& s : cs.sections) {
      out->push_back(ReadParallelConfigSection(cfg, s));
    }
    d.parallel = std::move(out);
  }
  // Shares the document too: the reading points into it.
  return std::shared_ptr<const std::vector<ParallelConfig>>(cfg.data,
                                                            d.parallel.get());
}

const ParallelConfig& ReadParallelConfig(const ComponentConfig& cfg) {
  // LocateSections always gives the main section first.
  return ReadParallelConfigs(cfg).front();
}

}  // namespace topolint::config
