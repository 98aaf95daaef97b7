#!/usr/bin/env bash
# Proves check_layering.sh can fail: each fixture breaks one rule and must be caught; the
# clean fixture must pass. Usage: check_layering_selftest.sh CHECKER FIXTURE_DIR
set -uo pipefail
checker=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for fixture in "$fixtures"/bad_*.txt; do
  cp "$fixture" "$work/probe.cpp"
  if "$checker" "$work" >/dev/null 2>&1; then
    echo "NOT CAUGHT: $(basename "$fixture")"
    failed=1
  else
    echo "caught: $(basename "$fixture")"
  fi
  rm -f "$work/probe.cpp"
done
cp "$fixtures/clean.txt" "$work/probe.cpp"
if ! "$checker" "$work"; then
  echo "FALSE ALARM on clean.txt"
  failed=1
fi
exit "$failed"
