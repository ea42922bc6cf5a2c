/* keydecide.h: the C ABI of keydecide, for input-method frameworks and other languages.
 *
 * One API, two back ends: an engine opened in this process (kd_engine_open), or a
 * connection to the keydecided daemon (kd_engine_connect), which shares one resident
 * model among all apps. Sessions, edits and decisions work the same on both.
 *
 * Languages: an engine serves one or more languages ("en", "zh": pinyin to hanzi). The
 * daemon serves those it was started with; kd_engine_open serves those of
 * kd_engine_params.language ("en,zh": both). kd_session_open opens a session of the
 * engine's default (first) language, kd_session_open_lang one of a language you name, and
 * kd_engine_languages lists them.
 *
 *   kd_engine* engine;
 *   if (kd_engine_connect(NULL, &engine) != KD_OK) { puts(kd_last_error()); ... }
 *   kd_session* session;
 *   kd_session_params sp = kd_session_default_params();
 *   kd_session_open(engine, &sp, &session);
 *   kd_decision d;
 *   kd_session_type(session, "see you tomo", &d);   // d.candidates[0].text: "tomorrow"
 *   kd_session_free(session);
 *   kd_session_open_lang(engine, "zh", &sp, &session);   // if the daemon serves zh
 *   kd_session_type(session, "nihao", &d);          // d.candidates[0].text: "你好"
 *   kd_session_free(session);
 *   kd_engine_free(engine);
 *
 * Stability: libkeydecide.so.1 (SONAME number = KD_ABI_VERSION) keeps its functions and
 * structs: functions are only added, and a struct a host allocates (the params structs) does
 * not change size within an ABI version; make them with the *_default_params() functions. The
 * structs the library fills (kd_decision, kd_candidate) keep their size too: a host allocates
 * kd_decision and indexes arrays of kd_candidate, so what is new about a decision comes from a
 * function of the session (kd_session_preedit, kd_session_candidate_ids). KD_ABI_VERSION, and
 * with it the SONAME, changes when that promise is broken. The params structs took their
 * present shape with the first shared library (personal learning, autocorrect level, no-learn
 * sessions); before it the C ABI was linked statically only. Within an ABI version,
 * KD_ABI_REVISION counts the additions (kd_abi_revision() says which the loaded library has);
 * KD_ABI_VERSION and the SONAME stay, and the calls of earlier revisions keep working as they
 * did:
 *   1  the first shared library
 *   2  candidate ids: kd_session_candidate_ids, kd_session_pick, kd_abi_revision
 *
 * Thread-safety: an engine may be used by several threads at once (a daemon connection
 * serialises their requests). A session must be used by one thread at a time. The last
 * error message is kept per thread.
 *
 * Strings are UTF-8 and NUL-terminated. Returned strings and decisions are owned by the
 * library.
 */

#ifndef KEYDECIDE_KEYDECIDE_H_
#define KEYDECIDE_KEYDECIDE_H_

#include <stdint.h>

#include "keydecide/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KD_ABI_VERSION 1
/* The additions within KD_ABI_VERSION this header declares (see Stability above). */
#define KD_ABI_REVISION 2

/* Return codes: 0 is ok, positive is recoverable (nothing changed; fix or retry), negative
 * is fatal for the object it came from. */
enum kd_status {
  KD_OK = 0,
  KD_INVALID_ARGUMENT = 1,   /* bad text (invalid UTF-8, a word with white space) or params */
  KD_BUSY = 2,               /* the daemon's queue for this session is full, or (opening a
                                session) the daemon's or the in-process engine's session memory
                                budget is spent: retry later, or free a session */
  KD_SESSION_RESET = 3,      /* the daemon restarted and the library reconnected: the session was
                                opened again with empty text and the edit was not applied; restore
                                the text (kd_session_set_context), then retry */
  KD_ERR_NOT_FOUND = -1,     /* a model, lexicon or socket that does not exist */
  KD_ERR_CORRUPTION = -2,    /* a model or lexicon file that is malformed */
  KD_ERR_NOT_SUPPORTED = -3, /* e.g. a language this engine or daemon does not serve */
  KD_ERR_IO = -4,            /* the daemon cannot be reached, or the connection broke; the next
                                call on the engine or its sessions connects again (sessions
                                then answer KD_SESSION_RESET once) */
  KD_ERR_PROTOCOL = -5,      /* the daemon answered something this library does not understand */
  KD_ERR_INTERNAL = -6,
  KD_ERR_PERMISSION = -7, /* the daemon's socket, or the process behind it, belongs to another
                             user: refused before anything was sent */
};

