// Applies .gitignore (gitignore.h) to the files a directory walk found.
#ifndef TOPOLINT_CHECKER_CORE_GITIGNORE_WALK_H_
#define TOPOLINT_CHECKER_CORE_GITIGNORE_WALK_H_

#include "checker/core/dir_walk.h"

namespace topolint {

// Moves every file of `walk` that a search found (not one named) and that
// the .gitignore files of its git work tree ignore into `walk->skipped`
// ("ignored by .gitignore"). Files outside any work tree stay.
void DropGitignored(WalkResult* walk);

}  // namespace topolint

#endif  // TOPOLINT_CHECKER_CORE_GITIGNORE_WALK_H_
