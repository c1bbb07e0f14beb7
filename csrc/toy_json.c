/* toy_json.c - Toy's JSON layer (state_json.h): the state dict of RULES.md
 * part 4 (cards are the numbers 1..6) and a seat's view, from the encoding
 * of toy.h. */
#include "state_json.h"
#include "toy.h"
#include "pytext.h"
#include <string.h>

static int toy_parse(const sr_game *g, const void *state, const char *text, size_t len, int *action, char *msg,
                     size_t msg_len);

/* A list of n cards (ids 0..5 written as 1..6) read from the cursor. */
static void cards(sr_jcur *c, int n, sr_jw *w) {
    sr_jw_arr(w);
    for (int k = 0; k < n; ++k) {
        int64_t id = sr_jcur_next(c);
        if (id < 0 || id >= TOY_CARDS) { c->bad = 1; break; }
        sr_jw_int(w, id + 1);
    }
    sr_jw_end_arr(w);
}

static void count(sr_jw *w, int n) {
    sr_jw_obj(w); sr_jw_key(w, "count"); sr_jw_int(w, n); sr_jw_end_obj(w);
}

/* view: the other hand and the stock as counts, no seed. */
static int toy_write(const sr_game *g, const int64_t *enc, int n, int viewer, sr_jw *w) {
    (void)g;
    sr_jcur c = {enc, n, 0, 0};
    int64_t to_move = sr_jcur_next(&c), seed = sr_jcur_next(&c);
    sr_jw_obj(w);
    sr_jw_key(w, "game"); sr_jw_str(w, "toy");
    sr_jw_key(w, "to_move"); sr_jw_opt(w, to_move);
    if (viewer < 0) { sr_jw_key(w, "seed"); sr_jw_u64(w, (uint64_t)seed); }
    sr_jw_key(w, "hands");
    sr_jw_arr(w);
    for (int p = 0; p < 2; ++p) {
        int k = sr_jcur_count(&c);
        if (viewer >= 0 && p != viewer) { count(w, k); c.i += k; } else cards(&c, k, w);
    }
    sr_jw_end_arr(w);
    sr_jw_key(w, "stock");
    int k = sr_jcur_count(&c);
    if (viewer >= 0) { count(w, k); c.i += k; } else cards(&c, k, w);
    sr_jw_key(w, "piles");
    sr_jw_arr(w);
    for (int p = 0; p < 2; ++p) cards(&c, sr_jcur_count(&c), w);
    sr_jw_end_arr(w);
    sr_jw_end_obj(w);
    return c.bad || c.i != n ? SR_E_STATE : SR_OK;
}

/* "play N", N in 1..6 (words split as Python's str.split). */
static int toy_parse(const sr_game *g, const void *state, const char *text, size_t len, int *action, char *msg,
                     size_t msg_len) {
    size_t at[3], n[3];
    (void)g;
    (void)state;
    if (sr_py_split(text, len, at, n, 3) == 2 && n[0] == 4 && memcmp(text + at[0], "play", 4) == 0 && n[1] == 1 &&
        text[at[1]] >= '1' && text[at[1]] <= '6') {
        *action = text[at[1]] - '1';
        return SR_OK;
    }
    return sr_msgf(SR_E_NOTATION, msg, msg_len, "a Toy move is 'play N' with N in 1..6, not %R", text, len);
}

const sr_json_codec toy_json = {
    .title = "Toy",
    .write = toy_write,
    .parse_action = toy_parse,
};
