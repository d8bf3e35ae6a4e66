// Explicit replica groups, source_target_pairs and integer lists; dispatch
// of replica_groups to the iota and mesh parsers.
#include "checker/hlo/text/group_list_parser.h"

#include <cstddef>
#include <string>
#include <utility>

#include "absl/strings/str_join.h"
#include "checker/hlo/text/fast_paths.h"
#include "fmt/format.h"

namespace topolint::hlo {

bool ParseIntList(HloLexer& lx, char open, char close, std::string_view what,
                  std::vector<int64_t>* values, std::vector<TextPos>* positions,
                  int64_t max_count) {
  return ParseIntList(
      lx, open, close, [what] { return std::string(what); }, values, positions,
      max_count);
}

const char* ReadPlainDecimal(const char* p, int64_t* value) {
  const char* const digits = p;
  uint64_t acc = 0;  // unsigned: more than 18 digits wrap, then decline
  while (IsDigit(*p)) {
    acc = acc * 10 + static_cast<uint64_t>(*p - '0');
    ++p;
  }
  if (p == digits || p - digits > 18) return nullptr;
  *value = static_cast<int64_t>(acc);
  return p;
}

namespace {

// The one exact loop of an integer list `open v, v, ... close`: each value
// and the position of its first byte go to `add`. `count` values already
// count towards `max_count` (a longer list is an error at the list's start).
bool ReadIntListExact(HloLexer& lx, char open, char close,
                      absl::FunctionRef<std::string()> what, int64_t count,
                      int64_t max_count,
                      absl::FunctionRef<void(int64_t, TextPos)> add) {
  const TextPos start = lx.Pos();
  if (!lx.Eat(open)) {
    return lx.Expected(fmt::format("'{}' to start {}", open, what()));
  }
  if (!lx.SkipTrivia()) return false;
  if (lx.Eat(close)) return true;
  for (;; ++count) {
    if (!lx.SkipTrivia()) return false;
    const TextPos pos = lx.Pos();
    if (!lx.AtInt()) {
      return lx.Expected(fmt::format("an integer in {}", what()));
    }
    int64_t v = 0;
    if (!lx.ReadInt(&v, "an integer")) return false;
    if (count >= max_count) {
      return lx.Error(start, fmt::format("{} lists more than the limit of {} "
                                         "values",
                                         what(), max_count));
    }
    add(v, pos);
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat(close)) return true;
    return lx.Expected(fmt::format("',' or '{}' in {}", close, what()));
  }
}

}  // namespace

bool ParseIntList(HloLexer& lx, char open, char close,
                  absl::FunctionRef<std::string()> what,
                  std::vector<int64_t>* values, std::vector<TextPos>* positions,
                  int64_t max_count) {
  return ReadIntListExact(lx, open, close, what,
                          static_cast<int64_t>(values->size()), max_count,
                          [&](int64_t v, TextPos pos) {
                            values->push_back(v);
                            if (positions != nullptr) positions->push_back(pos);
                          });
}

bool CountInnerLists(HloLexer& lx, std::string_view what, int64_t* count) {
  *count = 0;
  if (!lx.Eat('{')) return lx.Expected(fmt::format("'{{' to start {}", what));
  if (!lx.SkipTrivia()) return false;
  if (lx.Eat('}')) return true;
  for (;;) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != '{') {
      return lx.Expected(
          fmt::format("'{{' to start entry {} of {}", *count, what));
    }
    if (!lx.SkipGroup()) return false;
    ++*count;
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat('}')) return true;
    return lx.Expected(fmt::format("',' or '}}' in {}", what));
  }
}

bool CheckPermutationAt(HloLexer& lx, std::string_view what,
                        const std::vector<int64_t>& perm,
                        const std::vector<TextPos>& entry_pos, TextPos perm_pos,
                        size_t rank) {
  const SpecCheck p = CheckPermutation(what, perm, rank);
  if (!p.has_value()) return true;
  return lx.Error(p->where == SpecProblem::Where::kPermEntry
                      ? entry_pos[p->index]
                      : perm_pos,
                  p->message);
}

namespace {

// A plain group `{d,d,...,d}` at `start` ('{', written at `at`): its ids
// (at most `max_count`) appended to `ids` and their places to `layout`;
// past its '}', or nullptr with nothing appended when it is not that plain.
const char* ReadPlainGroup(const char* const start, TextPos at,
                           int64_t max_count, std::vector<int64_t>* ids,
                           IdLayout* layout) {
  const char* p = start + 1;
  // Find the closer first: a group that runs past the window (or holds
  // anything else) is declined before any work.
  const char* q = p;
  while (IsDigit(*q) || *q == ',') ++q;
  if (*q != '}') return nullptr;
  const size_t old = ids->size();
  if (p != q) {
    for (;;) {
      int64_t v = 0;
      p = ReadPlainDecimal(p, &v);
      if (p == nullptr ||
          static_cast<int64_t>(ids->size() - old) >= max_count) {
        ids->resize(old);
        return nullptr;
      }
      ids->push_back(v);
      if (*p != ',') break;
      ++p;
    }
    if (p != q) {  // `{1,}` and the like
      ids->resize(old);
      return nullptr;
    }
    // Where each id starts, from the text still in the window.
    const char* id = start + 1;
    for (size_t i = old; i < ids->size(); ++i) {
      layout->Add(static_cast<int64_t>(i), (*ids)[i],
                  TextPos{at.line, at.column + (id - start)});
      while (IsDigit(*id)) ++id;
      ++id;  // ','
    }
  }
  return q + 1;
}

}  // namespace

