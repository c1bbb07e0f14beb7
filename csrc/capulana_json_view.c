/* capulana_json_view.c - the half of Capulana's JSON layer that concerns
 * one seat (state_json.h): a full state dict from a seat's view
 * (capulana.Capulana._dict_from_view) and the events a seat sees of a move
 * (_capulana_events.py: Game._seen_move, _aftermath). */
#include "capulana_json.h"
#include "pytext.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLACEMENTS CP_JSON_PLACEMENTS
#define ORIENTATIONS CP_JSON_ORIENTATIONS

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
void cp_json_from_view(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w) {
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
    int mine_node = cp_json_nth(r, hands, player);
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
    char name[32];
    sr_jw_obj(w);
    for (int c = 0, i = v + 1, value; sr_jr_next_field(r, w, v, &c, &i, "seed", name, sizeof name, &value);) {
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
            sr_jr_copy(r, value, w);
        }
    }
    sr_jr_end_rebuilt(w);
done:
    free(keys); free(placed); free(text); free(hand_at); free(hand_n); free(offer_at); free(offer_n); free(replaced);
}

/* ---- events (_capulana_events.py: Game._seen_move, _aftermath) ---- */

/* A bid and "done" are public; an offered card is face down (who, which
 * slot and how many cards are shown, 1.3); weaving is hidden until every
 * player has finished the step (R7). */
void cp_json_seen(const sr_game *g, const int64_t *b, int nb, int action, int mover, int player,
                  const char *notation, sr_jw *w) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    cp_layout L;
    if (cp_json_layout(b, nb, &L) != SR_OK) return;
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
void cp_json_after(const sr_game *g, const int64_t *b, int nb, const int64_t *a, int na, int over, sr_jw *w) {
    const cp_rules *rules = (const cp_rules *)g->rules;
    cp_layout B, A;
    if (cp_json_layout(b, nb, &B) != SR_OK || cp_json_layout(a, na, &A) != SR_OK) return;
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
                cp_json_names(rules, b, pair[j] + 2, w);
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
        sr_jw_key(w, "slots"); cp_json_names(rules, a, A.slots, w);
        sr_jw_key(w, "text");
        sr_jw_strf(w, "round %lld begins: slots %s", (long long)a[1], a[A.slots] ? slots : "");
        sr_jw_end_obj(w);
    }
}
