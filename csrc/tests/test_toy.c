/* test_toy.c - the C core's own test of Toy through the game contract: the
 * registry entry (found by name, rules loaded with no data text, the
 * instance made), then N random games played through the sr_game table.
 * At every state it checks the legal ids (sorted, unique, in range, with
 * notation, the mask), illegal and out-of-range ids (refused, state
 * untouched), the codec (encode -> decode -> encode is the identity, the
 * decoded state is the same bytes), returns and scores, determinize for both
 * players (the infostate key is kept, the view is kept, the result depends
 * only on the view and the seed), the policy; at a sample of states it
 * mutates the encoding (decode must fail with a message that shows no large
 * input value, or accept a state that re-encodes to exactly the mutated
 * fields and plays to the end with every state accepted). Then the
 * determinization and the chance draw are checked for uniformity, decode
 * for hostile calls, and perft from the seed-1 initial state against an
 * independent count. Meant to run under -fsanitize=address,undefined.
 * Usage: test_toy [N]   (exit 0 = clean) */
#include "toy.h"
#include "search/policies.h"
#include "rng.h"
#include "load_game.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

static sr_game G;
static const sr_game_def *DEF;
static void *RULES;
static long n_actions, n_draws, n_refused, n_accepted, n_closure;

static int popc(unsigned x) { return __builtin_popcount(x); }

/* A message must not show any large input value (the seed, wherever it went). */
static int leaks(const char *msg, const int64_t *f, int n) {
    char num[32];
    for (int i = 0; i < n; ++i) {
        if (f[i] >= -1000000 && f[i] <= 1000000) continue;
        snprintf(num, sizeof num, "%lld", (long long)f[i]);
        if (strstr(msg, num)) return 1;
        snprintf(num, sizeof num, "%llu", (unsigned long long)f[i]);
        if (strstr(msg, num)) return 1;
    }
    return 0;
}

/* Codec round trip of s: decode(encode(s)) is s (same bytes) and re-encodes equally. */
static int check_codec(const void *s) {
    int64_t f[SR_MAX_ENCODED], f2[SR_MAX_ENCODED];
    sr_state_buf d;
    char msg[SR_MSG_LEN];
    int k = G.encode(G.rules, s, f, SR_MAX_ENCODED);
    CHECK(k > 0 && k <= TOY_MAX_ENCODED, "encode gave %d fields", k);
    CHECK(G.encode(G.rules, s, f2, k - 1) == -SR_E_RANGE, "encode into too small a buffer must fail");
    memset(d.b, 0xAB, sizeof d.b);
    CHECK(G.decode(G.rules, f, k, d.b, msg, sizeof msg) == SR_OK, "decode(encode(s)) failed: %s", msg);
    CHECK(memcmp(d.b, s, G.info.state_size) == 0, "decode(encode(s)) is not s");
    CHECK(G.encode(G.rules, d.b, f2, SR_MAX_ENCODED) == k && memcmp(f, f2, sizeof(int64_t) * (size_t)k) == 0,
          "encode(decode(encode(s))) != encode(s)");
    return 0;
}

