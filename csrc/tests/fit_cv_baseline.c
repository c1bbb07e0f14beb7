/* fit_cv_baseline.c - fits the Capivárias rollout baseline (cv_policy.c's
 * cv_baseline_fit, csrc/search/cv_baseline_fit.h): a tool, not a test.
 *
 *   fit_cv_baseline DATA_DIR [GAMES] > fit.txt
 *
 * Plays GAMES uniform random games (default 200000) of each deck (base, then
 * with the expansion). From every state before a round's last take, one
 * uniform rollout runs to that last take, which the mover then plays for the
 * best round margin (as the search's horizon does); the round's final margin,
 * from the side of the player to move in the state, is regressed by least
 * squares, separately for each number of cards left, on a constant and, for
 * each segment, the mover's score margin and capybara margin there
 * (cv_segment_scores), with a ridge of 1e-6 a state. Prints each fit's seven coefficients and the
 * residuals' standard deviation as a C initializer. Deterministic (fixed
 * seeds). */
#include "load_game.h"
#include "capivarias.h"
#include "rng.h"
#include <math.h>

#define NF 7                   /* constant, 3 score margins, 3 capybara margins */
#define MAX_LEFT 29            /* cards left: n_avail + pile, 2..25 with the expansion */

typedef struct {
    double xtx[NF][NF], xty[NF], yty, n;
} normal_eq;

static void features(const cv_rules *r, const cv_state *s, double *x) {
    int sc[2][CV_SEGMENTS], cn[2][CV_SEGMENTS];
    const int me = s->to_move;
    cv_segment_scores(r, s, me, sc[0], cn[0]);
    cv_segment_scores(r, s, 1 - me, sc[1], cn[1]);
    x[0] = 1.0;
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        x[1 + i] = sc[0][i] - sc[1][i];
        x[4 + i] = cn[0][i] - cn[1][i];
    }
}

/* Solve a x = b (NF x NF) by Gaussian elimination with partial pivoting;
 * returns 0, or -1 when singular. */
static int solve(double a[NF][NF], double *b, double *x) {
    for (int c = 0; c < NF; ++c) {
        int p = c;
        for (int i = c + 1; i < NF; ++i)
            if (fabs(a[i][c]) > fabs(a[p][c])) p = i;
        if (fabs(a[p][c]) < 1e-9) return -1;
        for (int j = 0; j < NF; ++j) { double t = a[c][j]; a[c][j] = a[p][j]; a[p][j] = t; }
        double t = b[c]; b[c] = b[p]; b[p] = t;
        for (int i = c + 1; i < NF; ++i) {
            double f = a[i][c] / a[c][c];
            for (int j = c; j < NF; ++j) a[i][j] -= f * a[c][j];
            b[i] -= f * b[c];
        }
    }
    for (int i = NF - 1; i >= 0; --i) {
        double v = b[i];
        for (int j = i + 1; j < NF; ++j) v -= a[i][j] * x[j];
        x[i] = v / a[i][i];
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : TABULEIRO_DATA_DIR;
    long games = argc > 2 ? atol(argv[2]) : 200000;
    tl_game t;
    if (tl_load(&t, "capivarias", dir)) return 1;
    const cv_rules *r = (const cv_rules *)t.rules;
    static normal_eq eq[2][MAX_LEFT];
    int legal[CV_MAX_ACTIONS];
    for (int deck = 0; deck < 2; ++deck) {
        uint64_t rng = 0x6376626173656c69ULL + (uint64_t)deck;
        for (long g = 0; g < games; ++g) {
            cv_state s;
            cv_new_game(r, &s, rng_draw(&rng), deck, (int)(g & 1));
            while (!cv_is_terminal(&s)) {
                const int left = cv_cards_left(&s);
                if (!cv_is_last_take(&s) && left < MAX_LEFT) {
                    cv_state c = s;
                    while (!cv_is_last_take(&c)) {
                        int n = cv_legal_actions(r, &c, legal);
                        cv_apply(r, &c, legal[rng_pick(&rng, (uint32_t)n)]);
                    }
                    int n = cv_legal_actions(r, &c, legal), best = -1000;
                    for (int i = 0; i < n; ++i) {   /* the last take: the taker's best margin */
                        cv_state e = c;
                        int q[2];
                        cv_apply_scored(r, &e, legal[i], q);
                        int m = q[c.to_move] - q[1 - c.to_move];
                        if (m > best) best = m;
                    }
                    const double y = c.to_move == s.to_move ? best : -best;
                    double x[NF];
                    features(r, &s, x);
                    normal_eq *q = &eq[deck][left];
                    for (int i = 0; i < NF; ++i) {
                        for (int j = 0; j < NF; ++j) q->xtx[i][j] += x[i] * x[j];
                        q->xty[i] += x[i] * y;
                    }
                    q->yty += y * y;
                    q->n += 1;
                }
                int n = cv_legal_actions(r, &s, legal);
                cv_apply(r, &s, legal[rng_pick(&rng, (uint32_t)n)]);
            }
        }
    }
    printf("/* fit_cv_baseline %ld: [deck][cards left] = {constant, score margin in segments 0-2,\n"
           " * capybara margin in segments 0-2, residual sd}; sd 0 = no fit (too few states) */\n", games);
    printf("{\n");
    for (int deck = 0; deck < 2; ++deck) {
        printf("    {   /* %s */\n", deck ? "with the expansion" : "base deck");
        for (int left = 0; left < MAX_LEFT; ++left) {
            normal_eq *q = &eq[deck][left];
            double b[NF] = {0}, a[NF][NF], v[NF], sd = 0.0;
            memcpy(a, q->xtx, sizeof a);
            memcpy(v, q->xty, sizeof v);
            for (int i = 1; i < NF; ++i) a[i][i] += 1e-6 * q->n;   /* a feature always 0 (early in a round): coefficient 0 */
            if (q->n >= 1000 && solve(a, v, b) == 0) {
                double rss = q->yty;   /* sum (y - x.b)^2 = y.y - 2 b.X'y + b'X'X b */
                for (int i = 0; i < NF; ++i) {
                    rss -= 2.0 * b[i] * q->xty[i];
                    for (int j = 0; j < NF; ++j) rss += b[i] * q->xtx[i][j] * b[j];
                }
                sd = sqrt(rss > 0 ? rss / q->n : 0.0);
            } else {
                memset(b, 0, sizeof b);
            }
            printf("        {");
            for (int i = 0; i < NF; ++i) printf("%.4f, ", b[i]);
            printf("%.4f},   /* %d left, %.0f states */\n", sd, left, q->n);
        }
        printf("    },\n");
    }
    printf("}\n");
    tl_free(&t);
    return 0;
}
