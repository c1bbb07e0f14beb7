/* capulana_json.c - Capulana's JSON layer (state_json.h): the state dict of
 * RULES.md part 4 and a seat's view, from the encoding of capulana_game.h. */
#include "state_json.h"
#include "capulana_game.h"
#include "pytext.h"
#include <stdio.h>
#include <stdlib.h>
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

/* ---- reading (capulana.Capulana._encode_dict, _dict_from_view) ---- */

static int cp_card(const sr_game *g, sr_jread *r, int i, const char *where) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    const char *names[CP_NCARDS];
    for (int c = 0; c < CP_NCARDS; ++c) names[c] = rules->card[c].name;
    return sr_jr_card_named(r, i, where, names, CP_NCARDS);
}

static int nth(const sr_jread *r, int list, int k) {
    int i = list + 1;
    while (k-- > 0) i = r->doc->nodes[i].next;
    return i;
}

static int phase_of(const sr_jread *r, int i) {
    for (int k = 0; k < 3; ++k)
        if (sr_json_str_eq(r->doc, i, PHASES[k])) return k;
    return -1;
}

static void read_offer(const sr_game *g, sr_jread *r, int o, const char *where) {
    char what[64];
    if (r->failed) return;
    if (!sr_jr_is(r, o, SR_J_OBJ)) { sr_jr_bad(r, "%s must be a dict with player, slot, cards", where); return; }
    snprintf(what, sizeof what, "%s player", where);
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, o, "player"), what, 0));
    snprintf(what, sizeof what, "%s slot", where);
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, o, "slot"), what, 0));
    sr_jr_ids(r, g, sr_jr_get(r, o, "cards"), where, cp_card, 1);
}

/* A row entry "CARD orientation+placement" (s, its unescaped text): the
 * card word's span and the code 7 * orientation + placement, or -1. */
static int entry(const char *s, size_t n, size_t *at, size_t *len) {
    size_t w0[3], wl[3];
    if (sr_py_split(s, n, w0, wl, 3) != 2) return -1;
    const char *p = s + w0[1];
    int o = p[0] == 'n' ? 0 : p[0] == 'r' ? 1 : -1;
    for (int k = 0; o >= 0 && wl[1] >= 2 && k < 7; ++k)
        if (strlen(PLACEMENTS[k]) == wl[1] - 1 && memcmp(p + 1, PLACEMENTS[k], wl[1] - 1) == 0) {
            *at = w0[0];
            *len = wl[0];
            return 7 * o + k;
        }
    return -1;
}

