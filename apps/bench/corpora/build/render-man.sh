#!/bin/sh
# Renders the man pages of the lang-* corpora to text, as /work/wt/man-txt was made:
#   sh render-man.sh OUTDIR   (needs apt-get, dpkg, man, col; Debian bookworm)
# then: MAN_TXT=OUTDIR node build-lang.mjs
set -eu
out=$(realpath "${1:?output folder}")
mkdir -p "$out"
tmp=$(mktemp -d)
cd "$tmp"
apt-get download manpages-zh manpages-ja manpages-ru manpages-de manpages-es >/dev/null
for deb in *.deb; do dpkg -x "$deb" root; done
render() { # lang dir, file prefix, commands...
  dir=$1; prefix=$2; shift 2
  for cmd in "$@"; do
    MANWIDTH=2000 man -E UTF-8 -l "root/usr/share/man/$dir/man1/$cmd.1.gz" 2>/dev/null | col -bx > "$out/$prefix-$cmd.txt"
  done
}
core="cp mkdir chmod date df du tail sort ln"
render zh_CN zh_CN $core
render ja ja $core
render de de $core
render es es $core
render ru ru cat ls iconv ldd locale getent
ls *.deb
rm -rf "$tmp"
