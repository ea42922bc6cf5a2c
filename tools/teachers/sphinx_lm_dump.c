/*
 * sphinx_lm_dump: write a sphinxbase binary ("Trie Language Model") n-gram model as an ARPA file.
 *
 * Why: Debian bookworm's pocketsphinx-en-us ships its US-English word trigram only as
 * en-us.lm.bin, and bookworm's `sphinx_lm_convert -ofmt arpa` aborts on that file
 * (ngram_model_trie.c:279, `raw_ngram_idx == base->n_counts[i - 1]`): the file's header
 * counts 2,051,547 bigrams, but its trie holds 2,051,541; the last 6 slots of the bigram
 * array are unused zeros (presumably the tool that built the file over-counted the "blank"
 * suffix entries a trie adds for trigrams whose last two words were no bigram). This program
 * walks the trie itself and writes the counts it really finds, so the ARPA is complete and
 * self-consistent. The header's and the written counts both go to stderr. (The same file has
 * 2 trigram ranges out of word order, so the library's own lookup misses 2 trigrams, "<s> and
 * jerri" and "whips and bullhorns", and scores them by backing off; the ARPA keeps them.)
 *
 * What of libsphinxbase it uses: ngram_model_read, ngram_model_get_size/_get_counts,
 * ngram_word, ngram_ng_score/ngram_score/ngram_tg_score (the --check and --query modes),
 * logmath. The m-gram iterators that <sphinxbase/ngram_model.h> still declares
 * (ngram_model_mgrams, ngram_iter_get, ngram_iter_next) are NOT in bookworm's
 * libsphinxbase.so (0.8+5prealpha+1: the trie rewrite dropped them; linking fails), so the
 * walk reads the trie through mirrors of that version's internal structs (below) and
 * its exported helpers bitarr_read_int25 and lm_trie_quant_{mp,mbo,lp}read (the same code
 * path as the library's own ARPA writer, lm_trie_fill_raw_ngram). The mirrors are checked
 * against the public API on load; on a mismatch it stops with a message.
 *
 * Units: the trie stores log probabilities as floats in the log base of the program that
 * built the file (sphinx_lm_convert's and pocketsphinx's default, 1.0001; --logbase
 * otherwise); they are not rescaled when a binary model is read. They are raw: the language
 * weight and word insertion penalty are applied only at scoring time (score*lw + log(wip)),
 * and a model read without a config has lw = 1, wip = 1, so ngram_score() returns the raw
 * value too (as an int32, truncated). Output is log10 with 6 decimals (1 unit of base
 * 1.0001 is 4.3e-5 in log10). The trie stores n-grams last word first; the output is in
 * reading order, each section sorted by word ids (the file's unigram order, byte order).
 *
 * Usage:
 *   sphinx_lm_dump [--logbase B] [--check] [--out FILE.arpa] MODEL.lm.bin
 *       writes the ARPA file (stdout without --out). --check also scores every n-gram it
 *       writes with ngram_ng_score() and fails if one differs from the written value by
 *       more than 1 log unit or is not found at its own order (those of out-of-order
 *       ranges that the library's search misses are listed, not counted as failures).
 *   sphinx_lm_dump [--logbase B] --query MODEL.lm.bin < ngrams.txt
 *       for each line "w1 ... wn" (reading order), prints
 *       log10 ngram_score <TAB> order used <TAB> log10 ngram_tg_score (n <= 3) <TAB> line.
 *   Exit status: 0 done, 1 an error (unreadable model, bad layout, write error, --check
 *   mismatch), 2 bad usage.
 *
 * Build (Debian: apt-get install libsphinxbase-dev):
 *   gcc -O2 -Wall -o sphinx_lm_dump tools/teachers/sphinx_lm_dump.c \
 *       $(pkg-config --cflags --libs sphinxbase) -lm
 */

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sphinxbase/bitarr.h>
#include <sphinxbase/err.h>
#include <sphinxbase/hash_table.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>

/* ---- Mirrors of sphinxbase 0.8+5prealpha+1 internals (lm/ngram_model_internal.h,
 *      lm/ngram_model_trie.h, lm/lm_trie.h). Only the leading fields that are read. ---- */
typedef struct {
    int refcount;
    uint32 *n_counts;
    int32 n_1g_alloc;
    int32 n_words;
    uint8 n;
    uint8 n_classes;
    uint8 writable;
    uint8 flags;
    logmath_t *lmath;
    float32 lw;
    int32 log_wip;
    int32 log_zero;
    char **word_str;
    hash_table_t *wid;
    int32 *tmp_wids;
    void **classes;
    void *funcs;
} mirror_ngram_model_t;

