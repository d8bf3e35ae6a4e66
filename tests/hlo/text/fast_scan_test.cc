// FastScan (the block scanner behind HloLexer's fast paths) against a
// byte-at-a-time model of its contract written here, in every mode, for the
// implementation chosen on this CPU (AVX2 or SSE2) and for the SSE2
// fallback called directly: on hand-picked texts, on random ones scanned
// from every offset and cut at every length (so that every byte meets
// every block boundary), and on real instruction lines, which it must not
// decline. Where it answers in kGroup and kValue mode, the answer is also
// checked against the exact scanner (HloLexer through a 1-byte window, every
// fast path off).
#include "checker/hlo/text/fast_scan.h"

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checker/hlo/input_window.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/hlo_parser.h"
#include "gtest/gtest.h"

namespace topolint::hlo {
namespace {

constexpr FastMode kModes[] = {FastMode::kGroup, FastMode::kValue,
                               FastMode::kLine, FastMode::kBody};

const char* ModeName(FastMode mode) {
  switch (mode) {
    case FastMode::kGroup:
      return "kGroup";
    case FastMode::kValue:
      return "kValue";
    case FastMode::kLine:
      return "kLine";
    case FastMode::kBody:
      return "kBody";
  }
  return "?";
}

// The contract of fast_scan.h, one byte at a time: where the exact scanner
// stops, or nullptr where FastScan declines (a newline inside brackets or
// after `name=`, a comment, an escape, a single quote, a control byte, a
// bracket mismatch, nesting past 32, the end of the window, a blank whose
// meaning depends on bytes past the window).
const char* ReferenceScan(FastMode mode, const char* start, const char* end) {
  const bool group = mode == FastMode::kGroup;
  const bool value = mode == FastMode::kValue;
  std::vector<char> closers;
  bool in_string = false;
  bool in_operands = mode == FastMode::kBody;
  for (const char* q = start;; ++q) {
    const unsigned char c = static_cast<unsigned char>(*q);
    const bool control = c < 0x20 || c == 0x7f;
    if (in_string) {
      if (c == '"') {
        in_string = false;
      } else if (control || c == '\\') {
        return nullptr;
      }
      continue;
    }
    const bool at_depth0 = closers.empty();
    // Blanks and newlines at depth 0 end the text in kValue, kLine, and
    // kBody after its operands.
    const bool stretch = !group && at_depth0 && !in_operands;
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '(':
      case '[':
      case '{':
        if (closers.size() == 32) return nullptr;
        closers.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
        break;
      case ')':
      case ']':
      case '}': {
        if (at_depth0) return q;  // closes an enclosing construct
        if (closers.back() != static_cast<char>(c)) return nullptr;
        closers.pop_back();
        if (!closers.empty()) break;
        if (group) return q + 1;
        if (in_operands) {
          in_operands = false;
          const char* r = q + 1;
          while (*r == ' ' || *r == '\t' || *r == '\r') ++r;
          if (*r == '\n') return r;
          if (*r != ',') return nullptr;
        }
        break;
      }
      case ',':
        if (value && at_depth0) return q;
        break;
      case ' ': {
        // A run of blanks is decided at its first blank.
        if (!stretch || (q > start && q[-1] == ' ')) break;
        const char prev = q > start ? q[-1] : '\0';
        const char* after = q;
        while (*after == ' ') ++after;
        if (after >= end) return nullptr;
        const char next = *after;
        // The exact path skips tabs and CRs too before it decides.
        if (next == '\t' || next == '\r') return nullptr;
        if (prev == '=' || next == '{') break;
        if (!value && (prev == ',' || next == ',' || next == '\n')) break;
        if (after + kValueWordLookahead >= end) return nullptr;
        if (ContinuesValueAfterBlank(after)) break;
        return q;
      }
      case '\n':
        if (!stretch || q == start || q[-1] == '=') return nullptr;
        return q;
      case '/':
      case '\'':
      case '\\':
        return nullptr;
      default:
        if (control) return nullptr;  // the NUL at `end` among them
        break;
    }
  }
}

// `text` in a heap block of its own, followed by the NUL sentinel and 63
// bytes of slack (filled from `slack`), as an InputWindow presents it;
// AddressSanitizer reports any read before the text or past the slack.
class Window {
 public:
  Window(std::string_view text, std::string_view slack)
      : size_(text.size()), bytes_(new char[text.size() + 64]) {
    std::memcpy(bytes_.get(), text.data(), text.size());
    bytes_[size_] = '\0';
    for (size_t k = 1; k < 64; ++k) {
      bytes_[size_ + k] = slack.empty() ? 'x' : slack[k % slack.size()];
    }
  }
  const char* at(size_t offset) const { return bytes_.get() + offset; }
  const char* end() const { return bytes_.get() + size_; }
  size_t size() const { return size_; }

