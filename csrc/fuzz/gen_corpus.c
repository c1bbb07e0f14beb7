/* gen_corpus.c - write the fuzzers' seed corpus: real positions from random
 * play, for every parameter set of every registered game, in the harness
 * input format (fuzz_common.h), each with a tail of steps.
 *
 *   gen_corpus DATA_DIR OUT_DIR [PER_INSTANCE]
 *
 * writes OUT_DIR/<game>/seed-i<instance>-<n> (the directories must exist).
 * Deterministic: the same tree gives the same files. */
#include "game.h"
#include "load_game.h"
#include "rng.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_u16(FILE *f, unsigned v) {
    fputc((int)(v & 0xFF), f);
    fputc((int)(v >> 8 & 0xFF), f);
}

static void put_i64(FILE *f, int64_t v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int i = 0; i < 8; ++i) fputc((int)(u >> (8 * i) & 0xFF), f);
}

/* Length of a uniformly random game from seed (to spread the depths). */
static int game_length(const sr_game *g, uint64_t seed) {
    sr_state_buf s;
    int buf[SR_MAX_LEGAL], n = 0;
    uint64_t r = seed;
    g->new_initial_state(g, s.b, seed);
    while (g->current_player(g->rules, s.b) != SR_TERMINAL && n <= g->info.max_game_length) {
        int m = g->legal_actions(g->rules, s.b, buf);
        g->apply(g->rules, s.b, buf[rng_pick(&r, (uint32_t)m)]);
        ++n;
    }
    return n;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DATA_DIR OUT_DIR [PER_INSTANCE]\n", argv[0]);
        return 2;
    }
    const int per = argc > 3 ? atoi(argv[3]) : 8;
    int files = 0;
    for (int gi = 0; gi < sr_game_count(); ++gi) {
        tl_game t;
        if (tl_load(&t, sr_game_at(gi)->name, argv[1]) != 0) return 1;
        const sr_game_def *def = t.def;
        const int total = tl_param_combinations(def);
        const int per_inst = total == 1 ? 3 * per : per;
        for (int k = 0; k < total; ++k) {
            int p[SR_MAX_PARAMS];
            sr_game g;
            tl_params_at(def, k, p);   /* the harness's enumeration */
            if (tl_make(&t, p, &g) != 0) return 1;
            const int np = g.info.num_players, A = g.info.num_distinct_actions;
            for (int j = 0; j < per_inst; ++j) {
                uint64_t r = 0x5EEDC0DE00000000ULL ^ (uint64_t)gi << 40 ^ (uint64_t)k << 20 ^ (uint64_t)j;
                uint64_t seed = rng_draw(&r);
                int len = game_length(&g, seed);
                int depth = len * j / per_inst;   /* from the deal to near the end */
                sr_state_buf s;
                int buf[SR_MAX_LEGAL];
                g.new_initial_state(&g, s.b, seed);
                for (int d = 0; d < depth && g.current_player(g.rules, s.b) != SR_TERMINAL; ++d) {
                    int m = g.legal_actions(g.rules, s.b, buf);
                    g.apply(g.rules, s.b, buf[rng_pick(&r, (uint32_t)m)]);
                }
                int64_t enc[SR_MAX_ENCODED];
                int n = g.encode(g.rules, s.b, enc, SR_MAX_ENCODED);
                if (n <= 0) { fprintf(stderr, "%s: encode failed\n", def->name); return 1; }
                char path[1024];
                snprintf(path, sizeof path, "%s/%s/seed-i%d-%02d", argv[2], def->name, k, j);
                FILE *f = fopen(path, "wb");
                if (!f) { perror(path); return 1; }
                fputc(k | (j % 4 == 3 ? 0x80 : 0), f);   /* every fourth plays on to the end */
                put_u16(f, (unsigned)n);
                for (int i = 0; i < n; ++i) put_i64(f, enc[i]);
                /* the tail: mostly legal picks, some raw ids (legal or not), a determinization */
                const int steps = 4 + (int)rng_below(&r, 12);
                for (int t = 0; t < steps; ++t) {
                    uint32_t x = rng_below(&r, 16);
                    if (x < 12) put_u16(f, rng_below(&r, 0x8000));
                    else if (x < 15) put_u16(f, 0x8000 | rng_below(&r, (uint32_t)(A + 8)));
                    else put_u16(f, 0xC000 | rng_below(&r, (uint32_t)np));
                }
                fclose(f);
                ++files;
            }
        }
        tl_free(&t);
    }
    printf("wrote %d corpus files under %s\n", files, argv[2]);
    return 0;
}
