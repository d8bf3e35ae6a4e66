// The line-level passes of the StableHLO reader: the pre-pass that
// collects `#alias = loc(...)` lines (MLIR prints them after the ops that
// use them) and `sdy.mesh` definitions (a symbol may follow its uses), and the
// skip of lines on which nothing can matter, a window at a time, which is most
// of a large module.
#include <cstring>
#include <string>
#include <string_view>

#include "checker/hlo/mlir/mlir_internal.h"

namespace topolint::hlo::mlir {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

bool Reader::SkipDullLine() {
  constexpr size_t kMaxFastLine = size_t{64} << 10;
  std::string_view line;
  if (cur_.AtEnd() || !cur_.LineView(kMaxFastLine, &line)) return false;
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  const std::string_view s = line.substr(i);
  const bool code = !s.empty() && s[0] != '\r';
  if (code) {
    if (i == 0 && s[0] == '#') {
      // `#alias = ...`: the pre-pass (CollectLocs) read the locations.
    } else if (StartsWith(s, "//") || StartsWith(s, "module") ||
               StartsWith(s, "\"builtin.module\"")) {
      return false;
    }
    bool sharding = false;  // `sdy.sharding`, `sdy.sharding_constraint`, ...
    for (size_t d = s.find('.'); d != std::string_view::npos;
         d = s.find('.', d + 1)) {
      const std::string_view before = s.substr(0, d), after = s.substr(d + 1);
      if (EndsWith(before, "sdy") &&
          (StartsWith(after, "sharding") || StartsWith(after, "reshard"))) {
        sharding = true;
      }
      if ((EndsWith(before, "hlo") &&
           (StartsWith(after, "all_") || StartsWith(after, "reduce_scatter") ||
            StartsWith(after, "collective_"))) ||
          (EndsWith(before, "hlo") && StartsWith(after, "custom_call") &&
           s.find("ragged_all_to_all") != std::string_view::npos) ||
          (EndsWith(before, "func") && StartsWith(after, "func")) ||
          (EndsWith(before, "sdy") &&
           (StartsWith(after, "mesh") || StartsWith(after, "all_") ||
            StartsWith(after, "reduce_scatter") ||
            StartsWith(after, "collective_permute"))) ||
          (EndsWith(before, "mhlo") && StartsWith(after, "sharding")) ||
          (EndsWith(before, "interpreter") &&
           StartsWith(after, "run_parallel"))) {
        return false;
      }
    }
    // A value's sharding, for an sdy.collective_permute of it.
    if (sharding && !permute_operands_.empty()) NoteShardingLine(s);
    if (pending_next_line_ > 0) {
      for (Suppression& sup : module_->suppressions) {
        if (sup.target_line == 0) sup.target_line = cur_.line();
      }
      pending_next_line_ = 0;
    }
  }
  cur_.SkipLineFast();
  return true;
}

void Reader::LocAlias() {
  cur_.Advance();  // '#'
  std::string name;
  if (!cur_.ReadId(&name)) return;
  while (cur_.Peek() == ' ') cur_.Advance();
  if (!cur_.Eat('=')) return;
  while (cur_.Peek() == ' ') cur_.Advance();
  std::string word;
  if (!cur_.ReadId(&word) || word != "loc" || cur_.Peek() != '(') return;
  SourceLoc loc;
  if (ReadLoc(&loc, 0) && !loc.file.empty()) AddLoc("#" + name, loc);
}

void Reader::AddLoc(std::string_view name, const SourceLoc& loc) {
  // Bounded: a module with an alias per op keeps the first 2^18.
  if (locs_.size() >= (size_t{1} << 18)) return;
  auto [it, added] = loc_file_index_.try_emplace(
      loc.file, static_cast<int32_t>(loc_files_.size()));
  if (added) {
    if (loc_files_.size() >= (size_t{1} << 16)) {
      loc_file_index_.erase(it);
      return;
    }
    loc_files_.push_back(loc.file);
  }
  locs_.try_emplace(LocKey(name), LocRef{it->second, loc.line, loc.column});
}

void Reader::PrepassPermute() {
  // `%r = sdy.collective_permute %x` or `%r = "sdy.collective_permute"(%x`,
  // looked at through the cursor without moving it (a few bytes for any
  // other op line).
  constexpr std::string_view kPretty = "sdy.collective_permute %";
  constexpr std::string_view kGeneric = "\"sdy.collective_permute\"(%";
  size_t k = 1;
  while (k < 1024 && IsIdByte(cur_.PeekAt(k))) ++k;
  if (cur_.PeekAt(k) == ':') {  // `%r:2 =`
    ++k;
    while (IsDigit(cur_.PeekAt(k))) ++k;
  }
  if (cur_.PeekAt(k) != ' ' || cur_.PeekAt(k + 1) != '=' ||
      cur_.PeekAt(k + 2) != ' ') {
    return;
  }
  k += 3;
  const std::string_view form = cur_.PeekAt(k) == '"' ? kGeneric : kPretty;
  for (size_t i = 0; i < form.size(); ++i) {
    if (cur_.PeekAt(k + i) != static_cast<unsigned char>(form[i])) return;
  }
  k += form.size() - 1;  // at the operand's '%'
  std::string name = "%";
  for (++k; name.size() < 1024 && IsIdByte(cur_.PeekAt(k)); ++k) {
    name.push_back(static_cast<char>(cur_.PeekAt(k)));
  }
  if (permute_operands_.size() < (size_t{1} << 16)) {
    permute_operands_.insert(LocKey(name));
  }
}

void Reader::CollectLocs() {
  while (!cur_.AtEnd()) {
    while (cur_.Peek() == ' ' || cur_.Peek() == '\t') cur_.Advance();
    const int c = cur_.Peek();
    if (c == '#') {
      LocAlias();
    } else if (c == '%') {
      PrepassPermute();
    } else if (c == 's' && cur_.PeekAt(1) == 'd' && cur_.PeekAt(2) == 'y' &&
               cur_.PeekAt(3) == '.') {
      std::string word;
      cur_.ReadId(&word);
      if (word == "sdy.mesh") PrepassMesh(/*generic=*/false);
    } else if (c == '"' && cur_.PeekAt(1) == 's' && cur_.PeekAt(2) == 'd' &&
               cur_.PeekAt(3) == 'y' && cur_.PeekAt(4) == '.') {
      std::string word;
      if (cur_.ReadString(&word, 64) && word == "sdy.mesh") {
        PrepassMesh(/*generic=*/true);
      }
    } else if (c == '/' && cur_.PeekAt(1) == '/') {
      // `// -----` or `//-----`, as TopLevelComment splits.
      const size_t d = cur_.PeekAt(2) == ' ' ? 3 : 2;
      bool dashes = true;
      for (size_t k = 0; k < 5; ++k)
        dashes = dashes && cur_.PeekAt(d + k) == '-';
      if (dashes) ++part_index_;
    }
    if (cur_.Peek() != '\n' || !cur_.Eat('\n')) cur_.SkipLineFast();
  }
}

}  // namespace topolint::hlo::mlir