typedef struct {
    float prob;
    float bo;
    uint32 next;
} mirror_unigram_t;

typedef struct {
    uint8 word_bits;
    uint8 total_bits;
    uint32 word_mask;
    uint8 *base;
    uint32 insert_index;
    uint32 max_vocab;
} mirror_base_t;

typedef struct {
    mirror_base_t base;
    bitarr_mask_t next_mask;
    uint8 quant_bits;
    void *next_source;
} mirror_middle_t;

typedef struct {
    mirror_base_t base;
    uint8 quant_bits;
} mirror_longest_t;

typedef struct lm_trie_quant_s lm_trie_quant_t;

typedef struct {
    uint8 *ngram_mem;
    size_t ngram_mem_size;
    mirror_unigram_t *unigrams;
    mirror_middle_t *middle_begin;
    mirror_middle_t *middle_end;
    mirror_longest_t *longest;
    lm_trie_quant_t *quant;
} mirror_lm_trie_t;

typedef struct {
    mirror_ngram_model_t base;
    mirror_lm_trie_t *trie;
} mirror_ngram_model_trie_t;

/* Exported by libsphinxbase.so, declared only in its private lm_trie_quant.h. */
float lm_trie_quant_mboread(lm_trie_quant_t *quant, bitarr_address_t address, int order_minus_2);
float lm_trie_quant_mpread(lm_trie_quant_t *quant, bitarr_address_t address, int order_minus_2);
float lm_trie_quant_lpread(lm_trie_quant_t *quant, bitarr_address_t address);

#define MAX_ORDER 6

/* One dumped m-gram: word ids in reading order, raw log prob and backoff (trie units). */
typedef struct {
    uint32 words[MAX_ORDER];
    float prob;
    float bo;
    uint8 unsorted; /* lies in (or below) a trie range that is out of order */
} gram_t;

typedef struct {
    gram_t *v;
    size_t n, cap;
} gram_vec_t;

static int g_order_for_sort;

static void die(const char *msg) {
    fprintf(stderr, "sphinx_lm_dump: %s\n", msg);
    exit(1);
}

static void push(gram_vec_t *vec, const gram_t *g) {
    if (vec->n == vec->cap) {
        vec->cap = vec->cap ? vec->cap * 2 : 1 << 16;
        vec->v = realloc(vec->v, vec->cap * sizeof(*vec->v));
        if (!vec->v) die("out of memory");
    }
    vec->v[vec->n++] = *g;
}

static int cmp_gram(const void *a, const void *b) {
    const gram_t *x = a, *y = b;
    for (int k = 0; k < g_order_for_sort; k++) {
        if (x->words[k] != y->words[k]) return x->words[k] < y->words[k] ? -1 : 1;
    }
    return 0;
}

typedef struct {
    mirror_lm_trie_t *trie;
    uint32 n_unigrams;
    uint32 *alloc;      /* alloc[k]: entries the file allocated for (k+1)-grams */
    int max_order;
    size_t unsorted_ranges[MAX_ORDER]; /* [k]: out-of-order ranges of (k+1)-grams */
} walk_t;

/* Reads entry ptr of the middle array of (level+2)-grams: its word and [begin, end) into the
 * next level. */
static uint32 middle_entry(const walk_t *w, int level, uint32 ptr, uint32 *begin, uint32 *end) {
    mirror_middle_t *mid = &w->trie->middle_begin[level];
    bitarr_address_t a;
    a.base = mid->base.base;
    a.offset = ptr * mid->base.total_bits;
    uint32 word = bitarr_read_int25(a, mid->base.word_bits, mid->base.word_mask);
    a.offset += mid->base.word_bits + mid->quant_bits;
    *begin = bitarr_read_int25(a, mid->next_mask.bits, mid->next_mask.mask);
    a.offset = (ptr + 1) * mid->base.total_bits + mid->base.word_bits + mid->quant_bits;
    *end = bitarr_read_int25(a, mid->next_mask.bits, mid->next_mask.mask);
    return word;
}

/* Word id of entry ptr of the array that holds (n_hist+1)-grams. */
static uint32 entry_word(const walk_t *w, int n_hist, uint32 ptr) {
    mirror_base_t *b = n_hist == w->max_order - 1 ? &w->trie->longest->base
                                                   : &w->trie->middle_begin[n_hist - 1].base;
    bitarr_address_t a;
    a.base = b->base;
    a.offset = ptr * b->total_bits;
    return bitarr_read_int25(a, b->word_bits, b->word_mask);
}