bool ParseExplicitGroupExact(HloLexer& lx, size_t g, int64_t max_count,
                             std::vector<int64_t>* ids, IdLayout* layout) {
  return ReadIntListExact(
      lx, '{', '}', [g] { return fmt::format("replica group {}", g); }, 0,
      max_count,
      [&](int64_t v, TextPos pos) {
        layout->Add(static_cast<int64_t>(ids->size()), v, pos);
        ids->push_back(v);
      });
}

bool ParseExplicitGroups(HloLexer& lx, ReplicaGroups* out) {
  out->form = ReplicaGroups::Form::kExplicit;
  lx.Bump();  // '{'
  if (!lx.SkipTrivia()) return false;
  if (lx.Eat('}')) return true;
  std::vector<int64_t>* ids = out->MutableIds();
  for (size_t g = 0;; ++g) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != '{') {
      return lx.Expected(fmt::format("'{{' to start replica group {}", g));
    }
    const TextPos group_pos = lx.Pos();
    if (!ParseExplicitGroupExact(lx, g, kMaxExplicitIds, ids,
                                 &out->id_layout)) {
      return false;
    }
    out->explicit_id_count = static_cast<int64_t>(ids->size());
    if (out->explicit_id_count > kMaxExplicitIds) {
      return lx.Error(out->pos, fmt::format("replica_groups lists more than "
                                            "the limit of {} ids",
                                            kMaxExplicitIds));
    }
    out->EndGroup(group_pos);
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat('}')) return true;
    return lx.Expected(fmt::format("',' or '}}' after replica group {}", g));
  }
}

bool TryParsePlainGroups(HloLexer& lx, ReplicaGroups* out) {
  const char* const start = lx.cursor();  // '{'
  // The whole value first, up to the '}' that closes it: only digits, ','
  // and braces at most two deep (the window's NUL stops the loop).
  const char* q = start + 1;
  for (int depth = 1; depth > 0; ++q) {
    const char c = *q;
    if (c == '{') {
      if (++depth > 2) return false;
    } else if (c == '}') {
      --depth;
    } else if (!IsDigit(c) && c != ',') {
      return false;
    }
  }
  const char* const end = q;
  const TextPos base = lx.Pos();
  const auto at = [&](const char* p) {
    return TextPos{base.line, base.column + (p - start)};
  };
  const char* p = start + 1;
  if (*p != '}') {
    std::vector<int64_t>* ids = out->MutableIds();
    const auto decline = [&] {
      ids->clear();
      out->group_ends.clear();
      out->group_pos.clear();
      out->id_layout.Clear();
      out->explicit_id_count = 0;
      return false;
    };
    for (;;) {
      if (*p != '{') return decline();
      const char* const group = p;
      p = ReadPlainGroup(group, at(group), kMaxExplicitIds, ids,
                         &out->id_layout);
      if (p == nullptr) return decline();
      out->explicit_id_count = static_cast<int64_t>(ids->size());
      // (Over the limit: the exact path reports it.)
      if (out->explicit_id_count > kMaxExplicitIds) return decline();
      out->EndGroup(at(group));
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p != '}') return decline();
      break;
    }
  }
  out->form = ReplicaGroups::Form::kExplicit;
  lx.AdvanceTo(end);
  return true;
}

namespace {

// CRLF and a lone CR become '\n'.
void NormaliseLineEnds(std::string* text) {
  size_t w = 0;
  for (size_t r = 0; r < text->size(); ++r) {
    const char c = (*text)[r];
    if (c != '\r') {
      (*text)[w++] = c;
    } else if (r + 1 == text->size() || (*text)[r + 1] != '\n') {
      (*text)[w++] = '\n';
    }
  }
  text->resize(w);
}

}  // namespace

