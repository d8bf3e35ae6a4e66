// The parser's fast paths (ScanSimpleHead, ReadSimpleShape, the plain
// integer-list reader, FastScan) read straight from the window and decline
// anything unusual. With every fast path switched off (kAllFastPaths,
// through a 1-byte window) the exact parser reads everything, so parsing
// every text both ways and comparing the dumps checks that where a fast
// path answers, it answers exactly as the exact parser does: the same
// collectives, shapes, positions and syntax errors. (A 1-byte window alone
// does not keep every fast path out: after a lookahead the window holds
// more than a byte.)
#include <random>
#include <string>
#include <vector>

#include "checker/hlo/input_window.h"
#include "checker/hlo/text/fast_path_switch.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/hlo/text/instruction_head.h"
#include "checker/hlo/text/shape_parser.h"
#include "gtest/gtest.h"
#include "tests/hlo/hlo_debug.h"
#include "tests/hlo/hlo_test_util.h"

namespace topolint::hlo {
namespace {

std::string Dump(const std::string& text, size_t window,
                 uint64_t disabled_fast_paths = 0) {
  ParseOptions options;
  options.window_bytes = window;
  options.disabled_fast_paths = disabled_fast_paths;
  return ModuleDebugString(ParseHloText(text, "test.hlo", options));
}

// The exact parser's parse of `text`: every fast path off.
std::string Exact(const std::string& text) {
  return Dump(text, 1, kAllFastPaths);
}

// The fast paths that disagree with the exact parser on `text` through
// `window`: those whose switch, turned off alone, makes the parse agree
// with `exact` (fast_path_switch.h).
std::string DisagreeingFastPaths(const std::string& text, size_t window,
                                 const std::string& exact) {
  std::string names;
  for (size_t i = 0; i < kFastPathNames.size(); ++i) {
    const FastPath f = static_cast<FastPath>(i);
    if (Dump(text, window, FastPathBit(f)) == exact) {
      names += std::string(names.empty() ? "" : ", ") +
               std::string(kFastPathNames[i]);
    }
  }
  if (names.empty()) names = "(none alone: several, or the exact parser)";
  return names;
}

// The parse of `text` through `window` is `exact` (the 1-byte window's);
// else the failure names the fast path that disagrees.
void ExpectSameAsExact(const std::string& text, size_t window,
                       const std::string& exact) {
  const std::string got = Dump(text, window);
  if (got == exact) return;
  ADD_FAILURE() << "through a " << window << "-byte window the fast path(s) "
                << DisagreeingFastPaths(text, window, exact)
                << " disagree with the exact parser on:\n"
                << text << "\nfast:\n"
                << got << "\nexact:\n"
                << exact;
}

void ExpectSameBothWays(const std::string& text) {
  const std::string exact = Exact(text);
  ExpectSameAsExact(text, size_t{1} << 20, exact);
  ExpectSameAsExact(text, 7, exact);
  ExpectSameAsExact(text, 1, exact);
}

// Pieces of instruction text, plain and unusual. Each variant picks one
// entry per slot at random.
const std::vector<std::string> kRoots = {"", "", "ROOT ", "ROOT  ", "ROOT\t"};
const std::vector<std::string> kNames = {
    "%x", "%ar.1", "ar", "%a-b.c_d", "%", "%1x", "ENTRY", "ROOT", "%ROOT"};
const std::vector<std::string> kEquals = {" = ", " = ", "=", "  =  ", " =\n "};
const std::vector<std::string> kShapes = {
    "f32[8]{0}",
    "f32[8]",
    "f32[]",
    "bf16[4,64,4096]{2,1,0}",
    "f32[8] {0}",
    "f32[8]{1,0:T(8,128)}",
    // Layout tails (SkipPlainLayoutTail) and their near misses.
    "bf16[4,64,4096]{2,1,0:T(8,128)(2,1)}",
    "f32[4096]{0:T(1024)S(1)}",
    "f32[8]{:T(8)}",
    "f32[8]{0:T(8,128)*E(32)}",
    "f32[8]{0:T((8))}",
    "f32[8]{0:T(8)}}",
    "f32[8]{0:T(8}",
    "f32[8]{0:T(8) }",
    "f32[8]{0:}",
    "(bf16[4,64]{1,0:T(8,128)(2,1)}, /*index=1*/f32[]{:T(256)})",
    "f32[8]{,0}",
    "((f32[32,128]{,01}), f32[16,128]{1,0})",
    "f32[<=8]{0}",
    "f32[?]",
    "f32[-1]",
    "f32[99999999999999999999]",
    "f32[8]{}",
    "f32[8]{0",
    "f32[8,]",
    "(f32[], u32[])",
    "(f32[8]{0}, (s32[], pred[]))",
    "(f32[8]{0}, /*index=1*/s32[])",
    "(f32[8]{0} , s32[])",
    "()",
    "b(f32[8]{0})",
    "token[]",
    "f32[8]{0}/*c*/",
};
const std::vector<std::string> kGaps = {" ", " ", "  ", "\t", "\n  "};
const std::vector<std::string> kOpcodes = {"all-reduce",
                                           "add",
                                           "all-gather-start",
                                           "collective-permute",
                                           "reduce-scatter",
                                           "all-to-all",
                                           "fusion",
                                           "all-reduce-start",
                                           "send"};
const std::vector<std::string> kOperands = {
    "(f32[8]{0} %p)",
    // Names after a shape, skipped in place or left to the exact steps.
    "(f32[8]{0} %p, f32[8]{0} %p.1-x_y)",
    "(f32[8]{0} %p , f32[8]{0} %p)",
    "(f32[8]{0}  %p)",
    "(f32[8]{0} %p\n)",
    "(f32[8]{0} p)",
    "(f32[8]{0} %p/*c*/)",
    "(f32[8]{0} %)",
    "(f32[8]{0} %1p)",
    "(f32[8]{0} %%p)",
    "(f32[8]{0} %p(f32[8]{0} %p))",
    "(f32[8]{0} %p}",
    "(%p)",
    "(p)",
    "(f32[8] %p, f32[8]{0} %p)",
    "((f32[], u32[]) %t)",
    "(f32[8] {0} %p)",
    "(f32[8]{0}\n %p)",
    "(f32[8]{0} add(%p, %p), %p)",
    "(f32[<=8]{0} %p)",
    "(f32[8]{0} %p",
    "((f32[], /*index=1*/u32[]) %t)",
    "((f32[], /*index=1*/u32[]) %t, /**/f32[8]{0} %p)",
    "(f32[8]{0} %p /* c */)",
    "(f32[8]{0} %p /* c\n */)",
    "(f32[8]{0} /*x %p)",
    "(f32[8]{0} %p /* ) */)",
    "((f32[], /*i*/u32[]] %t)",
    "(f32[8]{0} %p / 2)",
};
const std::vector<std::string> kAttrs = {
    "",
    ", replica_groups={{0,1},{2,3}}",
    ", replica_groups={{0, 1},{2,3}}",
    ", replica_groups={{0,1},{2,-3}}",
    ", replica_groups={{0,1},{2,99999999999999999999}}",
    ", replica_groups={{0,1},{2,3}",
    ", replica_groups={{},{0,1,2,3}}",
    ", replica_groups={{0,1,}}",
    ", replica_groups=[2,2]<=[4]",
    ", replica_groups=[2,2]<=[2,2]T(1,0)",
    ", replica_groups=[2,2]<=[2, 2]T(1,0)",
    ", replica_groups=[2,2]<=[2,2]",
    ", replica_groups=[2,3]<=[4]",
    ", replica_groups=[2,2]<=[4]T(0)",
    ", replica_groups=[2,2]<=[2,2]T(0,0)",
    ", replica_groups=[2,2]<=[2,2]T(1)",
    ", replica_groups=[2,2]<=[2,2] T(1,0)",
    ", replica_groups=[0,2]<=[0]",
    ", replica_groups=[1,4]<=[2,2]T(1,0)\n",
    ", replica_groups=[4611686018427387904,4]<=[4]",
    ", replica_groups=[1,2,2]<=[4]",
    ", metadata={op_name=\"x\" source_line=12}",
    ", metadata={op_name=\"a\\\"b\" source_file=\"f.py\"}",
    ", metadata={op_name=\"a\", source_line=-3}",
    ", metadata={op_name=\"a\" op_name=\"b\" source_line=1 source_line=2}",
    // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one string, split
    ", metadata={deduplicated_name=\"fusion.1\" "
    "source_line=99999999999999999999}",
    ", metadata={op_name=x source_line=\"3\"}",
    ", metadata={op_name=\"a\"b}",
    // JAX's integer keys (TryParseSimpleMetadata skips their digits).
    ", metadata={op_name=\"jit(f)/dot\" source_file=\"m.py\" "
    "source_line=12 source_end_line=12 source_column=10 "
    "source_end_column=17}",
    ", metadata={source_end_line=7, op_name=\"a\"}",
    ", metadata={source_column=7x}",
    ", metadata={op_name=12 source_end_line=123456789012345678901}",
    ", metadata={source_column=-1}",
    ", metadata={source_line=12x}",
    ", metadata={op_name=\"a\"\tsource_line=1}",
    ", metadata={}",
    ", metadata={ }",
    ", source_target_pairs={{0,1},{1,0}}",
    ", source_target_pairs={{0,1,2},{1,0}}",
    ", source_target_pairs={{0,1}, {1,0}}",
    ", dimensions={0}",
    ", dimensions={ 0 }",
    ", channel_id=1, use_global_device_ids=true",
    ", use_global_device_ids=false, channel_id=2",
    ",channel_id=3",
    ",  channel_id=3",
    ", channel_id =3",
    ", channel_id= 3",
    ", channel_id=/*c*/3",
    ", channel_id=\n3",
    ",\tchannel_id=3",
    ", use_global_device_ids=maybe",
    ", channel_id=1, channel_id=2",
    ", slice_sizes={{1},{2}}",
    ", sharding={devices=[2,1]0,1}",
    ", sharding={maximal device=7}",
    ", sharding={devices=[4]0,1,2}",
    ", sharding={{replicated}, {devices=[2]<=[2]}}",
    ", sharding={ devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate }",
    ", sharding={devices=[2]0,1 metadata={op_name=\"s}\"}}",
    ", sharding={mesh[x=2], [{x}]}",
    ", sharding=\n{devices=[2]0,0}",
    // The block scanner's key test (FastScan's sharding_keys: `sharding=`
    // and blanks before a '{'), and values that are no sharding.
    ", sharding= {maximal device=9}",
    ",sharding={devices=[2]0,0}",
    ",  sharding={devices=[4]0,1,2}",
    ", sharding=replicated",
    ",sharding=e=true",
    ", sharding=\n  {replicated}",
    ", sharding=  {replicated} , x=1",
    ", foo_sharding={devices=[3]0,1,2}",
    // One key the scanner reports (read where it is), or two (searched).
    ", foo_sharding={replicated}, sharding={devices=[2]0,0}",
    ", sharding={devices=[2]0,0}, foo_sharding={replicated}",
    ", sharding={replicated}, x=\"sharding={\", sharding={devices=[2]0,0}",
    ", x={a, sharding={devices=[3]0,1,2}}, sharding={maximal device=2}",
    ", x={sharding={devices=[3]0,1,2}}",
    ", x=\"sharding={devices=[3]0,1,2}\"",
    ", frontend_attributes={xla.sdy.sharding=\"{devices=[3]0,1}\"}",
    ", frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1}}\"}",
    ", metadata={op_name=\"a(b)\" source_file=\"f.py\" source_line=3}",
    ", backend_config={\"x\":[1,2],\"y\":\"{\"}",
    ", to_apply=%add",
    // channel_id and to_apply straight from the window, and what they
    // leave to the exact path.
    ", channel_id=123456789012345678",
    ", channel_id=1234567890123456789",
    ", channel_id=99999999999999999999",
    ", channel_id=007, to_apply=%region_add_f32.1",
    ", channel_id=-3",
    ", channel_id=3x",
    ", channel_id=3 , to_apply=%add",
    ", channel_id=3}",
    ", channel_id=",
    ", to_apply=add",
    ", to_apply=%",
    ", to_apply=%%add",
    ", to_apply=%add.1-x_y, channel_id=4",
    ", to_apply=%add /*c*/",
    ", to_apply=%add}",
    ", to_apply=%1add",
};

// `text` followed by a NUL and the slack a window keeps after its bytes
// (ScanSimpleHead reads 16 bytes at a time up to its NUL).
std::string Padded(const std::string& text) {
  return text + std::string(InputWindow::kSlackBytes + 1, '\0');
}

std::string Pick(const std::vector<std::string>& v, std::mt19937& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

TEST(FastPathEquivalenceTest, RandomInstructionsParseTheSameThroughAnyWindow) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 1500; ++i) {
    std::string text = "HloModule m, replica_count=4\n\nENTRY main {\n";
    text += "  %p = f32[8]{0} parameter(0)\n";
    text += "  %t = (f32[], u32[]) parameter(1)\n";
    const int lines = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < lines; ++k) {
      text += "  " + Pick(kRoots, rng) + Pick(kNames, rng) +
              Pick(kEquals, rng) + Pick(kShapes, rng) + Pick(kGaps, rng) +
              Pick(kOpcodes, rng) + Pick(kOperands, rng) + Pick(kAttrs, rng) +
              Pick(kAttrs, rng) + "\n";
    }
    text += "}\n";
    ExpectSameBothWays(text);
    if (HasFailure()) break;
  }
}

