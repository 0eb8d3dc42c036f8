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
zh_more="ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp mknod mkfifo truncate sync link unlink find file xargs chattr lsattr cat head cut paste uniq wc nl od xxd expand unexpand fmt fold pr tac tee split comm diff sed grep shuf strings md5sum sha1sum sha256sum sha512sum b2sum cksum base64 basenc tar gzip bzip2 cpio ar zipinfo uuencode kill killall nice nohup timeout free uptime sleep env stdbuf at id groups who whoami last pinky finger w wall mesg systemd systemctl journalctl hostnamectl localectl timedatectl loginctl networkctl systemd-resolve systemd-detect-virt systemd-escape systemd-inhibit busctl ssh ftp dig host hostname smbclient nmblookup echo printf test expr seq stty tty uname nproc eject loadkeys dumpkeys showkey setleds xmodmap"
render zh_CN zh_CN $core $zh_more
ja_more="ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp mknod mkfifo truncate sync shred find xargs whereis file chattr lsattr cat head cut paste uniq wc nl od hexdump expand fmt fold pr tac tee split csplit comm join diff sdiff cmp sed grep shuf strings tr column md5sum sha1sum sha256sum b2sum cksum base64 basenc tar gzip bzip2 cpio ar ps kill killall pgrep pstree nice renice nohup timeout free uptime watch time fuser at crontab id groups who whoami w last env echo printf test expr seq"
render ja ja $core $ja_more
render de de $core
render es es $core
render ru ru cat ls iconv ldd locale getent
ls *.deb
rm -rf "$tmp"