static void cp_read(const sr_game *g, sr_jread *r, int d) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    char where[64], got[512];
    sr_jr_game(r, d, "capulana");
    int64_t n = sr_jr_int(r, sr_jr_get(r, d, "players"), "players", 0);
    if (!r->failed && n != g->info.num_players)
        sr_jr_bad(r, "players must be %d in this game, not %d", g->info.num_players, (int)n);
    int phase = sr_jr_get(r, d, "phase");
    if (!r->failed && phase_of(r, phase) < 0) {
        sr_jr_repr(r, phase, got, sizeof got);
        sr_jr_bad(r, "phase must be 'offer', 'weave' or 'over', not %s", got);
    }
    sr_jr_push(r, n);
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "round"), "round", 0));
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "start_player"), "start_player", 0));
    sr_jr_push(r, phase_of(r, phase));
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "to_move"), "to_move", 1));
    sr_jr_push(r, sr_jr_seed(r, sr_jr_get(r, d, "seed")));
    int objectives = sr_jr_get(r, d, "objectives");
    int no = sr_jr_list(r, objectives, "objectives", -1);
    int at = r->n + 1;
    sr_jr_push(r, no < 0 ? 0 : no);
    for (int k = 0, o = objectives + 1; k < no && !r->failed; ++k, o = r->doc->nodes[o].next) {
        int found = -1;
        for (int j = 0; j < CP_NOBJECTIVES && found < 0; ++j)
            if (sr_json_str_eq(r->doc, o, rules->obj[j].name)) found = j;
        if (found < 0) {
            sr_jr_repr(r, o, got, sizeof got);
            sr_jr_bad(r, "objectives: unknown objective %s", got);
            return;
        }
        sr_jr_push(r, found);
    }
    if (!r->failed && r->n <= SR_MAX_ENCODED) {
        for (int a = at + 1; a < r->n; ++a)                  /* sorted (insertion: a few ids) */
            for (int b = a; b > at && r->out[b - 1] > r->out[b]; --b) {
                int64_t x = r->out[b]; r->out[b] = r->out[b - 1]; r->out[b - 1] = x;
            }
    }
    sr_jr_ids(r, g, sr_jr_get(r, d, "deck"), "deck", cp_card, 0);
    sr_jr_ids(r, g, sr_jr_get(r, d, "slots"), "slots", cp_card, 0);
    int offers = sr_jr_get(r, d, "offers");
    int nof = sr_jr_list(r, offers, "offers", -1);
    sr_jr_push(r, nof);
    for (int k = 0, o = offers + 1; k < nof && !r->failed; ++k, o = r->doc->nodes[o].next) {
        snprintf(where, sizeof where, "offer %d", k);
        read_offer(g, r, o, where);
    }
    int open = sr_jr_get(r, d, "open_offer");
    if (!r->failed && sr_jr_is(r, open, SR_J_NULL)) sr_jr_push(r, 0);
    else if (!r->failed) { sr_jr_push(r, 1); read_offer(g, r, open, "open_offer"); }
    int hands = sr_jr_get(r, d, "hands");
    if (sr_jr_list(r, hands, "hands", (int)n) < 0) return;
    for (int q = 0, h = hands + 1; q < n && !r->failed; ++q, h = r->doc->nodes[h].next) {
        snprintf(where, sizeof where, "hand of player %d", q);
        sr_jr_ids(r, g, h, where, cp_card, 1);
    }
    int rows = sr_jr_get(r, d, "capulanas");
    if (sr_jr_list(r, rows, "capulanas", (int)n) < 0) return;
    for (int q = 0, row = rows + 1; q < n && !r->failed; ++q, row = r->doc->nodes[row].next) {
        snprintf(where, sizeof where, "capulana of player %d", q);
        int m = sr_jr_list(r, row, where, -1);
        sr_jr_push(r, m);
        for (int k = 0, e = row + 1; k < m && !r->failed; ++k, e = r->doc->nodes[e].next) {
            size_t a0 = 0, al = 0;
            int code = -1;
            char *s = NULL;
            if (sr_jr_is(r, e, SR_J_STR)) {
                size_t sn = r->doc->nodes[e].len + 1;          /* unescaped text is never longer */
                if (!(s = malloc(sn))) { r->failed = SR_E_NOMEM; snprintf(r->msg, r->msg_len, "out of memory"); return; }
                code = entry(s, sr_json_str(&r->doc->nodes[e], s, sn), &a0, &al);
            }
            if (code < 0) {
                free(s);
                sr_jr_repr(r, e, got, sizeof got);
                sr_jr_bad(r, "%s: entry %s is not 'CARD orientation+placement' like 'F30 r>1'", where, got);
                return;
            }
            int c = -1;
            for (int j = 0; j < CP_NCARDS && c < 0; ++j)
                if (strlen(rules->card[j].name) == al && memcmp(rules->card[j].name, s + a0, al) == 0) c = j;
            if (c < 0) {
                char rep[256];                           /* _fields.short of the name, as Fields.card words it */
                sr_py_short(s + a0, al, rep, sizeof rep);
                free(s);
                sr_jr_bad(r, "%s: unknown card %s", where, rep);
                return;
            }
            free(s);
            sr_jr_push(r, c);
            sr_jr_push(r, code);
        }
    }
    int woven = sr_jr_get(r, d, "woven");
    if (sr_jr_list(r, woven, "woven", (int)n) < 0) return;
    for (int q = 0, x = woven + 1; q < n; ++q, x = r->doc->nodes[x].next) {
        snprintf(where, sizeof where, "woven[%d]", q);
        sr_jr_push(r, sr_jr_int(r, x, where, 0));
    }
    int done = sr_jr_get(r, d, "weave_done");
    if (sr_jr_list(r, done, "weave_done", (int)n) < 0) return;
    for (int q = 0, x = done + 1; q < n && !r->failed; ++q, x = r->doc->nodes[x].next) {
        int t = r->doc->nodes[x].type;
        if (t != SR_J_TRUE && t != SR_J_FALSE) {
            sr_jr_repr(r, x, got, sizeof got);
            sr_jr_bad(r, "weave_done[%d] must be true or false, not %s", q, got);
            return;
        }
        sr_jr_push(r, t == SR_J_TRUE);
    }
    int known = sr_jr_get(r, d, "known");
    if (r->failed) return;
    if (!sr_jr_is(r, known, SR_J_OBJ)) {
        sr_jr_bad(r, "known must be a dict of card: player, not %s", sr_json_type_name(r->doc, known));
        return;
    }
    int nk = r->doc->nodes[known].count;
    int start = r->n + 1;
    sr_jr_push(r, nk);
    for (int k = 0, i = known + 1; k < nk && !r->failed; ++k, i = r->doc->nodes[i + 1].next) {
        char key[128];
        size_t kl = sr_json_str(&r->doc->nodes[i], key, sizeof key);
        if (kl >= sizeof key) kl = sizeof key - 1;
        key[kl] = '\0';
        sr_jr_push(r, cp_card(g, r, i, "known"));
        char kwhere[sizeof key + 8];
        snprintf(kwhere, sizeof kwhere, "known[%s]", key);
        sr_jr_push(r, sr_jr_int(r, i + 1, kwhere, 0));
    }
    if (!r->failed && r->n <= SR_MAX_ENCODED) {        /* pairs sorted by (card, player) */
        for (int a = start + 2; a < r->n; a += 2)
            for (int b = a; b > start && (r->out[b - 2] > r->out[b] || (r->out[b - 2] == r->out[b] &&
                                                                        r->out[b - 1] > r->out[b + 1])); b -= 2) {
                int64_t c = r->out[b], q = r->out[b + 1];
                r->out[b] = r->out[b - 2]; r->out[b + 1] = r->out[b - 1];
                r->out[b - 2] = c; r->out[b - 1] = q;
            }
    }
}

