/* test_json.c - the C core's own test of the games' JSON layer
 * (csrc/state_json.h, csrc/json.h) through the registry: for every game and
 * every parameter combination, N random games; at every state the state
 * dict and every seat's view are written with SR_MAX_JSON bytes (they must
 * fit, be NUL-terminated, hold no seed in a view, and be the same text when
 * written again), and into smaller buffers (-SR_E_RANGE, never a byte
 * past the buffer: the sanitizers watch). Bad viewers are refused. Then
 * the reader: the state dict reads back to the same position, every
 * seat's view reads back to a state with that same view, every legal
 * action's events are a JSON array that parses, and cut or corrupted
 * texts are refused with a message that never shows the seed.
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

static long n_reads, n_events, n_refused;

/* The reader on the texts the writer gives for state s, and on broken ones. */
static int check_reader(const sr_game_def *d, const sr_game *g, const void *s) {
    static char text[SR_MAX_JSON], again[SR_MAX_JSON], msg[1024], seed[32];
    sr_state_buf back;
    int64_t enc[SR_MAX_ENCODED];
    for (int viewer = -1; viewer < g->info.num_players; ++viewer) {
        int n = sr_state_to_json(d, g, s, viewer, text, sizeof text);
        int rc = sr_state_from_json(d, g, text, (size_t)n, viewer, NULL, 0, back.b, msg, sizeof msg);
        CHECK(rc == SR_OK, "%s: viewer %d: its own text is refused: %s\n%s", d->name, viewer, msg, text);
        if (viewer < 0) {
            /* the same position: equal encodings (game.h; a state's dead slots, such as Capivarias'
             * available row past n_avail, may hold stale bytes after play) */
            int64_t e2[SR_MAX_ENCODED];
            int k1 = g->encode(g->rules, s, enc, SR_MAX_ENCODED), k2 = g->encode(g->rules, back.b, e2, SR_MAX_ENCODED);
            CHECK(k1 == k2 && memcmp(enc, e2, sizeof(int64_t) * (size_t)k1) == 0, "%s: the dict reads back to another "
                  "position", d->name);
        } else {
            int m = sr_state_to_json(d, g, back.b, viewer, again, sizeof again);
            CHECK(m == n && memcmp(again, text, (size_t)n) == 0, "%s: viewer %d: the view does not read back", d->name,
                  viewer);
        }
        n_reads++;
    }
    if (n_states % 16) return 0;          /* what follows on a sample of states */
    /* a state dict cut short, or with one byte corrupted: refused (or read), the seed never shown */
    int n = sr_state_to_json(d, g, s, -1, text, sizeof text);
    /* the seed's digits, from the dict's "seed" field: a value no message may show */
    const char *at = strstr(text, "\"seed\":");
    CHECK(at, "%s: the state dict has no seed", d->name);
    at += 7;
    size_t len = strspn(at, "0123456789");
    CHECK(len >= 1 && len < sizeof seed, "%s: the seed is not a number", d->name);
    memcpy(seed, at, len);
    seed[len] = '\0';
    for (int cut = n - 1; cut > 0; cut = cut * 2 / 3) {
        int rc = sr_state_from_json(d, g, text, (size_t)cut, -1, NULL, 0, back.b, msg, sizeof msg);
        CHECK(rc == SR_E_STATE && strncmp(msg, "invalid ", 8) == 0, "%s: a text cut at %d gave %d: %s", d->name, cut, rc,
              msg);
        CHECK(!strstr(msg, seed), "%s: a message shows the seed: %s", d->name, msg);
        n_refused++;
    }
    for (char *p = text; (p = strchr(p, '"')) != NULL && p < text + n; p += 2 + (size_t)(n_refused % 7)) {
        char keep = p[1];
        if (keep == '\0') break;
        p[1] = keep == 'F' ? 'Z' : keep == '[' ? '{' : (char)(keep ^ 1);      /* one corrupted byte after each quote */
        int rc = sr_state_from_json(d, g, text, (size_t)n, -1, NULL, 0, back.b, msg, sizeof msg);
        CHECK(rc == SR_OK || rc == SR_E_STATE, "%s: a corrupted text gave %d", d->name, rc);
        CHECK(rc == SR_OK || !strstr(msg, seed), "%s: a message shows the seed: %s", d->name, msg);
        p[1] = keep;
        n_refused += rc != SR_OK;
    }
    /* every legal action's events, for every seat: a JSON array */
    int legal[SR_MAX_LEGAL];
    int nl = g->legal_actions(g->rules, s, legal);
    for (int i = 0; i < nl; i += 1 + nl / 4) {
        for (int p = 0; p < g->info.num_players; ++p) {
            int m = sr_events_json(d, g, s, legal[i], p, again, sizeof again);
            CHECK(m > 2 && again[0] == '[' && again[m - 1] == ']', "%s: events of %d gave %d", d->name, legal[i], m);
            sr_jnode nodes[512];
            sr_jdoc doc = {nodes, 512, 0};
            CHECK(sr_json_parse(again, (size_t)m, &doc, msg, sizeof msg) == SR_OK, "%s: events do not parse: %s\n%s",
                  d->name, msg, again);
            n_events++;
        }
    }
    CHECK(sr_events_json(d, g, s, -1, 0, again, sizeof again) < 0, "%s: events of id -1 accepted", d->name);
    return 0;
}

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
    if (check_reader(d, g, s)) return 1;
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
    printf("test_json: %ld states, %ld texts, %ld read back, %ld refused, %ld event feeds: 1 passed\n", n_states, n_texts,
           n_reads, n_refused, n_events);
    return 0;
}
