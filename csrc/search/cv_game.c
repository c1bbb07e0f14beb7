/* cv_game.c - Capivárias on the search contract. */
#include "games.h"
#include "../rng.h"

static int cvg_num_players(const void *r, const void *s) { (void)r; (void)s; return 2; }

static int cvg_current(const void *r, const void *s) {
    (void)r;
    const cv_state *st = (const cv_state *)s;
    return cv_is_terminal(st) ? SR_TERMINAL : st->to_move;
}

static int cvg_legal(const void *r, const void *s, int *buf) { return cv_legal_actions(r, s, buf); }
static void cvg_apply(const void *r, void *s, int a) { cv_apply(r, s, a); }
static void cvg_returns(const void *r, const void *s, double *out) { (void)r; cv_returns(s, out); }
static void cvg_determinize(const void *r, const void *s, int p, uint64_t seed, void *out) {
    cv_determinize(r, s, p, seed, out);
}
static uint64_t cvg_key(const void *r, const void *s, int p) { return cv_infostate_key(r, s, p); }

static double value_after(const cv_rules *r, const cv_state *s, int action) {
    cv_state c = *s, river;
    river.round = 0;
    int me = s->to_move, sc[2];
    int ended = cv_apply_round_end(r, &c, action, &river);
    if (cv_is_terminal(&c) && c.winner != CV_NONE) return c.winner == me ? 1000.0 : -1000.0;
    cv_scores(r, ended ? &river : &c, sc);
    return (double)(sc[me] - sc[1 - me]);
}

int cv_greedy_index(const cv_rules *r, const cv_state *s, const int *legal, int n, uint64_t *rng) {
    double best = -1e300;
    int pick = 0, ties = 0;
    for (int i = 0; i < n; ++i) {
        double v = value_after(r, s, legal[i]);
        if (v > best) { best = v; pick = i; ties = 1; }
        else if (v == best && rng_pick(rng, (uint32_t)++ties) == 0) pick = i;   /* uniform among ties */
    }
    return pick;
}

/* Rollout policy: greedy half of the time, uniform otherwise. */
static int cvg_heuristic(const void *r, const void *s, const int *legal, int n, uint64_t *rng) {
    if (rng_draw(rng) & 1) return cv_greedy_index(r, s, legal, n, rng);
    return (int)rng_pick(rng, (uint32_t)n);
}

void cv_search_game(const cv_rules *r, sr_game *g) {
    g->name = "capivarias";
    g->rules = r;
    g->state_size = sizeof(cv_state);
    g->num_actions = r->num_actions;
    g->num_players = cvg_num_players;
    g->current_player = cvg_current;
    g->legal_actions = cvg_legal;
    g->apply = cvg_apply;
    g->returns = cvg_returns;
    g->determinize = cvg_determinize;
    g->infostate_key = cvg_key;
    g->heuristic_action = cvg_heuristic;
    g->action_prior = NULL;
}