/* A card name a view places: a string node of the view (copied as it is)
 * or a card of the pool. */
typedef struct {
    const char *s;               /* unescaped text */
    size_t n;
    int node;                    /* its node, or -1 - card */
} item;

static int item_cmp(const void *a, const void *b) {
    const item *x = (const item *)a, *y = (const item *)b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* Python's len(x[:c]) for a list of len items. */
static size_t py_cut(int64_t c, size_t len) {
    if (c < 0) return c + (int64_t)len < 0 ? 0 : (size_t)(c + (int64_t)len);
    return (uint64_t)c > len ? len : (size_t)c;
}

/* Python's truth of a JSON value (d.get("open_offer") is tested so). */
static int truthy(const sr_jread *r, int i) {
    const sr_jnode *nd = &r->doc->nodes[i];
    switch (nd->type) {
    case SR_J_NULL: case SR_J_FALSE: return 0;
    case SR_J_TRUE: return 1;
    case SR_J_INT: return nd->big || nd->neg || nd->u != 0;
    case SR_J_FLOAT: return nd->f != 0;
    case SR_J_STR: return nd->len > 2;
    default: return nd->count > 0;
    }
}

/* Whether node i equals the int q as Python compares (1 == 1.0 == True). */
static int equals_int(const sr_jread *r, int i, int q) {
    const sr_jnode *nd = &r->doc->nodes[i];
    if (i < 0) return 0;
    if (nd->type == SR_J_TRUE || nd->type == SR_J_FALSE) return (nd->type == SR_J_TRUE) == q;
    if (nd->type == SR_J_FLOAT) return nd->f == q;
    return nd->type == SR_J_INT && !nd->big && !nd->neg && nd->u == (uint64_t)q;
}

static int card_by_name(const cp_rules *rules, const char *s, size_t n) {
    for (int c = 0; c < CP_NCARDS; ++c)
        if (strlen(rules->card[c].name) == n && memcmp(rules->card[c].name, s, n) == 0) return c;
    return -1;
}

static void write_items(const sr_jread *r, const cp_rules *rules, const item *xs, size_t n, sr_jw *w) {
    sr_jw_arr(w);
    for (size_t k = 0; k < n; ++k) {
        if (xs[k].node >= 0) sr_jw_raw(w, r->doc->nodes[xs[k].node].src, r->doc->nodes[xs[k].node].len);
        else sr_jw_str(w, rules->card[-1 - xs[k].node].name);
    }
    sr_jw_end_arr(w);
}

/* An offer with its cards replaced by xs (its other fields as they are). */
static void write_offer(const sr_jread *r, const cp_rules *rules, int o, const item *xs, size_t n, sr_jw *w) {
    sr_jw_obj(w);
    for (int f = 0, j = o + 1; f < r->doc->nodes[o].count; ++f, j = r->doc->nodes[j + 1].next) {
        char field[32];
        if (sr_json_str(&r->doc->nodes[j], field, sizeof field) >= sizeof field) continue;
        if (sr_json_get(r->doc, o, field) != j + 1) continue;
        sr_jw_key(w, field);
        if (strcmp(field, "cards") == 0) write_items(r, rules, xs, n, w);
        else sr_jw_raw(w, r->doc->nodes[j + 1].src, r->doc->nodes[j + 1].len);
    }
    sr_jw_end_obj(w);
}

/* Others' hidden cards are dealt ones, black first (1.2): each other hand
 * gets its known cards (R6; those beyond its count lie in its hidden
 * offers), then pool cards; hidden offers likewise; the deck is the rest. */
static void cp_from_view(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    const int np = g->info.num_players;
    char what[64];
    sr_jr_game(r, v, "capulana");
    int hands = sr_jr_get(r, v, "hands");
    sr_jr_list(r, hands, "hands", np);
    int rows = sr_jr_get(r, v, "capulanas");
    sr_jr_list(r, rows, "capulanas", np);
    int known = sr_jr_get(r, v, "known");
    if (r->failed) return;
    if (!sr_jr_is(r, known, SR_J_OBJ)) { sr_jr_bad(r, "known must be a dict of card: player"); return; }
    int offers = sr_jr_get(r, v, "offers");
    int nof = sr_jr_list(r, offers, "offers", -1);
    if (r->failed) return;
    int open = sr_json_get(r->doc, v, "open_offer");
    int n_all = nof + (open >= 0 && truthy(r, open));
    int mine_node = nth(r, hands, player);
    if (sr_jr_is(r, mine_node, SR_J_OBJ)) {
        sr_jr_bad(r, "the view shows player %d's hand as a count: it is another seat's view, not player %d's", player,
                  player);
        return;
    }
    /* what the seat sees, by name */
    uint64_t seen = 0;
    char s[64];
    const int nk = r->doc->nodes[known].count;
    for (int k = 0, i = known + 1; k < nk; ++k, i = r->doc->nodes[i + 1].next) {
        size_t n = sr_json_str(&r->doc->nodes[i], s, sizeof s);
        int c = n < sizeof s ? card_by_name(rules, s, n) : -1;
        if (c >= 0) seen |= (uint64_t)1 << c;
    }
    int lists[2] = {sr_jr_get(r, v, "slots"), mine_node};
    for (int l = 0; l < 2 && !r->failed; ++l) {
        snprintf(what, sizeof what, "hand of player %d", player);
        int m = sr_jr_list(r, lists[l], l ? what : "slots", -1);
        for (int k = 0, x = lists[l] + 1; k < m; ++k, x = r->doc->nodes[x].next) {
            size_t n = sr_jr_is(r, x, SR_J_STR) ? sr_json_str(&r->doc->nodes[x], s, sizeof s) : sizeof s;
            int c = n < sizeof s ? card_by_name(rules, s, n) : -1;
            if (c >= 0) seen |= (uint64_t)1 << c;
        }
    }
    for (int q = 0, row = rows + 1; q < np && !r->failed; ++q, row = r->doc->nodes[row].next) {
        int m = sr_jr_list(r, row, "capulana", -1);
        for (int k = 0, e = row + 1; k < m; ++k, e = r->doc->nodes[e].next) {
            size_t w0[1], wl[1];
            if (!sr_jr_is(r, e, SR_J_STR) || r->doc->nodes[e].len > 512) continue;   /* a long entry names no card */
            char es[512];
            size_t n = sr_json_str(&r->doc->nodes[e], es, sizeof es);
            if (n >= sizeof es || sr_py_split(es, n, w0, wl, 1) < 1) continue;
            int c = card_by_name(rules, es + w0[0], wl[0]);
            if (c >= 0) seen |= (uint64_t)1 << c;
        }
    }
    for (int k = 0, o = nof > 0 ? offers + 1 : open; k < n_all && !r->failed; ++k, o = k < nof ? r->doc->nodes[o].next : open) {
        int cards = sr_json_get(r->doc, o, "cards");
        if (!sr_jr_is(r, o, SR_J_OBJ) || !(sr_jr_is(r, cards, SR_J_ARR) || sr_jr_is(r, cards, SR_J_OBJ))) {
            sr_jr_bad(r, "an offer is a dict with player, slot, cards");
            return;
        }
        if (!sr_jr_is(r, cards, SR_J_ARR)) continue;
        for (int j = 0, x = cards + 1; j < r->doc->nodes[cards].count; ++j, x = r->doc->nodes[x].next) {
            size_t n = sr_jr_is(r, x, SR_J_STR) ? sr_json_str(&r->doc->nodes[x], s, sizeof s) : sizeof s;
            int c = n < sizeof s ? card_by_name(rules, s, n) : -1;
            if (c >= 0) seen |= (uint64_t)1 << c;
        }
    }
    if (r->failed) return;
    int pool[CP_NFABRIC], npool = 0, head = 0;
    for (int k = 0; k < rules->nblack; ++k)
        if (!(seen >> rules->black_ids[k] & 1)) pool[npool++] = rules->black_ids[k];
    for (int k = 0; k < rules->npurple; ++k)
        if (!(seen >> rules->purple_ids[k] & 1)) pool[npool++] = rules->purple_ids[k];
    /* the places: each other hand, each hidden offer (index among offers, open last) */
    size_t cap = 3 * (size_t)nk + 2 * CP_NFABRIC + 8;   /* each q: mine, its takes and its hand */
    item *keys = malloc(sizeof(item) * ((size_t)nk + 1)), *placed = malloc(sizeof(item) * cap);
    char *text = malloc((size_t)r->doc->nodes[known].len + 1);
    size_t *hand_at = calloc((size_t)np, sizeof(size_t)), *hand_n = calloc((size_t)np, sizeof(size_t));
    size_t *offer_at = calloc((size_t)n_all + 1, sizeof(size_t)), *offer_n = calloc((size_t)n_all + 1, sizeof(size_t));
    char *replaced = calloc((size_t)n_all + 1, 1);
    size_t nplaced = 0;
    if (!keys || !placed || !text || !hand_at || !hand_n || !offer_at || !offer_n || !replaced) {
        r->failed = SR_E_NOMEM;
        snprintf(r->msg, r->msg_len, "out of memory");
        goto done;
    }
    size_t used = 0;
    for (int k = 0, i = known + 1; k < nk; ++k, i = r->doc->nodes[i + 1].next) {
        keys[k].s = text + used;
        keys[k].n = sr_json_str(&r->doc->nodes[i], text + used, (size_t)r->doc->nodes[known].len + 1 - used);
        keys[k].node = i;
        used += keys[k].n;
    }
    for (int q = 0, h = hands + 1; q < np && !r->failed; ++q, h = r->doc->nodes[h].next) {
        if (q == player) continue;
        if (!sr_jr_is(r, h, SR_J_OBJ)) { sr_jr_bad(r, "a view shows player %d's hand as {'count': n}", q); break; }
        /* mine: the known cards held by q, sorted */
        item *mine = placed + nplaced;
        size_t nm = 0;
        for (int k = 0; k < nk; ++k)
            if (equals_int(r, keys[k].node + 1, q)) mine[nm++] = keys[k];
        qsort(mine, nm, sizeof(item), item_cmp);
        snprintf(what, sizeof what, "hand count of player %d", q);
        int64_t count = sr_jr_int(r, sr_jr_get(r, h, "count"), what, 0);
        if (r->failed) break;
        size_t cut = py_cut(count, nm);
        item *hand = malloc(sizeof(item) * (cut + CP_NFABRIC + 1));
        if (!hand) { r->failed = SR_E_NOMEM; snprintf(r->msg, r->msg_len, "out of memory"); break; }
        size_t nh = cut;
        memcpy(hand, mine, sizeof(item) * cut);
        item *spill = mine + cut;
        size_t ns = nm - cut;
        size_t next_free = nplaced + nm;                 /* takes go after mine */
        for (int k = 0, o = nof > 0 ? offers + 1 : open; k < n_all && !r->failed; ++k, o = k < nof ? r->doc->nodes[o].next : open) {
            int cards = sr_json_get(r->doc, o, "cards");
            if (!equals_int(r, sr_json_get(r->doc, o, "player"), q) || !sr_jr_is(r, cards, SR_J_OBJ) || replaced[k]) continue;
            int64_t want = sr_jr_int(r, sr_jr_get(r, cards, "count"), "offer count", 0);
            if (r->failed) break;
            size_t kc = py_cut(want, ns);
            item *take = placed + next_free;
            memmove(take, spill, sizeof(item) * kc);      /* spill lies before next_free: safe */
            spill += kc;
            ns -= kc;
            size_t nt = kc;
            while ((int64_t)nt < want && head < npool && next_free + nt < cap)
                take[nt].s = rules->card[pool[head]].name, take[nt].n = strlen(rules->card[pool[head]].name),
                take[nt++].node = -1 - pool[head++];
            qsort(take, nt, sizeof(item), item_cmp);
            offer_at[k] = next_free;
            offer_n[k] = nt;
            replaced[k] = 1;
            next_free += nt;
        }
        if (!r->failed && ns) sr_jr_bad(r, "player %d has more known cards than their hand and offers hold", q);
        while (!r->failed && (int64_t)nh < count && head < npool) {
            hand[nh].s = rules->card[pool[head]].name;
            hand[nh].n = strlen(rules->card[pool[head]].name);
            hand[nh++].node = -1 - pool[head++];
        }
        qsort(hand, nh, sizeof(item), item_cmp);
        if (!r->failed && next_free + nh <= cap) {
            memcpy(placed + next_free, hand, sizeof(item) * nh);
            hand_at[q] = next_free;
            hand_n[q] = nh;
            nplaced = next_free + nh;
        } else if (!r->failed) {
            sr_jr_bad(r, "player %d has more known cards than their hand and offers hold", q);
        }
        free(hand);
    }
    int deck = sr_jr_get(r, v, "deck");
    if (!r->failed && !sr_jr_is(r, deck, SR_J_OBJ)) sr_jr_bad(r, "a view shows the deck as {'count': n}");
    if (r->failed) goto done;
    /* the view's fields in order, hidden cards placed, the deck the pool's rest, seed 0 */
    int i = v + 1;
    sr_jw_obj(w);
    for (int c = 0; c < r->doc->nodes[v].count; ++c, i = r->doc->nodes[i + 1].next) {
        char name[32];
        if (sr_json_str(&r->doc->nodes[i], name, sizeof name) >= sizeof name || strcmp(name, "seed") == 0) continue;
        if (sr_json_get(r->doc, v, name) != i + 1) continue;          /* a repeated key: the first counts */
        sr_jw_key(w, name);
        if (strcmp(name, "hands") == 0) {
            sr_jw_arr(w);
            for (int q = 0, h = hands + 1; q < np; ++q, h = r->doc->nodes[h].next) {
                if (q == player) sr_jr_copy(r, h, w);
                else write_items(r, rules, placed + hand_at[q], hand_n[q], w);
            }
            sr_jw_end_arr(w);
        } else if (strcmp(name, "offers") == 0) {
            sr_jw_arr(w);
            for (int k = 0, o = offers + 1; k < nof; ++k, o = r->doc->nodes[o].next) {
                if (replaced[k]) write_offer(r, rules, o, placed + offer_at[k], offer_n[k], w);
                else sr_jr_copy(r, o, w);
            }
            sr_jw_end_arr(w);
        } else if (strcmp(name, "open_offer") == 0 && n_all > nof && replaced[nof]) {
            write_offer(r, rules, open, placed + offer_at[nof], offer_n[nof], w);
        } else if (strcmp(name, "deck") == 0) {
            sr_jw_arr(w);
            for (int k = head; k < npool; ++k) sr_jw_str(w, rules->card[pool[k]].name);
            sr_jw_end_arr(w);
        } else {
            sr_jr_copy(r, i + 1, w);
        }
    }
    sr_jw_key(w, "seed");
    sr_jw_int(w, 0);
    sr_jw_end_obj(w);
done:
    free(keys); free(placed); free(text); free(hand_at); free(hand_n); free(offer_at); free(offer_n); free(replaced);
}

static void cp_params(sr_jread *r, int d, int *values, int *given) {
    char got[512];
    int64_t n;
    int p = sr_jr_get(r, d, "players");
    if (r->failed) return;
    if (!sr_json_int_in(r->doc, p, 2, 5, &n)) {
        sr_jr_repr(r, p, got, sizeof got);
        sr_jr_bad(r, "players must be an integer in [2, 5], not %s", got);
        return;
    }
    values[CP_PARAM_PLAYERS] = (int)n;
    given[CP_PARAM_PLAYERS] = 1;
}

/* ---- events (_capulana_events.py: Game._seen_move, _aftermath) ---- */

/* A bid and "done" are public; an offered card is face down (who, which
 * slot and how many cards are shown, 1.3); weaving is hidden until every
 * player has finished the step (R7). */
static void cp_seen(const sr_game *g, const int64_t *b, int nb, int action, int mover, int player,
                    const char *notation, sr_jw *w) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    cp_layout L;
    if (layout(b, nb, &L) != SR_OK) return;
    if (action < CP_A_OFFER) {
        int slot = action - CP_A_BID;
        sr_jw_key(w, "move"); sr_jw_str(w, notation);
        sr_jw_key(w, "text");
        sr_jw_strf(w, "P%d bids on slot %d (%s)", mover, slot,
                   slot < b[L.slots] ? rules->card[b[L.slots + 1 + slot]].name : "?");
        return;
    }
    if (action == CP_A_DONE && L.open >= 0) {
        long long k = (long long)b[L.open + 2];
        sr_jw_key(w, "move"); sr_jw_str(w, notation);
        sr_jw_key(w, "text");
        sr_jw_strf(w, "P%d closes an offer of %lld card%s on slot %lld", mover, k, k != 1 ? "s" : "",
                   (long long)b[L.open + 1]);
        return;
    }
    if (mover == player) {
        sr_jw_key(w, "move"); sr_jw_str(w, notation);
        sr_jw_key(w, "text"); sr_jw_strf(w, "P%d: %s", mover, notation);
        return;
    }
    sr_jw_key(w, "move"); sr_jw_null(w);
    sr_jw_key(w, "text");
    if (action < CP_A_DONE && L.open >= 0)
        sr_jw_strf(w, "P%d adds a card to the offer on slot %lld, face down", mover, (long long)b[L.open + 1]);
    else
        sr_jw_strf(w, "P%d weaves (shown when the step ends)", mover);
}

