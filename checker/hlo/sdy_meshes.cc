#include "checker/hlo/sdy_meshes.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <utility>

namespace topolint::hlo {
namespace {

class MeshText {
 public:
  explicit MeshText(std::string_view s) : s_(s) {}

  bool AtEnd() const { return i_ >= s_.size(); }
  void SkipBlanks() {
    while (!AtEnd() && (s_[i_] == ' ' || s_[i_] == '\\' || s_[i_] == '\n' ||
                        s_[i_] == '\t')) {
      ++i_;
    }
  }
  bool Eat(char c) {
    SkipBlanks();
    if (AtEnd() || s_[i_] != c) return false;
    ++i_;
    return true;
  }
  // A quoted axis name ("x", or \"x\" inside an escaped string).
  bool Name(std::string* out) {
    if (!Eat('"')) return false;
    out->clear();
    while (!AtEnd() && s_[i_] != '"' && s_[i_] != '\\' && out->size() < 256) {
      out->push_back(s_[i_++]);
    }
    return Eat('"');
  }
  bool Int(int64_t* out) {
    SkipBlanks();
    bool neg = false;
    if (!AtEnd() && s_[i_] == '-') {
      neg = true;
      ++i_;
    }
    if (AtEnd() || s_[i_] < '0' || s_[i_] > '9') return false;
    int64_t v = 0;
    while (!AtEnd() && s_[i_] >= '0' && s_[i_] <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) ||
          __builtin_add_overflow(v, s_[i_] - '0', &v)) {
        return false;
      }
      ++i_;
    }
    *out = neg ? -v : v;
    return true;
  }
  bool Word(std::string_view w) {
    SkipBlanks();
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  // `["x"=2, "y"=4]` (or the older bracket-less `"x"=2, "y"=4`).
  bool Axes(std::vector<MeshAxis>* axes) {
    const bool bracket = Eat('[');
    if (bracket && Eat(']')) return true;
    do {
      MeshAxis a;
      if (!Name(&a.name) || !Eat('=') || !Int(&a.size)) return false;
      axes->push_back(std::move(a));
    } while (Eat(','));
    return !bracket || Eat(']');
  }
  // `[0, 2, 1, 3]`.
  bool Ids(std::vector<int64_t>* ids) {
    if (!Eat('[')) return false;
    if (Eat(']')) return true;
    do {
      int64_t id = 0;
      if (!Int(&id) || ids->size() >= size_t{1} << 20) return false;
      ids->push_back(id);
    } while (Eat(','));
    return Eat(']');
  }
  // The mesh name before `= #sdy.mesh<` at `at`: the identifier ending
  // there (blanks and `=` skipped back).
  std::string NameBefore(size_t at) const {
    size_t e = at;
    while (e > 0 && (s_[e - 1] == ' ' || s_[e - 1] == '=')) --e;
    size_t b = e;
    while (b > 0 &&
           (std::isalnum(static_cast<unsigned char>(s_[b - 1])) ||
            s_[b - 1] == '_' || s_[b - 1] == '.' || s_[b - 1] == '-')) {
      --b;
    }
    return std::string(s_.substr(b, e - b));
  }
  size_t pos() const { return i_; }
  void Seek(size_t i) { i_ = i; }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

void ReadSdyMeshes(std::string_view frontend_attributes, TextPos pos,
                   Module* module) {
  const size_t key = frontend_attributes.find("xla.sdy.meshes");
  if (key == std::string_view::npos) return;
  constexpr std::string_view kMesh = "#sdy.mesh<";
  MeshText t(frontend_attributes);
  for (size_t at = frontend_attributes.find(kMesh, key);
       at != std::string_view::npos;
       at = frontend_attributes.find(kMesh, at + kMesh.size())) {
    DeviceMesh mesh;
    mesh.origin = DeviceMesh::Origin::kSdyMeshesHeader;
    mesh.pos = pos;
    mesh.name = "@" + t.NameBefore(at);
    t.Seek(at + kMesh.size());
    if (!t.Axes(&mesh.axes)) continue;
    if (t.Eat(',') &&
        !(t.Word("device_ids") && t.Eat('=') && t.Ids(&mesh.device_ids))) {
      continue;
    }
    if (!t.Eat('>')) continue;
    module->AddMesh(std::move(mesh));
  }
}

}  // namespace topolint::hlo
