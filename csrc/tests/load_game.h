/* load_game.h - the one game loader of the C test drivers (csrc/tests/) and
 * the fuzzers (csrc/fuzz/): find a game in the registry by name, read its
 * data files from a directory, load its rules and make instances through
 * the contract. A new game's driver needs no loader of its own.
 *
 *     tl_game t;
 *     if (tl_load(&t, "capulana", data_dir)) return 1;   // data_dir may be NULL
 *     sr_game g;
 *     if (tl_make(&t, NULL, &g)) return 1;                // the default parameters
 *     ...
 *     tl_free(&t);
 *
 * The data directory: the argument, else $TABULEIRO_DATA_DIR, else the
 * compiled-in TABULEIRO_DATA_DIR (CMake sets the source tree's
 * python/tabuleiro/data). */
#ifndef TABULEIRO_TESTS_LOAD_GAME_H
#define TABULEIRO_TESTS_LOAD_GAME_H
#include "game.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TABULEIRO_DATA_DIR
#define TABULEIRO_DATA_DIR "python/tabuleiro/data"
#endif

typedef struct {
    const sr_game_def *def;      /* the registry entry */
    void *rules;                 /* the loaded rules (def->rules_size bytes, malloc'd) */
    char *texts[4];              /* the data files' texts as read (NULL past def->num_data) */
} tl_game;

/* The whole file as a NUL-terminated string (malloc'd), or NULL (the
 * reason printed to stderr). */
static inline char *tl_read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    char *buf = NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1)) != NULL) {
        if (fread(buf, 1, (size_t)len, f) == (size_t)len) buf[len] = 0;
        else { free(buf); buf = NULL; }
    }
    if (!buf) fprintf(stderr, "%s: cannot be read\n", path);
    fclose(f);
    return buf;
}

/* Free what tl_load allocated (safe on a zeroed or partly loaded t). */
static inline void tl_free(tl_game *t) {
    for (int i = 0; i < 4; ++i) free(t->texts[i]);
    free(t->rules);
    memset(t, 0, sizeof *t);
}

/* Find `name` in the registry, read its data files from data_dir (NULL: see
 * above) and load its rules into t. 0, or -1 with the reason on stderr
 * (t then holds nothing). */
static inline int tl_load(tl_game *t, const char *name, const char *data_dir) {
    char path[1024], msg[SR_MSG_LEN];
    memset(t, 0, sizeof *t);
    t->def = sr_find_game(name);
    if (!t->def) { fprintf(stderr, "%s: no such game in the registry\n", name); return -1; }
    if (!data_dir || !*data_dir) data_dir = getenv("TABULEIRO_DATA_DIR");
    if (!data_dir || !*data_dir) data_dir = TABULEIRO_DATA_DIR;
    for (int i = 0; i < t->def->num_data && i < 4; ++i) {
        snprintf(path, sizeof path, "%s/%s", data_dir, t->def->data_files[i]);
        if (!(t->texts[i] = tl_read_text(path))) goto fail;
    }
    if (!(t->rules = calloc(1, t->def->rules_size ? t->def->rules_size : 1))) { fprintf(stderr, "%s: no memory\n", name); goto fail; }
    if (t->def->load_rules(t->rules, (const char *const *)t->texts, msg, sizeof msg) != SR_OK) {
        fprintf(stderr, "%s: %s\n", name, msg);
        goto fail;
    }
    return 0;
fail:
    tl_free(t);
    return -1;
}

/* Make an instance of t's rules into g with params (the registry's order;
 * NULL: the registry's defaults). 0, or -1 with the reason on stderr. */
static inline int tl_make(const tl_game *t, const int *params, sr_game *g) {
    char msg[SR_MSG_LEN];
    int p[SR_MAX_PARAMS] = {0};
    for (int i = 0; i < t->def->num_params; ++i) p[i] = params ? params[i] : t->def->params[i].def;
    if (t->def->make(t->rules, p, g, msg, sizeof msg) == SR_OK) return 0;
    fprintf(stderr, "%s: %s\n", t->def->name, msg);
    return -1;
}

/* How many parameter combinations def's ranges make (1 for none). */
static inline int tl_param_combinations(const sr_game_def *def) {
    int total = 1;
    for (int i = 0; i < def->num_params; ++i) total *= def->params[i].max - def->params[i].min + 1;
    return total;
}

/* The k-th parameter combination into p (SR_MAX_PARAMS long), the first
 * parameter varying fastest (the fuzzers' input byte 0 and corpus names). */
static inline void tl_params_at(const sr_game_def *def, int k, int *p) {
    memset(p, 0, SR_MAX_PARAMS * sizeof *p);
    for (int i = 0; i < def->num_params; ++i) {
        int span = def->params[i].max - def->params[i].min + 1;
        p[i] = def->params[i].min + k % span;
        k /= span;
    }
}

#endif