 private:
  size_t size_;
  std::unique_ptr<char[]> bytes_;
};

std::string Show(const Window& w, const char* p) {
  if (p == nullptr) return "declines";
  return "stops at " + std::to_string(p - w.at(0));
}

// Checks both implementations against the model for a scan from `from`.
// Returns the model's answer.
const char* ExpectAsModel(FastMode mode, const Window& w, size_t from) {
  const char* start = w.at(from);
  const char* want = ReferenceScan(mode, start, w.end());
  const char* dispatched = FastScan(mode, start, w.end());
  const char* sse2 = FastScanSse2ForTest(mode, start, w.end());
  if (dispatched != want || sse2 != want) {
    ADD_FAILURE() << ModeName(mode) << " from " << from << ": model "
                  << Show(w, want) << ", dispatched " << Show(w, dispatched)
                  << ", SSE2 " << Show(w, sse2) << ", over ["
                  << std::string_view(w.at(0), w.size()) << "]";
  }
  return want;
}

bool Vectorized() { return FastScanIsaInUse() != FastScanIsa::kNone; }

TEST(FastScanTest, UsesTheBestInstructionSetTheCpuHas) {
#if defined(__x86_64__)
  const FastScanIsa isa = FastScanIsaInUse();
  EXPECT_NE(isa, FastScanIsa::kNone);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("pclmul")) {
    EXPECT_EQ(isa, FastScanIsa::kAvx2);
  } else {
    EXPECT_EQ(isa, FastScanIsa::kSse2);
  }
#else
  GTEST_SKIP() << "not x86-64";
#endif
}

struct Case {
  FastMode mode;
  std::string text;
  int stop;  // byte offset, or -1 for "declines"
};

TEST(FastScanTest, HandPickedTexts) {
  const std::string deep32 = std::string(32, '(') + std::string(32, ')');
  const std::string deep33 = std::string(33, '[') + std::string(33, ']');
  const std::string long_string = "\"" + std::string(200, 'a') + "\"";
  const std::vector<Case> cases = {
      // kGroup: through the closer of the opener at the start.
      {FastMode::kGroup, "(a, b) c", 6},
      {FastMode::kGroup, "[4,64,4096]{2,1,0}", 11},
      {FastMode::kGroup, "{\"a]}\":[1,{2}],\"b\":\"(\"}, x", 23},
      {FastMode::kGroup, "{" + long_string + "}", 204},
      {FastMode::kGroup, deep32 + "x", 64},
      {FastMode::kGroup, deep33, -1},              // deeper than 32
      {FastMode::kGroup, "(a]", -1},               // mismatch
      {FastMode::kGroup, "(\"a\\\"b\")", -1},      // escape
      {FastMode::kGroup, "(a /* c */)", -1},       // comment
      {FastMode::kGroup, "('a')", -1},             // single quote
      {FastMode::kGroup, "(a,\n b)", -1},          // newline inside
      {FastMode::kGroup, "(\"a'/\xc3\xa9\")", 9},  // quote, slash in string
      {FastMode::kGroup, "(a\xff)", 4},            // bytes >= 0x80
      {FastMode::kGroup, "(a\x7f)", -1},           // DEL
      {FastMode::kGroup, "(a, b", -1},             // window ends
      {FastMode::kGroup, ")", 0},                  // encloser's closer
      // kValue: to a comma, blank, newline or closer at depth 0.
      {FastMode::kValue, "f32[4]{0} %x, y, z, w", 9},
      {FastMode::kValue, "f32[4]{0} %x, y", -1},  // lookahead past end
      {FastMode::kValue, "{1,2}, x", 5},
      {FastMode::kValue, "f32[] 0.5, x, y, z", 9},  // literal=f32[] 0.5
      {FastMode::kValue, "c64[] (1, 2), x", 12},
      {FastMode::kValue, "pred[] true), a, b", 11},
      {FastMode::kValue, "f32[] -inf}, a, b", 10},
      {FastMode::kValue, "f32[] inf_x, y", 5},  // a name: ends at blank
      {FastMode::kValue, "f32[] nan", -1},      // lookahead past end
      {FastMode::kValue, "mesh[a=2] {x}, y", 13},
      {FastMode::kValue, "a=  b, c", 5},  // blank after '='
      {FastMode::kValue, "abc   ", -1},   // blanks to the end
      {FastMode::kValue, "abc\n  x", 3},
      {FastMode::kValue, "abc=\n{x}", -1},  // `name=` newline
      {FastMode::kValue, "\"x y\" z, a, b", 5},
      {FastMode::kValue, "a)", 1},
      {FastMode::kValue, "a \t5, x, y, z", -1},  // the value goes on
      {FastMode::kValue, "a \rb, x, y, z", -1},
      // kLine: to a newline or closer at depth 0, over commas.
      {FastMode::kLine, "a=1, b={x, y}, c=\"s t\"\n", 22},
      {FastMode::kLine, "a=1 , b=2\n", 9},
      {FastMode::kLine, "a=1 b=2, c=3, d=4\n", 3},
      {FastMode::kLine, "a=1   \nx", 6},
      {FastMode::kLine, "a=1}\n", 3},
      {FastMode::kLine, "\n", -1},
      {FastMode::kLine, "calls=\n{", -1},
      {FastMode::kLine, "a=1 // c\n", -1},
      {FastMode::kLine, "a=1\t\n", -1},
      {FastMode::kLine, "a=1 \t2, b=3, c=4\n", -1},
      // kBody: `(operands)` first, then as kLine.
      {FastMode::kBody,
       "(f32[2]{0} %a, s32[] %b), metadata={op_name=\"a/b\" x=1}\n", 54},
      {FastMode::kBody, "(a)\n", 3},
      {FastMode::kBody, "(a) \t\r\nx", 6},
      {FastMode::kBody, "(a) , b=1\n", 9},
      {FastMode::kBody, "(a) x\n", -1},
      {FastMode::kBody, "(a)x", -1},
      {FastMode::kBody, "(a\n)", -1},
      {FastMode::kBody, "a b)", 3},  // blanks before '('
      {FastMode::kBody, "(a), b={\n}", -1},
  };
  for (const Case& c : cases) {
    const Window w(c.text, "");
    const char* want = ExpectAsModel(c.mode, w, 0);
    const std::string expected =
        c.stop < 0 ? "declines" : "stops at " + std::to_string(c.stop);
    EXPECT_EQ(Show(w, want), expected)
        << "model, " << ModeName(c.mode) << " [" << c.text << "]";
  }
}

