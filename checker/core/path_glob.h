// Shell-style globs over '/'-separated paths, with gitignore's `**`: the
// matcher behind .gitignore patterns (gitignore.h) and `per_file_ignores`.
#ifndef TOPOLINT_CHECKER_CORE_PATH_GLOB_H_
#define TOPOLINT_CHECKER_CORE_PATH_GLOB_H_

#include <string_view>

namespace topolint {

// One path component against one pattern component: `*` (any run), `?`
// (one byte), `[abc]`, `[a-z]`, `[!a]` / `[^a]`, `\x` (x itself). Neither
// side holds '/'.
bool GlobComponentMatch(std::string_view pattern, std::string_view name);

// `path` against `pattern`, component by component. A component `**`
// matches any number of path components: none or more at the start or in
// the middle (`**/x`, `a/**/x`), one or more at the end (`a/**`: what is
// inside a, not a itself). `**` next to other characters is `*`. Empty
// components (a leading, trailing or doubled '/') are ignored on both
// sides.
bool GlobPathMatch(std::string_view pattern, std::string_view path);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_PATH_GLOB_H_
