/* toy_policy.c - Toy search policy (not rules): the greedy player and the
 * heuristic rollout, joined to the game only in csrc/registry.c. */
#include "policies.h"
#include "../toy.h"
#include "../rng.h"

/* What playing card c now adds to the mover's pile (double onto a higher card). */
static int gain(const toy_rules *r, const toy_state *s, int c) {
    const int p = s->to_move, n = s->n_pile[p], v = r->value[c];
    return n > 0 && r->value[s->pile[p][n - 1]] > v ? 2 * v : v;
}

/* Greedy choice: an index into legal[0..n) with the largest immediate
 * gain, ties broken uniformly by rng (one draw per tie met). */
static int toy_greedy_index(const void *rules, const void *state, const int *legal, int n, uint64_t *rng) {
    const toy_rules *r = (const toy_rules *)rules;
    const toy_state *s = (const toy_state *)state;
    if (s->to_move > 1) return 0;
    int best = -1, pick = 0, ties = 0;
    for (int i = 0; i < n; ++i) {
        int v = gain(r, s, legal[i]);
        if (v > best) { best = v; pick = i; ties = 1; }
        else if (v == best && rng_pick(rng, (uint32_t)++ties) == 0) pick = i;
    }
    return pick;
}

/* Rollout policy: greedy half of the time, uniform otherwise. */
static int toy_heuristic(const void *rules, const void *state, const int *legal, int n, uint64_t *rng) {
    if (rng_draw(rng) & 1) return toy_greedy_index(rules, state, legal, n, rng);
    return (int)rng_pick(rng, (uint32_t)n);
}

const sr_policy toy_policy = {
    .heuristic_action = toy_heuristic,
    .shaped_returns = NULL,
    .action_prior = NULL,
    .greedy_index = toy_greedy_index,
    .default_c = 1.0,
    .default_shaped = 0,
    .default_prior = 0,
};