// Line ends (issue 27): the same text with CR-only, CRLF or LF line ends,
// or after a UTF-8 byte order mark, parses to the same dump (collectives,
// positions, errors) through any window as the LF text through the exact
// parser: a lone '\r' counts as a line end, as editors count it.
std::string WithLineEnds(const std::string& text, const std::string& end) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += end;
    } else {
      out += c;
    }
  }
  return out;
}

TEST(FastPathEquivalenceTest, CrCrlfLfAndBomParseTheSameThroughAnyWindow) {
  std::mt19937 rng(20261203);
  for (int i = 0; i < 400; ++i) {
    std::string text = "HloModule m, replica_count=4\n\nENTRY main {\n";
    text += "  %p = f32[8]{0} parameter(0) // a comment\n";
    text += "  %t = (f32[], u32[]) parameter(1)\n";
    const int lines = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < lines; ++k) {
      text += "  " + Pick(kRoots, rng) + Pick(kNames, rng) +
              Pick(kEquals, rng) + Pick(kShapes, rng) + Pick(kGaps, rng) +
              Pick(kOpcodes, rng) + Pick(kOperands, rng) + Pick(kAttrs, rng) +
              Pick(kAttrs, rng) + "\n";
    }
    text += "}\n";
    const std::string lf = Exact(text);
    for (const std::string& variant :
         {WithLineEnds(text, "\r"), WithLineEnds(text, "\r\n"),
          "\xEF\xBB\xBF" + text, "\xEF\xBB\xBF" + WithLineEnds(text, "\r")}) {
      for (size_t window : {size_t{1}, size_t{2}, size_t{7}, size_t{1} << 20}) {
        ExpectSameAsExact(variant, window, lf);
      }
    }
    if (HasFailure()) break;
  }
}

