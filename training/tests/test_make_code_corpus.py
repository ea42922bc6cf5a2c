from keydecide_train.make_code_corpus import distinct_files


def test_a_link_to_a_listed_file_is_dropped_and_one_to_an_unlisted_file_kept(tmp_path):
    (tmp_path / "curses.h").write_text("int a;\n")
    (tmp_path / "ncurses.h").symlink_to("curses.h")
    (tmp_path / "libpng16").mkdir()
    (tmp_path / "libpng16" / "png.h").write_text("int b;\n")
    (tmp_path / "png.h").symlink_to("libpng16/png.h")
    (tmp_path / "png2.h").symlink_to("libpng16/png.h")
    names = [p.name for p in distinct_files(list(tmp_path.glob("*.h")))]
    assert names == ["curses.h", "png.h"]


def test_the_real_file_is_kept_when_its_link_sorts_first(tmp_path):
    (tmp_path / "b.py").write_text("x = 1\n")
    (tmp_path / "a.py").symlink_to("b.py")
    assert [p.name for p in distinct_files(list(tmp_path.glob("*.py")))] == ["b.py"]
