/* cv_policy.c - Capivárias search policy (not rules): the greedy player and
 * the heuristic rollout, joined to the game only in csrc/registry.c. */
#include "policies.h"
#include "../capivarias.h"
#include "../rng.h"

/* The mover's round score minus the opponent's after action (the river as
 * scored if the action ends the round); a won game counts above any score. */
static double value_after(const cv_rules *r, const cv_state *s, int action) {
    cv_state c = *s;
    int me = s->to_move, sc[2];
    if (!cv_apply_scored(r, &c, action, sc)) cv_scores(r, &c, sc);   /* else the river as scored */
    if (cv_is_terminal(&c) && c.winner != CV_NONE) return c.winner == me ? 1000.0 : -1000.0;
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

/* ---- the round horizon ---------------------------------------------------------
 * A rollout ends when its round does: what the rest of the game holds is one
 * coin-flip per later round, so playing those rounds out at random adds only
 * noise to the value of a move in this one. The value at a round's start is
 * then exact under that model (R29, R30): each later round is won by either
 * player with probability (1 - CV_TIE_RATE) / 2 or tied (a win for both). */

/* Player 0's expected return with w0, w1 round wins after `played` rounds,
 * the game undecided and not in sudden death (w0, w1 <= 1). */
static double match_value(int w0, int w1, int played) {
    static const double q = CV_TIE_RATE, a = (1.0 - CV_TIE_RATE) / 2.0;
    const int next[3][2] = {{w0 + 1, w1}, {w0, w1 + 1}, {w0 + 1, w1 + 1}};
    const double prob[3] = {a, a, q};
    double v = 0.0;
    for (int k = 0; k < 3; ++k) {
        int x = next[k][0], y = next[k][1];
        double o;
        if ((x >= 2) != (y >= 2)) o = x >= 2 ? 1.0 : -1.0;     /* R29: decided */
        else if (x >= 2) o = 0.0;                                /* sudden death: even by symmetry */
        else if (played + 1 >= CV_MAX_ROUNDS) o = 0.0;           /* R30 (unreachable from a real state:
                                                                    every round gives a win, so these
                                                                    have played <= 2; kept for any input) */
        else o = match_value(x, y, played + 1);
        v += prob[k] * o;
    }
    return v;
}

/* A round's last take: two cards available and the pile empty (the round
 * ends when one is left, RULES.md 2.3). */
static int cv_last_take(const cv_state *s) { return s->n_avail == 2 && s->pile_top >= s->n_pile; }

/* The phase: twice the round, plus one at its last take, so that a rollout
 * stops there and the horizon value plays the take itself. */
static int cv_phase(const void *rules, const void *state) {
    (void)rules;
    const cv_state *s = (const cv_state *)state;
    return 2 * s->round + cv_last_take(s);
}

/* Weight of the round's score margin in the horizon value: lambda times the
 * margin / CV_MARGIN_SCALE, clipped to +-1, is added to the match value
 * (issue 25: SPRT [0, 20] against the baseline, docs/strength.md). */
#define CV_MARGIN_LAMBDA 0.5
#define CV_MARGIN_SCALE 5.0

/* Player 0's value of s at a round's start (the true returns once the game
 * is over; only s's match fields are read): the match value, plus the margin
 * term of the round just scored when its scores sc are given and the game
 * goes on, within [-1, 1]. */
static double value_after_round(const cv_state *s, const int *sc) {
    if (cv_is_terminal(s)) return s->winner == CV_NONE ? 0.0 : s->winner == 0 ? 1.0 : -1.0;
    double v = (s->wins[0] < 2 && s->wins[1] < 2) ? match_value(s->wins[0], s->wins[1], s->round - 1) : 0.0;
    if (sc) {
        double m = (double)(sc[0] - sc[1]) / CV_MARGIN_SCALE;
        v += CV_MARGIN_LAMBDA * (m > 1.0 ? 1.0 : m < -1.0 ? -1.0 : m);
    }
    return v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v;
}

/* At a round's last take: the mover plays the take that is best for it by
 * value_after_round, and that is the value. Else value_after_round of s. */
static void cv_horizon_value(const void *rules, const void *state, double *out) {
    const cv_rules *r = (const cv_rules *)rules;
    const cv_state *s = (const cv_state *)state;
    double v = 0.0;
    if (!cv_is_terminal(s) && cv_last_take(s)) {
        int legal[CV_MAX_ACTIONS], n = cv_legal_actions(r, s, legal), me = s->to_move;
        double best = -2.0;
        for (int i = 0; i < n; ++i) {
            cv_state c = *s;   /* the take ends the round: c is read for the match only */
            int sc[2];
            const int ended = cv_apply_scored(r, &c, legal[i], sc);
            double v0 = value_after_round(&c, ended ? sc : NULL);
            double mine = me == 0 ? v0 : -v0;
            if (mine > best) { best = mine; v = v0; }
        }
    } else {
        v = value_after_round(s, NULL);
    }
    out[0] = v;
    out[1] = -v;
}

/* ---- open loop on chance ---------------------------------------------------------
 * Both players see the same things (R20: the river cards' identities and the
 * pile are hidden from both), so a Capivárias information set is split from
 * its siblings only by chance: the cards a refill reveals, a new round's
 * deal. Keyed by cv_infostate_key, ISMCTS gives each reveal its own subtree,
 * and a 1,000-iteration search sees one or two iterations in each: the reply
 * after a refill is rolled out, not searched. This key leaves chance out (the
 * available row, the pile's top and the river's modifiers) and keeps what
 * the players' choices made (the river's sides and capionças, the discard,
 * the counts, the match), so the reveals share a node as in open-loop MCTS,
 * and so do the move orders that reach one position (issue 25,
 * docs/strength.md). Within a round, the sides, capionças and discard fix
 * which cards were taken, hence the row up to what refills revealed. */
static uint64_t cv_search_key(const void *rules, const void *state, int player) {
    (void)rules;
    const cv_state *s = (const cv_state *)state;
    uint64_t h = key_mix(0x6f70656e6c6f6f70ULL, (uint64_t)player);
    for (int i = 0; i < CV_SEGMENTS; ++i) h = key_mix(h, s->side[i][0] | (uint64_t)s->side[i][1] << 32);
    /* the rest packed losslessly into two words, one byte a field */
    h = key_mix(h, s->discard | (uint64_t)s->capionca[0] << 32 | (uint64_t)s->capionca[1] << 40 |
                       (uint64_t)s->capionca[2] << 48 | (uint64_t)s->expansion << 56);
    h = key_mix(h, (uint64_t)s->n_avail | (uint64_t)(uint8_t)(s->n_pile - s->pile_top) << 8 |
                       (uint64_t)s->round << 16 | (uint64_t)s->wins[0] << 24 | (uint64_t)s->wins[1] << 32 |
                       (uint64_t)s->to_move << 40 | (uint64_t)s->last_taker << 48);
    return h;
}

const sr_policy cv_policy = {
    .heuristic_action = cv_heuristic,
    .shaped_returns = NULL,
    .action_prior = NULL,
    .greedy_index = cv_greedy_index,
    .phase = cv_phase,
    .horizon_value = cv_horizon_value,
    .search_key = cv_search_key,
    .default_c = 1.4,
    .default_shaped = 0,
    .default_prior = 0,
    .default_horizon = 1,      /* ismcts with it against without: 0.531 of 1,200 games (docs/rl.md);
                                  the last take and the margin: docs/strength.md */
};