// A replica_groups value broken over a line keeps the same captured text
// (its line break as '\n') whatever the line ends; the random test above
// builds such a value only with some compilers (its pieces are picked in an
// unspecified order).
TEST(FastPathEquivalenceTest, GroupTextBrokenOverALineIsTheSameForAnyLineEnd) {
  for (const std::string value : {"{{0,1},{2,3}\n}", "{{0,1},\n{2,3}}",
                                  "{\n{0,1},{2,3}\n}", "{ {0,1},\n  {2,3} }"}) {
    const std::string text =
        "HloModule m, replica_count=4\n\nENTRY main {\n"
        "  %p = f32[8]{0} parameter(0)\n"
        "  %ar = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups=" +
        value + ", to_apply=%add\n  ROOT %r = f32[8]{0} add(%ar, %ar)\n}\n";
    const std::string lf = Exact(text);
    EXPECT_NE(lf.find("text='{"), std::string::npos) << lf;
    for (const std::string& variant :
         {WithLineEnds(text, "\r"), WithLineEnds(text, "\r\n")}) {
      for (size_t window : {size_t{1}, size_t{3}, size_t{1} << 20}) {
        ExpectSameAsExact(variant, window, lf);
      }
    }
  }
}

// Operand names, channel_id and to_apply: the same collectives whichever
// window size cuts the value, wherever.
TEST(FastPathEquivalenceTest,
     OperandNamesChannelIdsAndToApplyThroughEveryWindow) {
  for (const std::string attrs :
       {", channel_id=12345, to_apply=%region_add_f32.12",
        ", to_apply=region_add, channel_id=123456789012345678",
        ", channel_id=1234567890123456789, to_apply=%add\n",
        ", channel_id=99999999999999999999",
        ", channel_id=7 , to_apply=%add , use_global_device_ids=true"}) {
    for (const std::string operands :
         {"(f32[8]{0} %p)", "(f32[8]{0} %p, f32[8]{0} %p.2)",
          "(f32[8]{0} %p , f32[8]{0} %p)"}) {
      const std::string text =
          "HloModule m, replica_count=4\n\nENTRY main {\n"
          "  %p = f32[8]{0} parameter(0)\n"
          "  %ar = f32[8]{0} all-reduce" +
          operands + ", replica_groups={{0,1,2,3}}" + attrs +
          "\n  ROOT %r = f32[8]{0} add(%ar, %ar)\n}\n";
      const std::string exact = Exact(text);
      for (size_t window = 2; window <= text.size() + 1; ++window) {
        ExpectSameAsExact(text, window, exact);
      }
      if (HasFailure()) return;
    }
  }
}

