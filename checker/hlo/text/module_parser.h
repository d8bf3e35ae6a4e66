// The module-level grammar: header, stack-frame section, computations
// (module_parser.cc), instruction heads and bodies (module_parser_body.cc),
// resynchronisation after errors (module_parser.cc). Internal to
// checker/hlo/text; the public entry points are in hlo_parser.h.
#ifndef TOPOLINT_CHECKER_HLO_TEXT_MODULE_PARSER_H_
#define TOPOLINT_CHECKER_HLO_TEXT_MODULE_PARSER_H_

#include <array>
#include <string>
#include <string_view>

#include "checker/hlo/hlo_module.h"
#include "checker/hlo/input_window.h"
#include "checker/hlo/text/hlo_lexer.h"
#include "checker/hlo/text/hlo_parser.h"
#include "checker/hlo/text/instruction_head.h"
#include "checker/hlo/text/shape_table.h"
#include "checker/hlo/text/sharding_attr.h"
#include "checker/hlo/text/value_memo.h"

namespace topolint::hlo {

// One pass over one input. Not copyable.
class ModuleParser {
 public:
  ModuleParser(InputWindow* window, Module* module,
               const ParseOptions& options);
  ModuleParser(const ModuleParser&) = delete;
  ModuleParser& operator=(const ModuleParser&) = delete;

  // Fills the module (collectives, suppressions, syntax errors).
  void Run();

 private:
  // The module, from the cursor to the end or to where the lexer stops.
  void Parse();

  // Longest shape text kept for one instruction (longer: shape unknown).
  static constexpr size_t kMaxShapeCapture = size_t{1} << 20;
  static constexpr std::string_view kRoot = "ROOT";
  static constexpr std::string_view kEntry = "ENTRY";

  enum class State { kTop, kBody };
  enum class LineKind { kOther, kInstruction, kComputation, kClose };

  [[nodiscard]] bool ParseTopItem();
  [[nodiscard]] bool ParseHeader(TextPos pos);
  [[nodiscard]] bool SkipStackFrameSection();
  [[nodiscard]] bool ParseComputation(TextPos pos, std::string name,
                                      bool is_entry);
  [[nodiscard]] bool ParseSignature();
  [[nodiscard]] bool SkipSignatureShape();
  [[nodiscard]] bool ParseBodyItem();
  [[nodiscard]] bool CloseComputation();
  [[nodiscard]] bool ParseInstruction();
  [[nodiscard]] bool ReadInstructionName(std::string_view* name, bool* percent);
  [[nodiscard]] bool ParseSimpleInstruction(TextPos pos,
                                            const SimpleHead& head);
  [[nodiscard]] bool ParseInstructionRest(TextPos pos, bool is_root,
                                          bool* keep_shape);
  // After the head: the opcode's '(' and the body (collectives are parsed
  // and handed on; everything else is skipped). `shape_in_window` is the
  // result shape where ScanSimpleHead found it in the window (empty after
  // the exact head parser).
  [[nodiscard]] bool FinishInstruction(TextPos pos, bool is_root,
                                       bool keep_shape, TextPos opcode_pos,
                                       std::string_view opcode,
                                       std::string_view shape_in_window);
  [[nodiscard]] bool ParseHead(bool* keep_shape, TextPos* opcode_pos,
                               std::string_view* opcode);
  [[nodiscard]] bool ReportUnclosed(TextPos pos);
  // Debug re-checks (fast_path_check.h): the exact reading of a signature
  // parameter, or of an instruction head, at the cursor against what
  // ScanSimpleParam / ScanSimpleHead read (*fast's views are moved where
  // the window holds them after the exact reading).
  bool ExactParamAgrees(std::string_view name, std::string_view shape);
  void CheckSimpleHead(SimpleHead* fast);
  // ScanSimpleParam at the cursor, the parameter entered into the table,
  // re-checked in debug builds (ExactParamAgrees).
  bool ParamFromWindow();
  // What the pending instruction's sharding is checked against: its parsed
  // result `shape` (collectives), else, with `shape_text`, its shape text
  // in the table, else nothing. (Inline: built for every instruction.)
  ShardingTarget Target(std::string_view opcode, const Shape* shape,
                        bool shape_text) {
    ShardingTarget t;
    t.module = module_;
    t.scratch = &sharding_scratch_;
    t.table = &table_;
    t.percent = percent_;
    t.is_domain = opcode == "domain";
    t.shape = shape;
    t.shape_text = shape == nullptr && shape_text;
    return t;
  }
  // The pending instruction's name as written (with '%' when it had one).
  std::string PendingName() const;
  void StartComputation(std::string name, bool is_entry, TextPos pos);
  void EndComputation();
  void Resync();
  void FindResyncPoint();
  LineKind ClassifyLine();

  HloLexer lx_;
  Module* module_;
  CollectiveSink on_collective_;
  ShapeTable table_;
  // Explicit group lists and pairs already parsed in this module.
  ValueMemo memo_;
  // Storage for collective result shapes, one per remembered shape of
  // memo_, and the spare for the others (see FinishInstruction); which one
  // op_.result_shape holds now.
  std::array<Shape, ValueMemo::kMaxEntries> result_pool_;
  Shape spare_result_;
  size_t result_slot_ = ValueMemo::kNoEntry;
  State state_ = State::kTop;
  std::string computation_;
  TextPos computation_pos_;
  bool entry_seen_ = false;
  bool anything_parsed_ = false;
  // A top-level item failed and no item has parsed since (see Run()).
  bool resyncing_ = false;
  bool percent_ = false;  // the pending instruction's name had a '%'
  int64_t last_resync_offset_ = -1;
  // Scratch, reused across instructions to avoid allocations.
  Collective op_;
  std::string capture_;  // shape text of the exact path
  std::string word_;
  std::string name_;
  std::string opcode_;
  ShardingScratch sharding_scratch_;
};

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_TEXT_MODULE_PARSER_H_