/* Every check of one state (s is not modified). */
static int check_state(const void *s, uint64_t *rng) {
    const toy_state *ts = (const toy_state *)s;
    int buf[SR_MAX_LEGAL], buf2[SR_MAX_LEGAL];
    char name[64];
    uint8_t mask[TOY_CARDS];
    const int cp = G.current_player(G.rules, s);
    const int n = G.legal_actions(G.rules, s, buf);
    CHECK(cp == SR_TERMINAL || cp == 0 || cp == 1, "current player %d", cp);
    CHECK((cp == SR_TERMINAL) == (n == 0), "terminal %d but %d legal actions", cp == SR_TERMINAL, n);
    CHECK(sr_legal_mask(&G, s, mask) == n, "mask count");
    unsigned seen = 0;
    for (int i = 0; i < n; ++i) {
        CHECK(buf[i] >= 0 && buf[i] < G.info.num_distinct_actions, "legal id %d out of range", buf[i]);
        CHECK(i == 0 || buf[i] > buf[i - 1], "legal ids not sorted and unique");
        CHECK(ts->hand[cp] & (1u << buf[i]), "legal id %d is not in the mover's hand", buf[i]);
        CHECK(mask[buf[i]] == 1, "mask misses a legal id");
        int len = G.action_to_string(G.rules, buf[i], name, sizeof name);
        CHECK(len > 0 && (size_t)len == strlen(name) && atoi(name + 5) == buf[i] + 1 && strncmp(name, "play ", 5) == 0,
              "notation of %d: %s", buf[i], name);
        seen |= 1u << buf[i];
    }
    if (cp != SR_TERMINAL) CHECK(seen == ts->hand[cp], "legal ids are not the mover's hand");
    /* illegal and out-of-range ids are refused and leave the state alone */
    sr_state_buf c;
    for (int a = -1; a <= TOY_CARDS; ++a) {
        if (a >= 0 && a < TOY_CARDS && (seen & (1u << a))) continue;
        memcpy(c.b, s, G.info.state_size);
        int rc = sr_apply_checked(&G, c.b, a);
        int want = a < 0 || a >= TOY_CARDS ? SR_E_RANGE : cp == SR_TERMINAL ? SR_E_TERMINAL : SR_E_ILLEGAL;
        CHECK(rc == want, "apply_checked(%d) = %d, want %d", a, rc, want);
        CHECK(memcmp(c.b, s, G.info.state_size) == 0, "a refused action changed the state");
    }
    CHECK(G.action_to_string(G.rules, -1, name, sizeof name) == -SR_E_RANGE, "notation of -1");
    CHECK(G.action_to_string(G.rules, TOY_CARDS, name, sizeof name) == -SR_E_RANGE, "notation of 6");
    /* returns and scores */
    double ret[2];
    int sc[2];
    G.returns(G.rules, s, ret);
    G.scores(G.rules, s, sc);
    CHECK(sc[0] >= 0 && sc[0] <= 2 * 21 && sc[1] >= 0 && sc[1] <= 2 * 21, "scores %d %d", sc[0], sc[1]);
    if (cp != SR_TERMINAL) {
        CHECK(ret[0] == 0.0 && ret[1] == 0.0, "returns before the end");
    } else {
        double want = sc[0] > sc[1] ? 1.0 : sc[0] < sc[1] ? -1.0 : 0.0;
        CHECK(ret[0] == want && ret[1] == -want, "returns %g %g for scores %d %d", ret[0], ret[1], sc[0], sc[1]);
    }
    if (check_codec(s)) return 1;
    /* determinize: the view and its key kept, only view and seed matter */
    for (int p = 0; p < 2; ++p) {
        sr_state_buf d, d2, e;
        uint64_t seed = rng_draw(rng);
        G.determinize(G.rules, s, p, seed, d.b);
        const toy_state *td = (const toy_state *)d.b;
        CHECK(G.infostate_key(G.rules, d.b, p) == G.infostate_key(G.rules, s, p), "determinize changed player %d's key", p);
        CHECK(td->to_move == ts->to_move && td->hand[p] == ts->hand[p] && popc(td->hand[1 - p]) == popc(ts->hand[1 - p]) &&
              popc(td->stock) == popc(ts->stock) && td->n_pile[0] == ts->n_pile[0] && td->n_pile[1] == ts->n_pile[1] &&
              memcmp(td->pile, ts->pile, sizeof td->pile) == 0, "determinize changed player %d's view", p);
        if (check_codec(d.b)) return 1;
        CHECK(p != cp || (G.legal_actions(G.rules, d.b, buf2) == n && memcmp(buf, buf2, sizeof(int) * (size_t)n) == 0),
              "determinize for the mover changed the legal actions");
        G.determinize(G.rules, d.b, p, seed, d2.b);   /* same view, same seed: same world */
        CHECK(memcmp(d.b, d2.b, G.info.state_size) == 0, "determinize depends on more than the view and the seed");
        G.determinize(G.rules, s, p, seed ^ 1, e.b);
        CHECK(G.infostate_key(G.rules, e.b, p) == G.infostate_key(G.rules, s, p), "key");
    }
    /* the policy */
    if (n > 0) {
        int gi = DEF->policy->greedy_index(G.rules, s, buf, n, rng);
        int hi = DEF->policy->heuristic_action(G.rules, s, buf, n, rng);
        CHECK(gi >= 0 && gi < n && hi >= 0 && hi < n, "policy index out of range");
    }
    return 0;
}