// Computation signatures (ScanSimpleParam): the
// parameters' shapes go to the shape table, where a collective operand
// written without its shape finds them.
TEST(FastPathEquivalenceTest, RandomSignaturesParseTheSameThroughAnyWindow) {
  const std::vector<std::string> names = {"p0", "%p0", "Arg_0.1", "p0 ",
                                          "%",  "1p",  "p-0.x"};
  const std::vector<std::string> colons = {": ", ": ", ":", " : ", ":\n "};
  const std::vector<std::string> shapes = {
      "f32[8]{0}", "f32[8]", "bf16[4,64,4096]", "f32[]", "(f32[], u32[])",
      "(f32[8]{0}, (s32[], pred[]))", "f32[8] ", "f32[8]{1,0:T(8,128)}",
      // Layout tails (SkipPlainLayoutTail) and their near misses.
      "bf16[4,64,4096]{2,1,0:T(8,128)(2,1)}", "f32[4096]{0:T(1024)S(1)}",
      "f32[8]{:T(8)}", "f32[8]{0:T(8,128)*E(32)}", "f32[8]{0:T((8))}",
      "f32[8]{0:T(8)}}", "f32[8]{0:T(8}", "f32[8]{0:T(8) }", "f32[8]{0:}",
      "(bf16[4,64]{1,0:T(8,128)(2,1)}, /*index=1*/f32[]{:T(256)})",
      "b(f32[8]{0})", "f32[<=8]", "token[]", "(f32[8]{0}, /*index=1*/s32[])",
      "f32[8]{0", "f32[8,]"};
  const std::vector<std::string> results = {"f32[8]{0}",      "f32[8]",
                                            "(f32[], u32[])", "f32[8]{0} ",
                                            "f32[8]{0,",      "token[]"};
  std::mt19937 rng(20261201);
  for (int i = 0; i < 800; ++i) {
    std::string text = "HloModule m, replica_count=4\n\n%comp (";
    const int params = static_cast<int>(rng() % 4);
    for (int k = 0; k < params; ++k) {
      if (k > 0) text += rng() % 4 == 0 ? " , " : ", ";
      std::string name = Pick(names, rng);
      if (name.back() != ' ' && name != "%") name += std::to_string(k);
      text += name + Pick(colons, rng) + Pick(shapes, rng);
    }
    text += ") -> " + Pick(results, rng) + (rng() % 5 == 0 ? "{" : " {");
    text +=
        "\n  %ar = f32[8]{0} all-reduce(p0), replica_groups={{0,1,2,3}}"
        "\n  ROOT %r = f32[8]{0} all-reduce(%p1), "
        "replica_groups={{0,1},{2,3}}\n}\n";
    text += "ENTRY main {\n  ROOT %p = f32[8]{0} parameter(0)\n}\n";
    ExpectSameBothWays(text);
    if (HasFailure()) break;
  }
}

