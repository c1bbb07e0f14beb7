/* capulana_json.c - Capulana's JSON layer (state_json.h): the state dict of
 * RULES.md part 4 and a seat's view, from the encoding of capulana_game.h. */
#include "state_json.h"
#include "capulana_game.h"
#include "pytext.h"
#include <string.h>

static const char *const PHASES[3] = {"offer", "weave", "over"};
static const char *const PLACEMENTS[7] = {"+", ">1", ">2", ">3", "<1", "<2", "<3"};
static const char ORIENTATIONS[2] = {'n', 'r'};

/* Where each part of an encoding lies (indices into it), read once. */
typedef struct {
    int players;
    int objectives, deck, slots;             /* index of each list's count */
    int n_offers, offer[2 * CP_MAX_PLAYERS]; /* index of each closed offer's player field */
    int open;                                /* the open offer's player field, or -1 */
    int hand[CP_MAX_PLAYERS], row[CP_MAX_PLAYERS];
    int woven, done, known;
} cp_layout;

static int card_ok(int64_t c) { return c >= 0 && c < CP_NCARDS; }

/* Skip a list (count, items) at c; its count index. */
static int skip_list(sr_jcur *c) {
    int at = c->i;
    c->i += sr_jcur_count(c);
    return at;
}

static int layout(const int64_t *enc, int n, cp_layout *L) {
    sr_jcur c = {enc, n, 6, 0};
    if (n < 6 || enc[0] < CP_MIN_PLAYERS || enc[0] > CP_MAX_PLAYERS || enc[3] < 0 || enc[3] > 2) return SR_E_STATE;
    L->players = (int)enc[0];
    L->objectives = skip_list(&c);
    L->deck = skip_list(&c);
    L->slots = skip_list(&c);
    L->n_offers = sr_jcur_count(&c);
    if (L->n_offers > 2 * CP_MAX_PLAYERS) return SR_E_STATE;
    for (int k = 0; k < L->n_offers; ++k) {
        L->offer[k] = c.i;
        c.i += 2;
        skip_list(&c);
    }
    int64_t has_open = sr_jcur_next(&c);
    L->open = -1;
    if (has_open) {
        L->open = c.i;
        c.i += 2;
        skip_list(&c);
    }
    for (int q = 0; q < L->players; ++q) L->hand[q] = skip_list(&c);
    for (int q = 0; q < L->players; ++q) {
        L->row[q] = c.i;
        c.i += 2 * sr_jcur_count(&c);
    }
    L->woven = c.i;
    L->done = c.i + L->players;
    c.i += 2 * L->players;
    L->known = c.i;
    c.i += 2 * sr_jcur_count(&c);
    return c.bad || c.i != n ? SR_E_STATE : SR_OK;
}

static void names(const cp_rules *r, const int64_t *enc, int at, sr_jw *w) {
    sr_jw_arr(w);
    for (int k = 0; k < enc[at]; ++k) sr_jw_str(w, r->card[enc[at + 1 + k]].name);
    sr_jw_end_arr(w);
}

static void count(sr_jw *w, int64_t n) {
    sr_jw_obj(w); sr_jw_key(w, "count"); sr_jw_int(w, n); sr_jw_end_obj(w);
}

static void offer(const cp_rules *r, const int64_t *enc, int at, int viewer, sr_jw *w) {
    sr_jw_obj(w);
    sr_jw_key(w, "player"); sr_jw_int(w, enc[at]);
    sr_jw_key(w, "slot"); sr_jw_int(w, enc[at + 1]);
    sr_jw_key(w, "cards");
    if (viewer >= 0 && enc[at] != viewer) count(w, enc[at + 2]); else names(r, enc, at + 2, w);
    sr_jw_end_obj(w);
}

