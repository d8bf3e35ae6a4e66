#ifndef TOPOLINT_TESTS_COMMON_SHAPE_BUILDERS_H_
#define TOPOLINT_TESTS_COMMON_SHAPE_BUILDERS_H_

// Shapes built in code, for tests.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/hlo/hlo_module.h"

namespace topolint::testing {

inline hlo::Shape ArrayShape(const std::string& type,
                             std::vector<int64_t> dims) {
  hlo::Shape s;
  s.known = true;
  s.element_type = type;
  s.dims = std::move(dims);
  return s;
}

inline hlo::Shape TupleShape(std::vector<hlo::Shape> elements) {
  hlo::Shape s;
  s.known = true;
  s.is_tuple = true;
  s.tuple = std::move(elements);
  return s;
}

}  // namespace topolint::testing

#endif  // TOPOLINT_TESTS_COMMON_SHAPE_BUILDERS_H_
