/* cv_policy.c - Capivárias search policy (not rules): the greedy player and
 * the heuristic rollout, joined to the game only in csrc/registry.c. */
#include "policies.h"
#include "../capivarias.h"
#include "../rng.h"
#include "../portable.h"
#include <math.h>

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


/* The phase: twice the round, plus one at its last take, so that a rollout
 * stops there and the horizon value plays the take itself. */
static int cv_phase(const void *rules, const void *state) {
    (void)rules;
    const cv_state *s = (const cv_state *)state;
    return 2 * s->round + cv_is_last_take(s);
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
    if (!cv_is_terminal(s) && cv_is_last_take(s)) {
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

/* ---- the rollout baseline (control variates) ------------------------------------
 * The search corrects a uniform rollout, step by step, by how far a baseline
 * moved on the move drawn beyond its mean over every legal move (search.c,
 * rollout_cv): the mean stays the rollout's, and the noise of the draws
 * cancels as far as the baseline tracks the value. Here it models the
 * round's final margin, from the mover's side, as normal with a mean linear
 * in the mover's score margin and capybara margin in each segment and a
 * spread, both fitted per deck and cards left on uniform random play by
 * csrc/tests/fit_cv_baseline.c, and values the round as the horizon does:
 * the chances of winning, tying and losing it, each with what it is worth in
 * the match, plus the margin term (issue 25, docs/strength.md). The fit,
 * made again after a change to the rules or the horizon:
 *   cmake -S . -B build/ctests -DTABULEIRO_C_TESTS=ON
 *   cmake --build build/ctests --target fit_cv_baseline
 *   build/ctests/fit_cv_baseline > csrc/search/cv_baseline_fit.h */

#define CV_FIT_LEFT 29                 /* cards left 0..28 */
#define CV_MU_STEP 0.25                /* the margin's grid, -CV_MU_MAX..CV_MU_MAX */
#define CV_MU_MAX 40.0
#define CV_MU_N 321

/* [deck][cards left]: the constant, the mover's score margins and capybara
 * margins in segments 0-2, the residual sd (0: no fit; the match value then) */
static const float cv_baseline_fit[2][CV_FIT_LEFT][8] =
#include "cv_baseline_fit.h"
;

/* [deck][cards left][the mean margin on the grid]: the chances that the
 * mover wins and ties the round, and E[clip(margin / CV_MARGIN_SCALE); won]
 * and E[...; lost] (clip to +-1), under the fitted normal */
static float cv_round_table[2][CV_FIT_LEFT][CV_MU_N][4];
/* match_value by [w0][w1][rounds played], w0, w1 <= 1 */
static double cv_match_table[2][2][CV_MAX_ROUNDS + 1];
static tb_once cv_match_once = TB_ONCE_INIT, cv_round_once[2] = {TB_ONCE_INIT, TB_ONCE_INIT};

static void cv_match_init(void) {
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
            for (int p = 0; p <= CV_MAX_ROUNDS; ++p) cv_match_table[a][b][p] = match_value(a, b, p);
}

/* One deck's rows of cv_round_table, filled at the first search that needs
 * them (a few milliseconds: each erf is taken once per boundary between two
 * margins, and not where it is +-1 to the last bit, which leaves every sum
 * as a sum over all 241 margins would make it). */
static void cv_round_init(int deck) {
    for (int left = 0; left < CV_FIT_LEFT; ++left) {
        const double sd = cv_baseline_fit[deck][left][7];
        if (!(sd > 0)) continue;
        for (int g = 0; g < CV_MU_N; ++g) {
            const double mu = -CV_MU_MAX + g * CV_MU_STEP, k = 1.0 / (sd * sqrt(2.0));
            double p_win = 0, p_tie = 0, e_win = 0, e_loss = 0;
            double x = (-120 - 0.5 - mu) * k, below = x < -7.0 ? -1.0 : x > 7.0 ? 1.0 : erf(x);
            for (int m = -120; m <= 120; ++m) {   /* the margin is an integer: P(m) = Phi(m + 1/2) - Phi(m - 1/2) */
                x = (m + 0.5 - mu) * k;
                const double above = x < -7.0 ? -1.0 : x > 7.0 ? 1.0 : erf(x);
                const double p = 0.5 * (above - below);
                below = above;
                double c = m / CV_MARGIN_SCALE;
                c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
                if (m > 0) { p_win += p; e_win += p * c; }
                else if (m == 0) p_tie += p;
                else e_loss += p * c;
            }
            float *q = cv_round_table[deck][left][g];
            q[0] = (float)p_win; q[1] = (float)p_tie; q[2] = (float)e_win; q[3] = (float)e_loss;
        }
    }
}
static void cv_round_init_base(void) { cv_round_init(0); }
static void cv_round_init_expansion(void) { cv_round_init(1); }

/* Player 0's value once the round is over, by who won it (k = 0: player 0,
 * 1: player 1, 2: a tie), as value_after_round gives it without the margin
 * term; *goes_on = 1 where the game goes on, which adds that term. */
static double round_outcome(const cv_state *s, int k, int *goes_on) {
    cv_state m = *s;
    *goes_on = !cv_settle_round(&m, k == 2 ? -1 : k);
    if (!*goes_on) return value_after_round(&m, NULL);
    return m.wins[0] < 2 && m.wins[1] < 2 ? cv_match_table[m.wins[0]][m.wins[1]][s->round] : 0.0;
}

/* The baseline: a state past the horizon or at a last take valued as the
 * horizon values it (exactly), else the fitted normal's value of the round. */
static void cv_rollout_baseline(const void *rules, const void *state, double *out) {
    const cv_rules *r = (const cv_rules *)rules;
    const cv_state *s = (const cv_state *)state;
    const int left = cv_cards_left(s), deck = s->expansion != 0;
    tb_call_once(&cv_match_once, cv_match_init);
    tb_call_once(&cv_round_once[deck], deck ? cv_round_init_expansion : cv_round_init_base);
    if (cv_is_terminal(s) || cv_is_last_take(s) || left >= CV_FIT_LEFT || !(cv_baseline_fit[deck][left][7] > 0)) {
        cv_horizon_value(rules, state, out);
        return;
    }
    const float *b = cv_baseline_fit[deck][left];
    const int me = s->to_move;
    int sc[2][CV_SEGMENTS], cn[2][CV_SEGMENTS];
    cv_segment_scores(r, s, me, sc[0], cn[0]);
    cv_segment_scores(r, s, 1 - me, sc[1], cn[1]);
    double mu = b[0];
    for (int i = 0; i < CV_SEGMENTS; ++i) mu += b[1 + i] * (sc[0][i] - sc[1][i]) + b[4 + i] * (cn[0][i] - cn[1][i]);
    double g = (mu + CV_MU_MAX) / CV_MU_STEP;      /* linear between grid points */
    g = g < 0.0 ? 0.0 : g > CV_MU_N - 1 ? CV_MU_N - 1 : g;
    const int g0 = (int)g < CV_MU_N - 1 ? (int)g : CV_MU_N - 2;
    const double f = g - g0;
    const float *q0 = cv_round_table[deck][left][g0], *q1 = cv_round_table[deck][left][g0 + 1];
    double q[4];
    for (int i = 0; i < 4; ++i) q[i] = (1.0 - f) * q0[i] + f * q1[i];
    /* from the mover's side to player 0's */
    const double p_lose = 1.0 - q[0] - q[1];
    const double p0[3] = {me == 0 ? q[0] : p_lose, me == 0 ? p_lose : q[0], q[1]};
    const double e0_win = me == 0 ? q[2] : -q[3], e0_loss = me == 0 ? q[3] : -q[2];
    int on[3];
    double v = 0.0;
    for (int k = 0; k < 3; ++k) v += p0[k] * round_outcome(s, k, &on[k]);
    v += CV_MARGIN_LAMBDA * (on[0] * e0_win + on[1] * e0_loss);
    v = v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v;
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
    .rollout_baseline = cv_rollout_baseline,
    .default_c = 1.4,
    .default_shaped = 0,
    .default_prior = 0,
    .default_horizon = 1,      /* ismcts with it against without: 0.531 of 1,200 games (docs/rl.md);
                                  the last take and the margin: docs/strength.md */
    .default_control_variates = 1,   /* ismcts: SPRT [0, 20] against mcts, docs/strength.md */
};