/* The library finds an entry by interpolation search over its range, which must be sorted by
 * word id. Returns 1 if [begin, end) is not (then the library's lookups may miss entries of
 * it and everything below them). */
static int range_unsorted(const walk_t *w, int n_hist, uint32 begin, uint32 end) {
    for (uint32 ptr = begin + 1; ptr < end; ptr++) {
        if (entry_word(w, n_hist, ptr) <= entry_word(w, n_hist, ptr - 1)) return 1;
    }
    return 0;
}

/* hist[0..n_hist) holds the path so far, last word first (the trie's order). [begin, end) is
 * the range of (n_hist+1)-grams below it. Collects every gram of order `order`. `unsorted`:
 * some range on the path above is out of order. */
static void walk(walk_t *w, uint32 begin, uint32 end, uint32 *hist, int n_hist, int order,
                 int unsorted, gram_vec_t *out) {
    if (begin > end || end > w->alloc[n_hist]) die("corrupt trie: a range points past its array");
    if (range_unsorted(w, n_hist, begin, end)) {
        unsorted = 1;
        if (n_hist == order - 1) w->unsorted_ranges[order - 1]++;
    }
    if (n_hist < order - 1) {
        for (uint32 ptr = begin; ptr < end; ptr++) {
            uint32 b, e;
            hist[n_hist] = middle_entry(w, n_hist - 1, ptr, &b, &e);
            if (hist[n_hist] >= w->n_unigrams) die("corrupt trie: word id out of range");
            walk(w, b, e, hist, n_hist + 1, order, unsorted, out);
        }
        return;
    }
    for (uint32 ptr = begin; ptr < end; ptr++) {
        gram_t g;
        bitarr_address_t a;
        if (order == w->max_order) {
            mirror_longest_t *lg = w->trie->longest;
            a.base = lg->base.base;
            a.offset = ptr * lg->base.total_bits;
            hist[n_hist] = bitarr_read_int25(a, lg->base.word_bits, lg->base.word_mask);
            a.offset += lg->base.word_bits;
            g.prob = lm_trie_quant_lpread(w->trie->quant, a);
            g.bo = 0.0f;
        } else {
            mirror_middle_t *mid = &w->trie->middle_begin[n_hist - 1];
            a.base = mid->base.base;
            a.offset = ptr * mid->base.total_bits;
            hist[n_hist] = bitarr_read_int25(a, mid->base.word_bits, mid->base.word_mask);
            a.offset += mid->base.word_bits;
            g.prob = lm_trie_quant_mpread(w->trie->quant, a, n_hist - 1);
            g.bo = lm_trie_quant_mboread(w->trie->quant, a, n_hist - 1);
        }
        if (hist[n_hist] >= w->n_unigrams) die("corrupt trie: word id out of range");
        for (int k = 0; k < order; k++) g.words[k] = hist[order - 1 - k];
        g.unsorted = (uint8)unsorted;
        push(out, &g);
    }
}

/* Checks the mirrors against what the public API says; dies on any mismatch. */
static mirror_ngram_model_trie_t *checked_mirror(ngram_model_t *model) {
    mirror_ngram_model_trie_t *m = (mirror_ngram_model_trie_t *)model;
    int order = ngram_model_get_size(model);
    const uint32 *counts = ngram_model_get_counts(model);
    const char *layout = "this libsphinxbase's internal layout differs from 0.8+5prealpha+1's";
    if (m->base.n != order || m->base.n_counts != counts || m->trie == NULL) die(layout);
    if (order < 2 || order > MAX_ORDER) die("only models of order 2 to 6 are supported");
    for (uint32 i = 0; i < counts[0]; i += 997) {
        if (m->base.word_str[i] != ngram_word(model, (int32)i)) die(layout);
    }
    if (m->trie->middle_end - m->trie->middle_begin != order - 2 || m->trie->longest == NULL ||
        m->trie->quant == NULL || m->trie->unigrams == NULL)
        die(layout);
    uint8 word_bits = bitarr_required_bits(counts[0]);
    for (int k = 0; k < order - 2; k++) {
        if (m->trie->middle_begin[k].base.word_bits != word_bits ||
            m->trie->middle_begin[k].base.max_vocab != counts[0])
            die(layout);
    }
    if (m->trie->longest->base.word_bits != word_bits) die(layout);
    return m;
}