bool ParseReplicaGroups(HloLexer& lx, ReplicaGroups* out, ValueMemo* memo) {
  out->Clear();  // (keeping the vectors' storage for the next collective)
  out->pos = lx.Pos();
  lx.BeginCapture(&out->text, 256);
  bool ok = false;
  const int c = lx.Peek();
  if (c == '{') {
    ok = ParseExplicitReplicaGroups(lx, out, memo);
  } else if (c == '[') {
    out->form = ReplicaGroups::Form::kIota;
    ok = ParseIotaGroups(lx, &out->iota);
  } else if (c == 'm') {
    std::string word;
    ok = lx.ReadIdent(&word) && word == "mesh" && lx.Peek() == '[';
    if (ok) {
      out->form = ReplicaGroups::Form::kMesh;
      ok = ParseMeshGroups(lx, out->pos, &out->mesh);
    } else if (!lx.stopped()) {
      ok = lx.Error(out->pos, fmt::format("expected '{{', '[' or 'mesh[' to "
                                          "start the replica_groups value, "
                                          "found '{}'",
                                          word.substr(0, 40)));
    }
  } else {
    ok = lx.Expected("'{', '[' or 'mesh[' to start the replica_groups value");
  }
  // The text is for messages only: a longer value keeps its first 256
  // bytes, so a capture that overflowed is not an error.
  static_cast<void>(lx.EndCapture());
  // Blanks the value's parser looked past (before a `T(` that did not
  // come; a CRLF line's '\r') are no part of it.
  while (!out->text.empty() &&
         (out->text.back() == ' ' || out->text.back() == '\t' ||
          out->text.back() == '\r')) {
    out->text.pop_back();
  }
  // A value broken over lines keeps its line breaks as '\n' whatever the
  // file's line ends (CRLF, CR), as the positions count them.
  if (lx.Pos().line != out->pos.line) NormaliseLineEnds(&out->text);
  return ok;
}

// The common case of ParseSourceTargetPairs, read straight from the window:
// `{{s,t},{s,t},...}` with no blanks, signs or line breaks. False with
// nothing consumed (and `out` empty) otherwise.
bool TryParseSimplePairs(HloLexer& lx, SourceTargetPairs* out) {
  const char* const start = lx.cursor();
  const char* p = start + 1;  // after '{'
  const TextPos base = lx.Pos();
  if (*p != '}') {
    // Count the pairs first so that the vectors grow once.
    size_t count = 0;
    for (const char* q = p;
         IsDigit(*q) || *q == ',' || *q == '{' || (*q == '}' && q[1] != '}');
         ++q) {
      count += *q == '{' ? 1 : 0;
    }
    if (2 * static_cast<int64_t>(count) <= kMaxExplicitIds) {
      out->pairs.reserve(count);
      out->pair_pos.reserve(count);
    }
    for (;;) {
      if (*p != '{') break;
      const char* const pair = p;
      int64_t s = 0;
      int64_t t = 0;
      p = ReadPlainDecimal(p + 1, &s);
      if (p == nullptr || *p != ',') break;
      p = ReadPlainDecimal(p + 1, &t);
      if (p == nullptr || *p != '}') break;
      ++p;
      if (2 * static_cast<int64_t>(out->pairs.size() + 1) > kMaxExplicitIds) {
        break;
      }
      out->pairs.emplace_back(s, t);
      out->pair_pos.push_back(TextPos{base.line, base.column + (pair - start)});
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p != '}') break;
      lx.AdvanceTo(p + 1);
      return true;
    }
    out->pairs.clear();
    out->pair_pos.clear();
    return false;
  }
  lx.AdvanceTo(p + 1);
  return true;
}

bool ParseSourceTargetPairsExact(HloLexer& lx, std::string_view attr,
                                 SourceTargetPairs* out) {
  if (!lx.Eat('{')) return lx.Expected(fmt::format("'{{' to start {}", attr));
  if (!lx.SkipTrivia()) return false;
  if (lx.Eat('}')) return true;
  int64_t total = 0;
  std::vector<int64_t> ids;  // reused for every pair
  for (size_t i = 0;; ++i) {
    if (!lx.SkipTrivia()) return false;
    if (lx.Peek() != '{') {
      return lx.Expected(fmt::format("'{{' to start pair {} of {}", i, attr));
    }
    const TextPos pair_pos = lx.Pos();
    ids.clear();
    if (!ParseIntList(
            lx, '{', '}',
            [i, attr] { return fmt::format("pair {} of {}", i, attr); }, &ids,
            nullptr, 1024)) {
      return false;
    }
    if (ids.size() != 2) {
      return lx.Error(pair_pos, fmt::format("expected a pair {{source,target}} "
                                            "as entry {} of {}, found {} ids",
                                            i, attr, ids.size()));
    }
    total += 2;
    if (total > kMaxExplicitIds) {
      return lx.Error(out->pos, fmt::format("{} lists more than the limit of "
                                            "{} ids",
                                            attr, kMaxExplicitIds));
    }
    out->pairs.emplace_back(ids[0], ids[1]);
    out->pair_pos.push_back(pair_pos);
    if (!lx.SkipTrivia()) return false;
    if (lx.Eat(',')) continue;
    if (lx.Eat('}')) return true;
    return lx.Expected(fmt::format("',' or '}}' after pair {} of {}", i, attr));
  }
}

}  // namespace topolint::hlo
