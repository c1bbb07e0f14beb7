/* test_search.c - the searches under sanitizers, over every registered game:
 * flatmc, mcts and ismcts with 1 and 2 threads from random positions, with
 * small node caps (so trees hit the cap), checking statistics and
 * determinism; budgets smaller than the thread count, parameter errors, the
 * stop flag. Built with -fsanitize=address,undefined or -fsanitize=thread.
 * Usage: test_search DATA_DIR [positions] */
#include <inttypes.h>

#include "game.h"
#include "rng.h"
#include "search/search.h"
#include "search/policies.h"
#include "capivarias.h"
#include "load_game.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

static sr_result a, b;

static int test_game(const sr_game_def *def, const char *dir, int positions, int *searches) {
    tl_game t;
    sr_game g;
    CHECK(tl_load(&t, def->name, dir) == 0 && tl_make(&t, NULL, &g) == 0, "cannot load %s", def->name);
    const sr_policy *pol = def->policy;
    sr_evaluator ev;
    uint64_t rng = 99;
    int buf[SR_MAX_LEGAL];
    sr_state_buf s;
    for (int i = 0; i < positions; ++i) {
        g.new_initial_state(&g, s.b, rng_draw(&rng));
        int steps = (int)rng_below(&rng, 30);
        for (int k = 0; k < steps && g.current_player(g.rules, s.b) != SR_TERMINAL; ++k) {
            int m = g.legal_actions(g.rules, s.b, buf);
            g.apply(g.rules, s.b, buf[rng_below(&rng, (uint32_t)m)]);
        }
        if (g.current_player(g.rules, s.b) == SR_TERMINAL) continue;
        sr_make_evaluator(pol, i % 3 == 0, pol->default_shaped, pol->default_prior, i % 2, i % 4 < 2, &ev);
        for (int kind = 0; kind < 3; ++kind) {
            for (int threads = 1; threads <= 2; ++threads) {
                sr_params p = {kind, 1234 + (uint64_t)i, 300, 0.0, pol->default_c, i % 3 == 0, threads,
                               i % 2 ? 64 : 1 << 16, NULL};
                CHECK(sr_search(&g, &ev, s.b, &p, &a) == SR_OK, "%s: search failed", def->name);
                CHECK(sr_search(&g, &ev, s.b, &p, &b) == SR_OK, "%s: search failed", def->name);
                CHECK(a.best == b.best && a.n == b.n && a.iterations == b.iterations, "not deterministic");
                int64_t visits = 0;
                int found = 0;
                for (int k = 0; k < a.n; ++k) {
                    CHECK(a.stats[k].visits == b.stats[k].visits && a.stats[k].mean == b.stats[k].mean, "stats differ");
                    CHECK(a.stats[k].mean >= -1.0 && a.stats[k].mean <= 1.0, "mean out of range");
                    visits += a.stats[k].visits;
                    found |= a.stats[k].action == a.best;
                }
                CHECK(found, "best action is not a root action");
                CHECK(a.n == 1 || visits == 300, "%s: root visits %" PRId64 " != 300 (kind %d)", def->name, visits, kind);
                ++*searches;
            }
        }
    }
    /* budgets smaller than the thread count end (a thread's share of 0 is none, not "no limit") */
    g.new_initial_state(&g, s.b, 5);
    sr_make_evaluator(pol, 0, pol->default_shaped, pol->default_prior, pol->default_horizon,
                      pol->default_control_variates, &ev);
    for (int kind = 0; kind < 3; ++kind) {
        sr_params p = {kind, 1, 1, 0.0, 1.0, 0, 4, 1 << 10, NULL};
        CHECK(sr_search(&g, &ev, s.b, &p, &a) == SR_OK && a.iterations == 1, "iterations < threads");
    }
    /* a time budget runs and stops */
    sr_params p = {SR_ISMCTS, 1, 0, 0.02, 1.0, 0, 2, 1 << 16, NULL};
    CHECK(sr_search(&g, &ev, s.b, &p, &a) == SR_OK && a.iterations > 0, "time budget");
    /* the stop flag ends an unbounded search at once, with a result */
    volatile int stop = 1;
    sr_params q = {SR_MCTS, 1, 0, 1000.0, 1.0, 0, 2, 1 << 16, &stop};
    CHECK(sr_search(&g, &ev, s.b, &q, &a) == SR_OK && a.stopped && a.best >= 0, "stop flag");
    /* parameter errors are told apart */
    sr_params bad = {SR_MCTS, 1, 100, 0.0, 1.0, 0, 1, SR_MAX_NODES + 1, NULL};
    CHECK(sr_search(&g, &ev, s.b, &bad, &a) == SR_E_PARAM, "node cap above the limit");
    bad.max_nodes = 1 << 10; bad.threads = 0;
    CHECK(sr_search(&g, &ev, s.b, &bad, &a) == SR_E_PARAM, "threads 0");
    bad.threads = 1; bad.iterations = 0;
    CHECK(sr_search(&g, &ev, s.b, &bad, &a) == SR_E_PARAM, "empty budget");
    bad.iterations = 10; bad.c = 0.0 / 0.0;
    CHECK(sr_search(&g, &ev, s.b, &bad, &a) == SR_E_PARAM, "c NaN");
    /* a finished game */
    int m;
    while (g.current_player(g.rules, s.b) != SR_TERMINAL && (m = g.legal_actions(g.rules, s.b, buf)) > 0)
        g.apply(g.rules, s.b, buf[0]);
    bad.c = 1.0;
    CHECK(sr_search(&g, &ev, s.b, &bad, &a) == SR_E_TERMINAL, "terminal root");
    tl_free(&t);
    return 0;
}