/* Kinds of text field (kd_session_params.app). */
enum kd_app {
  KD_APP_CHAT = 0,
  KD_APP_SEARCH = 1,
  KD_APP_CODE = 2,
  KD_APP_EDITOR = 3,
  KD_APP_URL = 4
};

/* kd_candidate.kind */
enum kd_candidate_kind {
  KD_COMPLETION = 0,
  KD_CORRECTION = 1,
  KD_NEXT_WORD = 2,
  KD_SENTENCE = 3, /* pinyin: all the letters typed converted as one sentence of several words */
  KD_TYPED = 4,    /* the letters as typed, offered back first after the person deleted back to
                      an autocorrected word (kd_session_autocorrect) */
  KD_SHORTCUT = 5  /* the expansion of a shortcut the person defined (kd_personal_shortcut_set),
                      offered first when the word being typed is its trigger */
};

/* kd_session_params.autocorrect_level: how readily the word just typed is corrected (each a
 * threshold chosen on dev text with misspellings no model trained on:
 * docs/history/BENCHMARKS-to-2026-12-07.md, "The false rate over every word"). */
enum kd_autocorrect_level {
  KD_AUTOCORRECT_OFF = 0,      /* never: autocorrect_apply is always 0 */
  KD_AUTOCORRECT_CAUTIOUS = 1, /* there: 80% of typos fixed, 0.18% of right words changed */
  KD_AUTOCORRECT_NORMAL = 2,   /* the default: 89% / 0.47% */
  KD_AUTOCORRECT_EAGER = 3     /* 92% / 0.80% */
};

/* kd_decision.tier: the rung of the latency ladder that served the decision. */
enum kd_tier {
  KD_TIER_FULL_MODEL = 0,
  KD_TIER_NO_VOCAB_PROPOSALS = 1,
  KD_TIER_SMALL_MODEL = 2,
  KD_TIER_LEXICON_ONLY = 3
};

typedef struct kd_engine kd_engine;
typedef struct kd_session kd_session;

typedef struct kd_engine_params {
  const char* model_dir;       /* models folder; NULL or "": $KEYDECIDE_MODEL_DIR, else the
                                  search path of docs/INTEGRATION.md (the data folders, then
                                  the models installed with the library) */
  const char* language;        /* language pack, or a comma-separated list of them ("en,zh"):
                                  one engine each, the first the default; NULL: "en" */
  const char* lexicon_path;    /* NULL: <model_dir>/<language>/lexicon.kdlex (first language
                                  only: the others always use their pack's) */
  const char* model_path;      /* NULL: the pack's model when present; "none": count baseline
                                  (a file: first language only; "none": all) */
  const char* keyboard_layout; /* layout name or file; NULL: "qwerty" */
  int32_t max_candidates;      /* candidates searched and scored per key (1..200); 0: the pack's
                                  default (English 64, Chinese 50) */
  int32_t personal;            /* 1: learn from what the person types and rank with it, in the
                                  user store (docs/PERSONAL.md); 0: off (default). English. */
  const char* user_store_path; /* with personal: the store; NULL or "": the default,
                                  $XDG_DATA_HOME/keydecide/user.db */
  int32_t learn;               /* with personal: 1 learn (default), 0 rank with what the store
                                  holds and learn nothing (learning paused) */
} kd_engine_params;

typedef struct kd_session_params {
  int32_t app;               /* enum kd_app; default KD_APP_CHAT */
  int32_t auto_capitalize;   /* 1: capitalise candidates at a sentence start (default); 0: no */
  int32_t n_candidates;      /* candidates per decision (0..20); default 3 */
  int32_t autocorrect_level; /* enum kd_autocorrect_level; default KD_AUTOCORRECT_NORMAL */
  int32_t no_learn;          /* 1: learn nothing from this session (a password field, an
                                incognito window); default 0 */
} kd_session_params;

typedef struct kd_candidate {
  const char* text; /* as it should be inserted */
  float score;      /* log-score, higher is better */
  int32_t kind;     /* enum kd_candidate_kind */
} kd_candidate;

/* A decision. Every pointer in it stays valid until the next call on the same session (or
 * kd_session_free). */
