/* c_client: types a text through the keydecide C ABI, one character at a time, and prints
 * the top candidates after every keystroke.
 *
 *   c_client --socket PATH "see you tomo"     # through the keydecided daemon
 *   c_client --local MODEL_DIR "see you tomo" # an engine in this process (count baseline)
 *   c_client --socket PATH --lang zh nihao    # a session of another language (pinyin)
 *   c_client --local MODEL_DIR --lang zh,en nihao  # engines for both, a session of the first
 *
 * Prints one line per keystroke: the composition, then the candidates separated by '|',
 * then the tier. Exits 0 on success, 1 on any error (message on stderr). */

#include <stdio.h>
#include <string.h>

#include "keydecide/keydecide.h"

static const char* kTierNames[] = {"full_model", "no_vocab_proposals", "small_model",
                                   "lexicon_only"};

/* Bytes in the UTF-8 character starting with byte c. */
static int CharLength(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

int main(int argc, char** argv) {
  const char* lang = NULL; /* NULL: the engine's default language */
  if (argc == 6 && strcmp(argv[3], "--lang") == 0) {
    lang = argv[4];
    argv[3] = argv[5];
    argc = 4;
  }
  if (argc != 4 || (strcmp(argv[1], "--socket") != 0 && strcmp(argv[1], "--local") != 0)) {
    fprintf(stderr, "usage: %s --socket PATH|--local MODEL_DIR [--lang LANG] TEXT\n", argv[0]);
    return 1;
  }
  kd_engine* engine = NULL;
  int rc;
  if (strcmp(argv[1], "--socket") == 0) {
    rc = kd_engine_connect(argv[2], &engine);
  } else {
    kd_engine_params ep = kd_engine_default_params();
    ep.model_dir = argv[2];
    ep.model_path = "none";
    ep.language = lang; /* a list; NULL: "en" */
    rc = kd_engine_open(&ep, &engine);
    lang = NULL; /* the session: the first language of the list */
  }
  if (rc != KD_OK) {
    fprintf(stderr, "c_client: cannot open the engine (%d): %s\n", rc, kd_last_error());
    return 1;
  }
  kd_session_params sp = kd_session_default_params();
  kd_session* session = NULL;
  printf("languages: %s\n", kd_engine_languages(engine));
  rc = kd_session_open_lang(engine, lang, &sp, &session);
  if (rc != KD_OK) {
    fprintf(stderr, "c_client: cannot open a session (%d): %s\n", rc, kd_last_error());
    kd_engine_free(engine);
    return 1;
  }

  const char* text = argv[3];
  size_t pos = 0;
  const size_t len = strlen(text);
  kd_decision d;
  while (pos < len) {
    char key[5] = {0};
    int n = CharLength((unsigned char)text[pos]);
    if (pos + (size_t)n > len) n = (int)(len - pos);
    memcpy(key, text + pos, (size_t)n);
    pos += (size_t)n;
    rc = kd_session_type(session, key, &d);
    if (rc != KD_OK) {
      fprintf(stderr, "c_client: type failed (%d): %s\n", rc, kd_last_error());
      break;
    }
    printf("[%s]", d.composition);
    for (int i = 0; i < d.n_candidates; ++i) printf("%s%s", i ? "|" : " ", d.candidates[i].text);
    printf(" (%s)\n", d.tier >= 0 && d.tier < 4 ? kTierNames[d.tier] : "?");
  }
  /* A failure is reported, and the session is left unchanged. */
  if (rc == KD_OK && kd_session_type(session, "\xFF", NULL) != KD_INVALID_ARGUMENT) {
    fprintf(stderr, "c_client: invalid UTF-8 was not refused\n");
    rc = KD_ERR_INTERNAL;
  }
  kd_session_free(session);
  kd_engine_free(engine);
  return rc == KD_OK ? 0 : 1;
}
