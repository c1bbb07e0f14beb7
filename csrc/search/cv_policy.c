/* cv_policy.c - Capivárias search policy (not rules): the greedy player and
 * the heuristic rollout, joined to the game only in csrc/registry.c. */
#include "policies.h"
#include "../capivarias.h"
#include "../rng.h"

/* The mover's round score minus the opponent's after action (the river as
 * scored if the action ends the round); a won game counts above any score. */
static double value_after(const cv_rules *r, const cv_state *s, int action) {
    cv_state c = *s, river;
    river.round = 0;
    int me = s->to_move, sc[2];
    int ended = cv_apply_round_end(r, &c, action, &river);
    if (cv_is_terminal(&c) && c.winner != CV_NONE) return c.winner == me ? 1000.0 : -1000.0;
    cv_scores(r, ended ? &river : &c, sc);
    return (double)(sc[me] - sc[1 - me]);
}

/* Greedy choice: an index into legal[0..n) with the best value_after, ties
 * broken uniformly by rng (one draw per tie met). Allocates nothing. */
static int cv_greedy_index(const void *rules, const void *state, const int *legal, int n, uint64_t *rng) {
    const cv_rules *r = (const cv_rules *)rules;
    const cv_state *s = (const cv_state *)state;
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
static int cv_heuristic(const void *rules, const void *state, const int *legal, int n, uint64_t *rng) {
    if (rng_draw(rng) & 1) return cv_greedy_index(rules, state, legal, n, rng);
    return (int)rng_pick(rng, (uint32_t)n);
}

const sr_policy cv_policy = {
    .heuristic_action = cv_heuristic,
    .shaped_returns = NULL,
    .action_prior = NULL,
    .greedy_index = cv_greedy_index,
    .default_c = 1.4,
    .default_shaped = 0,
    .default_prior = 0,
};
