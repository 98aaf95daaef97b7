#!/usr/bin/env bash
# [tidy] The fuzz targets build with clang 14 (-Dfuzz=true, their own build directory) and every
# seed of their corpora replays without a finding: keeps the second compiler building in CI and
# the corpora honest. Usage: clang_replay.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
source_root=$1
build=$2
if ! command -v clang++ >/dev/null; then
  echo "clang++ is missing (.ci/install-deps installs clang)"
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Unoptimised, with line tables: replaying the seeds needs no speed, and clang builds the
# targets and the libraries they link in half the time of -O2 -g. `make fuzz` builds the
# campaign's targets optimised, in a directory of its own.
options=(-Dfuzz=true --buildtype=plain -Doptimization=0 -Ddebug=false -Dcpp_args=-g1)
if [ -f "$build/build.ninja" ]; then
  setup=(meson setup --reconfigure "$build" "$source_root" "${options[@]}")
else
  setup=(meson setup "$build" "$source_root" "${options[@]}")
fi
if ! CXX=clang++ "${setup[@]}" >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
targets=(wire record lan mcp http semver config skillmd json)
# Two jobs, one a core: this test runs beside others (tests/meson.build "Scheduling").
if ! ninja -C "$build" -j 2 "${targets[@]/#/tests/fuzz/fuzz_}" >"$log" 2>&1; then
  grep -E "error|FAILED" -A3 "$log" | head -60
  echo "the fuzz targets do not build with clang"
  exit 1
fi
echo "the fuzz targets build with clang ($(clang++ --version | head -n 1))"
for target in "${targets[@]}"; do
  if ! "$build/tests/fuzz/fuzz_$target" -runs=0 "$source_root/tests/fuzz/corpus/$target" \
      >"$log" 2>&1; then
    cat "$log"
    echo "fuzz_$target: a seed of its corpus fails"
    exit 1
  fi
  grep -E "^Done" "$log" || true
  echo "fuzz_$target: its corpus replays with no finding"
done