// `-> f32[4] {` then `}`: the exact parser (as XLA's lexer) reads the '{'
// as a layout where a digit, ':' or '}' comes next past blanks and line
// breaks (found by the debug re-check of a result-shape fast path, since
// deleted, under hlo_parser_fuzz).
TEST(FastPathEquivalenceTest, ABodyThatLooksLikeALayoutIsReadAsTheExactOne) {
  for (const char* text : {
           "HloModule m\n\nENTRY %main (p: f32[4,6]) -> f32[4,6] {\n}\n",
           "HloModule m\n\n%c (p: f32[4]) -> f32[4] {\n}\n\nENTRY %e () -> "
           "f32[] {\n  ROOT %z = f32[] constant(0)\n}\n",
           "HloModule m\n\nENTRY %e (p: f32[4]) -> f32[4] {  \n \t 0}\n",
           "HloModule m\n\nENTRY %e (p: f32[4]) -> f32[4] {:T(2)}\n",
           "HloModule m\n\nENTRY %e (p: f32[4]) -> f32[4]{0} {\n}\n",
           "HloModule m\n\nENTRY %e (p: f32[4]) -> (f32[4]) {\n}\n",
       }) {
    ExpectSameBothWays(text);
  }
}

TEST(FastPathEquivalenceTest, TheFastPathsDoEngageOnPlainText) {
  // Guards the test above: if the fast paths declined everything, it would
  // compare the exact parser with itself.
  SimpleHead head;
  const std::string line =
      Padded("ROOT %ar.1 = (f32[8]{0}, u32[]) all-reduce(%p)");
  ASSERT_TRUE(ScanSimpleHead(line.c_str(), &head));
  EXPECT_TRUE(head.is_root);
  EXPECT_TRUE(head.percent);
  EXPECT_EQ(head.name, "ar.1");
  EXPECT_EQ(head.shape, "(f32[8]{0}, u32[])");
  EXPECT_EQ(head.opcode, "all-reduce");
  EXPECT_EQ(head.opcode_offset, 32u);
  EXPECT_EQ(*head.open, '(');

  SimpleParam param;
  const std::string params = Padded("%p0: (f32[], u32[]), p1: f32[8]{0}) ->");
  ASSERT_TRUE(ScanSimpleParam(params.c_str(), &param));
  EXPECT_EQ(param.name, "%p0");
  EXPECT_EQ(param.shape, "(f32[], u32[])");
  EXPECT_EQ(*param.end, ',');

  const std::string shape_text = "(bf16[4,64]{1,0}, (s32[], pred[7]))";
  Shape shape;
  const char* end = shape_text.data() + shape_text.size();
  ASSERT_EQ(ReadSimpleShape(shape_text.data(), end, true, &shape), end);
  EXPECT_EQ(ShapeToString(shape), "(bf16[4,64], (s32[], pred[7]))");
}

