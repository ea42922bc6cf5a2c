"""Unit tests for keydecide_train.code_languages and make_unseen_code_eval on inline fixtures."""

from keydecide_train import code_languages as C
from keydecide_train import make_unseen_code_eval as U


def test_perl_pod_comments_and_data_tail_are_left_out():
    text = ("package Foo;\n# a comment line here\n=head1 NAME\n\nFoo - does things well\n\n=cut\n"
            "my $x = shift @_;\nx;\n__END__\nmy $after = 'the end';\n")
    assert C.code_lines("perl", text, ("#",)) == ["package Foo;", "my $x = shift @_;"]


def test_ruby_begin_end_block_is_documentation():
    text = "=begin\nSome prose about the code.\n=end\n  def initialize(name)\n"
    assert C.code_lines("ruby", text, ("#",)) == ["  def initialize(name)"]


def test_javascript_comment_lines_and_short_lines():
    text = "/**\n * Returns the thing.\n */\nvar jQuery = function( selector ) {\n}\n// done now\n"
    assert C.code_lines("javascript", text, ("//", "/*", "*", "*/")) == \
        ["var jQuery = function( selector ) {"]


def test_language_lines_are_distinct_ranked_and_capped(tmp_path):
    root = tmp_path / "libtcl8.6/usr/share/tcltk/tcl8.6"
    root.mkdir(parents=True)
    (root / "a.tcl").write_text("set alpha [list 1 2]\nset alpha [list 1 2]\nproc beta {x} {\n")
    (root / "b.tcl").write_text("return [expr {$x + 1}]\n")
    (root / "c.tcl").mkdir()  # a directory named like a source file (Go's testdata has one)
    lines = U.language_lines(tmp_path, "tcl", 10)
    assert sorted(lines) == sorted(["set alpha [list 1 2]", "proc beta {x} {",
                                    "return [expr {$x + 1}]"])
    assert U.language_lines(tmp_path, "tcl", 2) == lines[:2]


def test_a_linked_file_is_read_once(tmp_path):
    # lua-penlight links each file of its 5.2 tree to 5.1's: one file, not two documents.
    root = tmp_path / "lua-penlight/usr/share/lua"
    (root / "5.1/pl").mkdir(parents=True)
    (root / "5.2/pl").mkdir(parents=True)
    (root / "5.1/pl/utils.lua").write_text("local utils = {}\n")
    (root / "5.2/pl/utils.lua").symlink_to(root / "5.1/pl/utils.lua")
    assert C.language_files(tmp_path, "lua") == [root / "5.1/pl/utils.lua"]


def test_a_link_to_a_listed_file_is_dropped_and_one_to_an_unlisted_file_kept(tmp_path):
    (tmp_path / "curses.h").write_text("int a;\n")
    (tmp_path / "ncurses.h").symlink_to("curses.h")
    (tmp_path / "libpng16").mkdir()
    (tmp_path / "libpng16" / "png.h").write_text("int b;\n")
    (tmp_path / "png.h").symlink_to("libpng16/png.h")
    (tmp_path / "png2.h").symlink_to("libpng16/png.h")
    names = [p.name for p in C.distinct_files(list(tmp_path.glob("*.h")))]
    assert names == ["curses.h", "png.h"]


def test_a_folder_a_broken_link_and_a_loop_of_links_are_not_files(tmp_path):
    (tmp_path / "c.h").write_text("int c;\n")
    (tmp_path / "dir.h").mkdir()
    (tmp_path / "gone.h").symlink_to("missing.h")
    (tmp_path / "a.h").symlink_to("b.h")
    (tmp_path / "b.h").symlink_to("a.h")
    assert [p.name for p in C.distinct_files(list(tmp_path.glob("*.h")))] == ["c.h"]


def test_the_real_file_is_kept_when_its_link_sorts_first(tmp_path):
    (tmp_path / "b.py").write_text("x = 1\n")
    (tmp_path / "a.py").symlink_to("b.py")
    assert [p.name for p in C.distinct_files(list(tmp_path.glob("*.py")))] == ["b.py"]


def test_the_sets_share_no_language():
    seen = [language for names in C.SETS.values() for language in names]
    assert len(seen) == len(set(seen)) and set(seen) <= set(C.LANGUAGES)


def test_code_lines_take_the_languages_own_comment_prefixes_by_default():
    text = "-- a Lua comment line\nlocal function tablex(t)\n;; not a Lua comment\n"
    assert C.code_lines("lua", text) == ["local function tablex(t)", ";; not a Lua comment"]
    assert C.code_lines("elisp", ";; an Emacs Lisp comment\n(defun magit-status ()\n") == \
        ["(defun magit-status ()"]


def test_lisp_docstrings_are_documentation_not_code():
    text = ('(defun magit-toplevel (&optional directory)\n'
            '  "Return the absolute path to the toplevel of the current repository.\n'
            'When optional DIRECTORY is non-nil then return the toplevel for\n'
            'that directory instead of the one for `default-directory\'."\n'
            '  (let ((s "a string; not a comment") (q ?"))\n'
            '    (magit-git-string "rev-parse" "--show-toplevel")))\n'
            '(defvar magit-x nil\n'
            '  "Whether to \\"quote\\" things.")\n'
            '(define (f x) "Scheme documents the same way." (* x x))\n')
    assert C.code_lines("elisp", text) == [
        "(defun magit-toplevel (&optional directory)",
        '  (let ((s "a string; not a comment") (q ?"))',
        '    (magit-git-string "rev-parse" "--show-toplevel")))',
        "(defvar magit-x nil",
        '(define (f x) "Scheme documents the same way." (* x x))']
    assert C.code_lines("scheme", '(define (g)\n  "Doc.\nMore doc."\n  (car items))\n') == \
        ["(define (g)", "  (car items))"]
    # Other languages keep a line that begins with a string.
    assert C.code_lines("lua", '"a string that begins a Lua line"\n') == \
        ['"a string that begins a Lua line"']