/* Play s (accepted by decode) to the end uniformly, every state accepted. */
static int play_out(void *s, uint64_t *rng) {
    int buf[SR_MAX_LEGAL];
    for (int steps = 0; G.current_player(G.rules, s) != SR_TERMINAL; ++steps) {
        CHECK(steps < G.info.max_game_length, "a decoded state plays longer than max_game_length");
        int n = G.legal_actions(G.rules, s, buf);
        CHECK(n > 0, "a decoded unfinished state has no legal action");
        CHECK(sr_apply_checked(&G, s, buf[rng_pick(rng, (uint32_t)n)]) == SR_OK, "legal action refused");
        if (check_codec(s)) return 1;
    }
    return 0;
}

/* One random change of f[0..k) into g; the new length. */
static int mutate(const int64_t *f, int k, int64_t *g, uint64_t *rng) {
    static const int64_t values[] = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 100, INT64_MAX, INT64_MIN, 5000000000LL};
    memcpy(g, f, sizeof(int64_t) * (size_t)k);
    int rounds = 1 + (int)rng_below(rng, 3);
    for (int r = 0; r < rounds; ++r) {
        int i = k ? (int)rng_below(rng, (uint32_t)k) : 0;
        int64_t v = rng_below(rng, 5) == 0 ? (int64_t)rng_draw(rng)
                                            : values[rng_below(rng, sizeof values / sizeof values[0])];
        switch (rng_below(rng, 6)) {
        case 0: if (k) g[i] = v; break;                                            /* change a field */
        case 1: k = k ? (int)rng_below(rng, (uint32_t)k) : 0; break;               /* truncate */
        case 2: if (k < 32) g[k++] = v; break;                                     /* append */
        case 3: if (k) { memmove(g + i, g + i + 1, sizeof(int64_t) * (size_t)(k - i - 1)); --k; } break;   /* delete */
        case 4: if (k < 32) { memmove(g + i + 1, g + i, sizeof(int64_t) * (size_t)(k - i)); g[i] = v; ++k; } break;
        default: if (k) { int j = (int)rng_below(rng, (uint32_t)k); int64_t t = g[i]; g[i] = g[j]; g[j] = t; } break;
        }
    }
    return k;
}

