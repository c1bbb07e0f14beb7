/* fuzz_common.h - the libFuzzer harness engine shared by the per-game
 * harnesses (fuzz_<game>.c): decode a state from the input through the
 * game's own decode (the one authority on loadable states, the same check
 * Python's from_dict goes through), then play actions chosen by the input,
 * checking the game contract's invariants (game.h) after every step. Any
 * violation prints a message (and the state's encoding) and aborts, so
 * libFuzzer reports it as a crash.
 *
 * A harness defines, before including this file:
 *   FUZZ_GAME             the registry name ("capivarias", ...)
 *   FUZZ_SEED_FIELD       index of the encoding's seed field (a decode
 *                         message must never show it), or -1
 *   static int fuzz_instance_accepts(const sr_game *g, const int64_t *f, int n)
 *                         1 if a state whose encoding is f (already accepted
 *                         by decode) belongs to instance g, as the Python
 *                         layer's from_dict checks before it decodes
 *                         (Capivárias' expansion, Capulana's players).
 *
 * Input format (all integers little endian) - see docs in csrc/fuzz/README.md:
 *   byte 0        header: bits 0..5 choose the instance's parameters (an
 *                 index into every combination of the registry's parameter
 *                 ranges, modulo their count); bit 7 = after the step tail,
 *                 play on to the end of the game (light checks) to test that
 *                 it ends within info.max_game_length; bit 6 unused.
 *   bytes 1..2    field count k (u16, modulo SR_MAX_ENCODED + 1)
 *   8k bytes      k int64 fields, fed to g->decode (truncated when the
 *                 input is shorter: decode then sees the whole fields only)
 *   tail          steps of 2 bytes (u16 v), the first FZ_MAX_STEPS of them:
 *                   v >> 14 == 0 or 1: apply legal[(v & 0x7fff) % n]
 *                   v >> 14 == 2     : raw id (v & 0x3fff) % (A + 8) - 4 (A =
 *                                      num_distinct_actions) through
 *                                      sr_apply_checked: refused (range,
 *                                      terminal, illegal) exactly as the legal
 *                                      mask says, and then the state unchanged
 *                                      byte for byte
 *                   v >> 12 == 0xC   : continue from determinize(p, seed),
 *                                      p = (v & 0xff) % players
 *                   v >> 12 == 0xD..F: apply legal[(v & 0xfff) % n]
 */
#ifndef TABULEIRO_FUZZ_COMMON_H
#define TABULEIRO_FUZZ_COMMON_H
#include "game.h"
#include "load_game.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_MAX_INSTANCES 16

typedef struct {
    const sr_game_def *def;
    tl_game loaded;               /* the rules every instance shares (read only) */
    int n_inst;
    sr_game inst[FZ_MAX_INSTANCES];
    int params[FZ_MAX_INSTANCES][SR_MAX_PARAMS];
} fz_world;

static fz_world fz_w;
static const uint8_t fz_zeros[1 << 16];   /* more than any num_distinct_actions */

/* ---- reporting -------------------------------------------------------------- */

typedef struct {
    const sr_game *g;
    int inst;                     /* index of the instance (its parameters) */
    int steps;                    /* actions since the decoded (or determinized) state */
    int total;                    /* actions applied by this input */
    const void *state;            /* the state being checked, for the report */
    uint64_t hash;                /* of the whole input: the determinize seeds */
} fz_ctx;

static void fz_dump_state(const sr_game *g, const void *state) {
    int64_t enc[SR_MAX_ENCODED];
    int k = g->encode(g->rules, state, enc, SR_MAX_ENCODED);
    fprintf(stderr, "  state encoding (%d fields):", k);
    for (int i = 0; i < k; ++i) fprintf(stderr, " %lld", (long long)enc[i]);
    fprintf(stderr, "\n");
}

