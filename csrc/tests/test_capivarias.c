/* test_capivarias.c - the C core's own test: plays N random games (half with
 * the expansion) and checks every state with cv_check, action ids, notation
 * and determinization. Meant to run under -fsanitize=address,undefined.
 * Usage: test_capivarias CARDS.csv [N]   (exit 0 = clean) */
#include "capivarias.h"
#include "rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_csv.h"

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s CARDS.csv [N]\n", argv[0]); return 2; }
    long games = argc > 2 ? atol(argv[2]) : 10000;
    cv_card_def defs[CV_MAX_CARDS];
    int n = load_csv(argv[1], defs);
    cv_rules r;
    CHECK(n > 0 && cv_rules_init(&r, defs, n) == 0, "cannot load %s", argv[1]);
    CHECK(r.num_actions == 3248, "expected 3248 action ids, got %d", r.num_actions);
    CHECK(sizeof(cv_state) <= 128, "cv_state is %zu bytes", sizeof(cv_state));
    uint64_t g = 12345;
    long actions = 0, draws = 0;
    char msg[160], text[32];
    int buf[CV_MAX_ACTIONS];
    for (long i = 0; i < games; ++i) {
        cv_state s;
        cv_new_game(&r, &s, rng_draw(&g), (int)(i & 1), (int)((i >> 1) & 1));
        while (1) {
            CHECK(cv_check(&r, &s, msg, sizeof msg) == 0, "game %ld: %s", i, msg);
            int k = cv_legal_actions(&r, &s, buf);
            if (cv_is_terminal(&s)) { CHECK(k == 0, "terminal state with actions"); break; }
            CHECK(k > 0 && k <= CV_MAX_ACTIONS, "game %ld: %d actions", i, k);
            for (int j = 0; j < k; ++j) {
                CHECK(buf[j] >= 0 && buf[j] < r.num_actions, "id out of range");
                CHECK(j == 0 || buf[j - 1] < buf[j], "actions not sorted and unique");
                CHECK(cv_action_to_string(&r, buf[j], text, sizeof text) > 0, "no notation");
            }
            if ((actions & 63) == 0) {              /* determinize keeps the public part */
                cv_state d;
                cv_determinize(&r, &s, s.to_move, rng_draw(&g), &d);
                CHECK(cv_check(&r, &d, msg, sizeof msg) == 0, "determinized: %s", msg);
                CHECK(memcmp(d.side, s.side, sizeof s.side) == 0 && d.discard == s.discard, "determinize moved public cards");
                for (int q = 0; q < 3; ++q)
                    CHECK(r.card[d.river[q]].modifier == r.card[s.river[q]].modifier, "river modifier changed");
            }
            {   /* an illegal id is refused and leaves the state untouched */
                int bad = (int)rng_below(&g, (uint32_t)r.num_actions), legal = 0;
                for (int j = 0; j < k; ++j) legal |= buf[j] == bad;
                if (!legal) {
                    cv_state before = s;
                    CHECK(cv_apply_checked(&r, &s, bad) == -1, "illegal id %d accepted", bad);
                    CHECK(memcmp(&before, &s, sizeof s) == 0, "refused apply changed the state");
                }
            }
            cv_apply(&r, &s, buf[rng_below(&g, (uint32_t)k)]);
            ++actions;
        }
        if (s.winner == CV_NONE) ++draws;
    }
    printf("%ld games, %ld actions, %ld draws: 1 passed, 0 failed\n", games, actions, draws);
    return 0;
}
