#!/usr/bin/python3
# The application of tests/e2e/fcitx5_gtk.sh: a GTK3 window "keydecide-e2e" with one Gtk.Entry.
# Writes the entry's text to $OUT_FILE and its input-method preedit to $OUT_FILE.preedit on
# every change; quits on SIGTERM or SIGINT. Run it with /usr/bin/python3 (it needs gi).
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
win.add(entry)
win.connect("destroy", Gtk.main_quit)
for sig in (signal.SIGTERM, signal.SIGINT):
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, Gtk.main_quit)
write(out, "")
write(out + ".preedit", "")
win.show_all()
entry.grab_focus()
Gtk.main()
