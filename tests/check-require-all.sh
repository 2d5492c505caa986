#!/bin/sh
# check-require-all.sh: proves that CI cannot be green with environment-dependent tests skipped.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   check-require-all.sh WHAT TEST-PROGRAM [ARGUMENT...]
#
# Runs a test program with WHAT taken away (no-display: DISPLAY and WAYLAND_DISPLAY unset;
# no-xdotool: a PATH without xdotool; no-egl: no EGL vendor library), twice: without
# MSHED_REQUIRE_ALL_TESTS it must pass with a skip, with MSHED_REQUIRE_ALL_TESTS=1 it must fail
# and say why. Exit status 0 when both hold.
set -u

what=$1
test_path=$PATH
shift
case "$what" in
  no-display)
    unset DISPLAY WAYLAND_DISPLAY
    ;;
  no-xdotool)
    if [ -z "${DISPLAY:-}" ]; then
      echo "no-xdotool needs an X display (xvfb-run)"
      # itself a test that cannot run: a skip (77), or a failure where every test must run
      [ -n "${MSHED_REQUIRE_ALL_TESTS:-}" ] && [ "$MSHED_REQUIRE_ALL_TESTS" != 0 ] && exit 1
      exit 77
    fi
    test_path=/nonexistent  # for the test program only: this script needs grep
    ;;
  no-egl)
    # libglvnd finds no vendor library, so EGL offers no display at all
    __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/none.json
    __EGL_VENDOR_LIBRARY_DIRS=/nonexistent
    export __EGL_VENDOR_LIBRARY_FILENAMES __EGL_VENDOR_LIBRARY_DIRS
    ;;
  *)
    echo "usage: $0 no-display|no-xdotool|no-egl TEST-PROGRAM [ARGUMENT...]" >&2
    exit 2
    ;;
esac

# run REQUIRE-VALUE: the test program, with MSHED_REQUIRE_ALL_TESTS unset or set
run () {
  (
    if [ -n "$1" ]; then
      MSHED_REQUIRE_ALL_TESTS=$1
      export MSHED_REQUIRE_ALL_TESTS
    else
      unset MSHED_REQUIRE_ALL_TESTS
    fi
    shift
    PATH=$test_path
    exec "$@" --tap
  ) 2>&1
}

# The inner TAP lines, indented so that no reader takes them for this test's own results.
show () {
  printf '%s\n' "$1" | sed 's/^/  | /'
}

fail () {
  echo "FAILED: $*"
  exit 1
}

out=$(run "" "$@")
status=$?
echo "--- $what, MSHED_REQUIRE_ALL_TESTS unset (exit status $status):"
show "$out"
[ $status -eq 0 ] || fail "without MSHED_REQUIRE_ALL_TESTS the test must pass with a skip"
printf '%s\n' "$out" | grep -q '# SKIP' || fail "without MSHED_REQUIRE_ALL_TESTS the test must skip"

out=$(run 1 "$@")
status=$?
echo "--- $what, MSHED_REQUIRE_ALL_TESTS=1 (exit status $status):"
show "$out"
[ $status -ne 0 ] || fail "with MSHED_REQUIRE_ALL_TESTS=1 the test must fail"
printf '%s\n' "$out" | grep -q '^not ok\|^Bail out!' || fail "no failed TAP result"
printf '%s\n' "$out" | grep -q 'MSHED_REQUIRE_ALL_TESTS is set' ||
  fail "the failure does not say why"
printf '%s\n' "$out" | grep -q '# SKIP' && fail "with MSHED_REQUIRE_ALL_TESTS=1 nothing may skip"
echo "OK: $what is a skip locally and a failure in CI"
