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
render() { # lang dir, file prefix, pages... (a page: ls is ls(1), 'proc(5)' another section)
  dir=$1; prefix=$2; shift 2
  for page in "$@"; do
    case "$page" in
      *\(?\)) name=${page%(?)}; sec=${page#"$name("}; sec=${sec%)}; key=$name.$sec ;;
      *) name=$page; sec=1; key=$page ;;
    esac
    MANWIDTH=2000 man -E UTF-8 -l "root/usr/share/man/$dir/man$sec/$name.$sec.gz" 2>/dev/null | col -bx > "$out/$prefix-$key.txt"
  done
}
core="cp mkdir chmod date df du tail sort ln"
zh_more="ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp mknod mkfifo truncate sync link unlink find file xargs chattr lsattr cat head cut paste uniq wc nl od xxd expand unexpand fmt fold pr tac tee split comm diff sed grep shuf strings md5sum sha1sum sha256sum sha512sum b2sum cksum base64 basenc tar gzip bzip2 cpio ar zipinfo uuencode kill killall nice nohup timeout free uptime sleep env stdbuf at id groups who whoami last pinky finger w wall mesg systemd systemctl journalctl hostnamectl localectl timedatectl loginctl networkctl systemd-resolve systemd-detect-virt systemd-escape systemd-inhibit busctl ssh ftp dig host hostname smbclient nmblookup echo printf test expr seq stty tty uname nproc eject loadkeys dumpkeys showkey setleds xmodmap"
render zh_CN zh_CN $core $zh_more
ja_more="ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp mknod mkfifo truncate sync shred find xargs whereis file chattr lsattr cat head cut paste uniq wc nl od hexdump expand fmt fold pr tac tee split csplit comm join diff sdiff cmp sed grep shuf strings tr column md5sum sha1sum sha256sum b2sum cksum base64 basenc tar gzip bzip2 cpio ar ps kill killall pgrep pstree nice renice nohup timeout free uptime watch time fuser at crontab id groups who whoami w last env echo printf test expr seq"
render ja ja $core $ja_more
render de de $core \
  cut tr uniq wc head paste join comm nl tac split od seq shuf tee numfmt fold fmt expand column \
  mv rm touch stat readlink realpath install mktemp dd shred truncate chown chgrp basename dirname \
  md5sum sha256sum b2sum cksum base64 \
  nice nohup timeout env stdbuf renice setsid ionice taskset flock \
  id who whoami groups uname last stty hostname su crontab dmesg \
  grep diff cmp strings gzip bzip2 tar
render es es $core \
  cut tr uniq wc head paste join comm nl tac split od seq shuf tee numfmt fold fmt expand \
  unexpand csplit pr \
  mv rm touch stat readlink realpath install mktemp dd shred truncate chown chgrp basename dirname \
  mkfifo mknod sync md5sum sha256sum b2sum cksum base64 \
  nice nohup timeout env stdbuf renice setsid sleep nproc printenv test expr printf echo \
  id who whoami groups users pinky tty uname last ac lastcomm 'sa(8)' 'accton(8)' \
  stty dircolors 'chroot(8)' grep diff bzip2 'logrotate(8)' \
  hostname 'ifconfig(8)' 'route(8)' 'netstat(8)'
render ru ru cat ls iconv ldd locale getent \
  localedef memusage memusagestat sprof pldd mtrace intro \
  'ld.so(8)' 'iconvconfig(8)' 'zdump(8)' 'sln(8)' \
  'locale(5)' 'locale(7)' 'charsets(7)' 'utf-8(7)' 'unicode(7)' \
  'nsswitch.conf(5)' 'hosts(5)' 'host.conf(5)' 'resolv.conf(5)' 'gai.conf(5)' 'services(5)' \
  'protocols(5)' 'udp(7)' 'icmp(7)' 'arp(7)' \
  'hier(7)' 'filesystems(5)' 'tmpfs(5)' 'sysfs(5)' 'symlink(7)' 'inode(7)' 'dir_colors(5)' \
  'utmp(5)' 'shells(5)' 'nologin(5)' 'motd(5)' 'securetty(5)' 'acct(5)' 'core(5)' \
  'boot(7)' 'signal(7)' 'pipe(7)' 'fifo(7)' 'time(7)' 'random(7)'
ls *.deb
rm -rf "$tmp"
