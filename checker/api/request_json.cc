#include "checker/api/request_json.h"

#include <cstddef>
#include <utility>
#include <vector>

#include "fmt/format.h"

namespace topolint::api::internal {
namespace {

using Json = nlohmann::json;

// nlohmann's SAX interface, building the document as its DOM parser does
// (a repeated key keeps its last value) but moving strings and keys out of
// the lexer instead of copying them.
class MovingDomBuilder {
 public:
  MovingDomBuilder(Json* root, int max_depth)
      : root_(root), max_depth_(max_depth) {}

  bool null() { return Add(nullptr) != nullptr; }
  bool boolean(bool v) { return Add(v) != nullptr; }
  bool number_integer(Json::number_integer_t v) { return Add(v) != nullptr; }
  bool number_unsigned(Json::number_unsigned_t v) { return Add(v) != nullptr; }
  bool number_float(Json::number_float_t v, const Json::string_t& /*text*/) {
    return Add(v) != nullptr;
  }
  bool string(Json::string_t& v) { return Add(std::move(v)) != nullptr; }
  bool binary(Json::binary_t& v) {
    return Add(Json::binary(std::move(v))) != nullptr;
  }
  bool start_object(std::size_t /*size*/) { return Open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return Open(Json::array()); }
  bool key(Json::string_t& k) {
    key_ = std::move(k);
    return true;
  }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) {
    error_ = e.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  const std::string& error() const { return error_; }

 private:
  // Places `v` in the innermost open array or object (or as the root);
  // returns where it went.
  Json* Add(Json v) {
    if (open_.empty()) {
      *root_ = std::move(v);
      return root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    // Objects are std::map: the element stays where it is.
    Json& slot = parent[std::move(key_)];
    slot = std::move(v);
    return &slot;
  }
  bool Open(Json container) {
    if (static_cast<int>(open_.size()) >= max_depth_) {
      too_deep_ = true;
      return false;
    }
    // A container's address is stable while it is open: only the innermost
    // one grows.
    open_.push_back(Add(std::move(container)));
    return true;
  }
  bool Close() {
    open_.pop_back();
    return true;
  }

  Json* root_;
  int max_depth_;
  std::vector<Json*> open_;
  Json::string_t key_;
  bool too_deep_ = false;
  std::string error_;
};

}  // namespace

absl::StatusOr<nlohmann::json> ParseRequestJson(const char* text,
                                                int max_depth) {
  Json root;
  MovingDomBuilder builder(&root, max_depth);
  const bool ok = Json::sax_parse(text, &builder);
  if (builder.too_deep()) {
    return absl::InvalidArgumentError(fmt::format(
        "the request is nested deeper than {} levels", max_depth));
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        fmt::format("the request is not valid JSON: {}", builder.error()));
  }
  return root;
}

}  // namespace topolint::api::internal