static int query_mode(ngram_model_t *model, logmath_t *lmath) {
    char line[4096];
    double l10 = log10(logmath_get_base(lmath));
    int order = ngram_model_get_size(model);
    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char copy[4096];
        strcpy(copy, line);
        int32 wids[MAX_ORDER];
        int n = 0;
        int unknown = 0;
        for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t")) {
            if (n == MAX_ORDER) { /* keep the last MAX_ORDER words */
                memmove(wids, wids + 1, (MAX_ORDER - 1) * sizeof(*wids));
                n--;
            }
            wids[n] = ngram_wid(model, tok);
            if (wids[n] == NGRAM_INVALID_WID) unknown = 1;
            n++;
        }
        if (n == 0) continue;
        if (unknown) {
            printf("unknown\t0\tunknown\t%s\n", line);
            continue;
        }
        int32 hist[MAX_ORDER];
        int n_hist = n - 1 < order - 1 ? n - 1 : order - 1;
        for (int k = 0; k < n_hist; k++) hist[k] = wids[n - 2 - k];
        int32 n_used = 0;
        int32 score = ngram_ng_score(model, wids[n - 1], hist, n_hist, &n_used);
        printf("%.6f\t%d\t", score * l10, n_used);
        if (n_hist <= 2) {
            int32 tg_used = 0;
            int32 w1 = n_hist >= 2 ? hist[1] : NGRAM_INVALID_WID;
            int32 w2 = n_hist >= 1 ? hist[0] : NGRAM_INVALID_WID;
            int32 tg = n_hist == 0 ? ngram_score(model, ngram_word(model, wids[n - 1]), NULL)
                                   : ngram_tg_score(model, wids[n - 1], w2, w1, &tg_used);
            printf("%.6f\t%s\n", tg * l10, line);
        } else {
            printf("-\t%s\n", line);
        }
    }
    return 0;
}

