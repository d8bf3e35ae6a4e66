// ParseDefJson: json::ParseCapturing hands CCInfo.replica_groups to a sink
// that appends ranks to flat topologies. The sink accepts only what
// BuildDefJson would keep without a schema problem (a 3-D list of integers
// in [0, kMaxRank]); anything else, and a syntax error, sends the document
// through json::Parse and BuildDefJson's exact reading instead.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/json/json_loader.h"
#include "checker/neff/def_json.h"

namespace topolint::neff {
namespace {

class TopologySink : public json::ArraySink {
 public:
  explicit TopologySink(std::shared_ptr<const std::string> text)
      : text_(std::move(text)) {}

  bool OpenArray(int depth, size_t offset, TextPos pos) override {
    depth_ = depth;
    switch (depth) {
      case 1:  // replica_groups itself
        pos_ = pos;
        offset_ = static_cast<int64_t>(offset);
        return true;
      case 2: {  // a topology
        Topology t;
        t.index = static_cast<int64_t>(topologies_.size());
        t.pos = pos;
        t.offset = static_cast<int64_t>(offset);
        t.SetText(text_);
        topologies_.push_back(std::move(t));
        return true;
      }
      case 3:  // a group
        topologies_.back().AddGroup(pos, offset);
        return true;
      default:  // deeper than [topology][group][rank]
        return false;
    }
  }

  bool CloseArray(int depth) override {
    if (depth == 2) topologies_.back().Finish();
    depth_ = depth - 1;
    return true;
  }

  // A number where a topology or a group belongs, or a rank out of range,
  // is a schema problem: the exact reading describes it.
  bool Integer(int64_t value, size_t offset, TextPos pos) override {
    if (depth_ != 3 || value < 0 || value > kMaxRank) return false;
    topologies_.back().AddRankAt(value, pos, offset);
    return true;
  }

  TextPos pos() const { return pos_; }
  int64_t offset() const { return offset_; }
  std::vector<Topology> Take() { return std::move(topologies_); }

 private:
  std::shared_ptr<const std::string> text_;
  int depth_ = 0;
  TextPos pos_;
  int64_t offset_ = -1;
  std::vector<Topology> topologies_;
};

}  // namespace

DefJsonDocument ParseDefJson(std::shared_ptr<const std::string> text) {
  DefJsonDocument doc;
  TopologySink sink(text);
  static const std::vector<std::string_view> kPath = {"CCInfo",
                                                      "replica_groups"};
  json::CapturedParse r = json::ParseCapturing(*text, kPath, &sink);
  switch (r.outcome) {
    case json::CapturedParse::Outcome::kCaptured:
      doc.parsed = std::move(r.parsed);
      doc.streamed = true;
      doc.streamed_pos = sink.pos();
      doc.streamed_offset = sink.offset();
      doc.topologies = sink.Take();
      break;
    case json::CapturedParse::Outcome::kNotFound:
      doc.parsed = std::move(r.parsed);
      break;
    case json::CapturedParse::Outcome::kRefused:
      doc.parsed = json::Parse(*text);
      break;
  }
  return doc;
}

}  // namespace topolint::neff
