/* cp_game.c - Capulana on the search contract. */
#include "games.h"
#include "../rng.h"
#include <stdlib.h>

static int cpg_num_players(const void *r, const void *s) { (void)r; return ((const cp_state *)s)->players; }

static int cpg_current(const void *r, const void *s) {
    (void)r;
    const cp_state *st = (const cp_state *)s;
    return cp_is_terminal(st) ? SR_TERMINAL : st->to_move;
}

static int cpg_legal(const void *r, const void *s, int *buf) { return cp_legal_actions(r, s, buf); }
static void cpg_apply(const void *r, void *s, int a) { cp_apply(r, s, a); }
/* The search's reward: half the R11 win share, half the final-score margin
 * over the other players' mean (scaled to [0, 1]), so that searches also
 * prefer the bigger of two wins and the smaller of two losses. */
static void cpg_returns(const void *r, const void *s, double *out) {
    const cp_state *st = (const cp_state *)s;
    int sc[CP_MAX_PLAYERS], n = st->players, total = 0;
    cp_returns(r, s, out);
    cp_scores(r, s, sc);
    for (int p = 0; p < n; ++p) total += sc[p];
    for (int p = 0; p < n; ++p) {
        double margin = sc[p] - (double)(total - sc[p]) / (n - 1);
        double m = 0.5 + margin / 40.0;
        m = m < 0 ? 0 : m > 1 ? 1 : m;
        out[p] = 0.5 * out[p] + 0.5 * m;
    }
}
static void cpg_determinize(const void *r, const void *s, int p, uint64_t seed, void *out) {
    cp_determinize(r, s, p, seed, out);
}
static uint64_t cpg_key(const void *r, const void *s, int p) { return cp_infostate_key(r, s, p); }

int cp_greedy_index(const cp_rules *r, const cp_state *s, const int *legal, int n, uint64_t *rng) {
    if (s->phase != CP_PHASE_WEAVE) return (int)rng_pick(rng, (uint32_t)n);
    int cap = 4096, k;
    cp_weave_option *opt = NULL;
    for (;;) {
        opt = malloc(sizeof *opt * (size_t)cap);
        if (!opt) return -1;
        k = cp_weaving_options(r, s, opt, cap);
        if (k >= 0) break;
        free(opt);
        cap *= 4;
    }
    int best = -1, ties = 0, first = legal[0];
    for (int i = 0; i < k; ++i) {
        if (best < 0 || opt[i].final_score > opt[best].final_score) { best = i; ties = 1; }
        else if (opt[i].final_score == opt[best].final_score && rng_pick(rng, (uint32_t)++ties) == 0) best = i;
    }
    if (best >= 0) first = opt[best].actions[0];
    free(opt);
    for (int i = 0; i < n; ++i) if (legal[i] == first) return i;
    return 0;
}

/* Rollout policy: in a weaving turn, half of the time the single action
 * (a card with its placement, or stop) after which the mover's score is
 * highest (one card of look-ahead: cheap enough for rollouts); otherwise,
 * and in the offer phase, uniform. */
static int cpg_heuristic(const void *rv, const void *sv, const int *legal, int n, uint64_t *rng) {
    const cp_rules *r = rv;
    const cp_state *s = sv;
    if (s->phase != CP_PHASE_WEAVE || (rng_draw(rng) & 1)) return (int)rng_pick(rng, (uint32_t)n);
    int me = s->to_move, best = 0, ties = 0, best_v = -(1 << 30);
    int sc[CP_MAX_PLAYERS];
    for (int i = 0; i < n; ++i) {
        cp_state c = *s;
        cp_apply(r, &c, legal[i]);
        cp_scores(r, &c, sc);
        if (sc[me] > best_v) { best_v = sc[me]; best = i; ties = 1; }
        else if (sc[me] == best_v && rng_pick(rng, (uint32_t)++ties) == 0) best = i;
    }
    return best;
}

/* Prior in a weaving turn: the mover's final score (R11) after the action. */
static int cpg_prior(const void *rv, const void *sv, const int *legal, int n, double *out) {
    const cp_rules *r = rv;
    const cp_state *s = sv;
    if (s->phase != CP_PHASE_WEAVE || n < 2) return 0;
    if (!out) return 1;
    int me = s->to_move, sc[CP_MAX_PLAYERS];
    for (int i = 0; i < n; ++i) {
        cp_state c = *s;
        cp_apply(r, &c, legal[i]);
        cp_scores(r, &c, sc);
        out[i] = sc[me];
    }
    return 1;
}

void cp_search_game(const cp_rules *r, sr_game *g) {
    g->name = "capulana";
    g->rules = r;
    g->state_size = sizeof(cp_state);
    g->num_actions = CP_NUM_ACTIONS;
    g->num_players = cpg_num_players;
    g->current_player = cpg_current;
    g->legal_actions = cpg_legal;
    g->apply = cpg_apply;
    g->returns = cpg_returns;
    g->determinize = cpg_determinize;
    g->infostate_key = cpg_key;
    g->heuristic_action = cpg_heuristic;
    g->action_prior = cpg_prior;
}