/* A policy's horizon: along random games its value lies in the returns'
 * range and is the true returns once the game is over. */
static int test_horizon(const sr_game_def *def, const char *dir) {
    const sr_policy *pol = def->policy;
    if (!pol->phase || !pol->horizon_value) return 0;
    tl_game t;
    sr_game g;
    CHECK(tl_load(&t, def->name, dir) == 0 && tl_make(&t, NULL, &g) == 0, "cannot load %s", def->name);
    uint64_t rng = 7;
    int buf[SR_MAX_LEGAL];
    sr_state_buf s;
    double v[SR_MAX_PLAYERS], ret[SR_MAX_PLAYERS];
    for (int game = 0; game < 200; ++game) {
        g.new_initial_state(&g, s.b, rng_draw(&rng));
        for (int steps = 0;; ++steps) {
            CHECK(steps <= g.info.max_game_length, "%s: a game longer than max_game_length", def->name);
            pol->horizon_value(g.rules, s.b, v);
            for (int p = 0; p < g.info.num_players; ++p)
                CHECK(v[p] >= g.info.min_utility && v[p] <= g.info.max_utility, "%s: horizon value out of range",
                      def->name);
            if (g.current_player(g.rules, s.b) == SR_TERMINAL) break;
            int m = g.legal_actions(g.rules, s.b, buf);
            CHECK(m > 0, "%s: nothing legal before the end", def->name);
            g.apply(g.rules, s.b, buf[rng_below(&rng, (uint32_t)m)]);
        }
        g.returns(g.rules, s.b, ret);
        for (int p = 0; p < g.info.num_players; ++p)
            CHECK(v[p] == ret[p], "%s: horizon value of a finished game is not its returns", def->name);
    }
    tl_free(&t);
    return 0;
}

/* What Capivárias' search key must tell apart: everything in the state but
 * chance's part (the available row, the pile's order and the river's
 * modifiers) and the generator, for one player. */
typedef struct {
    uint64_t key;
    uint32_t side[CV_SEGMENTS][2], discard;
    uint8_t capionca[CV_SEGMENTS], n_avail, pile_count, round, wins[2], to_move, last_taker, expansion, player;
} cv_key_fields;

