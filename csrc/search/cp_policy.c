/* cp_policy.c - Capulana's search policy (rollouts, greedy play, the shaped
 * reward, the weaving prior): search policy, not rules; the registry joins
 * it to the game (csrc/registry.c). Moved unchanged from cp_game.c: the same
 * rng draws in the same order, so agents play the same moves for a seed. */
#include "policies.h"
#include "../capulana.h"
#include "../rng.h"
#include <stdlib.h>

/* Every complete weaving step open to the mover (cp_weaving_options) in a
 * malloc'd buffer the caller frees, their number in *k; NULL if memory fails
 * (or past 2^24 steps, which no state has: the loop cannot run away). */
static cp_weave_option *all_weaving_options(const cp_rules *r, const cp_state *s, int *k) {
    for (int cap = 4096; cap <= (1 << 24); cap *= 4) {
        cp_weave_option *opt = malloc(sizeof *opt * (size_t)cap);
        if (!opt) return NULL;
        *k = cp_weaving_options(r, s, opt, cap);
        if (*k >= 0) return opt;
        free(opt);
    }
    return NULL;
}

/* Greedy choice (index into legal[0..n)): in a weaving turn, the first
 * action of the cp_weaving_options step with the best final score (R11) for
 * the mover, ties by rng; in the offer phase, uniform. Allocates the options
 * buffer once per call; -SR_E_NOMEM if memory fails. */
static int greedy_index(const void *rv, const void *sv, const int *legal, int n, uint64_t *rng) {
    const cp_rules *r = rv;
    const cp_state *s = sv;
    if (s->phase != CP_PHASE_WEAVE) return (int)rng_pick(rng, (uint32_t)n);
    int k;
    cp_weave_option *opt = all_weaving_options(r, s, &k);
    if (!opt) return -SR_E_NOMEM;
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
static int heuristic_action(const void *rv, const void *sv, const int *legal, int n, uint64_t *rng) {
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

/* The search's reward, in [0, 1]: half the R11 win share, half the
 * final-score margin over the other players' mean (scaled), so that
 * searches also prefer the bigger of two wins and the smaller of two losses. */
static void shaped_returns(const void *r, const void *s, double *out) {
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

/* Prior in a weaving turn with a choice: the mover's final score (R11)
 * after each action; no opinion elsewhere. */
static int action_prior(const void *rv, const void *sv, const int *legal, int n, double *out) {
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

/* Prior at a search's root in a weaving turn with a choice: each action's
 * one-card value (action_prior) raised to the best final score (R11) of a
 * complete weaving step that starts with it, so that the greedy agent's
 * step is expanded first (cp_weaving_options drops a step whose strips an
 * earlier one already gives: such an action keeps its one-card value, a
 * lower bound). One enumeration of the steps per search; if memory fails,
 * the one-card values. */
static int root_prior(const void *rv, const void *sv, const int *legal, int n, double *out) {
    if (!action_prior(rv, sv, legal, n, out)) return 0;
    if (!out) return 1;
    int k;
    cp_weave_option *opt = all_weaving_options(rv, sv, &k);
    if (!opt) return 1;
    for (int j = 0; j < k; ++j) {
        int a = opt[j].actions[0], lo = 0, hi = n - 1;
        while (lo < hi) {                       /* legal[] is ascending */
            int mid = (lo + hi) / 2;
            if (legal[mid] < a) lo = mid + 1; else hi = mid;
        }
        if (legal[lo] == a && opt[j].final_score > out[lo]) out[lo] = opt[j].final_score;
    }
    free(opt);
    return 1;
}

const sr_policy cp_policy = {
    .heuristic_action = heuristic_action,
    .shaped_returns = shaped_returns,
    .action_prior = action_prior,
    .root_prior = root_prior,
    .root_bias = 64.0,         /* issue 25: at 100 iterations 0.688 of 120 games against greedy (16: 0.650, 4: 0.550,
                                  1: 0.487, none: 0.450); at 1,000 SPRT [0, 20] H1 against the baseline, +106 Elo */
    .greedy_index = greedy_index,
    .default_c = 0.4,          /* issue 25: SPRT [0, 20] H1 against 0.7 at 1,000 iterations (docs/strength.md) */
    .default_shaped = 1,
    .default_prior = 1,
};
