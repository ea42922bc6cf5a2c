"""keydecide.native: libkeydecide.so.1 in this process, through its C ABI (ctypes).

    import keydecide
    with keydecide.Engine() as engine:            # or keydecide.Engine.connect() for the daemon
        session = engine.session()
        d = session.type("see you tomo")
        d.candidates[0].text                      # "tomorrow"

The library is found as $KEYDECIDE_LIBRARY when set, else by its SONAME (libkeydecide.so.1,
where the dynamic loader looks). The structs below mirror include/keydecide/keydecide.h, field
for field; a decision is copied into Python objects before the next call on its session.
"""

import ctypes
import os
from dataclasses import dataclass, field
from typing import List, Optional

# Return codes (enum kd_status): 0 ok, positive recoverable, negative fatal for the object.
OK = 0
INVALID_ARGUMENT = 1
BUSY = 2
SESSION_RESET = 3
ERR_NOT_FOUND = -1
ERR_CORRUPTION = -2
ERR_NOT_SUPPORTED = -3
ERR_IO = -4
ERR_PROTOCOL = -5
ERR_INTERNAL = -6
ERR_PERMISSION = -7

APPS = {"chat": 0, "search": 1, "code": 2, "editor": 3, "url": 4}
AUTOCORRECT_LEVELS = {"off": 0, "cautious": 1, "normal": 2, "eager": 3}
KINDS = {0: "completion", 1: "correction", 2: "next_word", 3: "sentence", 4: "typed", 5: "shortcut"}
TIERS = {0: "full_model", 1: "no_vocab_proposals", 2: "small_model", 3: "lexicon_only"}


class KeydecideError(Exception):
    """A call failed: `code` is the C ABI's return code, the message kd_last_error()."""

    def __init__(self, code: int, message: str):
        super().__init__("%s (%d)" % (message, code))
        self.code = code


class _EngineParams(ctypes.Structure):
    _fields_ = [("model_dir", ctypes.c_char_p), ("language", ctypes.c_char_p),
                ("lexicon_path", ctypes.c_char_p), ("model_path", ctypes.c_char_p),
                ("keyboard_layout", ctypes.c_char_p), ("max_candidates", ctypes.c_int32),
                ("personal", ctypes.c_int32), ("user_store_path", ctypes.c_char_p),
                ("learn", ctypes.c_int32)]


class _SessionParams(ctypes.Structure):
    _fields_ = [("app", ctypes.c_int32), ("auto_capitalize", ctypes.c_int32),
                ("n_candidates", ctypes.c_int32), ("autocorrect_level", ctypes.c_int32),
                ("no_learn", ctypes.c_int32)]


class _ConnectParams(ctypes.Structure):
    _fields_ = [("connect_timeout_ms", ctypes.c_int32), ("answer_timeout_ms", ctypes.c_int32)]


class _Candidate(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char_p), ("score", ctypes.c_float), ("kind", ctypes.c_int32)]


class _Decision(ctypes.Structure):
    _fields_ = [("n_candidates", ctypes.c_int32), ("candidates", ctypes.POINTER(_Candidate)),
                ("composition", ctypes.c_char_p), ("tier", ctypes.c_int32),
                ("popup_show", ctypes.c_int32), ("popup_probability", ctypes.c_float),
                ("autocorrect_apply", ctypes.c_int32),
                ("autocorrect_replacement", ctypes.c_char_p),
                ("autocorrect_confidence", ctypes.c_float), ("intent", ctypes.c_char_p),
                ("decide_us", ctypes.c_float)]


def _load():
    path = os.environ.get("KEYDECIDE_LIBRARY") or "libkeydecide.so.1"
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        # An ImportError naming what was tried: the library is a dependency, and a raw OSError
        # at the first call does not say so.
        where = ("$KEYDECIDE_LIBRARY" if os.environ.get("KEYDECIDE_LIBRARY")
                 else "the dynamic loader's search path")
        raise ImportError("keydecide: cannot load %s (from %s): %s; install libkeydecide1 or "
                          "set KEYDECIDE_LIBRARY to the library's path" % (path, where, e),
                          path=path) from e
    p, i32, i64 = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64
    s, dec = ctypes.c_char_p, ctypes.POINTER(_Decision)
    signatures = {
        "kd_engine_default_params": (_EngineParams, []),
        "kd_session_default_params": (_SessionParams, []),
        "kd_connect_default_params": (_ConnectParams, []),
        "kd_last_error": (s, []),
        "kd_engine_open": (ctypes.c_int, [ctypes.POINTER(_EngineParams), ctypes.POINTER(p)]),
        "kd_engine_connect_with": (ctypes.c_int,
                                   [s, ctypes.POINTER(_ConnectParams), ctypes.POINTER(p)]),
        "kd_engine_free": (None, [p]),
        "kd_engine_languages": (s, [p]),
        "kd_session_open_lang": (ctypes.c_int,
                                 [p, s, ctypes.POINTER(_SessionParams), ctypes.POINTER(p)]),
        "kd_session_free": (None, [p]),
        "kd_session_type": (ctypes.c_int, [p, s, dec]),
        "kd_session_type_at": (ctypes.c_int, [p, s, i64, dec]),
        "kd_session_backspace": (ctypes.c_int, [p, i32, dec]),
        "kd_session_commit": (ctypes.c_int, [p, s, dec]),
        "kd_session_autocorrect": (ctypes.c_int, [p, s, dec]),
        "kd_session_set_context": (ctypes.c_int, [p, s, dec]),
        "kd_session_decide": (ctypes.c_int, [p, dec]),
        "kd_session_preedit": (s, [p]),
    }
    # ABI revision 2 (candidate ids): absent from an older library, whose candidates then have
    # id 0 and whose sessions cannot pick.
    if hasattr(lib, "kd_abi_revision"):
        signatures.update({
            "kd_abi_revision": (ctypes.c_int, []),
            "kd_session_pick": (ctypes.c_int, [p, ctypes.c_uint32, dec]),
            "kd_session_candidate_ids": (ctypes.POINTER(ctypes.c_uint32), [p]),
        })
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


