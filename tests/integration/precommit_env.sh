# shellcheck shell=bash
# Sourced by the pre-commit tests (precommit_test.sh, precommit_large_test.sh):
# an isolated environment with a throw-away hook repository.
#
#   precommit_env NAME BUILD_DIR SOURCE_DIR
#
# sets `build` and `src` (absolute), defines `fail`, checks that topolint,
# pre-commit and git are there, makes `tmp` (removed on exit) and points
# HOME, the XDG directories and PRE_COMMIT_HOME into it (no user
# configuration or cache is touched), puts BUILD_DIR first on PATH (as a
# user's installed topolint would be), and commits SOURCE_DIR's
# .pre-commit-hooks.yaml into the git repository `hooks` at revision `rev`,
# which pre-commit clones from a local path (offline; independent of the
# checkout's git state).
precommit_env() {
  local name=$1
  build=$(cd "$2" && pwd)
  src=$(cd "$3" && pwd)
  eval "fail() { echo \"$name: FAIL: \$*\" >&2; exit 1; }"

  [ -x "$build/topolint" ] || fail "$build/topolint is not an executable"
  command -v pre-commit >/dev/null || fail "pre-commit is not installed"
  command -v git >/dev/null || fail "git is not installed"

  tmp=$(mktemp -d "${TMPDIR:-/tmp}/topolint-$name.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/home"
  export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
  export XDG_CACHE_HOME="$tmp/home/.cache" PRE_COMMIT_HOME="$tmp/pre-commit"
  export GIT_CONFIG_NOSYSTEM=1
  export GIT_AUTHOR_NAME=topolint GIT_AUTHOR_EMAIL=topolint@example.invalid
  export GIT_COMMITTER_NAME=topolint GIT_COMMITTER_EMAIL=topolint@example.invalid
  export PRE_COMMIT_COLOR=never NO_COLOR=1
  export PATH="$build:$PATH"
  [ "$(command -v topolint)" = "$build/topolint" ] ||
    fail "topolint on PATH is $(command -v topolint), not $build/topolint"

  hooks="$tmp/hooks"
  mkdir -p "$hooks"
  cp "$src/.pre-commit-hooks.yaml" "$hooks/"
  git -C "$hooks" init -q
  git -C "$hooks" add .pre-commit-hooks.yaml
  git -C "$hooks" commit -q -m "topolint hooks"
  # shellcheck disable=SC2034  # used by the sourcing script
  rev=$(git -C "$hooks" rev-parse HEAD)
}
