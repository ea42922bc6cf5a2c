#!/usr/bin/python3
# The application of tests/e2e/fcitx5_gtk.sh and ibus_gtk.sh: a GTK3 window "keydecide-e2e" with
# one Gtk.Entry. Writes the entry's text to $OUT_FILE and its input-method preedit to
# $OUT_FILE.preedit on every change; quits on SIGTERM or SIGINT. With ENTRY_PASSWORD=1 two more
# entries, password fields (input purpose PASSWORD): one with its text hidden, which takes the
# focus on SIGUSR1 and writes its text to $OUT_FILE.password, and one with its text shown (a
# "show password" box ticked), which takes the focus on SIGUSR2 and writes $OUT_FILE.shown.
# Run it with /usr/bin/python3 (it needs gi).
import os
import signal

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

out = os.environ["OUT_FILE"]


def write(path, text):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)  # a reader never sees half a write


css = Gtk.CssProvider()
css.load_from_data(b"entry { font-size: 26px; }")
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css,
                                          Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

win = Gtk.Window(title="keydecide-e2e")
win.set_default_size(700, 80)
entry = Gtk.Entry()
entry.connect("changed", lambda e: write(out, e.get_text()))
entry.connect("preedit-changed", lambda e, text: write(out + ".preedit", text))
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
box.add(entry)
win.add(box)
if os.environ.get("ENTRY_PASSWORD") == "1":
    for suffix, visible, sig in ((".password", False, signal.SIGUSR1),
                                 (".shown", True, signal.SIGUSR2)):
        password = Gtk.Entry()
        password.set_visibility(visible)
        password.set_input_purpose(Gtk.InputPurpose.PASSWORD)
        password.connect("changed", lambda e, s=suffix: write(out + s, e.get_text()))
        box.add(password)
        write(out + suffix, "")
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig,
                             lambda p=password: p.grab_focus() or True)
win.connect("destroy", Gtk.main_quit)
for sig in (signal.SIGTERM, signal.SIGINT):
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, Gtk.main_quit)
write(out, "")
write(out + ".preedit", "")
win.show_all()
entry.grab_focus()
Gtk.main()
