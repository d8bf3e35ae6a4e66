#include "bench/bench_inputs.h"

#include <iterator>
#include <string>

#include "fmt/format.h"

namespace topolint::bench {
namespace {

constexpr char kSourceFile[] =
    "/opt/workspace/llama/src/transformers_neuronx/llama/modeling_llama.py";
constexpr char kCollectiveConfig[] =
    "{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
    "\"collective_backend_config\":{\"is_sync\":false,"
    "\"no_parallel_custom_call\":false},\"force_earliest_schedule\":false}";
constexpr char kGemmConfig[] =
    "{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
    "\"gemm_backend_config\":{\"alpha_real\":1,\"beta\":0,"
    "\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"2\"],"
    "\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],"
    "\"rhs_batch_dimensions\":[]},\"precision_config\":{\"operand_precision\":"
    "[\"DEFAULT\",\"DEFAULT\"]},\"epilogue\":\"DEFAULT\"},"
    "\"force_earliest_schedule\":false}";

// `{{0,1,...,n-1}}` or one of the iota spellings of the same group.
std::string GroupsForm(int tp, int k) {
  switch (k % 4) {
    case 0:
      return fmt::format("[1,{}]<=[{}]", tp, tp);
    case 1:
      return fmt::format("[1,{}]<=[2,{}]T(0,1)", tp, tp / 2);
    case 2:
      return fmt::format("[1,{}]<=[{},2]T(0,1)", tp, tp / 2);
    default: {
      std::string s = "{{";
      for (int i = 0; i < tp; ++i)
        fmt::format_to(std::back_inserter(s), "{}{}", i ? "," : "", i);
      return s + "}}";
    }
  }
}

std::string Meta(int layer, const char* what, int line) {
  return fmt::format(
      "metadata={{op_name=\"jit(train_step)/jit(main)/model.layers.{}/{}\" "
      "source_file=\"{}\" source_line={}}}",
      layer, what, kSourceFile, line);
}

}  // namespace

std::string MakeLayeredModule(int layers, int tp) {
  std::string out;
  auto o = std::back_inserter(out);
  const int seq = 2048 / tp;
  const std::string xs = fmt::format("bf16[4,{},4096]{{2,1,0}}", seq);
  const std::string full = "bf16[4,2048,4096]{2,1,0}";
  fmt::format_to(o,
                 "HloModule bench, is_scheduled=true, replica_count=1, "
                 "num_partitions={}\n\n"
                 "%add (a: bf16[], b: bf16[]) -> bf16[] {{\n"
                 "  %a = bf16[] parameter(0)\n  %b = bf16[] parameter(1)\n"
                 "  ROOT %s = bf16[] add(bf16[] %a, bf16[] %b)\n}}\n\n",
                 tp);
  std::string ring = "{";
  for (int i = 0; i < tp; ++i) {
    fmt::format_to(std::back_inserter(ring), "{}{{{},{}}}", i ? "," : "", i,
                   (i + 1) % tp);
  }
  ring += "}";
  for (int l = 0; l < layers; ++l) {
    fmt::format_to(
        o,
        "%fused_norm.{0} (p0.{0}: {1}, p1.{0}: bf16[4096]) -> {1} {{\n"
        "  %p0.{0} = {1} parameter(0)\n"
        "  %p1.{0} = bf16[4096]{{0}} parameter(1)\n"
        "  %convert.{0} = f32[4,{2},4096]{{2,1,0}} convert({1} %p0.{0}), {3}\n"
        "  %bcast.{0} = {1} broadcast(bf16[4096]{{0}} %p1.{0}), "
        "dimensions={{2}}\n"
        "  %cv.{0} = {1} convert(f32[4,{2},4096]{{2,1,0}} %convert.{0})\n"
        "  ROOT %mul.{0} = {1} multiply({1} %cv.{0}, {1} %bcast.{0}), {4}\n"
        "}}\n\n",
        l, xs, seq, Meta(l, "norm/convert", 100 + l % 900),
        Meta(l, "norm/mul", 200 + l % 900));
  }
  fmt::format_to(o,
                 "ENTRY %main (x: {0}, w: bf16[4096], c: bf16[4096,4096]) -> "
                 "{0} {{\n"
                 "  %x = {0} parameter(0)\n"
                 "  %w = bf16[4096]{{0}} parameter(1)\n"
                 "  %c = bf16[4096,4096]{{1,0}} parameter(2)\n",
                 xs);
  std::string x = "%x";
  int channel = 1;
  for (int l = 0; l < layers; ++l) {
    fmt::format_to(
        o,
        "  %n.{0} = {1} fusion({1} {2}, bf16[4096]{{0}} %w), kind=kLoop, "
        "calls=%fused_norm.{0}, {3}\n"
        "  %ags.{0} = ({1}, {4}) all-gather-start({1} %n.{0}), channel_id={5}, "
        "replica_groups={6}, dimensions={{1}}, use_global_device_ids=true, "
        "{7}, backend_config={8}\n"
        "  %agd.{0} = {4} all-gather-done(({1}, {4}) %ags.{0}), {7}\n"
        "  %dot.{0} = {4} dot({4} %agd.{0}, bf16[4096,4096]{{1,0}} %c), "
        "lhs_contracting_dims={{2}}, rhs_contracting_dims={{0}}, {9}, "
        "backend_config={10}\n"
        "  %rs.{0} = {1} reduce-scatter({4} %dot.{0}), channel_id={11}, "
        "replica_groups={12}, use_global_device_ids=true, dimensions={{1}}, "
        "to_apply=%add, {13}\n"
        "  %ag.{0} = {4} all-gather(%rs.{0}), channel_id={14}, "
        "replica_groups={15}, dimensions={{1}}, use_global_device_ids=true, "
        "{7}\n"
        "  %t.{0} = ({1}, {4}) tuple({1} %rs.{0}, {4} %ag.{0})\n"
        "  %g.{0} = {1} get-tuple-element(({1}, {4}) %t.{0}), index=0\n"
        "  %ar.{0} = ({1}, {1}) all-reduce({1} %g.{0}, {1} %rs.{0}), "
        "channel_id={16}, replica_groups={17}, use_global_device_ids=true, "
        "to_apply=%add, {13}, backend_config={8}\n"
        "  %cps.{0} = ({1}, {1}, u32[], u32[]) collective-permute-start({1} "
        "%g.{0}), channel_id={18}, source_target_pairs={19}, {13}\n"
        "  %cpd.{0} = {1} collective-permute-done(({1}, {1}, u32[], u32[]) "
        "%cps.{0})\n"
        "  %sum.{0} = {1} add({1} %g.{0}, {1} %cpd.{0}), {13}\n",
        l, xs, x, Meta(l, "input_layernorm", 300 + l % 700), full, channel,
        GroupsForm(tp, l), Meta(l, "all_gather[axis_name=tp]", 400 + l % 500),
        kCollectiveConfig,
        Meta(l, "dot_general[dimension_numbers=(([2], [0]), ([], []))]",
             500 + l % 400),
        kGemmConfig, channel + 1, GroupsForm(tp, l + 1),
        Meta(l, "psum_scatter", 600 + l % 300), channel + 2,
        GroupsForm(tp, l + 2), channel + 3, GroupsForm(tp, l + 3), channel + 4,
        ring);
    channel += 5;
    x = fmt::format("%sum.{}", l);
  }
  fmt::format_to(o, "  ROOT %out = {0} copy({0} {1})\n}}\n", xs, x);
  return out;
}

std::string MakeLargeGroupModule(int ops, int64_t devices) {
  std::string out;
  auto o = std::back_inserter(out);
  fmt::format_to(o,
                 "HloModule large, replica_count=1, num_partitions={}\n\n"
                 "%add (a: f32[], b: f32[]) -> f32[] {{\n"
                 "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
                 "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}}\n\n"
                 "ENTRY %main (p: f32[1024]) -> f32[1024] {{\n"
                 "  %p.0 = f32[1024]{{0}} parameter(0)\n",
                 devices);
  for (int k = 0; k < ops; ++k) {
    fmt::format_to(o,
                   "  %p.{} = f32[1024]{{0}} all-reduce(f32[1024]{{0}} %p.{}), "
                   "channel_id={}, replica_groups=[1,{}]<=[{}], "
                   "use_global_device_ids=true, to_apply=%add\n",
                   k + 1, k, k + 1, devices, devices);
  }
  fmt::format_to(
      o, "  ROOT %r = f32[1024]{{0}} copy(f32[1024]{{0}} %p.{})\n}}\n", ops);
  return out;
}

std::string MakeDefJson(int64_t groups, int64_t group_size, bool ring) {
  std::string out;
  auto o = std::back_inserter(out);
  const int64_t ranks = groups * group_size;
  fmt::format_to(o,
                 "{{\n \"name\": \"sg00\",\n \"CCInfo\": {{\n"
                 "  \"replica_groups\": [\n   [\n");
  for (int64_t g = 0; g < groups; ++g) {
    out += "    [\n";
    for (int64_t r = 0; r < group_size; ++r) {
      fmt::format_to(o, "     {}{}\n", g * group_size + r,
                     r + 1 < group_size ? "," : "");
    }
    out += g + 1 < groups ? "    ],\n" : "    ]\n";
  }
  out += "   ]\n  ],\n  \"src_target_pairs\": [\n";
  for (int64_t r = 0; ring && r < ranks; ++r) {
    fmt::format_to(o, "   [{}, {}]{}\n", r, (r + 1) % ranks,
                   r + 1 < ranks ? "," : "");
  }
  fmt::format_to(o, "  ],\n  \"#rank_world_size\": {}\n }}\n}}\n", ranks);
  return out;
}

std::string MakeComponentConfig(int tp) {
  return fmt::format(
      "{{\"tensor_parallel_size\": {}, \"data_parallel_size\": 1, "
      "\"enable_expert_parallel\": false, \"all2all_backend\": null, "
      "\"neuron_config\": {{\"attention_dp_size\": 1, "
      "\"embedding_dp_size\": 1, \"mlp_dp_size\": 1, "
      "\"lm_head_dp_size\": 1}}}}\n",
      tp);
}

}  // namespace topolint::bench