TEST(FastScanTest, SlackBytesChangeNothing) {
  const std::vector<std::string> texts = {"(a, b", "abc ", "f32[] ", "f32[] 0",
                                          "x=1, ", "(a) ", "\"abc"};
  for (const std::string& text : texts) {
    for (std::string_view slack : {"", " ", "\n", "0", ")", "\"", ",", "{"}) {
      const Window w(text, slack);
      for (FastMode mode : kModes) ExpectAsModel(mode, w, 0);
    }
  }
}

// Random text from pieces that matter to the scanner, some of them long
// enough to cross blocks, nested up to and past the limit.
std::string RandomText(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = [] {
    // clang-format off
    std::vector<std::string> pieces = {
        "(", ")", "[", "]", "{", "}", ",", " ", " ", "   ", "\"", "\"", "=",
        "a", "x1", "%p.2", "0.5", "-", "inf", "true", "nan", "f32[]",
        "[4,64]", "{1,0}", ", ", " ,", "= ", "\n", "\n{", "\t", "\r", "/",
        "//", "'", "\\", "\x01", "\x7f", "\xc3\xa9", "\xff",
        "\"op/(a)[b]{c}, d\"", "metadata={op_name=\"x\"}"};
    // clang-format on
    pieces.push_back(std::string(66, ' '));  // longer than a block
    pieces.push_back(std::string(69, 'b'));
    return pieces;
  }();
  // Most texts avoid the hazards, so that the scan gets far.
  const bool plain = rng() % 2 == 0;
  std::string text;
  const int pieces = static_cast<int>(rng() % 40);
  for (int k = 0; k < pieces; ++k) {
    size_t i = rng() % kPieces.size();
    if (plain) {
      while (kPieces[i].find_first_of("\n\t\r/'\\\x01\x7f") !=
             std::string::npos) {
        i = rng() % kPieces.size();
      }
    }
    text += kPieces[i];
  }
  if (rng() % 3 == 0) {
    const int depth = static_cast<int>(rng() % 36);
    std::string open;
    std::string close;
    for (int k = 0; k < depth; ++k) {
      const int type = static_cast<int>(rng() % 3);
      open += "([{"[type];
      close.insert(close.begin(), ")]}"[type]);
    }
    text = open + text + close + (rng() % 2 ? "\n" : ", x\n");
  }
  return text;
}

