// The named (mesh) form of a sharding and the `domain=` value:
//   {mesh[x=2,'y'=4], device_ids=(...), [{x}, {y:(1)2, ?}], replicated={z}}
//   {mesh[x=2,y=4], unreduced}     {maximal_mesh[device_id=5]}
//   {kind="sharding", entry={maximal device=0}, exit={replicated}}
// The mesh's axes are written as in mesh-form replica groups
// (checker/hlo/text/mesh_parser.cc).
#include <utility>

#include "checker/hlo/sharding/sharding_text.h"
#include "checker/hlo/sharding/sharding_text_internal.h"
#include "fmt/format.h"

namespace topolint::hlo {
namespace sharding_internal {

bool TextParser::ParseAxisName(std::string* name) {
  if (lx_.kind() == Tok::kString) {
    *name = lx_.string_value();
  } else if (lx_.kind() == Tok::kIdent) {
    *name = std::string(lx_.text());
  } else {
    return TokenError("expected a mesh axis name");
  }
  lx_.Lex();
  return true;
}

bool TextParser::ParseMeshAxes(NamedSharding* n) {
  if (!Expect('[', "expected '[' after 'mesh'")) return false;
  if (lx_.Is(']')) {
    lx_.Lex();
    return true;
  }
  do {
    std::string name;
    if (lx_.kind() == Tok::kAttrName) {
      name = std::string(lx_.text());
      lx_.Lex();
    } else {
      if (!ParseAxisName(&name)) return false;
      if (!Expect('=', "expected '=' after a mesh axis name")) return false;
    }
    const size_t at = lx_.offset();
    int64_t size = 0;
    if (!ReadInt(&size)) return false;
    if (size <= 0) {
      return Fail(at, fmt::format("mesh axis '{}' has size {}; sizes must be "
                                  "positive",
                                  name, size));
    }
    for (const std::string& seen : n->axis_names) {
      if (seen == name) {
        return Fail(at, fmt::format("mesh axis '{}' is named twice", name));
      }
    }
    if (n->axis_names.size() >= 64) return Fail(at, "a mesh has too many axes");
    n->axis_names.push_back(std::move(name));
    n->axis_sizes.push_back(size);
  } while (EatComma());
  return Expect(']', "expected ']' to end the mesh axes");
}

bool TextParser::ParseNamedDeviceIds(NamedSharding* n) {
  if (!Expect('(', "expected '(' after 'device_ids='")) return false;
  if (lx_.Is('[')) {
    lx_.Lex();
    if (!ReadIntList(&n->device_ids_reshape)) return false;
    if (!Expect(']', "expected ']' to end the device_ids dimensions")) {
      return false;
    }
    if (lx_.IsIdent("T")) {
      lx_.Lex();
      if (!Expect('(', "expected 'T(' in device_ids")) return false;
      if (!ReadIntList(&n->device_ids_perm)) return false;
      if (!Expect(')', "expected ')' to end the device_ids permutation")) {
        return false;
      }
    } else {
      for (size_t i = 0; i < n->device_ids_reshape.size(); ++i) {
        n->device_ids_perm.push_back(static_cast<int64_t>(i));
      }
    }
  } else if (!ReadIntList(&n->device_ids)) {
    return false;
  }
  return Expect(')', "expected ')' to end device_ids");
}

bool TextParser::ParseAxisRefs(char close, std::vector<NamedAxisRef>* out,
                               bool* open) {
  if (lx_.Is(close)) return true;
  do {
    if (lx_.Is('?')) {
      *open = true;
      lx_.Lex();
      continue;
    }
    NamedAxisRef ref;
    if (!ParseAxisName(&ref.name)) return false;
    if (lx_.Is(':')) {
      lx_.Lex();
      if (!Expect('(', "expected '(' in a sub-axis 'name:(pre)size'") ||
          !ReadInt(&ref.pre_size) ||
          !Expect(')', "expected ')' in a sub-axis 'name:(pre)size'") ||
          !ReadInt(&ref.size)) {
        return false;
      }
    }
    if (out->size() >= kMaxListValues) return TokenError("too many axes");
    out->push_back(std::move(ref));
  } while (EatComma());
  return true;
}

// XLA's named-sharding grammar (mesh, dims, axes lists), read in order.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
bool TextParser::ParseNamed(Sharding* out) {
  Sharding s;
  NamedSharding n;
  if (lx_.IsIdent("maximal_mesh")) {
    lx_.Lex();
    if (!Expect('[', "expected '[' after 'maximal_mesh'")) return false;
    if (!lx_.IsAttr("device_id")) {
      return TokenError("expected 'device_id=' in maximal_mesh[...]");
    }
    lx_.Lex();
    if (!ReadInt(&n.maximal_device)) return false;
    if (!Expect(']', "expected ']' to end maximal_mesh[...]")) return false;
    n.maximal = true;
    s.type = ShardingType::kMaximal;
    s.devices = {n.maximal_device};
  } else {
    lx_.Lex();  // mesh
    if (!ParseMeshAxes(&n)) return false;
  }
  while (EatComma()) {
    if (lx_.IsAttr("device_ids") && !n.maximal) {
      lx_.Lex();
      if (!ParseNamedDeviceIds(&n)) return false;
    } else if (lx_.Is('[') && !n.maximal) {
      lx_.Lex();
      n.has_dims = true;
      if (!lx_.Is(']')) {
        do {
          if (!Expect('{', "expected '{' to start a dimension's axes")) {
            return false;
          }
          std::vector<NamedAxisRef> dim;
          bool open = false;
          if (!ParseAxisRefs('}', &dim, &open)) return false;
          if (!Expect('}', "expected '}' to end a dimension's axes")) {
            return false;
          }
          if (n.dims.size() >= kMaxListValues) {
            return TokenError("too many dimensions");
          }
          n.dims.push_back(std::move(dim));
        } while (EatComma());
      }
      if (!Expect(']', "expected ']' to end the dimension shardings")) {
        return false;
      }
    } else if (lx_.kind() == Tok::kIdent &&
               (lx_.text() == "replicated" || lx_.text() == "unreduced" ||
                lx_.text() == "manual") &&
               !n.maximal) {
      n.whole = lx_.text() == "replicated" ? ShardingType::kReplicated
                : lx_.text() == "manual"   ? ShardingType::kManual
                                           : ShardingType::kUnreduced;
      lx_.Lex();
    } else if (lx_.kind() == Tok::kAttrName &&
               (lx_.text() == "replicated" || lx_.text() == "unreduced" ||
                lx_.text() == "manual") &&
               !n.maximal) {
      std::vector<NamedAxisRef>* list =
          lx_.text() == "replicated" ? &n.replicated_axes
          : lx_.text() == "manual"   ? &n.manual_axes
                                     : &n.unreduced_axes;
      lx_.Lex();
      bool open = false;
      if (!Expect('{', "expected '{' to start an axis list") ||
          !ParseAxisRefs('}', list, &open) ||
          !Expect('}', "expected '}' to end an axis list")) {
        return false;
      }
    } else if (lx_.IsAttr("metadata")) {
      lx_.Lex();
      if (!SkipBalanced()) return false;
    } else {
      return TokenError("unexpected token in a named sharding");
    }
  }
  if (!Expect('}', "expected '}' to end sharding attribute")) return false;
  if (!n.maximal) {
    bool any_tiled = false;
    for (const auto& dim : n.dims) any_tiled = any_tiled || !dim.empty();
    if (n.whole.has_value()) {
      s.type = *n.whole;
    } else if (any_tiled) {
      s.type = ShardingType::kTiled;
    } else if (!n.unreduced_axes.empty()) {
      s.type = ShardingType::kUnreduced;
    } else if (!n.manual_axes.empty()) {
      s.type = ShardingType::kManual;
    } else {
      s.type = ShardingType::kReplicated;
    }
  }
  s.named = std::move(n);
  *out = std::move(s);
  return true;
}

bool TextParser::ParseDomain(Sharding* entry, size_t* entry_offset,
                             Sharding* exit, size_t* exit_offset) {
  const size_t open = lx_.offset();
  if (!Expect('{', "expected '{' to start domain attributes")) return false;
  bool has_kind = false, has_entry = false, has_exit = false;
  std::string kind;
  size_t kind_at = 0;
  if (!lx_.Is('}')) {
    do {
      if (lx_.kind() != Tok::kAttrName) {
        return TokenError("expects attribute name");
      }
      const std::string key(lx_.text());
      lx_.Lex();
      if (key == "kind") {
        if (lx_.kind() != Tok::kString) return TokenError("expects string");
        kind = lx_.string_value();
        kind_at = lx_.offset();
        has_kind = true;
        lx_.Lex();
      } else if (key == "entry" || key == "exit") {
        (key == "entry" ? *entry_offset : *exit_offset) = lx_.offset();
        if (!ParseSharding(key == "entry" ? entry : exit)) return false;
        (key == "entry" ? has_entry : has_exit) = true;
      } else {
        return TokenError(fmt::format("unexpected attribute {}", key));
      }
    } while (EatComma());
  }
  if (!Expect('}', "expects '}' at the end of domain attributes")) {
    return false;
  }
  for (const auto& [seen, name] :
       {std::pair<bool, const char*>{has_kind, "kind"},
        {has_entry, "entry"},
        {has_exit, "exit"}}) {
    if (!seen) {
      return Fail(
          open, fmt::format("sub-attribute {} is expected but not seen", name));
    }
  }
  if (kind != "sharding") {
    return Fail(kind_at, fmt::format("unsupported domain kind: {}", kind));
  }
  return true;
}

}  // namespace sharding_internal

DomainParse ParseDomainText(std::string_view text) {
  sharding_internal::TextParser p(text);
  DomainParse out;
  Sharding entry, exit;
  if (p.ParseDomain(&entry, &out.entry_offset, &exit, &out.exit_offset)) {
    out.entry = std::move(entry);
    out.exit = std::move(exit);
    out.end = p.consumed();
  } else {
    out.error = p.error();
    out.error_offset = p.error_offset();
  }
  return out;
}

}  // namespace topolint::hlo
