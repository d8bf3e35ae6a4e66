// TOPOLINT_ASSIGN_OR_RETURN(lhs, expr): evaluates `expr`, an
// absl::StatusOr<T>; returns its status from the enclosing function when it
// is an error, else moves its value into `lhs` (a declaration or an
// lvalue), as absl's internal macro of the same purpose does. The one such
// helper of the project.
#ifndef TOPOLINT_CHECKER_IO_STATUS_MACROS_H_
#define TOPOLINT_CHECKER_IO_STATUS_MACROS_H_

#include <utility>

#define TOPOLINT_STATUS_CONCAT_INNER_(a, b) a##b
#define TOPOLINT_STATUS_CONCAT_(a, b) TOPOLINT_STATUS_CONCAT_INNER_(a, b)
#define TOPOLINT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = *std::move(tmp)
#define TOPOLINT_ASSIGN_OR_RETURN(lhs, expr) \
  TOPOLINT_ASSIGN_OR_RETURN_IMPL_(           \
      TOPOLINT_STATUS_CONCAT_(topolint_status_or_, __LINE__), lhs, expr)

#endif  // TOPOLINT_CHECKER_IO_STATUS_MACROS_H_