/* libsphinxbase's log callback: drops its INFO lines, passes warnings and errors to stderr. */
static void quiet_log(void *user_data, err_lvl_t lvl, const char *fmt, ...) {
    (void)user_data;
    if (lvl < ERR_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static void usage(void) {
    fprintf(stderr,
            "usage: sphinx_lm_dump [--logbase B] [--check] [--out FILE.arpa] MODEL.lm.bin\n"
            "       sphinx_lm_dump [--logbase B] --query MODEL.lm.bin < ngrams.txt\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *out_path = NULL, *lm_path = NULL;
    double logbase = 1.0001;
    int check = 0, query = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(argv[i], "--logbase") && i + 1 < argc) logbase = atof(argv[++i]);
        else if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--query")) query = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) usage();
        else if (argv[i][0] == '-' || lm_path) usage();
        else lm_path = argv[i];
    }
    if (!lm_path || logbase <= 1.0) usage();

    err_set_callback(quiet_log, NULL);
    FILE *probe = fopen(lm_path, "rb");
    if (!probe) {
        fprintf(stderr, "sphinx_lm_dump: cannot open %s\n", lm_path);
        return 1;
    }
    fclose(probe);
    logmath_t *lmath = logmath_init(logbase, 0, 0);
    if (!lmath) die("logmath_init failed");
    ngram_model_t *model = ngram_model_read(NULL, lm_path, NGRAM_BIN, lmath);
    if (!model) {
        fprintf(stderr, "sphinx_lm_dump: %s is not a sphinxbase binary (trie) language model\n",
                lm_path);
        return 1;
    }
    int32 log_wip = 0;
    if (ngram_model_get_weights(model, &log_wip) != 1.0f || log_wip != 0)
        die("the model carries a language weight / insertion penalty; expected none");
    if (query) return query_mode(model, lmath);

    mirror_ngram_model_trie_t *m = checked_mirror(model);
    const int order = m->base.n;
    const uint32 *header = ngram_model_get_counts(model);
    const uint32 n_uni = header[0];
    mirror_unigram_t *uni = m->trie->unigrams;

    uint32 alloc[MAX_ORDER];
    for (int k = 0; k < order; k++) alloc[k] = header[k];
    walk_t w = {m->trie, n_uni, alloc, order, {0}};

    /* Collect every order >= 2 first: the \data\ section needs the real counts. */
    gram_vec_t grams[MAX_ORDER];
    memset(grams, 0, sizeof(grams));
    uint32 hist[MAX_ORDER];
    for (int o = 2; o <= order; o++) {
        for (uint32 i = 0; i < n_uni; i++) {
            hist[0] = i;
            if (uni[i].next > uni[i + 1].next) die("corrupt trie: unigram ranges out of order");
            walk(&w, uni[i].next, uni[i + 1].next, hist, 1, o, 0, &grams[o - 1]);
        }
        g_order_for_sort = o;
        qsort(grams[o - 1].v, grams[o - 1].n, sizeof(gram_t), cmp_gram);
    }

    double l10 = log10(logbase);
    double mass = 0.0;
    for (uint32 i = 0; i < n_uni; i++) mass += pow(10.0, uni[i].prob * l10);
    fprintf(stderr, "sphinx_lm_dump: %s: order %d, log base %g\n", lm_path, order, logbase);
    for (int o = 1; o <= order; o++) {
        size_t written = o == 1 ? n_uni : grams[o - 1].n;
        fprintf(stderr, "  %d-grams: header %u, written %zu%s\n", o, header[o - 1], written,
                written == header[o - 1] ? "" : "  (the header over-counts; the trie holds these)");
        if (w.unsorted_ranges[o - 1])
            fprintf(stderr, "    %zu range(s) of %d-grams out of word order in the trie\n",
                    w.unsorted_ranges[o - 1], o);
    }
    fprintf(stderr, "  unigram probability mass: %.6f\n", mass);
    if (fabs(mass - 1.0) > 0.05)
        fprintf(stderr, "sphinx_lm_dump: warning: unigram mass far from 1; wrong --logbase?\n");

    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "sphinx_lm_dump: cannot write %s\n", out_path);
        return 1;
    }
    fprintf(out, "\\data\\\n");
    for (int o = 1; o <= order; o++)
        fprintf(out, "ngram %d=%zu\n", o, o == 1 ? (size_t)n_uni : grams[o - 1].n);
    fprintf(out, "\n\\1-grams:\n");
    for (uint32 i = 0; i < n_uni; i++)
        fprintf(out, "%.6f\t%s\t%.6f\n", uni[i].prob * l10, ngram_word(model, (int32)i),
                uni[i].bo * l10);
    for (int o = 2; o <= order; o++) {
        fprintf(out, "\n\\%d-grams:\n", o);
        for (size_t j = 0; j < grams[o - 1].n; j++) {
            const gram_t *g = &grams[o - 1].v[j];
            fprintf(out, "%.6f", g->prob * l10);
            for (int k = 0; k < o; k++) fprintf(out, "%c%s", k ? ' ' : '\t', ngram_word(model, (int32)g->words[k]));
            if (o < order) fprintf(out, "\t%.6f", g->bo * l10);
            fputc('\n', out);
        }
    }
    fprintf(out, "\n\\end\\\n");
    if (fflush(out) != 0 || ferror(out) || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "sphinx_lm_dump: write error\n");
        return 1;
    }

    if (check) {
        /* Every written gram, scored through the public API at full context: it must be found
         * at its own order, with the value written (scores are int32, truncated), unless it
         * lies in an out-of-order range, where the library's interpolation search may miss it
         * (then the library backs off and scores it lower than the trie's entry). */
        size_t bad = 0, missed = 0, total = 0;
        int32 h[MAX_ORDER];
        for (uint32 i = 0; i < n_uni; i++, total++) {
            int32 used = 0;
            int32 s = ngram_ng_score(model, (int32)i, h, 0, &used);
            if (used != 1 || fabs(s - uni[i].prob) > 1.0) bad++;
        }
        for (int o = 2; o <= order; o++) {
            for (size_t j = 0; j < grams[o - 1].n; j++, total++) {
                const gram_t *g = &grams[o - 1].v[j];
                for (int k = 0; k < o - 1; k++) h[k] = (int32)g->words[o - 2 - k];
                int32 used = 0;
                int32 s = ngram_ng_score(model, (int32)g->words[o - 1], h, o - 1, &used);
                if (used == o && fabs(s - g->prob) <= 1.0) continue;
                int miss = used != o && g->unsorted;
                fprintf(stderr, "    %s:", miss ? "missed by the library's lookup" : "MISMATCH");
                for (int k = 0; k < o; k++) fprintf(stderr, " %s", ngram_word(model, (int32)g->words[k]));
                fprintf(stderr, ": written %.6f, ngram_ng_score %.6f at order %d\n", g->prob * l10,
                        s * l10, used);
                if (miss) missed++;
                else bad++;
            }
        }
        fprintf(stderr, "  --check: %zu n-grams scored with ngram_ng_score: %zu equal, %zu in out-of-order "
                "ranges missed by the library's lookup, %zu mismatches\n",
                total, total - missed - bad, missed, bad);
        if (bad) return 1;
    }
    for (int o = 2; o <= order; o++) free(grams[o - 1].v);
    ngram_model_free(model);
    return 0;
}