typedef struct kd_decision {
  int32_t n_candidates;
  const kd_candidate* candidates; /* best first */
  const char* composition;        /* the letters of the word being typed ("" after a space) */
  int32_t tier;                   /* enum kd_tier */
  int32_t popup_show;             /* 1: show the suggestion bar now */
  float popup_probability;        /* 0 without a model */
  int32_t autocorrect_apply;      /* 1: replace the word being typed when it ends */
  const char* autocorrect_replacement;
  float autocorrect_confidence;
  const char* intent; /* text kind ("" without a model) */
  float decide_us;    /* engine time for this decision, microseconds */
} kd_decision;

KD_API kd_engine_params kd_engine_default_params(void);
KD_API kd_session_params kd_session_default_params(void);

/* The message of the last failure on this thread ("" if none). Valid until the next call
 * into the library on this thread. */
KD_API const char* kd_last_error(void);

/* The KD_ABI_REVISION of the loaded library: a host built with a newer header calls the
 * functions of a revision only when this is at least that revision (a library of revision 1
 * lacks this function itself: look it up with dlsym first). */
KD_API int kd_abi_revision(void);

/* Opens an engine in this process (loads and maps the lexicon and model of each language,
 * warms up).
 *   0                     *out holds the engine
 *   KD_INVALID_ARGUMENT   bad params (also an empty or repeated name in the language list)
 *   KD_ERR_NOT_FOUND      missing lexicon, model or layout file
 *   KD_ERR_CORRUPTION     malformed file
 *   KD_ERR_NOT_SUPPORTED  unknown language
 * On failure *out is set to NULL and nothing stays open; the message names the language. */
KD_API int kd_engine_open(const kd_engine_params* params, kd_engine** out);

/* Connecting to the daemon: how long to wait. */
typedef struct kd_connect_params {
  int32_t connect_timeout_ms; /* connecting and checking the peer (default 2000; >= 1) */
  int32_t answer_timeout_ms;  /* each answer; past it the connection counts as broken
                                 (KD_ERR_IO) (default 10000; >= 1) */
} kd_connect_params;

KD_API kd_connect_params kd_connect_default_params(void);

/* Connects to the keydecided daemon at `socket_path` (NULL or "": the default path,
 * $XDG_RUNTIME_DIR/keydecided.sock, else /tmp/keydecide-<uid>/keydecided.sock) and checks
 * its protocol version. Before anything is sent it checks that the socket file is owned by
 * this user and that the process listening on it runs as this user (SO_PEERCRED): a socket
 * squatted by another local user never sees a key.
 *   0                  *out holds the connection
 *   KD_ERR_NOT_FOUND   no daemon listens there
 *   KD_ERR_PERMISSION  the socket or the process behind it belongs to another user
 *   KD_ERR_IO          the daemon refused us (too many clients), hung up, or timed out
 *   KD_ERR_PROTOCOL    it speaks another protocol version
 * On failure *out is set to NULL. Requests longer than the daemon's line limit are refused
 * with KD_INVALID_ARGUMENT before they are sent. */
KD_API int kd_engine_connect(const char* socket_path, kd_engine** out);
/* As kd_engine_connect with the given timeouts (KD_INVALID_ARGUMENT for a timeout < 1). */
KD_API int kd_engine_connect_with(const char* socket_path, const kd_connect_params* params,
                                  kd_engine** out);

/* Frees the engine or closes the connection. REQUIRES: its sessions are freed first.
 * NULL is ignored. */
KD_API void kd_engine_free(kd_engine* engine);

/* The languages the engine (or the daemon, as its hello reported) serves, comma-separated,
 * the default first: e.g. "en,zh". Valid until kd_engine_free; "" for NULL. */
KD_API const char* kd_engine_languages(const kd_engine* engine);

/* Opens a session (one text field) of the engine's default language.
 *   0                     *out holds the session
 *   KD_INVALID_ARGUMENT   bad params, or the daemon's per-client session limit is reached
 *   KD_BUSY               the session memory budget is spent (in process: 384 MiB by default,
 *                         kd_engine_set_session_budget; about 2.5 MB an English session with its
 *                         model): free a session, or retry later
 *   KD_ERR_IO / KD_ERR_PROTOCOL   the connection failed (see enum kd_status)
 * On failure *out is set to NULL. */
KD_API int kd_session_open(kd_engine* engine, const kd_session_params* params, kd_session** out);

