"""The shell-command rule for the lines of documentation code blocks."""
from keydecide_train import prepare_text as P
from keydecide_train.command_lines import is_command_line
from keydecide_train.text import Document


def test_prompts_and_known_commands_are_commands():
    for line in ["$ ssh -l installer install_host", "  $ ./a.out", "user@host:~/src$ make",
                 "# mdadm --query /dev/md1", "# dpkg-reconfigure console-setup",
                 "chown root:disk /dev/initrd", "sudo apt-get install kino",
                 "echo /var/nfsroot >/proc/sys/kernel/nfs-root-name"]:
        assert is_command_line(line), line


def test_code_output_and_comments_are_not():
    for line in ["int           lo_offset;", "#define errExit(msg)    do { perror(msg); \\",
                 "#include <sys/ioctl.h>", "10485760 bytes (10 MB) copied, 0.006 s, 1.7 GB/s",
                 "Description: Non-linear editor for Digital Video data", "XSession=gnome-classic",
                 "# Create the route to the Falcot network", "as separate packages, are now provided",
                 "echo(x);", "printf(\"loopname = %s\\n\", loopname);", ""]:
        assert not is_command_line(line), line


def test_split_commands_keeps_ids_and_every_line():
    docs = [Document("manpages-code", "man4/loop.4", ["$ sudo losetup /dev/loop4 file.img",
                                                      "int lo_number;"]),
            Document("manpages-code", "man1/x.1", ["struct a {"])]
    code, commands = P.split_commands(docs)
    assert [(d.source, d.doc_id, d.lines) for d in commands] == [
        ("manpages-command", "man4/loop.4", ["$ sudo losetup /dev/loop4 file.img"])]
    assert [(d.doc_id, d.lines) for d in code] == [("man4/loop.4", ["int lo_number;"]),
                                                   ("man1/x.1", ["struct a {"])]
    assert P.source_weight("manpages-command") == P.source_weight("manpages-code") == P.SOURCE_WEIGHTS["manpages"]
    assert P.source_weight("debian-handbook-command") == 1.0
