# shellcheck shell=bash
# Sourced by the pre-commit tests (precommit_test.sh, precommit_large_test.sh):
# an isolated environment with a throw-away hook repository.
#
#   precommit_env NAME BUILD_DIR SOURCE_DIR
#
# sets `build` and `src` (absolute), defines `fail`, checks that topolint,
# pre-commit and git are there, makes `tmp` (removed on exit) and points
# HOME, the XDG directories and PRE_COMMIT_HOME into it (no user
# configuration or cache is touched), and commits SOURCE_DIR's
# .pre-commit-hooks.yaml and Python package (the root pyproject.toml,
# python/, VERSION, LICENSE, README.md) into the git repository `hooks` at
# revision `rev`, which pre-commit clones from a local path (offline;
# independent of the checkout's git state).
#
# The hooks are `language: python`: pre-commit installs them with
# `pip install .` of `hooks` in a virtualenv, with no package index
# (PIP_NO_INDEX=1). The package bundles BUILD_DIR's topolint and
# libtopolint_c (TOPOLINT_WHEEL_PREBUILT: no C++ build here;
# .ci/jobs/20-python-wheel.sh tests that build). A `topolint` first on PATH
# that fails shows that the hooks run the one pre-commit installed.
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
  export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
  export TOPOLINT_WHEEL_PREBUILT="$build"
  unset TOPOLINT_BINARY TOPOLINT_LIBRARY TOPOLINT_WHEEL_BUILD_DIR PYTHONPATH
  mkdir -p "$tmp/not-the-hook"
  cat > "$tmp/not-the-hook/topolint" <<'EOF'
#!/bin/sh
echo "the topolint on PATH ran, not the hook's" >&2
exit 3
EOF
  chmod +x "$tmp/not-the-hook/topolint"
  export PATH="$tmp/not-the-hook:$PATH"

  hooks="$tmp/hooks"
  mkdir -p "$hooks/python"
  cp "$src/.pre-commit-hooks.yaml" "$src/pyproject.toml" "$src/VERSION" \
    "$src/LICENSE" "$src/README.md" "$hooks/"
  cp -r "$src/python/pyproject.toml" "$src/python/build_backend" \
    "$src/python/topolint" "$hooks/python/"
  find "$hooks/python" \( -name __pycache__ -o -name _install.py \) \
    -prune -exec rm -rf {} +
  git -C "$hooks" init -q
  git -C "$hooks" add -A
  git -C "$hooks" commit -q -m "topolint hooks"
  # shellcheck disable=SC2034  # used by the sourcing script
  rev=$(git -C "$hooks" rev-parse HEAD)
}
