#!/usr/bin/env bash
# `make deb`: builds skillnode_<version>_amd64.deb and its -dbgsym package with
# dpkg-buildpackage from a copy of the source tree (the files git knows, and the header
# packages .ci/fetch-debs unpacked into build/deps), then runs lintian on them. The packages
# land in OUT (default build/deb); the last line names them. Exits non-zero when the build
# fails or lintian reports an error or a warning.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build/deb}")
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
stage="$out/skillnode-$version"

rm -rf "$stage"
mkdir -p "$stage/build"
cd "$root"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' path; do [ -e "$path" ] || [ -L "$path" ] && printf '%s\0' "$path"; done |
  tar --null -T - -cf - | tar -C "$stage" -xf -
cp -a build/deps "$stage/build/"
rm -f "$out"/skillnode_* "$out"/skillnode-dbgsym_*

# debhelper (compat 13) points HOME at a fresh folder inside the tree while it builds, which would
# give ccache an empty cache of its own every time; the user's cache is named instead, so that
# a second build (or a second clone, with CCACHE_BASEDIR set as the Makefile does) reuses it.
if command -v ccache >/dev/null; then
  CCACHE_DIR=$(ccache -k cache_dir)
  export CCACHE_DIR
fi

cd "$stage"
DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -b -us -uc
cd "$out"
changes=$(ls skillnode_"${version}"_*.changes)
report=$(lintian --display-info --fail-on none "$changes" 2>&1 || true)
printf '%s\n' "$report"
if printf '%s\n' "$report" | grep -qE '^(E|W): '; then
  echo "lintian reported errors or warnings (above)" >&2
  exit 1
fi
ls "$out"/skillnode_"${version}"_*.deb "$out"/skillnode-dbgsym_"${version}"_*.*deb