static void fz_fail(const fz_ctx *c, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void fz_fail(const fz_ctx *c, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "\n==FUZZ INVARIANT FAILED== %s", fz_w.def ? fz_w.def->name : "?");
    if (c && fz_w.def) {
        fprintf(stderr, " [");
        for (int i = 0; i < fz_w.def->num_params; ++i)
            fprintf(stderr, "%s%s=%d", i ? ", " : "", fz_w.def->params[i].name, fz_w.params[c->inst][i]);
        fprintf(stderr, "] after %d actions (%d since the last decode/determinize)", c->total, c->steps);
    }
    fprintf(stderr, ": ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (c && c->state) fz_dump_state(c->g, c->state);
    fflush(stderr);
    abort();
}

#define FZ_CHECK(c, cond, ...) do { if (!(cond)) fz_fail((c), __VA_ARGS__); } while (0)

/* ---- set-up --------------------------------------------------------------- */

/* Load the game's rules once and make one instance per parameter combination. */
static void fz_setup(void) {
    if (fz_w.def) return;
    if (tl_load(&fz_w.loaded, FUZZ_GAME, NULL) != 0) {
        fprintf(stderr, "fuzz: cannot load %s (set TABULEIRO_DATA_DIR)\n", FUZZ_GAME);
        abort();
    }
    const sr_game_def *def = fz_w.loaded.def;
    int total = tl_param_combinations(def);
    if (total > FZ_MAX_INSTANCES) { fprintf(stderr, "fuzz: too many parameter combinations\n"); abort(); }
    for (int k = 0; k < total; ++k) {
        tl_params_at(def, k, fz_w.params[k]);
        if (tl_make(&fz_w.loaded, fz_w.params[k], &fz_w.inst[k]) != 0) abort();
    }
    fz_w.n_inst = total;
    fz_w.def = def;
}

/* ---- helpers ---------------------------------------------------------------- */

static inline uint64_t fz_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline int64_t fz_i64(const uint8_t *p) {
    uint64_t u = 0;
    for (int i = 7; i >= 0; --i) u = u << 8 | p[i];
    int64_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Encode s into out (SR_MAX_ENCODED long), checking the count. */
static int fz_encode(const fz_ctx *c, const void *s, int64_t *out) {
    const sr_game *g = c->g;
    int k = g->encode(g->rules, s, out, SR_MAX_ENCODED);
    FZ_CHECK(c, k > 0 && k <= SR_MAX_ENCODED, "encode returned %d (want 1..%d)", k, SR_MAX_ENCODED);
    return k;
}

/* decode(enc) must succeed and re-encode to exactly enc; the state goes to out. */
static void fz_redecode(const fz_ctx *c, const int64_t *enc, int k, void *out, const char *what) {
    const sr_game *g = c->g;
    char msg[SR_MSG_LEN];
    msg[0] = 0;
    int rc = g->decode(g->rules, enc, k, out, msg, sizeof msg);
    FZ_CHECK(c, rc == SR_OK, "%s does not re-decode: rc %d: %s", what, rc, msg);
    int64_t again[SR_MAX_ENCODED];
    int k2 = g->encode(g->rules, out, again, SR_MAX_ENCODED);
    FZ_CHECK(c, k2 == k, "%s re-encodes to %d fields after decode, not %d", what, k2, k);
    for (int i = 0; i < k; ++i)
        FZ_CHECK(c, again[i] == enc[i], "%s re-encodes differently after decode: field %d is %lld, was %lld", what, i,
                 (long long)again[i], (long long)enc[i]);
}

/* The facts of a state that must agree between two states with equal encodings. */
typedef struct {
    int cur, n;
    int legal[SR_MAX_LEGAL];
    double ret[SR_MAX_PLAYERS];
    int score[SR_MAX_PLAYERS];
    uint64_t key[SR_MAX_PLAYERS];
} fz_facts;

static void fz_facts_of(const sr_game *g, const void *s, fz_facts *f) {
    const int np = g->info.num_players;
    f->cur = g->current_player(g->rules, s);
    f->n = g->legal_actions(g->rules, s, f->legal);
    for (int p = 0; p < SR_MAX_PLAYERS; ++p) { f->ret[p] = 0; f->score[p] = 0; f->key[p] = 0; }
    g->returns(g->rules, s, f->ret);
    g->scores(g->rules, s, f->score);
    for (int p = 0; p < np; ++p) f->key[p] = g->infostate_key(g->rules, s, p);
}

static void fz_same_facts(const fz_ctx *c, const fz_facts *a, const fz_facts *b, const char *what) {
    const int np = c->g->info.num_players;
    FZ_CHECK(c, a->cur == b->cur, "%s: current player %d, but %d in the original", what, b->cur, a->cur);
    FZ_CHECK(c, a->n == b->n, "%s: %d legal actions, but %d in the original", what, b->n, a->n);
    for (int i = 0; i < a->n && i < SR_MAX_LEGAL; ++i)
        FZ_CHECK(c, a->legal[i] == b->legal[i], "%s: legal action %d is %d, but %d in the original", what, i, b->legal[i],
                 a->legal[i]);
    for (int p = 0; p < np; ++p) {
        FZ_CHECK(c, a->ret[p] == b->ret[p] || (isnan(a->ret[p]) && isnan(b->ret[p])),
                 "%s: returns[%d] %g, but %g in the original", what, p, b->ret[p], a->ret[p]);
        FZ_CHECK(c, a->score[p] == b->score[p], "%s: scores[%d] %d, but %d in the original", what, p, b->score[p],
                 a->score[p]);
        FZ_CHECK(c, a->key[p] == b->key[p], "%s: infostate_key(%d) differs from the original's", what, p);
    }
}

/* ---- the per-state checks ----------------------------------------------------- */

typedef struct {
    int cur, n, terminal;
    int legal[SR_MAX_LEGAL];
    uint8_t *mask;                /* num_distinct_actions bytes (heap: ASan sees overruns) */
    float *obs, *obs2;            /* observation_size floats each (heap, exact size) */
    sr_state_buf redecoded;       /* decode(encode(s)) */
} fz_view;

/* The light checks: current player, legal list, mask, returns, length bound. */
static void fz_check_light(fz_ctx *c, const void *s, fz_view *v) {
    const sr_game *g = c->g;
    const int np = g->info.num_players, A = g->info.num_distinct_actions;
    c->state = s;
    v->cur = g->current_player(g->rules, s);
    v->terminal = v->cur == SR_TERMINAL;
    FZ_CHECK(c, v->terminal || (v->cur >= 0 && v->cur < np), "current_player is %d (players %d)", v->cur, np);
    v->n = g->legal_actions(g->rules, s, v->legal);
    FZ_CHECK(c, v->n >= 0 && v->n <= SR_MAX_LEGAL, "legal_actions returned %d (SR_MAX_LEGAL %d)", v->n, SR_MAX_LEGAL);
    FZ_CHECK(c, (v->n == 0) == v->terminal, "%d legal actions in a %s state", v->n, v->terminal ? "terminal" : "non-terminal");
    for (int i = 0; i < v->n; ++i) {
        FZ_CHECK(c, v->legal[i] >= 0 && v->legal[i] < A, "legal action %d is %d, not in [0, %d)", i, v->legal[i], A);
        FZ_CHECK(c, i == 0 || v->legal[i] > v->legal[i - 1], "legal actions not sorted and unique: %d after %d",
                 v->legal[i], v->legal[i - 1]);
    }
    FZ_CHECK(c, !v->terminal || c->steps <= g->info.max_game_length, "the game took %d actions (max_game_length %d)",
             c->steps, g->info.max_game_length);
    FZ_CHECK(c, v->terminal || c->steps < g->info.max_game_length,
             "the game is not over after %d actions (max_game_length %d)", c->steps, g->info.max_game_length);
    int m = sr_legal_mask(g, s, v->mask);
    FZ_CHECK(c, m == v->n, "sr_legal_mask counts %d, legal_actions %d", m, v->n);
    for (int i = 0; i < v->n; ++i) {
        FZ_CHECK(c, v->mask[v->legal[i]] == 1, "sr_legal_mask misses %d", v->legal[i]);
        v->mask[v->legal[i]] = 0;
    }
    if (memcmp(v->mask, fz_zeros, (size_t)A) != 0) {   /* nothing else marked */
        int a = 0;
        while (a < A && !v->mask[a]) ++a;
        fz_fail(c, "sr_legal_mask marks %d, which legal_actions does not list", a);
    }
    for (int i = 0; i < v->n; ++i) v->mask[v->legal[i]] = 1;
    double ret[SR_MAX_PLAYERS];
    for (int p = 0; p < SR_MAX_PLAYERS; ++p) ret[p] = -12345.5;   /* entries past num_players stay */
    g->returns(g->rules, s, ret);
    for (int p = 0; p < np; ++p) {
        FZ_CHECK(c, isfinite(ret[p]) && ret[p] >= g->info.min_utility && ret[p] <= g->info.max_utility,
                 "returns[%d] = %g is not in [%g, %g]", p, ret[p], g->info.min_utility, g->info.max_utility);
        FZ_CHECK(c, v->terminal || ret[p] == 0.0, "returns[%d] = %g before the game is over", p, ret[p]);
    }
    for (int p = np; p < SR_MAX_PLAYERS; ++p) FZ_CHECK(c, ret[p] == -12345.5, "returns wrote entry %d (players %d)", p, np);
}

/* The full checks: the light ones, then notation, the codec round trip (and
 * that the re-decoded state behaves alike), the scores, and determinize. */
static void fz_check_full(fz_ctx *c, const void *s, fz_view *v) {
    const sr_game *g = c->g;
    const int np = g->info.num_players, A = g->info.num_distinct_actions;
    fz_check_light(c, s, v);
    int sc[SR_MAX_PLAYERS];
    for (int p = 0; p < SR_MAX_PLAYERS; ++p) sc[p] = -12345;
    g->scores(g->rules, s, sc);
    for (int p = np; p < SR_MAX_PLAYERS; ++p) FZ_CHECK(c, sc[p] == -12345, "scores wrote entry %d (players %d)", p, np);
    /* notation of every legal action */
    for (int i = 0; i < v->n; ++i) {
        char buf[128];
        buf[0] = 0;
        int len = g->action_to_string(g->rules, v->legal[i], buf, sizeof buf);
        FZ_CHECK(c, len > 0 && len < (int)sizeof buf && (int)strlen(buf) == len,
                 "action_to_string(%d) returned %d (\"%s\")", v->legal[i], len, buf);
    }
    const int periodic = c->total % 8 == 0;   /* the heap-buffer probes: every 8th state */
    if (v->n && periodic) {   /* into a tiny buffer: truncated, never overrun, same length */
        char *tiny = malloc(4), full[128];
        int a = v->legal[(c->hash >> 7) % (uint64_t)v->n];
        int len = g->action_to_string(g->rules, a, full, sizeof full);
        int len4 = g->action_to_string(g->rules, a, tiny, 4);
        FZ_CHECK(c, len4 == len && memchr(tiny, 0, 4) != NULL, "action_to_string(%d) into 4 bytes returned %d (%d in full)",
                 a, len4, len);
        free(tiny);
    }
    /* the codec */
    int64_t enc[SR_MAX_ENCODED];
    int k = fz_encode(c, s, enc);
    if (periodic) {   /* one field short: -SR_E_RANGE, and nothing written past max */
        int64_t *shortbuf = malloc(sizeof(int64_t) * (size_t)k);
        int r = g->encode(g->rules, s, shortbuf, k - 1);
        FZ_CHECK(c, r == -SR_E_RANGE, "encode with max %d (the state has %d fields) returned %d", k - 1, k, r);
        free(shortbuf);
    }
    fz_redecode(c, enc, k, v->redecoded.b, "the state");
    fz_facts a, b;
    fz_facts_of(g, s, &a);
    fz_facts_of(g, v->redecoded.b, &b);
    fz_same_facts(c, &a, &b, "decode(encode(state))");
    /* determinize: a loadable state, the same view and player to move; a
     * function of the view and the seed only (the re-decoded state has the
     * same view); the mover's legal actions are part of their view */
    for (int p = 0; p < np; ++p) {
        uint64_t seed = fz_mix(c->hash ^ (uint64_t)c->total * 0x100000001B3ULL ^ (uint64_t)p << 56);
        sr_state_buf d1, d2, d3;
        g->determinize(g->rules, s, p, seed, d1.b);
        int64_t e1[SR_MAX_ENCODED], e2[SR_MAX_ENCODED];
        int k1 = fz_encode(c, d1.b, e1);
        if (p == c->total % np) {   /* one player a step: the same from an equal state */
            g->determinize(g->rules, v->redecoded.b, p, seed, d2.b);
            int k2 = fz_encode(c, d2.b, e2);
            FZ_CHECK(c, k1 == k2 && memcmp(e1, e2, sizeof(int64_t) * (size_t)k1) == 0,
                     "determinize(%d) differs between the state and decode(encode(state)) (same view, same seed)", p);
            /* observation(p): every float written, and a function of the view:
             * equal for decode(encode(state)) and for determinize(p) */
            const int no = g->info.observation_size;
            for (int i = 0; i < no; ++i) v->obs[i] = NAN;
            g->observation(g->rules, s, p, v->obs);
            for (int i = 0; i < no; ++i)
                FZ_CHECK(c, isfinite(v->obs[i]), "observation(%d) leaves float %d unwritten (or not finite)", p, i);
            g->observation(g->rules, v->redecoded.b, p, v->obs2);
            for (int i = 0; i < no; ++i)
                FZ_CHECK(c, v->obs2[i] == v->obs[i], "observation(%d) float %d differs for decode(encode(state))", p, i);
            g->observation(g->rules, d1.b, p, v->obs2);
            for (int i = 0; i < no; ++i)
                FZ_CHECK(c, v->obs2[i] == v->obs[i], "observation(%d) float %d differs for determinize(%d) (same view)", p,
                         i, p);
        }
        char what[48];
        snprintf(what, sizeof what, "determinize(%d)", p);
        fz_redecode(c, e1, k1, d3.b, what);
        int cur = g->current_player(g->rules, d1.b);
        FZ_CHECK(c, cur == v->cur, "determinize(%d): current player %d, the state's %d", p, cur, v->cur);
        FZ_CHECK(c, g->infostate_key(g->rules, d1.b, p) == a.key[p], "determinize(%d) changes infostate_key(%d)", p, p);
        if (p == v->cur) {
            int legal[SR_MAX_LEGAL];
            int n = g->legal_actions(g->rules, d1.b, legal);
            FZ_CHECK(c, n == v->n && memcmp(legal, v->legal, sizeof(int) * (size_t)n) == 0,
                     "determinize(%d) changes the legal actions of player %d, who is to move (%d, was %d)", p, p, n, v->n);
        }
    }
    (void)A;
}

/* Apply a (legal) action to s, and to the re-decoded copy: equal encodings after. */
static void fz_apply_legal(fz_ctx *c, void *s, fz_view *v, int a, int full) {
    const sr_game *g = c->g;
    g->apply(g->rules, s, a);
    c->steps++;
    c->total++;
    if (full && c->total % 4 == 1) {   /* every 4th action: apply acts alike on equal encodings */
        g->apply(g->rules, v->redecoded.b, a);
        int64_t e1[SR_MAX_ENCODED], e2[SR_MAX_ENCODED];
        int k1 = fz_encode(c, s, e1), k2 = fz_encode(c, v->redecoded.b, e2);
        FZ_CHECK(c, k1 == k2 && memcmp(e1, e2, sizeof(int64_t) * (size_t)k1) == 0,
                 "action %d gives different states from the state and from decode(encode(state))", a);
    }
}

/* A raw id through sr_apply_checked: the answer the mask predicts; a refused id
 * leaves the state unchanged byte for byte, an accepted one acts as apply. */
static void fz_apply_raw(fz_ctx *c, void *s, fz_view *v, int id) {
    const sr_game *g = c->g;
    const int A = g->info.num_distinct_actions;
    const size_t size = g->info.state_size;
    int want = id < 0 || id >= A ? SR_E_RANGE : v->terminal ? SR_E_TERMINAL : v->mask[id] ? SR_OK : SR_E_ILLEGAL;
    sr_state_buf before, expect;
    memcpy(before.b, s, size);
    int rc = sr_apply_checked(g, s, id);
    FZ_CHECK(c, rc == want, "sr_apply_checked(%d) returned %d, the legal mask says %d", id, rc, want);
    if (rc != SR_OK) {
        FZ_CHECK(c, memcmp(before.b, s, size) == 0, "sr_apply_checked(%d) refused (%d) but changed the state", id, rc);
        if (id >= 0 && id < A) {   /* notation works for any id of the game */
            char buf[128];
            int len = g->action_to_string(g->rules, id, buf, sizeof buf);
            FZ_CHECK(c, len > 0 && len < (int)sizeof buf, "action_to_string(%d) returned %d", id, len);
        } else {
            char buf[16];
            int len = g->action_to_string(g->rules, id, buf, sizeof buf);
            FZ_CHECK(c, len == -SR_E_RANGE, "action_to_string(%d) of an id out of range returned %d", id, len);
        }
        return;
    }
    memcpy(expect.b, before.b, size);
    g->apply(g->rules, expect.b, id);
    FZ_CHECK(c, memcmp(expect.b, s, size) == 0, "sr_apply_checked(%d) and apply(%d) give different states", id, id);
    c->steps++;
    c->total++;
}

/* ---- one input ---------------------------------------------------------------- */

#define FZ_PLAYOUT_FLAG 0x80
#define FZ_MAX_STEPS 12           /* tail steps read per input (bounds the time of one run) */

static int fz_run(const uint8_t *data, size_t size) {
    fz_setup();
    if (size < 3) return 0;
    uint64_t h = 0xCBF29CE484222325ULL;   /* FNV-1a of the input: the determinize seeds */
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001B3ULL;
    const int inst = (data[0] & 0x3F) % fz_w.n_inst;
    const int playout = (data[0] & FZ_PLAYOUT_FLAG) != 0;
    const sr_game *g = &fz_w.inst[inst];
    fz_ctx c = {g, inst, 0, 0, NULL, h};
    size_t k = (size_t)(data[1] | data[2] << 8) % (SR_MAX_ENCODED + 1);
    size_t pos = 3;
    if (k > (size - pos) / 8) k = (size - pos) / 8;
    int64_t fields[SR_MAX_ENCODED + 1];
    for (size_t i = 0; i < k; ++i, pos += 8) fields[i] = fz_i64(data + pos);

    /* decode: SR_OK, or SR_E_STATE with a message that never shows the seed */
    sr_state_buf st;
    char msg[SR_MSG_LEN];
    memset(st.b, 0xA5, sizeof st.b);
    msg[0] = 0;
    int rc = g->decode(g->rules, fields, (int)k, st.b, msg, sizeof msg);
    if (rc != SR_OK) {
        FZ_CHECK(&c, rc == SR_E_STATE, "decode returned %d (want SR_OK or SR_E_STATE)", rc);
        FZ_CHECK(&c, memchr(msg, 0, sizeof msg) && msg[0], "decode refused the input without a message");
#if FUZZ_SEED_FIELD >= 0
        if ((int)k > FUZZ_SEED_FIELD) {
            int64_t sv = fields[FUZZ_SEED_FIELD];
            if (sv > 1000000 || sv < -1000000) {
                char a[32], b[32];
                snprintf(a, sizeof a, "%lld", (long long)sv);
                snprintf(b, sizeof b, "%llu", (unsigned long long)sv);
                FZ_CHECK(&c, !strstr(msg, a) && !strstr(msg, b), "decode's message shows the seed: %s", msg);
            }
        }
#endif
        return 0;
    }
    {   /* accepted: it re-encodes to exactly its input */
        int64_t enc[SR_MAX_ENCODED];
        c.state = st.b;
        int n = fz_encode(&c, st.b, enc);
        FZ_CHECK(&c, n == (int)k, "decode accepted %d fields but the state encodes to %d", (int)k, n);
        for (int i = 0; i < n; ++i)
            FZ_CHECK(&c, enc[i] == fields[i], "decode accepted field %d = %lld but it re-encodes as %lld", i,
                     (long long)fields[i], (long long)enc[i]);
    }
    if (!fuzz_instance_accepts(g, fields, (int)k)) return 0;   /* from_dict refuses it for this instance */

    FZ_CHECK(&c, g->info.num_distinct_actions <= (int)sizeof fz_zeros, "num_distinct_actions %d is larger than the harness",
             g->info.num_distinct_actions);
    fz_view v;
    FZ_CHECK(&c, g->observation && g->info.observation_size > 0 && g->info.observation_size <= SR_MAX_OBSERVATION,
             "observation_size %d is not in [1, %d]", g->info.observation_size, SR_MAX_OBSERVATION);
    uint8_t *mask = malloc((size_t)g->info.num_distinct_actions);
    v.mask = mask;
    v.obs = malloc(sizeof(float) * (size_t)g->info.observation_size);
    v.obs2 = malloc(sizeof(float) * (size_t)g->info.observation_size);
    const int np = g->info.num_players, A = g->info.num_distinct_actions;
    for (int step = 0;; ++step) {
        fz_check_full(&c, st.b, &v);
        if (pos + 2 > size || step == FZ_MAX_STEPS) break;
        unsigned w = (unsigned)(data[pos] | data[pos + 1] << 8);
        pos += 2;
        if (w >> 14 == 2) {
            fz_apply_raw(&c, st.b, &v, (int)((w & 0x3FFF) % (unsigned)(A + 8)) - 4);
            continue;
        }
        if (v.terminal) break;
        if (w >> 12 == 0xC) {   /* continue from a determinization */
            int p = (int)((w & 0xFF) % (unsigned)np);
            sr_state_buf d;
            g->determinize(g->rules, st.b, p, fz_mix(h + (uint64_t)c.total * 31 + (uint64_t)w), d.b);
            memcpy(st.b, d.b, g->info.state_size);
            c.steps = 0;   /* a loadable state of its own: the length bound counts from it */
            continue;
        }
        unsigned idx = w >> 14 < 2 ? (w & 0x7FFF) : (w & 0xFFF);
        fz_apply_legal(&c, st.b, &v, v.legal[idx % (unsigned)v.n], 1);
    }
    if (playout) {   /* on to the end: it must come within max_game_length */
        uint64_t r = h;
        for (;;) {
            fz_check_light(&c, st.b, &v);
            if (v.terminal) break;
            fz_apply_legal(&c, st.b, &v, v.legal[fz_mix(r++) % (uint64_t)v.n], 0);
        }
        fz_check_full(&c, st.b, &v);
    }
    free(mask);
    free(v.obs);
    free(v.obs2);
    return 0;
}

#endif