/* Every card id in the encoding names a card (the layout is checked first). */
static int ids_ok(const int64_t *enc, const cp_layout *L) {
    int lists[3 + CP_MAX_PLAYERS];
    int nl = 0;
    lists[nl++] = L->deck;
    lists[nl++] = L->slots;
    for (int q = 0; q < L->players; ++q) lists[nl++] = L->hand[q];
    for (int k = 0; k < nl; ++k)
        for (int j = 0; j < enc[lists[k]]; ++j)
            if (!card_ok(enc[lists[k] + 1 + j])) return 0;
    for (int j = 0; j < enc[L->objectives]; ++j)
        if (enc[L->objectives + 1 + j] < 0 || enc[L->objectives + 1 + j] >= CP_NOBJECTIVES) return 0;
    for (int k = 0; k <= L->n_offers; ++k) {
        int at = k < L->n_offers ? L->offer[k] : L->open;
        if (at < 0) continue;
        for (int j = 0; j < enc[at + 2]; ++j)
            if (!card_ok(enc[at + 3 + j])) return 0;
    }
    for (int q = 0; q < L->players; ++q)
        for (int j = 0; j < enc[L->row[q]]; ++j) {
            int64_t c = enc[L->row[q] + 1 + 2 * j], p = enc[L->row[q] + 2 + 2 * j];
            if (!card_ok(c) || p < 0 || p >= 14) return 0;
        }
    for (int q = 0; q < L->players; ++q)
        if (enc[L->woven + q] < 0 || enc[L->woven + q] > enc[L->row[q]]) return 0;
    for (int j = 0; j < enc[L->known]; ++j)
        if (!card_ok(enc[L->known + 1 + 2 * j])) return 0;
    return 1;
}

/* view (RULES part 4, R6, R7): others' rows, hand counts and known cards as
 * they stood when the current weaving step began (their woven shown as 0),
 * each other hand as {"count", "known": names sorted}, others' offers and
 * the deck as counts, no seed. */
static int cp_write(const sr_game *g, const int64_t *enc, int n, int viewer, sr_jw *w) {
    const cp_rules *r = (const cp_rules *)g->rules;
    cp_layout L;
    if (layout(enc, n, &L) != SR_OK || !ids_ok(enc, &L)) return SR_E_STATE;
    const int np = L.players;
    sr_jw_obj(w);
    sr_jw_key(w, "game"); sr_jw_str(w, "capulana");
    sr_jw_key(w, "players"); sr_jw_int(w, np);
    sr_jw_key(w, "round"); sr_jw_int(w, enc[1]);
    sr_jw_key(w, "start_player"); sr_jw_int(w, enc[2]);
    sr_jw_key(w, "phase"); sr_jw_str(w, PHASES[enc[3]]);
    sr_jw_key(w, "to_move"); sr_jw_opt(w, enc[4]);
    if (viewer < 0) { sr_jw_key(w, "seed"); sr_jw_u64(w, (uint64_t)enc[5]); }
    sr_jw_key(w, "objectives");
    sr_jw_arr(w);
    for (int k = 0; k < enc[L.objectives]; ++k) sr_jw_str(w, r->obj[enc[L.objectives + 1 + k]].name);
    sr_jw_end_arr(w);
    sr_jw_key(w, "deck");
    if (viewer >= 0) count(w, enc[L.deck]); else names(r, enc, L.deck, w);
    sr_jw_key(w, "slots"); names(r, enc, L.slots, w);
    sr_jw_key(w, "offers");
    sr_jw_arr(w);
    for (int k = 0; k < L.n_offers; ++k) offer(r, enc, L.offer[k], viewer, w);
    sr_jw_end_arr(w);
    sr_jw_key(w, "open_offer");
    if (L.open < 0) sr_jw_null(w); else offer(r, enc, L.open, viewer, w);
    sr_jw_key(w, "hands");
    sr_jw_arr(w);
    for (int q = 0; q < np; ++q) {
        if (viewer < 0 || q == viewer) { names(r, enc, L.hand[q], w); continue; }
        /* the cards publicly known to be q's, by name (Python's sorted) */
        const char *known[CP_NCARDS];
        int nk = 0;
        for (int j = 0; j < enc[L.known] && nk < CP_NCARDS; ++j)
            if (enc[L.known + 2 + 2 * j] == q) known[nk++] = r->card[enc[L.known + 1 + 2 * j]].name;
        for (int a = 1; a < nk; ++a)
            for (int b = a; b > 0 && strcmp(known[b - 1], known[b]) > 0; --b) {
                const char *t = known[b]; known[b] = known[b - 1]; known[b - 1] = t;
            }
        sr_jw_obj(w);
        sr_jw_key(w, "count"); sr_jw_int(w, enc[L.hand[q]] + enc[L.woven + q]);
        sr_jw_key(w, "known");
        sr_jw_arr(w);
        for (int j = 0; j < nk; ++j) sr_jw_str(w, known[j]);
        sr_jw_end_arr(w);
        sr_jw_end_obj(w);
    }
    sr_jw_end_arr(w);
    sr_jw_key(w, "capulanas");
    sr_jw_arr(w);
    for (int q = 0; q < np; ++q) {
        int64_t k = enc[L.row[q]];
        if (viewer >= 0 && q != viewer) k -= enc[L.woven + q];   /* R7: this step's weaving is hidden */
        sr_jw_arr(w);
        for (int j = 0; j < k; ++j) {
            char e[CP_NAME_LEN + 8];
            int64_t c = enc[L.row[q] + 1 + 2 * j], p = enc[L.row[q] + 2 + 2 * j];
            size_t len = strlen(r->card[c].name);
            memcpy(e, r->card[c].name, len);
            e[len] = ' ';
            e[len + 1] = ORIENTATIONS[p / 7];
            strcpy(e + len + 2, PLACEMENTS[p % 7]);
            sr_jw_str(w, e);
        }
        sr_jw_end_arr(w);
    }
    sr_jw_end_arr(w);
    sr_jw_key(w, "woven");
    sr_jw_arr(w);
    for (int q = 0; q < np; ++q) sr_jw_int(w, viewer >= 0 && q != viewer ? 0 : enc[L.woven + q]);
    sr_jw_end_arr(w);
    sr_jw_key(w, "weave_done");
    sr_jw_arr(w);
    for (int q = 0; q < np; ++q) sr_jw_bool(w, enc[L.done + q] != 0);
    sr_jw_end_arr(w);
    sr_jw_key(w, "known");
    sr_jw_obj(w);
    for (int j = 0; j < enc[L.known]; ++j) {
        sr_jw_key(w, r->card[enc[L.known + 1 + 2 * j]].name);
        sr_jw_int(w, enc[L.known + 2 + 2 * j]);
    }
    sr_jw_end_obj(w);
    sr_jw_end_obj(w);
    return SR_OK;
}