static cv_key_fields KEYED[60000];

static int cmp_keyed(const void *a, const void *b) {
    const cv_key_fields *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return memcmp(x, y, sizeof *x);
}

/* A policy's search_key, along random games of every parameter combination:
 * for each player, the same in every determinization for that player (a
 * function of what it sees); never finer than infostate_key (two worlds of
 * one information set share it); and for Capivárias, which must have one,
 * chance left out (the worlds a refill splits share it), the players'
 * choices kept (two states with one key agree on every field but chance's:
 * no collision in 60,000 keys; and, a weaker check that only a key blind to
 * the state fails, it changes with every move). */
static int test_search_key(const sr_game_def *def, const char *dir) {
    const sr_policy *pol = def->policy;
    int is_cv = strcmp(def->name, "capivarias") == 0;
    CHECK(!is_cv || (pol && pol->search_key), "capivarias: the policy has no search_key");
    if (!pol || !pol->search_key) return 0;
    tl_game t;
    sr_game g;
    CHECK(tl_load(&t, def->name, dir) == 0, "cannot load %s", def->name);
    uint64_t rng = 11;
    int buf[SR_MAX_LEGAL], pooled = 0, keyed = 0, combos = tl_param_combinations(def);
    sr_state_buf s, d, e;
    for (int game = 0; game < 100 * combos; ++game) {
        int params[SR_MAX_PARAMS];
        tl_params_at(def, game % combos, params);
        CHECK(tl_make(&t, params, &g) == 0, "cannot make %s", def->name);
        g.new_initial_state(&g, s.b, rng_draw(&rng));
        while (g.current_player(g.rules, s.b) != SR_TERMINAL) {
            for (int p = 0; p < g.info.num_players; ++p) {
                uint64_t k = pol->search_key(g.rules, s.b, p), ik = g.infostate_key(g.rules, s.b, p);
                for (int w = 0; w < 3; ++w) {
                    g.determinize(g.rules, s.b, p, rng_draw(&rng), d.b);
                    CHECK(pol->search_key(g.rules, d.b, p) == k, "%s: search_key sees hidden cards", def->name);
                    CHECK(g.infostate_key(g.rules, d.b, p) == ik, "%s: infostate_key sees hidden cards", def->name);
                }
                if (is_cv && keyed < (int)(sizeof KEYED / sizeof *KEYED)) {
                    const cv_state *c = (const cv_state *)s.b;
                    cv_key_fields *f = &KEYED[keyed++];
                    memset(f, 0, sizeof *f);
                    f->key = k;
                    memcpy(f->side, c->side, sizeof f->side);
                    memcpy(f->capionca, c->capionca, sizeof f->capionca);
                    f->discard = c->discard;
                    f->n_avail = c->n_avail;
                    f->pile_count = (uint8_t)(c->n_pile - c->pile_top);
                    f->round = c->round;
                    f->wins[0] = c->wins[0];
                    f->wins[1] = c->wins[1];
                    f->to_move = c->to_move;
                    f->last_taker = c->last_taker;
                    f->expansion = c->expansion;
                    f->player = (uint8_t)p;
                }
            }
            int m = g.legal_actions(g.rules, s.b, buf);
            CHECK(m > 0, "%s: nothing legal before the end", def->name);
            int a = buf[rng_below(&rng, (uint32_t)m)];
            /* two worlds of the mover, the same action: chance may split them */
            int me = g.current_player(g.rules, s.b);
            g.determinize(g.rules, s.b, me, rng_draw(&rng), d.b);
            g.determinize(g.rules, s.b, me, rng_draw(&rng), e.b);
            CHECK(pol->search_key(g.rules, d.b, me) == pol->search_key(g.rules, e.b, me),
                  "%s: one information set, two search keys", def->name);
            uint64_t before = pol->search_key(g.rules, s.b, me);
            g.apply(g.rules, d.b, a);
            g.apply(g.rules, e.b, a);
            int nd = g.current_player(g.rules, d.b);
            if (nd != SR_TERMINAL && nd == g.current_player(g.rules, e.b) &&
                g.infostate_key(g.rules, d.b, nd) != g.infostate_key(g.rules, e.b, nd)) {
                CHECK(!is_cv || pol->search_key(g.rules, d.b, nd) == pol->search_key(g.rules, e.b, nd),
                      "capivarias: a reveal splits the search key");
                ++pooled;
            }
            g.apply(g.rules, s.b, a);
            CHECK(!is_cv || g.current_player(g.rules, s.b) == SR_TERMINAL ||
                  pol->search_key(g.rules, s.b, me) != before, "capivarias: a move left the search key as it was");
        }
    }
    if (is_cv) {
        CHECK(pooled > 100, "capivarias: only %d reveals met", pooled);
        CHECK(keyed > 10000, "capivarias: only %d keys", keyed);
        qsort(KEYED, (size_t)keyed, sizeof *KEYED, cmp_keyed);
        for (int i = 1; i < keyed; ++i)
            CHECK(KEYED[i].key != KEYED[i - 1].key || memcmp(&KEYED[i], &KEYED[i - 1], sizeof *KEYED) == 0,
                  "capivarias: two positions apart in more than chance share the search key %016llx",
                  (unsigned long long)KEYED[i].key);
    }
    tl_free(&t);
    return 0;
}

