#!/bin/sh
# with-xvfb.sh: runs one GUI test program on an X server of its own, so GUI tests can run in
# parallel (meson test runs them side by side) without catching each other's keys, clicks,
# focus or clipboard.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   with-xvfb.sh TEST-PROGRAM [ARGUMENT...]
#
# Starts Xvfb with -displayfd (the server itself takes the lowest free display number and its
# lock atomically, where `xvfb-run -a` races when started concurrently), screen
# $MSHED_TEST_XVFB_SCREEN (default 1280x800x24, the size the tests expect; 1600x1000x24 for
# the screenshots at the large size), no window manager (the tests never needed one). The test
# runs with DISPLAY set to that server and a private XDG_RUNTIME_DIR, XDG_DATA_HOME (recent
# files) and XDG_STATE_HOME; the server and the folder go when the test ends, whatever its end.
# Without Xvfb the test runs as it is: with a display of its own (xvfb-run) it uses that one,
# without any it skips, or fails under MSHED_REQUIRE_ALL_TESTS=1 (tests/test-require.h).
set -u

if ! command -v Xvfb >/dev/null 2>&1; then
  exec "$@"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/mshed-xvfb-XXXXXX") || exit 1
xvfb_pid=
cleanup () {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The display number arrives through a FIFO: read returns as soon as the server is ready, or
# at once with nothing when it dies first.
mkfifo "$dir/displayfd"
Xvfb -displayfd 3 -screen 0 "${MSHED_TEST_XVFB_SCREEN:-1280x800x24}" -nolisten tcp \
  3>"$dir/displayfd" >"$dir/xvfb.log" 2>&1 &
xvfb_pid=$!
display=
read -r display <"$dir/displayfd"
if [ -z "$display" ]; then
  echo "with-xvfb.sh: Xvfb did not start:" >&2
  cat "$dir/xvfb.log" >&2
  exit 1
fi

mkdir -m 700 "$dir/runtime" "$dir/data" "$dir/state"
DISPLAY=:$display
XDG_RUNTIME_DIR=$dir/runtime
XDG_DATA_HOME=$dir/data
XDG_STATE_HOME=$dir/state
export DISPLAY XDG_RUNTIME_DIR XDG_DATA_HOME XDG_STATE_HOME
unset WAYLAND_DISPLAY

# not exec: the trap must still remove the server
"$@"
status=$?
exit "$status"
