#!/usr/bin/env bash
# Fails when a C++ source is not formatted by the root .clang-format (Google style, 100 columns).
# Usage: check_format.sh SOURCE_ROOT. Fix with: make format
set -euo pipefail
root=$1
cd "$root"
clang_format=${CLANG_FORMAT:-clang-format}
mapfile -t files < <(find node kademlia transport discovery bootstrap tests sim bench \
  -type f \( -name '*.h' -o -name '*.cpp' \) -not -path 'tests/tidy/fixtures/*' | sort)
if "$clang_format" --dry-run --Werror --style=file "${files[@]}"; then
  echo "format: ${#files[@]} files clean"
else
  echo "format: run 'make format' to fix the files above"
  exit 1
fi
