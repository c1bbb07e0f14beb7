/* capulana_json.c - Capulana's JSON layer (state_json.h): the state dict of
 * RULES.md part 4 and a seat's view, from the encoding of capulana_game.h. */
#include "state_json.h"
#include "capulana_json.h"
#include "pytext.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const CP_JSON_PHASES[3] = {"offer", "weave", "over"};
const char *const CP_JSON_PLACEMENTS[7] = {"+", ">1", ">2", ">3", "<1", "<2", "<3"};
const char CP_JSON_ORIENTATIONS[2] = {'n', 'r'};
#define PHASES CP_JSON_PHASES
#define PLACEMENTS CP_JSON_PLACEMENTS
#define ORIENTATIONS CP_JSON_ORIENTATIONS


static int card_ok(int64_t c) { return c >= 0 && c < CP_NCARDS; }

/* Skip a list (count, items) at c; its count index. */
static int skip_list(sr_jcur *c) {
    int at = c->i;
    c->i += sr_jcur_count(c);
    return at;
}

int cp_json_layout(const int64_t *enc, int n, cp_layout *L) {
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

void cp_json_names(const cp_rules *r, const int64_t *enc, int at, sr_jw *w) {
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
    if (viewer >= 0 && enc[at] != viewer) count(w, enc[at + 2]); else cp_json_names(r, enc, at + 2, w);
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
    if (cp_json_layout(enc, n, &L) != SR_OK || !ids_ok(enc, &L)) return SR_E_STATE;
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
    if (viewer >= 0) count(w, enc[L.deck]); else cp_json_names(r, enc, L.deck, w);
    sr_jw_key(w, "slots"); cp_json_names(r, enc, L.slots, w);
    sr_jw_key(w, "offers");
    sr_jw_arr(w);
    for (int k = 0; k < L.n_offers; ++k) offer(r, enc, L.offer[k], viewer, w);
    sr_jw_end_arr(w);
    sr_jw_key(w, "open_offer");
    if (L.open < 0) sr_jw_null(w); else offer(r, enc, L.open, viewer, w);
    sr_jw_key(w, "hands");
    sr_jw_arr(w);
    for (int q = 0; q < np; ++q) {
        if (viewer < 0 || q == viewer) { cp_json_names(r, enc, L.hand[q], w); continue; }
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

/* ---- reading (capulana.Capulana._encode_dict; views: capulana_json_view.c) ---- */

static int cp_card(const sr_game *g, sr_jread *r, int i, const char *where) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    const char *names[CP_NCARDS];
    for (int c = 0; c < CP_NCARDS; ++c) names[c] = rules->card[c].name;
    return sr_jr_card_named(r, i, where, names, CP_NCARDS);
}

int cp_json_nth(const sr_jread *r, int list, int k) {
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


const sr_json_codec cp_json = {
    .title = "Capulana",
    .write = cp_write,
    .parse_action = cp_parse,
    .read = cp_read,
    .dict_from_view = cp_json_from_view,
    .params_from_dict = cp_params,
    .view_is_json_copy = 1,
    .seen_move = cp_json_seen,
    .aftermath = cp_json_after,
};
