#!/usr/bin/env bash
# `make fuzz-run SECONDS=N [RUNS=M] [TARGETS="wire http"]`: runs every libFuzzer target (or
# those named) for N seconds, or until M executions when RUNS is set (ASan and UBSan on), each
# from its committed seeds plus what earlier runs found (build/fuzz-corpus/<target>, outside the
# tree), and prints one line per target: executions, executions per second, and the outcome. A
# finding leaves its input as build/fuzz-findings/<target>/crash-* (or leak-, timeout-) and
# makes the run fail. Usage: run_campaign.sh SOURCE_ROOT BUILD_DIR SECONDS [RUNS [TARGET...]]
set -euo pipefail
source_root=$1
build=$2
seconds=$3
runs_max=${4:-0}
shift $(($# < 4 ? $# : 4))
targets=(wire record lan mcp http semver config skillmd json)
if [ $# -gt 0 ]; then targets=("$@"); fi
runs_flag=()
if [ "$runs_max" -gt 0 ]; then runs_flag=(-runs="$runs_max"); fi
declare -A max_len=([wire]=1400 [record]=1400 [lan]=4200 [mcp]=65536 [http]=8192 [semver]=1100
                    [config]=16384 [skillmd]=20000 [json]=65536)
# ASan keeps no allocation stack per malloc (a fifth more executions of fuzz_config); a finding
# is replayed with the defaults to see where its memory came from:
# `build/fuzz/tests/fuzz/fuzz_<target> build/fuzz-findings/<target>/crash-...`.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
status=0
for target in "${targets[@]}"; do
  corpus="$source_root/build/fuzz-corpus/$target"
  findings="$source_root/build/fuzz-findings/$target"
  mkdir -p "$corpus" "$findings"
  log="$findings/last-run.log"
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" "${runs_flag[@]}" \
      -max_len="${max_len[$target]}" \
      -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$findings/" -print_final_stats=1 \
      "$corpus" "$source_root/tests/fuzz/corpus/$target" >"$log" 2>&1; then
    outcome="no finding"
  else
    outcome="FINDING: $(ls -t "$findings" | grep -v last-run.log | head -n 1)"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  printf 'fuzz_%-8s %12s executions %8s/s  %s\n' "$target" "${runs:-0}" "${rate:-0}" "$outcome"
done
exit $status
