/* test_json.c - the C core's own test of the games' JSON layer
 * (csrc/state_json.h, csrc/json.h) through the registry: for every game and
 * every parameter combination, N random games; at every state the state
 * dict and every seat's view are written with SR_MAX_JSON bytes (they must
 * fit, be NUL-terminated, hold no seed in a view, and be the same text when
 * written again), and into smaller buffers (-SR_E_RANGE, never a byte
 * past the buffer: the sanitizers watch). Bad viewers are refused.
 * Meant to run under -fsanitize=address,undefined.
 * Usage: test_json DATA_DIR [N]   (exit 0 = clean) */
#include "state_json.h"
#include "rng.h"
#include "load_game.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

static long n_states, n_texts;

/* Every check on one state of game g (def d). */
static int check_state(const sr_game_def *d, const sr_game *g, const void *s) {
    static char buf[SR_MAX_JSON], again[SR_MAX_JSON];
    for (int viewer = -1; viewer < g->info.num_players; ++viewer) {
        int n = sr_state_to_json(d, g, s, viewer, buf, sizeof buf);
        CHECK(n > 0 && n < SR_MAX_JSON, "%s: viewer %d: to_json gave %d", d->name, viewer, n);
        CHECK(buf[n] == '\0' && strlen(buf) == (size_t)n, "%s: the text is not NUL-terminated at %d", d->name, n);
        CHECK(buf[0] == '{' && buf[n - 1] == '}', "%s: not an object: %s", d->name, buf);
        CHECK((strstr(buf, "\"seed\":") != NULL) == (viewer < 0), "%s: viewer %d: seed shown wrongly: %s",
              d->name, viewer, buf);
        CHECK(sr_state_to_json(d, g, s, viewer, again, sizeof again) == n && memcmp(buf, again, (size_t)n) == 0,
              "%s: two writes differ", d->name);
        /* smaller buffers (every 16th state): refused, in bounds (a heap copy so ASan sees its end) */
        static const int cut[5] = {0, 1, 2, -1, 0};
        for (int c = 0; c < 5 && n_states % 16 == 0; ++c) {
            int cap = c == 3 ? n / 2 : c == 4 ? 0 : n - cut[c];
            char *small = cap ? malloc((size_t)cap) : NULL;
            CHECK(cap == 0 || small, "no memory");
            int r = sr_state_to_json(d, g, s, viewer, small, (size_t)cap);
            CHECK(r == -SR_E_RANGE, "%s: a %d-byte buffer for %d bytes gave %d", d->name, cap, n, r);
            if (cap) CHECK(small[cap - 1] == '\0', "%s: a refused text is not NUL-terminated", d->name);
            free(small);
        }
        n_texts++;
    }
    CHECK(sr_state_to_json(d, g, s, -2, buf, sizeof buf) == -SR_E_PARAM, "viewer -2 accepted");
    CHECK(sr_state_to_json(d, g, s, g->info.num_players, buf, sizeof buf) == -SR_E_PARAM, "viewer n accepted");
    n_states++;
    return 0;
}

static int play(const sr_game_def *d, const sr_game *g, uint64_t seed) {
    sr_state_buf s;
    int legal[SR_MAX_LEGAL];
    uint64_t rng = seed;
    g->new_initial_state(g, s.b, seed);
    for (int steps = 0;; ++steps) {
        if (check_state(d, g, s.b)) return 1;
        int n = g->legal_actions(g->rules, s.b, legal);
        if (n == 0) return 0;
        CHECK(steps <= g->info.max_game_length, "%s: game too long", d->name);
        g->apply(g->rules, s.b, legal[rng_below(&rng, (uint32_t)n)]);
    }
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : NULL;
    long games = argc > 2 ? atol(argv[2]) : 20;
    for (int gi = 0; gi < sr_game_count(); ++gi) {
        tl_game t;
        if (tl_load(&t, sr_game_at(gi)->name, data)) return 1;
        CHECK(t.def->json && t.def->json->write && t.def->json->title, "%s: no JSON codec", t.def->name);
        for (int k = 0; k < tl_param_combinations(t.def); ++k) {
            int p[SR_MAX_PARAMS];
            sr_game g;
            tl_params_at(t.def, k, p);
            if (tl_make(&t, p, &g)) return 1;
            for (long i = 0; i < games; ++i)
                if (play(t.def, &g, 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1) + (uint64_t)k)) return 1;
        }
        tl_free(&t);
    }
    printf("test_json: %ld states, %ld texts: 1 passed\n", n_states, n_texts);
    return 0;
}
