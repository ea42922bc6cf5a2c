# The Debian packages, one per install component (scripts/build-debs.sh builds them in a tree
# configured with the prefix /usr, so the library and the fcitx5 addon land in Debian's multiarch
# folders):
#   libkeydecide1      lib      the shared library
#   libkeydecide-dev   dev      headers, the .so link, keydecide.pc, the CMake package
#   keydecide          tools    the CLI, the daemon and its user unit, man pages, completion, Python
#   keydecide-data     data     the default models (architecture all)
#   fcitx5-keydecide   fcitx5   the fcitx5 input method
#   ibus-keydecide     ibus     the IBus engine (under /usr/libexec) and its component XML
#   keydecide-ls       ls       the language server (LSP over stdio) for editors
# Shared-library dependencies come from dpkg-shlibdeps; ours are stated here, at this version.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME keydecide)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "keydecide")
set(CPACK_PACKAGE_CONTACT "keydecide developers <keydecide@localhost>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.invalid/keydecide")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib dev tools data ls)
if(TARGET fcitx5_keydecide)
  list(APPEND CPACK_COMPONENTS_ALL fcitx5)
endif()
if(TARGET ibus_engine_keydecide)
  list(APPEND CPACK_COMPONENTS_ALL ibus)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Our own library, for dpkg-shlibdeps of the packages that link it (their dependency on
# libkeydecide1 is stated below, at this exact version).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/${CMAKE_INSTALL_LIBDIR})

set(KD_DEB_VERSION "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libkeydecide1)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS "keydecide-data (= ${KD_DEB_VERSION})")
set(CPACK_COMPONENT_LIB_DESCRIPTION
    "on-device typing decisions: shared library\n keydecide tells an input method, editor or chat client on every keystroke which\n candidates to offer (completions, next words, typo corrections, pinyin to hanzi),\n whether to show the suggestion bar, whether to autocorrect and what kind of text is\n being written, with a small quantized Transformer on the CPU. This package holds\n libkeydecide.so.1 (the C ABI and the C++ API).")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libkeydecide-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libkeydecide1 (= ${KD_DEB_VERSION})")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "on-device typing decisions: development files\n Headers (keydecide/keydecide.h, the C ABI; keydecide/engine.h, the C++ API),\n keydecide.pc and the CMake package (find_package(keydecide)).")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME keydecide)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS
    "libkeydecide1 (= ${KD_DEB_VERSION}), keydecide-data (= ${KD_DEB_VERSION}), python3")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "on-device typing decisions: command line, daemon and Python module\n keydecide (predict, replay, bench, eval, personal, ...), the keydecided daemon that\n serves every application of a user over a private Unix socket, with its systemd user\n unit, and the Python module keydecide (in-process and daemon clients).")

set(CPACK_DEBIAN_DATA_PACKAGE_NAME keydecide-data)
set(CPACK_DEBIAN_DATA_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_DATA_PACKAGE_SHLIBDEPS OFF)
set(CPACK_COMPONENT_DATA_DESCRIPTION
    "on-device typing decisions: default models\n The English lexicon and int8 typing models, the Chinese pinyin lexicon, word bigram\n and model, and keyboard layouts. The Chinese bigram is derived from sunpinyin's\n open-gram model (CC BY-SA 3.0).")

set(CPACK_DEBIAN_FCITX5_PACKAGE_NAME fcitx5-keydecide)
set(CPACK_DEBIAN_FCITX5_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_FCITX5_PACKAGE_DEPENDS
    "libkeydecide1 (= ${KD_DEB_VERSION}), keydecide-data (= ${KD_DEB_VERSION}), fcitx5")
set(CPACK_COMPONENT_FCITX5_DESCRIPTION
    "on-device typing decisions: fcitx5 input method\n English prediction (completions, next words, autocorrect with undo) and pinyin\n (sentences, words, associated words) for fcitx5, in-process or through the keydecided\n daemon.")

set(CPACK_DEBIAN_IBUS_PACKAGE_NAME ibus-keydecide)
set(CPACK_DEBIAN_IBUS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_IBUS_PACKAGE_DEPENDS
    "libkeydecide1 (= ${KD_DEB_VERSION}), keydecide-data (= ${KD_DEB_VERSION}), ibus")
set(CPACK_COMPONENT_IBUS_DESCRIPTION
    "on-device typing decisions: IBus input method\n English prediction (completions, next words, autocorrect with undo) and pinyin\n (sentences, words) for IBus (GNOME's input methods), in-process or through the\n keydecided daemon. Two engines: keydecide (English first) and keydecide-pinyin.")

set(CPACK_DEBIAN_LS_PACKAGE_NAME keydecide-ls)
set(CPACK_DEBIAN_LS_PACKAGE_SECTION editors)
set(CPACK_DEBIAN_LS_PACKAGE_DEPENDS
    "libkeydecide1 (= ${KD_DEB_VERSION}), keydecide-data (= ${KD_DEB_VERSION})")
set(CPACK_COMPONENT_LS_DESCRIPTION
    "on-device typing decisions: language server for editors\n keydecide-ls offers keydecide's word completions and next words in any editor with\n a Language Server Protocol client (Neovim, Emacs eglot, Helix, VS Code): in prose\n documents everywhere, in source files only in comments and strings. The open\n documents are the context; it learns only what the person types.")

include(CPack)
