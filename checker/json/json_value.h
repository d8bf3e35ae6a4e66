// A JSON document with a source position on every value and key.
//
// Memory: a document may hold millions of values (kMaxValueCount), so a
// Value is kept small (56 bytes): its position is packed, its numbers share
// storage, and its strings and child lists are one pointer each (short
// strings, such as most number literals, need no allocation at all).
#ifndef TOPOLINT_CHECKER_JSON_JSON_VALUE_H_
#define TOPOLINT_CHECKER_JSON_JSON_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/diag/location.h"
#include "checker/json/json_containers.h"

namespace topolint::json {

enum class Type : uint8_t {
  kNull,
  kBool,
  kInt,
  kUInt,
  kFloat,
  kString,
  kArray,
  kObject
};

struct Member;

// One JSON value. Numbers keep their kind: an integer literal that fits
// int64 is kInt, a non-negative one that only fits uint64 is kUInt, anything
// else (fractions, exponents, Infinity/NaN, integers beyond uint64) is kFloat
// with `number_text` holding the literal as written.
struct Value {
  Type type = Type::kNull;
  bool bool_value = false;
  PackedPos pos;  // first byte of the value ('[' '{' '"' or the literal)
  // Only the member named by `type` is meaningful (one is stored, to keep
  // values small): int_value for kInt, uint_value for kUInt, float_value for
  // kFloat.
  union {
    int64_t int_value = 0;  // kInt
    uint64_t uint_value;    // kUInt
    double float_value;     // kFloat
  };
  String string_value;      // kString
  String number_text;       // kInt / kUInt / kFloat: the literal as written
  Children<Value> array;    // kArray
  Children<Member> object;  // kObject, in document order (duplicates kept)

  bool is_null() const { return type == Type::kNull; }
  bool is_array() const { return type == Type::kArray; }
  bool is_object() const { return type == Type::kObject; }
  bool is_string() const { return type == Type::kString; }
  bool is_bool() const { return type == Type::kBool; }
  bool is_number() const {
    return type == Type::kInt || type == Type::kUInt || type == Type::kFloat;
  }
  bool is_integer() const { return type == Type::kInt || type == Type::kUInt; }

  // First member named `key`, or nullptr (objects only; nullptr otherwise).
  const Value* Find(std::string_view key) const;
  const Member* FindMember(std::string_view key) const;

  // "null", "boolean", "integer", "number", "string", "array", "object".
  std::string_view TypeName() const;
};

struct Member {
  String key;         // decoded
  PackedPos key_pos;  // the opening quote of the key
  Value value;
  // Byte offset of the key's opening quote in the text parsed (documents
  // are below 4 GiB), and whether the key was written with escapes: when it
  // was not, the bytes there are exactly '"' + key + '"' (what a fix that
  // renames it checks). After `value`, so that {key, key_pos, value}
  // still initialises a member.
  uint32_t key_offset = 0;
  bool key_escaped = false;
};

}  // namespace topolint::json

#endif  // TOPOLINT_CHECKER_JSON_JSON_VALUE_H_