/* Opens a session of `language` ("en", "zh", ...; NULL or "": the default language, as
 * kd_session_open). Return codes as for kd_session_open, and:
 *   KD_ERR_NOT_SUPPORTED  the engine or daemon does not serve `language`; unlike other
 *                         negative codes this leaves the engine usable
 * On failure *out is set to NULL. */
KD_API int kd_session_open_lang(kd_engine* engine, const char* language,
                                const kd_session_params* params, kd_session** out);

/* In process: the memory the engine's open sessions may take together, in bytes (0: the
 * default, 384 MiB, as the daemon's). Past it kd_session_open returns KD_BUSY; sessions already
 * open stay. Each session counts what one of its language measured at kd_engine_open. A daemon
 * connection keeps the daemon's budget (this returns 0 and changes nothing).
 *   0                     set
 *   KD_INVALID_ARGUMENT   engine NULL or bytes < 0 */
KD_API int kd_engine_set_session_budget(kd_engine* engine, int64_t bytes);

/* Closes and frees the session. NULL is ignored. */
KD_API void kd_session_free(kd_session* session);

/* The edits. Each applies to the session and, when `out` is not NULL, fills *out with the
 * decision for the new state (one call, one round trip to the daemon).
 *   0                     applied (and decided)
 *   KD_INVALID_ARGUMENT   invalid UTF-8, a committed word with white space or longer than
 *                         256 bytes, count out of 1..4096: the session is unchanged
 *   KD_BUSY               the daemon's queue is full: the session is unchanged, retry
 *   KD_SESSION_RESET      the connection had broken (the daemon restarted) and the library
 *                         connected again: the session is open again on the new daemon with
 *                         empty text; nothing was applied. Restore the text, then retry.
 *   KD_ERR_IO / KD_ERR_PROTOCOL   the connection failed; the session state is unknown. The
 *                         next call connects again (KD_SESSION_RESET once it succeeds). */
KD_API int kd_session_type(kd_session* session, const char* text, kd_decision* out);
/* As kd_session_type, with the time the key was pressed: `t_ms` in milliseconds of a
 * monotonic clock (CLOCK_MONOTONIC; any origin), 0..2^53. The model reads the interval since
 * the previous key, as it was trained to; kd_session_type types untimed (a typical pace).
 * Return codes as for the edits, and KD_INVALID_ARGUMENT for t_ms out of range. Works with
 * a daemon of any version that speaks protocol 1 (an older one ignores the time). */
KD_API int kd_session_type_at(kd_session* session, const char* text, int64_t t_ms,
                              kd_decision* out);
KD_API int kd_session_backspace(kd_session* session, int32_t count, kd_decision* out);
/* The person picked `word` for the word being typed (no space is added). A host that shows the
 * decision's candidates should pick them with kd_session_pick instead: this is for text the
 * host made itself. */
KD_API int kd_session_commit(kd_session* session, const char* word, kd_decision* out);
/* The person picked the candidate `id` (kd_session_candidate_ids) of the session's last
 * decision: does what kd_session_commit of its text does (no space is added), but knows which
 * candidate it was. Pick by id: in pinyin two candidates may have the same text and convert
 * different letters (a word for the first syllables, a sentence for all of them), and only the
 * id says which one the person chose. Return codes as for the edits, and
 *   KD_INVALID_ARGUMENT   the id is stale: not offered by the last decision, or another edit
 *                         came since (each decision brings new ids); nothing changed
 *   KD_ERR_NOT_SUPPORTED  the daemon is too old to pick by id (its candidates have id 0):
 *                         commit the text instead; the connection lives on
 * ABI revision 2. */
KD_API int kd_session_pick(kd_session* session, uint32_t id, kd_decision* out);
/* The host applied the decision's autocorrection: `replacement` replaces the word being typed
 * (no space is added; type the space or punctuation that ended the word next). Unlike
 * kd_session_commit it can be undone: when the person deletes back to the end of the replaced
 * word (kd_session_backspace over what ended it), the decision's first candidate is the letters
 * as typed (kind KD_TYPED) and the word is not autocorrected again there; committing those
 * letters (kd_session_commit) undoes the correction, and with personal learning the word is
 * learned as the person's own and never autocorrected again. Return codes as for the edits,
 * and KD_INVALID_ARGUMENT when no word is being typed. */
