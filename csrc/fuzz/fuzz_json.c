/* fuzz_json.c - libFuzzer harness of the games' JSON layer (state_json.h):
 * untrusted JSON text, as the browser and the server pass it, read as a
 * state dict or a seat's view of any registered game, as its parameters,
 * and as move notation. Input: byte 0 picks the game (modulo the
 * registry's count), byte 1 the instance's parameters (modulo their
 * combinations), byte 2 the reader (modulo players + 1: 0 a state dict,
 * p + 1 seat p's view); the rest is the text.
 *
 * Invariants: sr_state_from_json answers SR_OK, SR_E_STATE or SR_E_NOMEM
 * with a NUL-terminated message that starts "invalid <title> " and shows no
 * seed of the input (a "seed" integer of 7+ digits that appear nowhere
 * else in the input); an accepted state
 * writes as JSON that reads back to the same bytes, and for a view, its
 * view of that seat reads back to a state with that same view; the params
 * and notation readers answer with their documented codes. */
#include "state_json.h"
#include "load_game.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { fprintf(stderr, "FUZZ INVARIANT FAILED: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

static tl_game loaded[8];
static int n_loaded;

static void load_all(void) {
    if (n_loaded) return;
    for (int gi = 0; gi < sr_game_count() && gi < 8; ++gi) {
        if (tl_load(&loaded[gi], sr_game_at(gi)->name, NULL)) FAIL("cannot load %s", sr_game_at(gi)->name);
        n_loaded++;
    }
}

/* The digits of the input's "seed" value when it has 7 or more (a message must not show them). */
static int seed_digits(const char *t, size_t n, char *out, size_t cap) {
    const char *k = NULL;
    for (size_t i = 0; i + 7 < n; ++i)
        if (memcmp(t + i, "\"seed\"", 6) == 0) { k = t + i + 6; break; }
    if (!k) return 0;
    while (k < t + n && (*k == ' ' || *k == ':')) k++;
    size_t d = 0;
    while (k + d < t + n && k[d] >= '0' && k[d] <= '9' && d + 1 < cap) d++;
    if (d < 7) return 0;
    memcpy(out, k, d);
    out[d] = '\0';
    /* only when the digits appear nowhere else (a message may quote other input) */
    int seen = 0;
    for (size_t i = 0; i + d <= n; ++i) seen += memcmp(t + i, out, d) == 0;
    return seen == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char json[SR_MAX_JSON], msg[1024];
    static sr_state_buf st, back;
    if (size < 3) return 0;
    load_all();
    tl_game *t = &loaded[data[0] % n_loaded];
    int params[SR_MAX_PARAMS];
    tl_params_at(t->def, data[1] % tl_param_combinations(t->def), params);
    sr_game g;
    if (tl_make(t, params, &g)) FAIL("cannot make %s", t->def->name);
    int viewer = data[2] % (g.info.num_players + 1) - 1;
    const char *text = (const char *)data + 3;
    size_t len = size - 3;
    char seed[32];
    int has_seed = seed_digits(text, len, seed, sizeof seed);

    memset(msg, 0x55, sizeof msg);
    int rc = sr_state_from_json(t->def, &g, text, len, viewer, NULL, 0, st.b, msg, sizeof msg);
    int have_state = rc == SR_OK;
    if (rc != SR_OK && rc != SR_E_STATE && rc != SR_E_NOMEM) FAIL("%s: from_json gave %d", t->def->name, rc);
    if (!memchr(msg, '\0', sizeof msg)) FAIL("%s: the message is not NUL-terminated", t->def->name);
    if (rc == SR_E_STATE && strncmp(msg, "invalid ", 8) != 0) FAIL("%s: message %s", t->def->name, msg);
    if (rc != SR_OK && has_seed && strstr(msg, seed)) FAIL("%s: the message shows the seed: %s", t->def->name, msg);
    if (rc == SR_OK) {
        /* what it wrote of the state reads back to the same state */
        int n = sr_state_to_json(t->def, &g, st.b, viewer, json, sizeof json);
        if (n <= 0) FAIL("%s: an accepted state does not write (%d)", t->def->name, n);
        if (viewer < 0) {
            if (sr_state_from_json(t->def, &g, json, (size_t)n, -1, NULL, 0, back.b, msg, sizeof msg) != SR_OK)
                FAIL("%s: its own dict is refused: %s\n%s", t->def->name, msg, json);
            if (memcmp(back.b, st.b, g.info.state_size) != 0) FAIL("%s: the round trip changed the state", t->def->name);
        } else {
            if (sr_state_from_json(t->def, &g, json, (size_t)n, viewer, NULL, 0, back.b, msg, sizeof msg) != SR_OK)
                FAIL("%s: its own view is refused: %s\n%s", t->def->name, msg, json);
            static char again[SR_MAX_JSON];
            int m = sr_state_to_json(t->def, &g, back.b, viewer, again, sizeof again);
            if (m != n || memcmp(again, json, (size_t)n) != 0) FAIL("%s: the view's round trip changed it", t->def->name);
        }
    }
    int values[SR_MAX_PARAMS], given[SR_MAX_PARAMS];
    rc = sr_params_from_json(t->def, text, len, NULL, 0, values, given, msg, sizeof msg);
    if (rc != SR_OK && rc != SR_E_STATE && rc != SR_E_NOMEM) FAIL("%s: params gave %d", t->def->name, rc);
    for (int k = 0; rc == SR_OK && k < t->def->num_params; ++k)
        if (given[k] && (values[k] < t->def->params[k].min || values[k] > t->def->params[k].max))
            FAIL("%s: param %d out of range: %d", t->def->name, k, values[k]);
    int action = -1;
    size_t cap = 8 * len + 512;
    char *pmsg = malloc(cap);
    if (!pmsg) return 0;
    rc = sr_parse_action(t->def, &g, have_state ? st.b : NULL, text, len, &action, pmsg, cap);
    if (rc == SR_OK && (action < 0 || action >= g.info.num_distinct_actions)) FAIL("%s: parsed id %d", t->def->name, action);
    if (rc != SR_OK && rc != SR_E_NOTATION && rc != SR_E_ILLEGAL && rc != SR_E_RANGE) FAIL("%s: parse gave %d", t->def->name, rc);
    if (!memchr(pmsg, '\0', cap)) FAIL("%s: the notation message is not NUL-terminated", t->def->name);
    free(pmsg);
    return 0;
}