TEST(FastPathEquivalenceTest, TheFastPathsDeclineWhatTheyDoNotKnow) {
  SimpleHead head;
  for (const char* line :
       {"%x = f32[8] {0} add(%p)", "%x = f32[8]{0}  add (%p)",
        "ENTRY = f32[] add()", "%x = (f32[], /*index=1*/u32[]) tuple()",
        "%x = f32[?] add(%p)", "%x =f32[] add()", "%x = add(%p)"}) {
    EXPECT_FALSE(ScanSimpleHead(Padded(line).c_str(), &head)) << line;
  }
  Shape shape;
  for (const std::string text :
       {"f32[8] {0}", "f32[-1]", "f32[8]{1,0:T(8,128) }",
        "f32[8]{1,0:T(8,(128))}", "f32[8]{,0}", "f32[8] ", "(f32[] ,u32[])",
        "b(f32[8])", "f32[1234567890123456789]"}) {
    const char* end = text.data() + text.size();
    EXPECT_NE(ReadSimpleShape(text.data(), end, true, &shape), end) << text;
  }
  // In a window (the input may go on), a shape may not end at the window's
  // end: a layout could follow in the next chunk.
  const std::string window = "f32[8]";
  EXPECT_EQ(ReadSimpleShape(window.data(), window.data() + window.size(),
                            /*end_is_final=*/false, &shape),
            nullptr);
}

}  // namespace
}  // namespace topolint::hlo
