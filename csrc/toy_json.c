/* toy_json.c - Toy's JSON layer (state_json.h): the state dict of RULES.md
 * part 4 (cards are the numbers 1..6) and a seat's view, from the encoding
 * of toy.h. */
#include "state_json.h"
#include "toy.h"
#include "pytext.h"
#include <string.h>


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

/* ---- reading (toy.Toy._encode_dict, _dict_from_view) ---- */

static int toy_card(const sr_game *g, sr_jread *r, int i, const char *where) {
    char got[512];
    int64_t v;
    (void)g;
    if (r->failed) return -1;
    if (!sr_json_int_in(r->doc, i, 1, TOY_CARDS, &v)) {
        sr_jr_repr(r, i, got, sizeof got);
        sr_jr_bad(r, "%s: unknown card %s (cards are 1..%d)", where, got, TOY_CARDS);
        return -1;
    }
    return (int)v - 1;
}

static int child(const sr_jread *r, int list, int k) {
    int i = list + 1;
    while (k-- > 0) i = r->doc->nodes[i].next;
    return i;
}

static void toy_read(const sr_game *g, sr_jread *r, int d) {
    sr_jr_game(r, d, "toy");
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "to_move"), "to_move", 1));
    sr_jr_push(r, sr_jr_seed(r, sr_jr_get(r, d, "seed")));
    int hands = sr_jr_get(r, d, "hands");
    sr_jr_list(r, hands, "hands", 2);
    int piles = sr_jr_get(r, d, "piles");
    sr_jr_list(r, piles, "piles", 2);
    int stock = sr_jr_get(r, d, "stock");
    if (r->failed) return;
    sr_jr_ids(r, g, child(r, hands, 0), "hands[0]", toy_card, 1);
    sr_jr_ids(r, g, child(r, hands, 1), "hands[1]", toy_card, 1);
    sr_jr_ids(r, g, stock, "stock", toy_card, 1);
    sr_jr_ids(r, g, child(r, piles, 0), "piles[0]", toy_card, 0);
    sr_jr_ids(r, g, child(r, piles, 1), "piles[1]", toy_card, 0);
}

/* A card number a view shows (Python's isinstance(x, int): a bool counts as 0 or 1). */
static int seen_number(const sr_jread *r, int i, int64_t *v) {
    int t = r->doc->nodes[i].type;
    if (t == SR_J_TRUE || t == SR_J_FALSE) { *v = t == SR_J_TRUE; return 1; }
    return sr_json_int_in(r->doc, i, INT64_MIN, INT64_MAX, v);
}

/* The other hand and the stock are the unseen cards, in number order. */
static void toy_from_view(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w) {
    (void)g;
    sr_jr_game(r, v, "toy");
    int hands = sr_jr_get(r, v, "hands");
    if (sr_jr_list(r, hands, "hands", 2) < 0) return;
    int mine = child(r, hands, player), other = child(r, hands, 1 - player);
    if (sr_jr_is(r, mine, SR_J_OBJ)) {
        sr_jr_bad(r, "the view shows player %d's hand as a count: it is another seat's view, not player %d's", player,
                  player);
        return;
    }
    int stock = sr_jr_get(r, v, "stock");
    if (r->failed) return;
    if (!sr_jr_is(r, other, SR_J_OBJ) || !sr_jr_is(r, stock, SR_J_OBJ)) {
        sr_jr_bad(r, "a view shows the other hand and the stock as {'count': n}");
        return;
    }
    int seen[TOY_CARDS + 1] = {0};
    int64_t x;
    int n = sr_jr_list(r, mine, "hand", -1);
    for (int k = 0, i = mine + 1; k < n; ++k, i = r->doc->nodes[i].next)
        if (seen_number(r, i, &x) && x >= 1 && x <= TOY_CARDS) seen[x] = 1;
    int piles = sr_jr_get(r, v, "piles");
    int np = sr_jr_list(r, piles, "piles", 2);
    for (int p = 0, pile = piles + 1; p < np && !r->failed; ++p, pile = r->doc->nodes[pile].next) {
        int m = sr_jr_list(r, pile, "pile", -1);
        for (int k = 0, i = pile + 1; k < m; ++k, i = r->doc->nodes[i].next)
            if (seen_number(r, i, &x) && x >= 1 && x <= TOY_CARDS) seen[x] = 1;
    }
    int unseen[TOY_CARDS], nu = 0;
    for (int c = 1; c <= TOY_CARDS; ++c)
        if (!seen[c]) unseen[nu++] = c;
    int64_t k = sr_jr_int(r, sr_jr_get(r, other, "count"), "hand count", 0);
    if (r->failed) return;
    if (k < 0 || k > nu) { sr_jr_bad(r, "the view's hand count does not fit the cards it does not show"); return; }
    /* the view's fields in order, the seat's hand and piles as they are */
    char name[32];
    sr_jw_obj(w);
    for (int c = 0, i = v + 1, value; sr_jr_next_field(r, w, v, &c, &i, "seed", name, sizeof name, &value);) {
        if (strcmp(name, "hands") == 0) {
            sr_jw_arr(w);
            for (int p = 0; p < 2; ++p) {
                if (p == player) { sr_jr_copy(r, mine, w); continue; }
                sr_jw_arr(w);
                for (int j = 0; j < k; ++j) sr_jw_int(w, unseen[j]);
                sr_jw_end_arr(w);
            }
            sr_jw_end_arr(w);
        } else if (strcmp(name, "stock") == 0) {
            sr_jw_arr(w);
            for (int j = (int)k; j < nu; ++j) sr_jw_int(w, unseen[j]);
            sr_jw_end_arr(w);
        } else {
            sr_jr_copy(r, value, w);
        }
    }
    sr_jr_end_rebuilt(w);
}

static void toy_params(sr_jread *r, int d, int *values, int *given) {
    (void)r; (void)d; (void)values; (void)given;
}

/* ---- events (Game._seen_move, _aftermath) ---- */

/* Every move is public (a card taken or played face up). */
static void toy_seen(const sr_game *g, const int64_t *before, int nb, int action, int mover, int player,
                    const char *notation, sr_jw *w) {
    (void)g; (void)before; (void)nb; (void)action; (void)player;
    sr_jw_key(w, "move"); sr_jw_str(w, notation);
    sr_jw_key(w, "text"); sr_jw_strf(w, "P%d: %s", mover, notation);
}

const sr_json_codec toy_json = {
    .title = "Toy",
    .write = toy_write,
    .parse_action = toy_parse,
    .read = toy_read,
    .dict_from_view = toy_from_view,
    .params_from_dict = toy_params,
    .seen_move = toy_seen,
};
