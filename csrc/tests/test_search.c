/* test_search.c - the searches under sanitizers: flatmc, mcts and ismcts
 * with 1 and 2 threads from random Capivárias positions, with small node
 * caps (so trees hit the cap), checking statistics and determinism.
 * Built with -fsanitize=address,undefined or -fsanitize=thread.
 * Usage: test_search CARDS.csv [positions] */
#include "capivarias.h"
#include "rng.h"
#include "search/games.h"
#include "search/search.h"
#include "cv_csv.h"

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s CARDS.csv [positions]\n", argv[0]); return 2; }
    int positions = argc > 2 ? atoi(argv[2]) : 30;
    cv_card_def defs[CV_MAX_CARDS];
    int n = load_csv(argv[1], defs);
    static cv_rules r;
    CHECK(n > 0 && cv_rules_init(&r, defs, n) == 0, "cannot load %s", argv[1]);
    sr_game g;
    cv_search_game(&r, &g);
    static sr_result a, b;
    uint64_t rng = 99;
    int searches = 0;
    for (int i = 0; i < positions; ++i) {
        cv_state s;
        cv_new_game(&r, &s, rng_draw(&rng), i & 1, 0);
        int steps = (int)rng_below(&rng, 30);
        int buf[CV_MAX_ACTIONS];
        for (int k = 0; k < steps && !cv_is_terminal(&s); ++k) {
            int m = cv_legal_actions(&r, &s, buf);
            cv_apply(&r, &s, buf[rng_below(&rng, (uint32_t)m)]);
        }
        if (cv_is_terminal(&s)) continue;
        for (int kind = 0; kind < 3; ++kind) {
            for (int threads = 1; threads <= 2; ++threads) {
                sr_params p = {kind, 1234 + (uint64_t)i, 600, 0.0, 1.4, i % 3 == 0, threads, i % 2 ? 64 : 1 << 16};
                CHECK(sr_search(&g, &s, &p, &a) == 0, "search failed");
                CHECK(sr_search(&g, &s, &p, &b) == 0, "search failed");
                CHECK(a.best == b.best && a.n == b.n && a.iterations == b.iterations, "not deterministic");
                long visits = 0;
                int found = 0;
                for (int k = 0; k < a.n; ++k) {
                    CHECK(a.stats[k].visits == b.stats[k].visits && a.stats[k].mean == b.stats[k].mean, "stats differ");
                    CHECK(a.stats[k].mean >= -1.0 && a.stats[k].mean <= 1.0, "mean out of range");
                    visits += a.stats[k].visits;
                    found |= a.stats[k].action == a.best;
                }
                CHECK(found, "best action is not a root action");
                CHECK(a.n == 1 || visits == 600, "root visits %ld != 600 (kind %d)", visits, kind);
                ++searches;
            }
        }
    }
    /* a time budget runs and stops */
    cv_state s;
    cv_new_game(&r, &s, 5, 1, 0);
    sr_params p = {SR_ISMCTS, 1, 0, 0.02, 1.4, 0, 2, 1 << 16};
    CHECK(sr_search(&g, &s, &p, &a) == 0 && a.iterations > 0, "time budget");
    printf("%d searches: 1 passed, 0 failed\n", searches);
    return 0;
}