_lib = None


def library():
    """The loaded libkeydecide (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def _check(rc: int) -> None:
    if rc != OK:
        raise KeydecideError(rc, library().kd_last_error().decode("utf-8", "replace"))


def _text(value: Optional[str]) -> Optional[bytes]:
    if value is None:
        return None
    # The C ABI reads a string up to its first NUL: "hel\x00lo" would type "hel" and say OK.
    if "\x00" in value:
        raise ValueError("text holds a NUL character, which the C ABI cannot pass")
    return value.encode("utf-8")


@dataclass
class Candidate:
    text: str
    score: float
    kind: str  # completion, correction, next_word, sentence, typed, shortcut
    id: int = 0  # what Session.pick takes; 0 from a library or daemon too old to give ids


@dataclass
class Decision:
    candidates: List[Candidate] = field(default_factory=list)
    composition: str = ""
    preedit: str = ""
    tier: str = "lexicon_only"
    popup_show: bool = False
    popup_probability: float = 0.0
    autocorrect_apply: bool = False
    autocorrect_replacement: str = ""
    autocorrect_confidence: float = 0.0
    intent: str = ""
    decide_us: float = 0.0


class Session:
    """One text field. Every edit returns the decision for the state after it."""

    def __init__(self, engine: "Engine", handle: ctypes.c_void_p):
        self._engine = engine  # the engine outlives its sessions
        self._handle = handle
        self._decision = _Decision()

    def _decided(self, rc: int) -> Decision:
        _check(rc)
        d = self._decision
        lib = library()
        ids = (lib.kd_session_candidate_ids(self._handle)
               if hasattr(lib, "kd_abi_revision") and d.n_candidates > 0 else None)
        return Decision(
            candidates=[Candidate(d.candidates[i].text.decode("utf-8"), d.candidates[i].score,
                                  KINDS.get(d.candidates[i].kind, "completion"),
                                  ids[i] if ids else 0)
                        for i in range(d.n_candidates)],
            composition=d.composition.decode("utf-8"),
            preedit=library().kd_session_preedit(self._handle).decode("utf-8"),
            tier=TIERS.get(d.tier, "lexicon_only"),
            popup_show=bool(d.popup_show), popup_probability=d.popup_probability,
            autocorrect_apply=bool(d.autocorrect_apply),
            autocorrect_replacement=d.autocorrect_replacement.decode("utf-8"),
            autocorrect_confidence=d.autocorrect_confidence,
            intent=d.intent.decode("utf-8"), decide_us=d.decide_us)

    def _live(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise KeydecideError(INVALID_ARGUMENT, "the session is closed")
        return self._handle

    def type(self, text: str, t_ms: Optional[int] = None) -> Decision:
        """Types `text` at the cursor, one key per character; t_ms: when the key was pressed
        (milliseconds of a monotonic clock, e.g. time.monotonic() * 1000)."""
        if t_ms is None:
            rc = library().kd_session_type(self._live(), _text(text), ctypes.byref(self._decision))
        else:
            rc = library().kd_session_type_at(self._live(), _text(text), int(t_ms),
                                              ctypes.byref(self._decision))
        return self._decided(rc)

    def backspace(self, count: int = 1) -> Decision:
        return self._decided(library().kd_session_backspace(self._live(), count,
                                                            ctypes.byref(self._decision)))

    def pick(self, candidate_id: int) -> Decision:
        """The person picked the candidate of the last decision whose id is `candidate_id`
        (Candidate.id): what commit(its text) does, but it names which candidate it was (in
        pinyin two may share a text and convert different letters). No space is added.
        KeydecideError INVALID_ARGUMENT for a stale id (any edit since that decision),
        ERR_NOT_SUPPORTED from a library or daemon too old to pick by id."""
        lib = library()
        if not hasattr(lib, "kd_abi_revision"):
            raise KeydecideError(ERR_NOT_SUPPORTED,
                                 "this libkeydecide is too old to pick by id (ABI revision 1)")
        if not 0 <= candidate_id <= 0xFFFFFFFF:
            raise KeydecideError(INVALID_ARGUMENT, "a candidate id is a 32-bit unsigned number")
        return self._decided(lib.kd_session_pick(self._live(), candidate_id,
                                                 ctypes.byref(self._decision)))

    def commit(self, word: str) -> Decision:
        """Text the person chose for the word being typed (no space is added). To take a
        candidate of the decision, pick(candidate.id) instead."""
        return self._decided(library().kd_session_commit(self._live(), _text(word),
                                                         ctypes.byref(self._decision)))

    def autocorrect(self, replacement: str) -> Decision:
        """The host applied the decision's autocorrection (undoable by a backspace)."""
        return self._decided(library().kd_session_autocorrect(self._live(), _text(replacement),
                                                              ctypes.byref(self._decision)))

    def set_context(self, text: str) -> Decision:
        """Replaces all text before the cursor (the cursor moved, the field changed)."""
        return self._decided(library().kd_session_set_context(self._live(), _text(text),
                                                              ctypes.byref(self._decision)))

    def decide(self) -> Decision:
        return self._decided(library().kd_session_decide(self._live(),
                                                         ctypes.byref(self._decision)))

    def close(self) -> None:
        if self._handle is not None:
            library().kd_session_free(self._handle)
            self._handle = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Engine:
    """An engine in this process (Engine(...)) or a daemon connection (Engine.connect())."""

    def __init__(self, language: str = "en", model_dir: Optional[str] = None,
                 keyboard_layout: Optional[str] = None, model_path: Optional[str] = None,
                 personal: bool = False, user_store_path: Optional[str] = None,
                 learn: bool = True, _handle: Optional[ctypes.c_void_p] = None):
        """language: a pack or a comma-separated list ("en,zh"); model_dir None: the search
        of docs/INTEGRATION.md; personal: learn the person's words into the user store."""
        self._sessions: List[Session] = []
        if _handle is not None:
            self._handle = _handle
            return
        p = library().kd_engine_default_params()
        keep = [_text(language), _text(model_dir), _text(keyboard_layout), _text(model_path),
                _text(user_store_path)]  # alive for the call
        p.language, p.model_dir, p.keyboard_layout, p.model_path, p.user_store_path = keep
        p.personal = 1 if personal else 0
        p.learn = 1 if learn else 0
        handle = ctypes.c_void_p()
        _check(library().kd_engine_open(ctypes.byref(p), ctypes.byref(handle)))
        self._handle = handle

    @classmethod
    def connect(cls, socket_path: Optional[str] = None, connect_timeout_ms: int = 2000,
                answer_timeout_ms: int = 10000) -> "Engine":
        """The keydecided daemon (None: $XDG_RUNTIME_DIR/keydecided.sock); the socket and the
        process behind it must be this user's (else KeydecideError ERR_PERMISSION)."""
        p = library().kd_connect_default_params()
        p.connect_timeout_ms, p.answer_timeout_ms = connect_timeout_ms, answer_timeout_ms
        handle = ctypes.c_void_p()
        _check(library().kd_engine_connect_with(_text(socket_path), ctypes.byref(p),
                                                ctypes.byref(handle)))
        return cls(_handle=handle)

    @property
    def languages(self) -> List[str]:
        return library().kd_engine_languages(self._handle).decode("utf-8").split(",")

    def session(self, lang: Optional[str] = None, app: str = "chat", n_candidates: int = 3,
                autocorrect: str = "normal", no_learn: bool = False,
                auto_capitalize: bool = True) -> Session:
        """A new session (text field). lang None: the engine's first language."""
        if app not in APPS or autocorrect not in AUTOCORRECT_LEVELS:
            raise KeydecideError(INVALID_ARGUMENT, "app must be one of %s, autocorrect one of %s"
                                 % (", ".join(APPS), ", ".join(AUTOCORRECT_LEVELS)))
        p = library().kd_session_default_params()
        p.app = APPS[app]
        p.n_candidates = n_candidates
        p.autocorrect_level = AUTOCORRECT_LEVELS[autocorrect]
        p.no_learn = 1 if no_learn else 0
        p.auto_capitalize = 1 if auto_capitalize else 0
        handle = ctypes.c_void_p()
        _check(library().kd_session_open_lang(self._handle, _text(lang), ctypes.byref(p),
                                              ctypes.byref(handle)))
        session = Session(self, handle)
        self._sessions.append(session)
        return session

    def close(self) -> None:
        """Closes its sessions, then the engine (or the connection)."""
        for s in self._sessions:
            s.close()
        self._sessions.clear()
        if self._handle is not None:
            library().kd_engine_free(self._handle)
            self._handle = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