/* " ".join(names) or "nothing" of the n card ids at ids, appended to out. */
static void join_names(const cp_rules *rules, const int64_t *ids, int64_t n, const char *sep, char *out, size_t cap) {
    size_t at = strlen(out);
    if (n <= 0) { snprintf(out + at, cap - at, "nothing"); return; }
    for (int64_t k = 0; k < n && at < cap; ++k)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", k ? sep : "", rules->card[ids[k]].name);
}

/* The auction's results when the last offer closes (R5, R6: every offered
 * and announced card is public then), everyone's weaving when a step ends
 * (R7), and a new round's announced cards, in that order. */
static void cp_after(const sr_game *g, const int64_t *b, int nb, const int64_t *a, int na, int over, sr_jw *w) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    cp_layout B, A;
    if (layout(b, nb, &B) != SR_OK || layout(a, na, &A) != SR_OK) return;
    if (b[3] == CP_PHASE_OFFER && a[3] != CP_PHASE_OFFER) {
        int offers[2 * CP_MAX_PLAYERS + 1], no = 0;
        for (int k = 0; k < B.n_offers; ++k) offers[no++] = B.offer[k];
        if (B.open >= 0) offers[no++] = B.open;
        for (int k = 0; k < b[B.slots]; ++k) {
            int64_t card = b[B.slots + 1 + k], winner = -1;
            for (int j = 0; j < a[A.known]; ++j)
                if (a[A.known + 1 + 2 * j] == card) winner = a[A.known + 2 + 2 * j];
            int pair[2 * CP_MAX_PLAYERS + 1], np = 0, won = -1, lost = -1;
            for (int j = 0; j < no; ++j)
                if (b[offers[j] + 1] == k) pair[np++] = offers[j];
            for (int j = 0; j < np && won < 0; ++j)
                if (b[pair[j]] == winner) won = pair[j];
            for (int j = 0; j < np && lost < 0; ++j)
                if (pair[j] != won) lost = pair[j];
            if (won < 0 || lost < 0) continue;      /* never in play: each slot has its two offers */
            const char *cn = rules->card[card].name;
            char text[1024], wn[256] = "", ln[256] = "";
            join_names(rules, b + won + 3, b[won + 2], " ", wn, sizeof wn);
            join_names(rules, b + lost + 3, b[lost + 2], " ", ln, sizeof ln);
            int at = snprintf(text, sizeof text, "slot %d (%s): P%lld (%s) beats P%lld (%s); P%lld takes %s", k, cn,
                              (long long)winner, wn, (long long)b[lost], ln, (long long)winner, cn);
            if (b[lost + 2] > 0) at += snprintf(text + at, sizeof text - (size_t)at, " and %s", ln);
            if (b[won + 2] > 0) snprintf(text + at, sizeof text - (size_t)at, ", P%lld takes %s", (long long)b[lost], wn);
            sr_jw_obj(w);
            sr_jw_key(w, "kind"); sr_jw_str(w, "auction");
            sr_jw_key(w, "slot"); sr_jw_int(w, k);
            sr_jw_key(w, "card"); sr_jw_str(w, cn);
            sr_jw_key(w, "winner"); sr_jw_int(w, winner);
            sr_jw_key(w, "loser"); sr_jw_int(w, b[lost]);
            sr_jw_key(w, "revealed");
            sr_jw_obj(w);
            sr_jw_key(w, "offers");
            sr_jw_arr(w);
            for (int j = 0; j < np; ++j) {
                sr_jw_obj(w);
                sr_jw_key(w, "player"); sr_jw_int(w, b[pair[j]]);
                sr_jw_key(w, "cards");
                names(rules, b, pair[j] + 2, w);
                sr_jw_end_obj(w);
            }
            sr_jw_end_arr(w);
            sr_jw_end_obj(w);
            sr_jw_key(w, "text"); sr_jw_str(w, text);
            sr_jw_end_obj(w);
        }
    }
    if (b[3] == CP_PHASE_WEAVE && a[3] != CP_PHASE_WEAVE) {
        for (int q = 0; q < B.players && q < A.players; ++q) {
            int64_t start = b[B.row[q]] - b[B.woven + q], n = a[A.row[q]];
            char text[512] = "", list[448] = "";
            size_t at = 0;
            sr_jw_obj(w);
            sr_jw_key(w, "kind"); sr_jw_str(w, "woven");
            sr_jw_key(w, "player"); sr_jw_int(w, q);
            sr_jw_key(w, "cards");
            sr_jw_arr(w);
            for (int64_t j = start < 0 ? 0 : start; j < n; ++j) {
                char e[CP_NAME_LEN + 8];
                int64_t c = a[A.row[q] + 1 + 2 * j], p = a[A.row[q] + 2 + 2 * j];
                snprintf(e, sizeof e, "%s %c%s", rules->card[c].name, ORIENTATIONS[p / 7], PLACEMENTS[p % 7]);
                sr_jw_str(w, e);
                if (at < sizeof list) at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", e);
            }
            sr_jw_end_arr(w);
            snprintf(text, sizeof text, "P%d wove %s", q, at ? list : "nothing");
            sr_jw_key(w, "text"); sr_jw_str(w, text);
            sr_jw_end_obj(w);
        }
    }
    if (a[1] > b[1] && !over) {
        char slots[256] = "";
        join_names(rules, a + A.slots + 1, a[A.slots], " ", slots, sizeof slots);
        sr_jw_obj(w);
        sr_jw_key(w, "kind"); sr_jw_str(w, "round");
        sr_jw_key(w, "round"); sr_jw_int(w, a[1]);
        sr_jw_key(w, "slots"); names(rules, a, A.slots, w);
        sr_jw_key(w, "text");
        sr_jw_strf(w, "round %lld begins: slots %s", (long long)a[1], a[A.slots] ? slots : "");
        sr_jw_end_obj(w);
    }
}

const sr_json_codec cp_json = {
    .title = "Capulana",
    .write = cp_write,
    .parse_action = cp_parse,
    .read = cp_read,
    .dict_from_view = cp_from_view,
    .params_from_dict = cp_params,
    .view_is_json_copy = 1,
    .seen_move = cp_seen,
    .aftermath = cp_after,
};