KD_API int kd_session_autocorrect(kd_session* session, const char* replacement, kd_decision* out);
/* Replaces all text before the cursor (the cursor moved, the field changed). */
KD_API int kd_session_set_context(kd_session* session, const char* text, kd_decision* out);

/* The decision for the current state, without an edit. Return codes as for the edits. */
KD_API int kd_session_decide(kd_session* session, kd_decision* out);

/* The composition of the session's last decision as the host should show it: for pinyin
 * with an apostrophe at each syllable break of the best reading ("ni'hao"), otherwise the
 * composition itself ("" before any decision, or from a daemon that does not send it).
 * Valid as long as that decision's pointers. (A function rather than a kd_decision field,
 * so that kd_decision keeps its size.) */
KD_API const char* kd_session_preedit(const kd_session* session);

/* The ids of the session's last decision's candidates, n_candidates of them, parallel to
 * kd_decision.candidates: what kd_session_pick takes. Never 0 from this library, increasing
 * within a session; 0 from a daemon too old to send ids. NULL for a NULL session. Valid as
 * long as that decision's pointers. (A function rather than a kd_decision field, so that
 * kd_decision keeps its size.) ABI revision 2. */
KD_API const uint32_t* kd_session_candidate_ids(const kd_session* session);

/* The shortcut of the session's last decision (docs/PERSONAL.md, "Shortcuts"; personal
 * engines only): its expansion when the word being typed is a shortcut's trigger (also the
 * first candidate, KD_SHORTCUT), else NULL. *fire (if not NULL) gets 1 when the host should
 * expand it as the word ends (replace the trigger, as for autocorrect_apply, which is then 0),
 * 0 when it is only offered (the trigger is also a word the lexicon or the person knows).
 * Valid as long as that decision's pointers. */
KD_API const char* kd_session_shortcut(const kd_session* session, int32_t* fire);

/* The person's user store (docs/PERSONAL.md): what engines with personalisation learned, to
 * see and erase. Each call opens the store at `store_path` (NULL or "": the default,
 * $XDG_DATA_HOME/keydecide/user.db) and closes it again; it needs no engine. A running engine
 * or daemon on the same store sees a change within 10 s.
 *   0                     done
 *   KD_INVALID_ARGUMENT   a NULL argument, or (import) text that is not a valid export:
 *                         nothing changed, the message names the first bad field
 *   KD_ERR_NOT_SUPPORTED  a store or an export of a newer version than this library's
 *   KD_ERR_IO             the store cannot be opened or written (read-only, locked, disk full)
 * A damaged store is set aside (renamed, never deleted) and a fresh one used. */

/* Everything learned, as the export format's JSON (the list: words with counts, picks, first
 * and last use; word pairs). *json_out is the caller's, to free with kd_string_free. */
KD_API int kd_personal_export(const char* store_path, char** json_out);
/* Adds an export's words and pairs (counts add up), in one transaction. */
KD_API int kd_personal_import(const char* store_path, const char* json);
/* Forgets `word` (any case) and every word pair it is in; *removed (if not NULL) gets the
 * number of entries deleted. */
KD_API int kd_personal_forget(const char* store_path, const char* word, int32_t* removed);
/* Forgets every word and pair last used in [from, to) (unix seconds). */
KD_API int kd_personal_forget_range(const char* store_path, int64_t from, int64_t to,
                                    int32_t* removed);
/* Forgets everything: learned words, pairs and shortcuts. */
KD_API int kd_personal_clear(const char* store_path);
/* Adds a shortcut, or gives `trigger` (any case; stored lower-cased) a new expansion: typing
 * the trigger as a word then offers the expansion (kd_session_shortcut). KD_INVALID_ARGUMENT
 * for a trigger that is not a word of 1..32 bytes (letters, apostrophes after one), or an
 * expansion that is not 1..1024 bytes of text (new lines and tabs allowed). The shortcuts are
 * in the export. */
KD_API int kd_personal_shortcut_set(const char* store_path, const char* trigger,
                                    const char* expansion);
/* Removes the shortcut of `trigger` (any case); *removed (if not NULL) gets 1 if there was one. */
KD_API int kd_personal_shortcut_remove(const char* store_path, const char* trigger,
                                       int32_t* removed);
/* Frees a string the library handed over (kd_personal_export); NULL is ignored. */
KD_API void kd_string_free(char* s);

#ifdef __cplusplus
}
#endif

#endif /* KEYDECIDE_KEYDECIDE_H_ */