/* The fabric card named by the bytes s[0..n), or -1. */
static int fabric(const cp_rules *r, const char *s, size_t n) {
    for (int c = 0; c < CP_NCARDS; ++c)
        if (r->card[c].kind == CP_KIND_FABRIC && strlen(r->card[c].name) == n && memcmp(r->card[c].name, s, n) == 0)
            return c;
    return -1;
}

static int word_is(const char *text, size_t at, size_t n, const char *w) {
    return n == strlen(w) && memcmp(text + at, w, n) == 0;
}

/* RULES 1.6: "bid 2", "offer F13", "done", "stop", "F13 r>2" (words split
 * as Python's str.split). */
static int cp_parse(const sr_game *g, const void *state, const char *text, size_t len, int *action, char *msg,
                    size_t msg_len) {
    const cp_rules *r = (const cp_rules *)g->rules;
    size_t at[3], n[3];
    int words = sr_py_split(text, len, at, n, 3);
    (void)state;
    if (words == 1 && word_is(text, at[0], n[0], "done")) { *action = CP_A_DONE; return SR_OK; }
    if (words == 1 && word_is(text, at[0], n[0], "stop")) { *action = CP_A_STOP; return SR_OK; }
    if (words == 2 && word_is(text, at[0], n[0], "bid")) {
        if (n[1] == 1 && text[at[1]] >= '0' && text[at[1]] <= '4') { *action = CP_A_BID + text[at[1]] - '0'; return SR_OK; }
        return sr_msgf(SR_E_NOTATION, msg, msg_len, "slot in %R must be 0..4", text, len);
    }
    int name = words == 2 && word_is(text, at[0], n[0], "offer") ? 1 : 0;
    if (words != 2) return sr_msgf(SR_E_NOTATION, msg, msg_len, "not a Capulana move: %R", text, len);
    int c = fabric(r, text + at[name], n[name]);
    if (c < 0)
        return sr_msgf(SR_E_NOTATION, msg, msg_len, "unknown fabric card %R in move %R", text + at[name], n[name], text,
                       len);
    if (name == 1) { *action = CP_A_OFFER + c; return SR_OK; }
    const char *p = text + at[1];
    int o = n[1] >= 2 && p[0] == 'n' ? 0 : n[1] >= 2 && p[0] == 'r' ? 1 : -1;
    for (int k = 0; o >= 0 && k < 7; ++k)
        if (word_is(p, 1, n[1] - 1, PLACEMENTS[k])) { *action = CP_A_WEAVE + 14 * c + 7 * o + k; return SR_OK; }
    return sr_msgf(SR_E_NOTATION, msg, msg_len, "placement in %R must be n or r followed by + >1 >2 >3 <1 <2 <3", text,
                   len);
}

const sr_json_codec cp_json = {
    .title = "Capulana",
    .write = cp_write,
    .parse_action = cp_parse,
};
