"""Which lines of the documentation's code blocks are shell command lines.

The Debian docs' code blocks (`<source>-code`) mix shell commands with their output,
configuration files, package fields and C. The "command" intent means a command line being
typed, so only lines that read as one are labelled so: a line after a shell prompt
(`$ ls`, `user@host:~$ ls`, `# mount ...` with a known command after the root prompt), or a line
that starts with a known command and does not read as C. The rest stays in `<source>-code`.
The rule was written from the training split's lines; no evaluation result chose it.
"""
from __future__ import annotations

import re

# Common commands of the Debian docs and man pages (their first words), not exhaustive: a
# line starting with another word is not taken for a command unless a prompt precedes it.
COMMANDS = frozenset("""
adduser alias apt apt-cache apt-file apt-get apt-key apt-mark aptitude arp awk bash blkid
bunzip2 bzip2 cat cc cd chgrp chmod chown chroot cmp cp crontab cryptsetup curl cut date dch dd
debconf-set-selections debootstrap debsums debuild df dget dhclient diff dig dmesg dpkg
dpkg-buildpackage dpkg-deb dpkg-query dpkg-reconfigure dput dselect du e2fsck echo env ethtool
exec exit export fdisk file find free fsck gcc gdb gdisk git gpg grep groupadd groups
grub-install gunzip gzip head host hostname hostnamectl iconv id ifconfig ifdown ifup insmod
install ip iptables iw iwconfig journalctl kill killall ldd less lintian ln loadkeys locale
localectl localedef losetup ls lsblk lsmod lsof lspci lsusb ltrace lvcreate make man mdadm
mk-build-deps mkdir mkfs mknod mkswap modprobe more mount mtr mv nano nc netstat nft nm nslookup
objdump openssl parted passwd patch pbuilder perl ping printf ps pvcreate pwd python python3
quilt reboot reportbug resize2fs resolvconf rm rmdir rmmod route rsync sbuild scp sed service
set setxkbmap sh shutdown sleep socat sort source ss ssh ssh-keygen stat strace su sudo swapon
systemctl tail tar tasksel tcpdump tee test time timedatectl top touch tr traceroute tune2fs
ulimit umask umount uname unset unzip update-alternatives update-grub update-rc.d useradd
usermod valgrind vgcreate vi vim wc wget which whoami whois wpa_supplicant xargs xrandr xz yes
zcat
""".split())

_HOST = r"(?:\S+@\S+[:~][^$#\s]*)?"  # user@host:~/dir before a prompt
_PROMPT = re.compile(r"^\s*" + _HOST + r"\$ +\S")
_ROOT_PROMPT = re.compile(r"^\s*" + _HOST + r"# +(\S+)")
_C_LIKE = re.compile(r"[;{}]\s*$|/\*|^\s*#\s*(?:include|define|if|ifdef|endif|else)\b")
_FIRST_WORD = re.compile(r"^\s*(?:sudo\s+)?([A-Za-z0-9_.+-]+)(?:\s|$)")


def is_command_line(line: str) -> bool:
    """True when `line` reads as a shell command line (see the module doc)."""
    if _PROMPT.match(line):
        return True
    root = _ROOT_PROMPT.match(line)
    if root:  # "# text" is also a comment: only a known command makes it a root prompt
        return root.group(1) in COMMANDS
    if _C_LIKE.search(line):
        return False
    first = _FIRST_WORD.match(line)
    return first is not None and first.group(1) in COMMANDS
