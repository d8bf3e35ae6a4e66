#!/usr/bin/env bash
# Checks commit messages against CONTRIBUTING.md ("Commits"): a subject of
# at most 72 characters, then, if the message goes on, a blank second line
# before the body (the why and the figures).
#   scripts/check-commit-msg.sh FILE             # as a git commit-msg hook
#   scripts/check-commit-msg.sh --range A..B     # every commit of A..B (CI)
# As a hook: ln -s ../../scripts/check-commit-msg.sh .git/hooks/commit-msg
# (git passes the message file; lines from '#' on and a scissors line's
# tail are dropped first, as git's default cleanup drops them).
# .ci/run checks the commits of main since a fixed base with --range.
# Exit status: 0 all good, 1 a message breaks a rule (each one on stderr),
# 2 bad arguments.
set -euo pipefail
# Characters, not bytes: subjects hold § and ×.
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
  if locale -a 2> /dev/null | grep -qix "$l"; then export LC_ALL=$l; break; fi
done
max=72
usage() {
  echo "usage: scripts/check-commit-msg.sh FILE | --range A..B" >&2
  exit 2
}

# check NAME < message: prints what is wrong, returns 1 if anything is.
check() {
  local name=$1 subject second bad=0
  local -a lines
  mapfile -t lines < <(sed -e '/^# -\{24\} >8 -\{24\}$/,$d' -e '/^#/d')
  subject=${lines[0]-}
  second=${lines[1]-}
  if [ -z "$subject" ]; then
    echo "$name: the subject (first line) is empty" >&2
    bad=1
  elif [ ${#subject} -gt $max ]; then
    echo "$name: the subject is ${#subject} characters, at most $max: $subject" >&2
    bad=1
  fi
  if [ ${#lines[@]} -gt 1 ] && [ -n "$second" ]; then
    echo "$name: the second line must be blank (subject, blank line, body): $second" >&2
    bad=1
  fi
  return $bad
}

case "${1-}" in
  --range)
    [ $# -eq 2 ] || usage
    range=$2
    [[ "$range" == *..* ]] || usage
    if ! git rev-parse --verify --quiet "${range%%..*}^{commit}" > /dev/null; then
      echo "check-commit-msg.sh: no commit ${range%%..*} here (a shallow clone? git fetch --unshallow)" >&2
      exit 2
    fi
    fail=0 n=0
    while read -r c; do
      n=$((n + 1))
      git log -1 --format=%B "$c" | check "commit ${c:0:12}" || fail=1
    done < <(git rev-list "$range")
    [ $fail -eq 0 ] && echo "commit messages: $n checked in $range, all good"
    exit $fail
    ;;
  -h|--help|'') usage ;;
  -*) usage ;;
  *)
    [ $# -eq 1 ] || usage
    [ -f "$1" ] || { echo "check-commit-msg.sh: no file $1" >&2; exit 2; }
    check "commit message" < "$1"
    ;;
esac
