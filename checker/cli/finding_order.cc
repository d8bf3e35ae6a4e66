#include "checker/cli/finding_order.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "fmt/format.h"

namespace topolint::cli {
namespace {

bool SameNotes(const std::vector<Note>& a, const std::vector<Note>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Note& x, const Note& y) {
                      return x.loc == y.loc && x.message == y.message;
                    });
}

// Same rule, place, message, severity and notes: the same finding reported
// by two units that check one config.
bool SameFinding(const Finding& a, const Finding& b) {
  return a.rule == b.rule && a.loc == b.loc && a.message == b.message &&
         a.severity == b.severity && SameNotes(a.notes, b.notes);
}

void AppendField(std::string_view s, std::string* out) {
  *out += fmt::format("{}:{}", s.size(), s);
}

void AppendLocation(const Location& loc, std::string* out) {
  AppendField(loc.file, out);
  *out += fmt::format("{},{},{};", loc.line, loc.column, loc.byte_offset);
}

// What SameFinding compares, as one string.
std::string IdentityOf(const Finding& f) {
  std::string out;
  AppendField(f.rule, &out);
  out += fmt::format("{};", static_cast<int>(f.severity));
  AppendField(f.message, &out);
  AppendLocation(f.loc, &out);
  for (const Note& n : f.notes) {
    AppendLocation(n.loc, &out);
    AppendField(n.message, &out);
  }
  return out;
}

}  // namespace

void FindingOrder::AddShared(const std::vector<std::string>& files) {
  for (const std::string& f : files) shared_files_.insert(f);
}

void FindingOrder::Add(std::vector<Finding> findings,
                       const std::optional<std::string>& frontier,
                       std::vector<Finding>* ready) {
  const size_t middle = held_.size();
  held_.insert(held_.end(), std::make_move_iterator(findings.begin()),
               std::make_move_iterator(findings.end()));
  std::inplace_merge(held_.begin(), held_.begin() + middle, held_.end(),
                     FindingLess);
  size_t count = held_.size();
  if (frontier) {
    count = static_cast<size_t>(
        std::lower_bound(held_.begin(), held_.end(), *frontier,
                         [](const Finding& f, const std::string& file) {
                           return f.loc.file < file;
                         }) -
        held_.begin());
  }
  if (held_.size() - count > kMaxHeldFindings) {
    count = held_.size() - kMaxHeldFindings;
  }
  Release(count, ready);
}

void FindingOrder::Finish(std::vector<Finding>* ready) {
  Release(held_.size(), ready);
}

void FindingOrder::Release(size_t count, std::vector<Finding>* ready) {
  for (size_t i = 0; i < count; ++i) {
    Finding& f = held_[i];
    if (last_ && SameFinding(*last_, f)) continue;
    if (shared_files_.count(f.loc.file) &&
        !released_shared_.insert(IdentityOf(f)).second) {
      continue;
    }
    last_ = f;
    ready->push_back(std::move(f));
  }
  held_.erase(held_.begin(), held_.begin() + static_cast<ptrdiff_t>(count));
}

}  // namespace topolint::cli