/* Capivárias' round horizon, exactly (R29, R30), with later rounds won with
 * probability a each and tied with CV_TIE_RATE. */
static int test_capivarias_horizon(void) {
    const double q = CV_TIE_RATE, a = (1.0 - CV_TIE_RATE) / 2.0;
    const struct { int w0, w1, round; double v0; } cases[] = {
        {1, 0, 2, a + q},            /* won or tied next round wins; lost: 1-1, even */
        {0, 1, 2, -(a + q)},
        {1, 1, 3, 0.0},              /* the next round decides, by symmetry even */
        {2, 2, 4, 0.0},              /* sudden death (R29): even */
        {1, 1, 2, 0.0},              /* round 1 tied */
        {0, 0, 1, 0.0},
    };
    cv_state s;
    memset(&s, 0, sizeof s);
    s.to_move = 0;
    s.winner = CV_NONE;
    double v[2];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        s.wins[0] = (uint8_t)cases[i].w0; s.wins[1] = (uint8_t)cases[i].w1; s.round = (uint8_t)cases[i].round;
        cv_policy.horizon_value(NULL, &s, v);
        CHECK(fabs(v[0] - cases[i].v0) < 1e-12 && v[1] == -v[0], "capivarias horizon %d-%d round %d: %f, not %f",
              cases[i].w0, cases[i].w1, cases[i].round, v[0], cases[i].v0);
    }
    /* a finished game is its returns, whatever the tally says (1-0 alone would be worth a + q) */
    s.wins[0] = 1; s.wins[1] = 0; s.round = 9;
    s.to_move = CV_NONE; s.winner = 1;
    cv_policy.horizon_value(NULL, &s, v);
    CHECK(v[0] == -1.0 && v[1] == 1.0, "a finished game is its returns");
    s.winner = CV_NONE;
    cv_policy.horizon_value(NULL, &s, v);
    CHECK(v[0] == 0.0 && v[1] == 0.0, "an R30 draw is 0");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s DATA_DIR [positions]\n", argv[0]); return 2; }
    int positions = argc > 2 ? atoi(argv[2]) : 30, searches = 0;
    for (int i = 0; i < sr_game_count(); ++i)
        if (test_game(sr_game_at(i), argv[1], positions, &searches) || test_horizon(sr_game_at(i), argv[1]) ||
            test_search_key(sr_game_at(i), argv[1])) return 1;
    if (test_capivarias_horizon()) return 1;
    printf("%d searches over %d games: 1 passed, 0 failed\n", searches, sr_game_count());
    return 0;
}