static int check_mutations(const void *s, uint64_t *rng) {
    int64_t f[SR_MAX_ENCODED], g[64], h[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    sr_state_buf d;
    int k = G.encode(G.rules, s, f, SR_MAX_ENCODED);
    for (int t = 0; t < 4; ++t) {
        int m = mutate(f, k, g, rng);
        memset(d.b, 0xAB, sizeof d.b);
        msg[0] = 0;
        int rc = G.decode(G.rules, g, m, d.b, msg, sizeof msg);
        if (rc != SR_OK) {
            CHECK(rc == SR_E_STATE, "decode failed with %d", rc);
            CHECK(msg[0], "decode failed without a message");
            CHECK(!leaks(msg, g, m), "decode message shows an input value: %s", msg);
            for (size_t b = 0; b < sizeof d.b; ++b) CHECK(d.b[b] == 0xAB, "a failed decode wrote the state");
            ++n_refused;
            continue;
        }
        ++n_accepted;
        CHECK(G.encode(G.rules, d.b, h, SR_MAX_ENCODED) == m && memcmp(g, h, sizeof(int64_t) * (size_t)m) == 0,
              "an accepted mutated encoding does not re-encode to itself");
        for (size_t b = G.info.state_size; b < sizeof d.b; ++b) CHECK(d.b[b] == 0xAB, "decode wrote past the state");
        if (check_state(d.b, rng) || play_out(d.b, rng)) return 1;
        ++n_closure;
    }
    return 0;
}

static uint64_t count(const void *s, int depth) {
    if (depth == 0) return 1;
    int buf[SR_MAX_LEGAL];
    int n = G.legal_actions(G.rules, s, buf);
    uint64_t total = 0;
    for (int i = 0; i < n; ++i) {
        sr_state_buf c;
        memcpy(c.b, s, G.info.state_size);
        G.apply(G.rules, c.b, buf[i]);
        total += count(c.b, depth - 1);
    }
    return total;
}

static int check_hostile_decode(void) {
    char msg[SR_MSG_LEN];
    sr_state_buf d;
    int64_t f[16] = {0};
    CHECK(G.decode(G.rules, NULL, 5, d.b, msg, sizeof msg) == SR_E_STATE, "NULL input");
    CHECK(G.decode(G.rules, f, -3, d.b, msg, sizeof msg) == SR_E_STATE, "negative n");
    CHECK(G.decode(G.rules, f, 0, d.b, NULL, 0) == SR_E_STATE, "no message room");
    CHECK(G.decode(G.rules, f, 16, d.b, msg, 1) == SR_E_STATE && msg[0] == 0, "a 1-byte message");
    CHECK(G.decode(G.rules, f, 16, NULL, msg, sizeof msg) == SR_E_STATE, "NULL state");
    /* messages the Python tests match on */
    const struct { int n; int64_t f[16]; const char *want; } cases[] = {
        {1, {0}, "the encoding ends early (after 1 fields)"},
        {2, {2, 0}, "to_move must be an integer in [0, 1] or null, not 2"},
        {3, {0, 0, 9}, "hands[0] count must be an integer in [0, 6], not 9"},
        {4, {0, 0, 1, 6}, "hands[0]: unknown card id 6"},
        {5, {0, 0, 2, 3, 1}, "hands[0]: cards must be listed in ascending order (2 after 4)"},
        {6, {0, 0, 1, 0, 1, 0}, "card 1 is in two places (hands[0] and hands[1])"},
        {13, {0, 0, 2, 0, 1, 2, 2, 3, 2, 4, 5, 0, 0}, NULL},
        {14, {0, 0, 2, 0, 1, 2, 2, 3, 2, 4, 5, 0, 0, 0}, "the encoding has 1 fields after the state"},
        {12, {0, 0, 2, 0, 1, 2, 2, 3, 1, 4, 0, 0}, "cards missing from the state: 6"},
        {13, {1, 0, 2, 0, 1, 0, 2, 4, 5, 2, 2, 3, 0}, "player 1 is to move but holds no card"},
        {13, {-1, 0, 2, 0, 1, 0, 0, 3, 2, 3, 4, 1, 5}, "the game is over (to_move is null) but player 0 still holds cards"},
        {13, {-1, 0, 0, 0, 0, 3, 5, 4, 3, 3, 0, 1, 2}, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        msg[0] = 0;
        int rc = G.decode(G.rules, cases[i].f, cases[i].n, d.b, msg, sizeof msg);
        if (!cases[i].want) {
            CHECK(rc == SR_OK, "case %zu refused: %s", i, msg);
            continue;
        }
        CHECK(rc == SR_E_STATE && strncmp(msg, cases[i].want, strlen(cases[i].want)) == 0, "case %zu: got '%s', want '%s'",
              i, msg, cases[i].want);
    }
    return 0;
}

/* Uniformity: determinize splits the unseen cards uniformly, the chance
 * draw takes each stock card equally often. */
static int check_uniform(void) {
    sr_state_buf s, d;
    G.new_initial_state(&G, s.b, 1);
    const toy_state *ts = (const toy_state *)s.b;
    long hist[64] = {0};
    const int trials = 60000;
    for (int t = 0; t < trials; ++t) {
        G.determinize(G.rules, s.b, 0, (uint64_t)t * 7919 + 1, d.b);
        hist[((const toy_state *)d.b)->hand[1]]++;
    }
    int splits = 0;
    for (int m = 0; m < 64; ++m) {
        if (!hist[m]) continue;
        ++splits;
        CHECK((m & ts->hand[0]) == 0 && popc((unsigned)m) == 2, "determinize gave player 1 a seen card");
        CHECK(hist[m] > trials / 6 * 95 / 100 && hist[m] < trials / 6 * 105 / 100, "determinize is not uniform: %ld", hist[m]);
    }
    CHECK(splits == 6, "determinize reached %d of the 6 splits", splits);
    /* the draw: from one deal, vary the generator word, count what player 0 draws */
    long drawn[TOY_CARDS] = {0};
    int buf[SR_MAX_LEGAL];
    for (int t = 0; t < trials; ++t) {
        sr_state_buf c = s;
        ((toy_state *)c.b)->rng = (uint64_t)t * 0x9E3779B97F4A7C15ULL;
        G.legal_actions(G.rules, c.b, buf);
        G.apply(G.rules, c.b, buf[0]);
        unsigned got = ((const toy_state *)c.b)->hand[0] & ~ts->hand[0];
        CHECK(popc(got) == 1 && (got & ts->stock), "the draw did not take one stock card");
        drawn[__builtin_ctz(got)]++;
    }
    for (int c = 0; c < TOY_CARDS; ++c)
        if (ts->stock & (1u << c))
            CHECK(drawn[c] > trials / 2 * 97 / 100 && drawn[c] < trials / 2 * 103 / 100, "the draw is not uniform: %ld", drawn[c]);
    return 0;
}

int main(int argc, char **argv) {
    long games = argc > 1 ? atol(argv[1]) : 10000;
    char msg[SR_MSG_LEN];
    tl_game loaded;   /* found by name, rules loaded with no data text (load_game.h) */
    CHECK(tl_load(&loaded, "toy", NULL) == 0 && tl_make(&loaded, NULL, &G) == 0, "toy cannot be loaded");
    DEF = loaded.def;
    RULES = loaded.rules;
    CHECK(DEF->num_data == 0 && DEF->num_params == 0 && DEF->policy == &toy_policy, "registry entry");
    CHECK(strcmp(G.info.name, "toy") == 0 && G.info.num_players == 2 && G.info.num_distinct_actions == 6 &&
          G.info.min_utility == -1.0 && G.info.max_utility == 1.0 && G.info.max_game_length == 6 &&
          G.info.hidden_information == 1 && G.info.state_size == sizeof(toy_state), "game info");
    {
        toy_rules blank;
        sr_game g2;
        memset(&blank, 0, sizeof blank);
        CHECK(toy_make_game(&blank, NULL, &g2, msg, sizeof msg) == SR_E_STATE, "make on unloaded rules");
    }
    if (check_hostile_decode() || check_uniform()) return 1;

    uint64_t rng = 12345;
    int buf[SR_MAX_LEGAL];
    for (long i = 0; i < games; ++i) {
        sr_state_buf s, s2;
        uint64_t seed = rng_draw(&rng);
        G.new_initial_state(&G, s.b, seed);
        G.new_initial_state(&G, s2.b, seed);
        CHECK(memcmp(s.b, s2.b, G.info.state_size) == 0, "new_initial_state is not deterministic");
        const toy_state *ts = (const toy_state *)s.b;
        CHECK(popc(ts->hand[0]) == 2 && popc(ts->hand[1]) == 2 && popc(ts->stock) == 2 && ts->to_move == 0, "deal");
        int steps = 0;
        for (;;) {
            if (check_state(s.b, &rng)) return 1;
            if ((i & 7) == 0 && check_mutations(s.b, &rng)) return 1;
            if (G.current_player(G.rules, s.b) == SR_TERMINAL) break;
            int n = G.legal_actions(G.rules, s.b, buf);
            CHECK(sr_apply_checked(&G, s.b, buf[rng_pick(&rng, (uint32_t)n)]) == SR_OK, "legal action refused");
            ++steps;
            ++n_actions;
        }
        CHECK(steps == G.info.max_game_length, "a game took %d actions", steps);
        double ret[2];
        G.returns(G.rules, s.b, ret);
        if (ret[0] == 0.0) ++n_draws;
    }

    sr_state_buf root;
    G.new_initial_state(&G, root.b, 1);
    printf("perft from the seed-1 initial state:");
    for (int depth = 1; depth <= 7; ++depth) {
        int rc;
        uint64_t nodes = sr_perft(&G, root.b, depth, NULL, &rc);
        CHECK(rc == SR_OK && nodes == count(root.b, depth), "perft(%d) = %" PRIu64 ", counted %" PRIu64, depth, nodes,
              count(root.b, depth));
        printf(" %d:%" PRIu64, depth, nodes);
    }
    printf("\n");
    sr_playout_stats st;
    CHECK(sr_random_playouts(&G, 1000, 7, NULL, &st) == SR_OK && st.games == 1000 && st.actions == 6000, "random playouts");
    tl_free(&loaded);
    printf("toy: %ld games, %ld actions, %ld draws, %ld mutated encodings refused, %ld accepted, %ld closure games: "
           "1 passed, 0 failed\n", games, n_actions, n_draws, n_refused, n_accepted, n_closure);
    return 0;
}