TEST(FastScanTest, RandomTextsFromEveryOffsetAndCut) {
  std::mt19937 rng(20240611);
  for (int n = 0; n < 1200; ++n) {
    const std::string text = RandomText(rng);
    // The window cut at the end of the text, and somewhere inside it.
    for (size_t cut : {text.size(), rng() % (text.size() + 1)}) {
      const Window w(std::string_view(text).substr(0, cut), text.substr(cut));
      // Each start shifts the text against the 64-byte blocks.
      for (size_t from = 0; from <= cut; from += from < 130 ? 1 : 17) {
        for (FastMode mode : kModes) ExpectAsModel(mode, w, from);
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}

// Instruction lines as XLA prints them (from bench/gen_hlo.py), from the
// '(' of their operands.
// Elements written in pieces are parenthesized, so that clang-tidy does
// not take the pieces for a missing comma.
const std::vector<std::string> kTypicalBodies = {
    ("(bf16[4,64,4096]{2,1,0} %param_0.4), metadata={op_name=\"jit(train_"
     "step)/jit(main)/jvp(LlamaForCausalLM)/model.layers.0/input_layernorm/"
     "convert_element_type[new_dtype=float32 weak_type=False]\" source_file=\"/"
     "opt/workspace/llama/src/transformers_neuronx/llama/modeling_llama.py\" "
     "source_line=714}\n"),
    ("(f32[4,64,4096]{2,1,0} %multiply.7, f32[] %constant.8), dimensions={2}, "
     "to_apply=%region_add_f32, metadata={op_name=\"jit(train_step)/jit(main)/"
     "jvp(LlamaForCausalLM)/model.layers.0/input_layernorm/reduce_sum[axes=(2,"
     ")]\" source_file=\"/opt/workspace/llama/src/transformers_neuronx/llama/"
     "modeling_llama.py\" source_line=1498}\n"),
    "(f32[] %constant.10), dimensions={}\n",
    ("(bf16[4,2048,1,128]{3,2,1,0} %param_0.34), slice={[0:4], [0:2048], "
     "[0:1], [0:64]}, metadata={op_name=\"jit(train_step)/jit(main)/jvp("
     "LlamaForCausalLM)/model.layers.0/self_attn/rotary_emb/slice\" "
     "source_file=\"/opt/workspace/llama/src/transformers_neuronx/llama/"
     "modeling_llama.py\" source_line=100}\n"),
    ("(bf16[4,64,4096]{2,1,0} %x.0, bf16[4096]{0} %get-tuple-element.522), "
     "kind=kLoop, calls=%fused_rms_norm.3, metadata={op_name=\"jit(train_step)"
     "/jit(main)/jvp(LlamaForCausalLM)/model.layers.0/input_layernorm/mul\" "
     "source_file=\"/opt/workspace/llama/src/transformers_neuronx/llama/"
     "modeling_llama.py\" source_line=1498}, backend_config={\"operation_queue_"
     "id\":\"0\",\"wait_on_operation_queues\":[],\"fusion_backend_config\":{"
     "\"kind\":\"__loop_fusion\",\"block_level_fusion_config\":{\"output_"
     "tiles\""
     ":[{\"sizes\":[\"1\",\"16\",\"512\"]}],\"num_warps\":\"4\",\"num_ctas\":1,"
     "\"num_stages\":1}},\"force_earliest_schedule\":false,\"reification_cost\""
     ":[]}\n"),
    ("(bf16[4,2048,4096]{2,1,0} %all-gather-done.530, bf16[4096,384]{1,0} "
     "%get-tuple-element.523), lhs_contracting_dims={2}, rhs_contracting_dims="
     "{0}, metadata={op_name=\"jit(train_step)/jit(main)/jvp(LlamaForCausalLM)"
     "/model.layers.0/self_attn/qkv_proj/dot_general[dimension_numbers=(([2], "
     "[0]), ([], [])) precision=None preferred_element_type=bfloat16]\" "
     "source_file=\"/opt/workspace/llama/src/transformers_neuronx/llama/"
     "modeling_llama.py\" source_line=1012}, backend_config={\"operation_queue"
     "_id\":\"0\",\"wait_on_operation_queues\":[],\"gemm_backend_config\":{"
     "\"alpha_real\":1,\"beta\":0,\"dot_dimension_numbers\":{\"lhs_contracting"
     "_dimensions\":[\"2\"],\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_"
     "dimensions\":[],\"rhs_batch_dimensions\":[]},\"alpha_imag\":0,\"precision"
     "_config\":{\"operand_precision\":[\"DEFAULT\",\"DEFAULT\"],\"algorithm\":"
     "\"ALG_UNSET\"},\"epilogue\":\"DEFAULT\",\"damax_output\":false,\"lhs_"
     "stride\":\"8388608\",\"rhs_stride\":\"2097152\",\"grad_x\":false,\"grad_"
     "y\":false},\"force_earliest_schedule\":false}\n"),
    ("(bf16[4,2048,3,1,128]{4,3,2,1,0} %bitcast.536), custom_call_target="
     "\"AwsNeuronFlashAttention\", api_version=API_VERSION_STATUS_RETURNING, "
     "backend_config={\"causal\":true,\"scale\":0.088388347648318,\"dropout\":"
     "0,"
     "\"tile\":[128,512]}\n"),
    ("((bf16[4,64,4096]{2,1,0}, bf16[4,64,4096]{2,1,0}, u32[], u32[]) "
     "%collective-permute-start.555), metadata={op_name=\"jit(train_step)/jit("
     "main)/ppermute[perm=ring]\"}\n"),
    "(), iota_dimension=0\n",
};

TEST(FastScanTest, TypicalLinesAreNotDeclined) {
  if (!Vectorized()) GTEST_SKIP() << "no SIMD: FastScan declines everything";
  for (const std::string& body : kTypicalBodies) {
    // Shifted by a first operand of every length, so that each byte of the
    // line meets each position in a block. The next line follows, as in a
    // window.
    for (size_t pad = 0; pad < 130; ++pad) {
      const std::string operand = "%" + std::string(pad, 'p') + ", ";
      const std::string text =
          "(" + operand + body.substr(1) + "  %next = f32[] add(%a, %b)\n";
      const Window w(text, "");
      const size_t newline = text.find('\n');
      for (FastMode mode : {FastMode::kBody, FastMode::kLine}) {
        // kLine takes over after the operands' comma.
        const size_t from = mode == FastMode::kBody ? 0 : text.find("), ") + 3;
        if (from >= newline) continue;
        const char* want = ExpectAsModel(mode, w, from);
        EXPECT_EQ(want, w.at(newline)) << ModeName(mode) << " [" << text << "]";
      }
      const char* group = ExpectAsModel(FastMode::kGroup, w, 0);
      EXPECT_NE(group, nullptr) << text;
    }
  }
}

// Where the exact scanner stops when it skips a group (kGroup) or a value
// (kValue) at the start of `text`, reading it one byte at a time with every
// fast path off (FastScan included: fast_path_switch.h).
int64_t ExactStop(FastMode mode, std::string_view text) {
  InputWindow window(text, 1);
  ParseOptions options;
  options.disabled_fast_paths = kAllFastPaths;
  HloLexer lexer(&window, nullptr, options);
  const bool ok =
      mode == FastMode::kGroup ? lexer.SkipGroup() : lexer.SkipValue();
  return ok ? lexer.Offset() : -1;
}

TEST(FastScanTest, AnswersAsTheExactScannerDoes) {
  std::mt19937 rng(7);
  std::vector<std::string> texts;
  for (const std::string& body : kTypicalBodies) texts.push_back(body);
  for (int n = 0; n < 4000; ++n) texts.push_back(RandomText(rng));
  int answered = 0;
  for (const std::string& text : texts) {
    const Window w(text, "");
    for (FastMode mode : {FastMode::kGroup, FastMode::kValue}) {
      if (mode == FastMode::kGroup && text.find_first_of("([{") != 0) continue;
      const char* stop = FastScan(mode, w.at(0), w.end());
      if (stop == nullptr) continue;
      ++answered;
      // The exact scanner also consumes the blanks that end a value
      // (callers skip them next either way).
      while (mode == FastMode::kValue &&
             (*stop == ' ' || *stop == '\t' || *stop == '\r')) {
        ++stop;
      }
      EXPECT_EQ(stop - w.at(0), ExactStop(mode, text))
          << ModeName(mode) << " [" << text << "]";
    }
  }
  if (Vectorized()) {
    EXPECT_GT(answered, 1000);
  }
}

}  // namespace
}  // namespace topolint::hlo
