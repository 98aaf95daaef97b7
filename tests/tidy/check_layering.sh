#!/usr/bin/env bash
# Fails when the protocol core does I/O or reads the world directly (docs/architecture.md
# "Layers").
# kademlia/ must be a pure step function: no libuv, sockets, threads, real clocks, OS
# randomness through <random>, or the global spdlog logger. Usage: check_layering.sh DIR...
set -euo pipefail

# pattern<TAB>reason
rules=$(cat <<'RULES'
#[[:space:]]*include[[:space:]]*[<"]uv\.h[>"]	includes libuv; the core is driven by an Env
#[[:space:]]*include[[:space:]]*<(sys/socket|netinet/[a-z_]+|arpa/inet|netdb|sys/un|sys/epoll|poll)\.h>	includes a socket header; send through Transport
#[[:space:]]*include[[:space:]]*<(thread|future|pthread\.h)>	uses threads; the core is single-threaded
std::(j?thread|async)\b	starts a thread
(steady_clock|system_clock|high_resolution_clock|utc_clock|file_clock)::now	reads a real clock; take `now` as an argument
\b(gettimeofday|clock_gettime|uv_now|uv_hrtime)[[:space:]]*\(	reads a real clock; take `now` as an argument
(^|[^_[:alnum:]])time[[:space:]]*\([[:space:]]*(nullptr|NULL|0)[[:space:]]*\)	reads a real clock; take `now` as an argument
random_device	uses OS randomness; use the injected Rng
(^|[^_[:alnum:]:])s?rand[[:space:]]*\(	uses the C library generator; use the injected Rng
#[[:space:]]*include[[:space:]]*[<"]spdlog/	includes spdlog; log through the injected Logger
spdlog::	calls the global spdlog logger; log through the injected Logger
\bSPDLOG_[A-Z]+[[:space:]]*\(	calls the global spdlog logger; log through the injected Logger
RULES
)

status=0
files=$(find "$@" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cc' \) | sort)
# A copy of each file without its // comments, so that prose about clocks does not trip the
# check; then one grep per rule over all of them (a grep per file and rule took over 30 s on a
# busy 2-core machine).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for file in $files; do
  mkdir -p "$work/$(dirname "$file")"
  sed -e 's://.*$::' "$file" >"$work/$file"
done
while IFS=$'\t' read -r pattern reason; do
  [ -n "$pattern" ] || continue
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    path=${hit%%:*}
    rest=${hit#*:}
    echo "${path#"$work"}:${rest%%:*}: $reason: ${rest#*:}"
    status=1
  done < <(grep -rnE -- "$pattern" "$work" || true)
done <<<"$rules"
if [ "$status" -eq 0 ]; then
  echo "layering: $(echo "$files" | grep -c . || true) files clean"
fi
exit "$status"
