#!/bin/sh
# check-mime.sh: what the desktop's MIME database makes of every file kind mshed knows.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   check-mime.sh MSHED-CLI MIME-XML DESKTOP THUMBNAILER
#
# Installs MIME-XML (data/org.mshed.Mshed.mime.xml, built) into a temporary XDG data dir, runs
# update-mime-database there and asks `gio info` (GIO's own detection, as file managers use
# it) for the type of generated models, archives and DFMs: by their usual name, and by content
# alone under a name that says nothing (no extension, and a foreign one). A model and an
# archive are both NRes containers; the rules that tell them apart are in the XML. The desktop
# entry (DESKTOP: the editor opens them) and the thumbnailer must list every type it defines.
set -u
cli=$1
xml=$2
desktop=$3
thumbnailer=$4
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () {
  echo "FAILED: $*"
  status=1
}

for tool in update-mime-database gio; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "$tool is missing (./mshed-dev deps installs it)"
    # a skip is a failure where every test must run (tests/test-require.h)
    [ "${MSHED_REQUIRE_ALL_TESTS:-}" = 1 ] && exit 1
    exit 77
  fi
done

mkdir -p "$tmp/data/mime/packages" "$tmp/files"
cp "$xml" "$tmp/data/mime/packages/"
# only our database and the system's: nothing from the user's home
export XDG_DATA_HOME="$tmp/data" XDG_DATA_DIRS="$tmp/data:/usr/share"
if ! update-mime-database "$tmp/data/mime"; then
  echo "FAILED: update-mime-database"
  exit 1
fi

gen () {
  out=$1
  shift
  "$cli" generate --quiet --seed 7 "$@" -o "$tmp/files/$out" || fail "generate $* -o $out"
}

expect () {
  file=$1
  want=$2
  got=$(gio info -a standard::content-type "$tmp/files/$file" 2>&1 |
        sed -n 's/^ *standard::content-type: //p')
  if [ "$got" = "$want" ]; then
    echo "ok: $file is $want"
  else
    fail "$file: expected $want, got '${got}'"
  fi
}

# every model shape the generator makes, by name and by content (no extension, .dat)
for shape in "plain" "animated" "res18" "res17" "random" "cyrillic" "empty-names" "legacy"; do
  case $shape in
    plain) opts="" ;;
    *) opts="--$shape" ;;
  esac
  # shellcheck disable=SC2086
  gen "$shape.msh" $opts
  cp "$tmp/files/$shape.msh" "$tmp/files/$shape-model"
  cp "$tmp/files/$shape.msh" "$tmp/files/$shape-model.dat"
  expect "$shape.msh" application/x-parkan-msh
  expect "$shape-model" application/x-parkan-msh
  expect "$shape-model.dat" application/x-parkan-msh
done

# archives of models (the first entry a nested model): by both names and by content, and an
# archive is never taken for a model
gen game.rlb --archive 3
cp "$tmp/files/game.rlb" "$tmp/files/game.lib"
cp "$tmp/files/game.rlb" "$tmp/files/game-archive"
cp "$tmp/files/game.rlb" "$tmp/files/game-archive.dat"
expect game.rlb application/x-parkan-nres
expect game.lib application/x-parkan-nres
expect game-archive application/x-parkan-nres
expect game-archive.dat application/x-parkan-nres

# every DFM kind the generator makes: by content alone, a UTF file (its DFM marks lie beyond
# what GIO reads; see the XML)
for kind in head body hand four-level; do
  gen "$kind.dfm" --dfm "$kind"
  cp "$tmp/files/$kind.dfm" "$tmp/files/$kind-dfm"
  cp "$tmp/files/$kind.dfm" "$tmp/files/$kind-dfm.dat"
  expect "$kind.dfm" application/x-freelancer-dfm
  expect "$kind-dfm" application/x-freelancer-utf
  expect "$kind-dfm.dat" application/x-freelancer-utf
done

# every type the XML defines is one the editor opens and the thumbnailer draws
for type in $(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$xml"); do
  for file in "$desktop" "$thumbnailer"; do
    if ! grep -q "^MimeType=.*$type;" "$file"; then
      fail "$(basename "$file") does not list $type"
    fi
  done
done

exit $status
