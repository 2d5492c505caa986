#!/bin/sh
# check-readme.sh: the README's build and test claims against the tree and the built sample.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   check-readme.sh SOURCE-ROOT MSHED-CLI SAMPLE
#
# - the number of Cyrillic node names the README gives for the bundled sample;
# - the C standard (README "C11", meson c_std=c11);
# - the sanitizer run: README and ./mshed-dev test both say detect_leaks=1, and no meson file
#   switches leak detection off for a suite.
set -u
root=$1
cli=$2
sample=$3
status=0

fail () {
  echo "FAILED: $*"
  status=1
}

names=$(LC_ALL=C.UTF-8 "$cli" info "$sample" | sed -n '/^Nodes:/,/^Validation:/p')
# UTF-8 Cyrillic letters start with byte 0xD0 or 0xD1
cyrillic=$(printf '%s\n' "$names" | LC_ALL=C grep -c "$(printf '[\320\321]')")
case "$cyrillic" in
  1) word=one ;; 2) word=two ;; 3) word=three ;; 4) word=four ;; 5) word=five ;; 6) word=six ;;
  *) word=$cyrillic ;;
esac
echo "sample: $cyrillic Cyrillic node names"
grep -q "($word of them Cyrillic)" "$root/README.md" ||
  fail "README.md does not say “($word of them Cyrillic)” for the sample"

grep -q "'c_std=c11'" "$root/meson.build" || fail "meson.build does not build with c_std=c11"
grep -q 'C11' "$root/README.md" || fail "README.md does not name C11"
grep -q 'C11' "$root/CONTRIBUTING.md" || fail "CONTRIBUTING.md does not name C11"
if grep -rq 'gnu1[17]\|gnu99' "$root/meson.build"; then
  fail "meson.build asks for a GNU C dialect"
fi

grep -q 'detect_leaks=1' "$root/README.md" || fail "README.md does not say detect_leaks=1"
grep -q 'detect_leaks=1' "$root/mshed-dev" || fail "mshed-dev does not run with detect_leaks=1"
if grep -rn --include=meson.build 'detect_leaks=0' "$root"; then
  fail "a meson file switches leak detection off"
fi

[ $status -eq 0 ] && echo "OK: the README's claims hold"
exit $status
