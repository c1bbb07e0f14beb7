/* capivarias_json.c - Capivárias' JSON layer (state_json.h): the state dict
 * of RULES.md part 4 and a seat's view, from the encoding of
 * capivarias_game.h. */
#include "state_json.h"
#include "capivarias_game.h"
#include "pytext.h"
#include <stdio.h>
#include <string.h>

static int card_ok(const cv_rules *r, int64_t c) { return c >= 0 && c < r->ncards; }

/* A list of n card names read from the cursor. */
static void names(const cv_rules *r, sr_jcur *c, int n, sr_jw *w) {
    sr_jw_arr(w);
    for (int k = 0; k < n; ++k) {
        int64_t id = sr_jcur_next(c);
        if (!card_ok(r, id)) { c->bad = 1; break; }
        sr_jw_str(w, r->card[id].name);
    }
    sr_jw_end_arr(w);
}

/* view (R20): the river cards and the pile reduced to their river sides
 * (modifiers; the pile as its count and its top's modifier), no seed. */
static int cv_write(const sr_game *g, const int64_t *enc, int n, int viewer, sr_jw *w) {
    const cv_rules *r = (const cv_rules *)g->rules;
    sr_jcur c = {enc, n, 0, 0};
    int64_t head[8];
    for (int k = 0; k < 8; ++k) head[k] = sr_jcur_next(&c);
    sr_jw_obj(w);
    sr_jw_key(w, "game"); sr_jw_str(w, "capivarias");
    sr_jw_key(w, "expansion"); sr_jw_bool(w, head[0] != 0);
    sr_jw_key(w, "round"); sr_jw_int(w, head[1]);
    sr_jw_key(w, "round_wins"); sr_jw_arr(w); sr_jw_int(w, head[2]); sr_jw_int(w, head[3]); sr_jw_end_arr(w);
    sr_jw_key(w, "to_move"); sr_jw_opt(w, head[4]);
    sr_jw_key(w, "last_taker"); sr_jw_opt(w, head[5]);
    sr_jw_key(w, "winner"); sr_jw_opt(w, head[6]);
    if (viewer < 0) { sr_jw_key(w, "seed"); sr_jw_u64(w, (uint64_t)head[7]); }
    sr_jw_key(w, "segments");
    sr_jw_arr(w);
    for (int s = 0; s < CV_SEGMENTS && !c.bad; ++s) {
        int64_t river = sr_jcur_next(&c), cap = sr_jcur_next(&c);
        if (!card_ok(r, river) || (cap >= 0 && !card_ok(r, cap))) return SR_E_STATE;
        sr_jw_obj(w);
        sr_jw_key(w, "river");
        if (viewer < 0) {
            sr_jw_str(w, r->card[river].name);
        } else {
            sr_jw_obj(w); sr_jw_key(w, "modifier"); sr_jw_int(w, r->card[river].modifier); sr_jw_end_obj(w);
        }
        sr_jw_key(w, "capionca");
        if (cap < 0) sr_jw_null(w); else sr_jw_str(w, r->card[cap].name);
        sr_jw_key(w, "sides");
        sr_jw_arr(w);
        for (int k = 0; k < 2; ++k) names(r, &c, sr_jcur_count(&c), w);
        sr_jw_end_arr(w);
        sr_jw_end_obj(w);
    }
    sr_jw_end_arr(w);
    sr_jw_key(w, "available"); names(r, &c, sr_jcur_count(&c), w);
    sr_jw_key(w, "pile");
    int np = sr_jcur_count(&c);
    if (viewer < 0) {
        names(r, &c, np, w);
    } else {
        int64_t top = np ? sr_jcur_next(&c) : -1;
        if (np && !card_ok(r, top)) return SR_E_STATE;
        c.i += np > 0 ? np - 1 : 0;
        sr_jw_obj(w);
        sr_jw_key(w, "count"); sr_jw_int(w, np);
        sr_jw_key(w, "top_modifier");
        if (np) sr_jw_int(w, r->card[top].modifier); else sr_jw_null(w);
        sr_jw_end_obj(w);
    }
    sr_jw_key(w, "discard"); names(r, &c, sr_jcur_count(&c), w);
    sr_jw_end_obj(w);
    return c.bad || c.i != n ? SR_E_STATE : SR_OK;
}

/* The card named by the bytes s[0..n), or -1. */
static int card_named(const cv_rules *r, const char *s, size_t n) {
    for (int c = 0; c < r->ncards; ++c)
        if (strlen(r->card[c].name) == n && memcmp(r->card[c].name, s, n) == 0) return c;
    return -1;
}

static size_t find(const char *s, size_t n, char ch) {
    const char *p = memchr(s, ch, n);
    return p ? (size_t)(p - s) : n;
}

#define UNKNOWN(s, n) sr_msgf(SR_E_NOTATION, msg, msg_len, "unknown card %R in move %R", (s), (size_t)(n), text, len)

/* RULES 2.7: "C3", "OP1@2/C3", "KX/C4", "discard KX", "V2@1"; a capiolin
 * written without its segment ("V2") is the one legal move of that card in
 * state (SR_E_ILLEGAL if none; SR_E_NOTATION without a state). */
static int cv_parse(const sr_game *g, const void *state, const char *text, size_t len, int *action, char *msg,
                    size_t msg_len) {
    const cv_rules *r = (const cv_rules *)g->rules;
    const int C = r->ncards;
    size_t t0, tn;
    sr_py_strip(text, len, &t0, &tn);
    const char *t = text + t0;
    if (tn >= 8 && memcmp(t, "discard ", 8) == 0) {
        size_t a0, an;
        sr_py_strip(t + 8, tn - 8, &a0, &an);
        int c = card_named(r, t + 8 + a0, an);
        if (c < 0) return UNKNOWN(t + 8 + a0, an);
        *action = ((c * 4) + 3) * (C + 1) + C;
        return SR_OK;
    }
    size_t slash = find(t, tn, '/');
    size_t head = slash;                         /* bytes before the '/' */
    size_t at = find(t, head, '@');              /* the name: bytes before the '@' */
    int c = card_named(r, t, at);
    if (c < 0) return UNKNOWN(t, at);
    int target = C;
    if (slash < tn) {
        target = card_named(r, t + slash + 1, tn - slash - 1);
        if (target < 0) return UNKNOWN(t + slash + 1, tn - slash - 1);
    }
    if (at < head) {
        const char *seg = t + at + 1;
        if (head - at - 1 != 1 || seg[0] < '0' || seg[0] > '2')
            return sr_msgf(SR_E_NOTATION, msg, msg_len, "segment in %R must be 0, 1 or 2", text, len);
        *action = ((c * 4) + (seg[0] - '0')) * (C + 1) + target;
        return SR_OK;
    }
    if (slash < tn) { *action = ((c * 4) + 3) * (C + 1) + target; return SR_OK; }
    if (r->card[c].kind == CV_KIND_CAPIOLIN) {
        if (!state)
            return sr_msgf(SR_E_NOTATION, msg, msg_len,
                           "capiolin notation %R needs the position: use Move.parse(text, state=...) or %s@<segment>",
                           text, len, r->card[c].name);
        int legal[SR_MAX_LEGAL];
        int n = g->legal_actions(g->rules, state, legal);
        for (int i = 0; i < n; ++i) {
            int a = legal[i], ac = a / (C + 1) / 4, seg = a / (C + 1) % 4, tg = a % (C + 1);
            if (ac == c && !(seg == 3 && tg == C)) { *action = a; return SR_OK; }
        }
        return sr_msgf(SR_E_ILLEGAL, msg, msg_len, "illegal move %R: %s cannot be played now", text, len,
                       r->card[c].name);
    }
    *action = ((c * 4) + 0) * (C + 1) + C;
    return SR_OK;
}

/* ---- reading (capivarias.Capivarias._encode_dict, _dict_from_view) ---- */

static int cv_card(const sr_game *g, sr_jread *r, int i, const char *where) {
    const cv_rules *rules = (const cv_rules *)g->rules;
    const char *names[CV_MAX_CARDS];
    for (int c = 0; c < rules->ncards; ++c) names[c] = rules->card[c].name;
    return sr_jr_card_named(r, i, where, names, rules->ncards);
}

static int nth(const sr_jread *r, int list, int k) {
    int i = list + 1;
    while (k-- > 0) i = r->doc->nodes[i].next;
    return i;
}

static void cv_read(const sr_game *g, sr_jread *r, int d) {
    char where[64];
    sr_jr_game(r, d, "capivarias");
    int expansion = sr_jr_bool(r, sr_jr_get(r, d, "expansion"), "expansion");
    if (!r->failed && expansion != g->params[CV_PARAM_EXPANSION])
        sr_jr_bad(r, "this game is played %s the expansion", g->params[CV_PARAM_EXPANSION] ? "with" : "without");
    int wins = sr_jr_get(r, d, "round_wins");
    if (sr_jr_list(r, wins, "round_wins", 2) < 0) return;
    sr_jr_push(r, expansion);
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "round"), "round", 0));
    sr_jr_push(r, sr_jr_int(r, nth(r, wins, 0), "round_wins[0]", 0));
    sr_jr_push(r, sr_jr_int(r, nth(r, wins, 1), "round_wins[1]", 0));
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "to_move"), "to_move", 1));
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "last_taker"), "last_taker", 1));
    sr_jr_push(r, sr_jr_int(r, sr_jr_get(r, d, "winner"), "winner", 1));
    sr_jr_push(r, sr_jr_seed(r, sr_jr_get(r, d, "seed")));
    int segments = sr_jr_get(r, d, "segments");
    if (sr_jr_list(r, segments, "segments", 3) < 0) return;
    for (int i = 0, seg = segments + 1; i < 3 && !r->failed; ++i, seg = r->doc->nodes[seg].next) {
        if (!sr_jr_is(r, seg, SR_J_OBJ)) { sr_jr_bad(r, "segment %d must be a dict", i); return; }
        int cap = sr_jr_get(r, seg, "capionca");
        snprintf(where, sizeof where, "segment %d river", i);
        sr_jr_push(r, cv_card(g, r, sr_jr_get(r, seg, "river"), where));
        snprintf(where, sizeof where, "segment %d capionca", i);
        sr_jr_push(r, sr_jr_is(r, cap, SR_J_NULL) ? -1 : cv_card(g, r, cap, where));
        int sides = sr_jr_get(r, seg, "sides");
        snprintf(where, sizeof where, "segment %d sides", i);
        if (sr_jr_list(r, sides, where, 2) < 0) return;
        for (int k = 0; k < 2; ++k) {
            snprintf(where, sizeof where, "segment %d side %d", i, k);
            sr_jr_ids(r, g, nth(r, sides, k), where, cv_card, 1);
        }
    }
    sr_jr_ids(r, g, sr_jr_get(r, d, "available"), "available", cv_card, 0);
    sr_jr_ids(r, g, sr_jr_get(r, d, "pile"), "pile", cv_card, 0);
    sr_jr_ids(r, g, sr_jr_get(r, d, "discard"), "discard", cv_card, 1);
}

/* The card index a string node names (no failure), or -1. */
static int named(const cv_rules *rules, const sr_jread *r, int i) {
    char name[16];
    if (!sr_jr_is(r, i, SR_J_STR) || sr_json_str(&r->doc->nodes[i], name, sizeof name) >= sizeof name) return -1;
    return card_named(rules, name, strlen(name));
}

/* Distinct unseen cards with the wanted modifiers, in order (plain
 * backtracking over a few slots): 1 and pick filled, or 0. */
static int match(const cv_rules *rules, const int64_t *wants, int nw, const int *unseen, int nu, int *pick, int k) {
    if (k == nw) return 1;
    for (int j = 0; j < nu; ++j) {
        int used = 0;
        for (int q = 0; q < k; ++q) used |= pick[q] == unseen[j];
        if (used || rules->card[unseen[j]].modifier != wants[k]) continue;
        pick[k] = unseen[j];
        if (match(rules, wants, nw, unseen, nu, pick, k + 1)) return 1;
    }
    return 0;
}

/* River cards get unseen cards of their modifiers, the pile top one of its
 * modifier, the rest of the unseen cards make the pile (R20). */
static void cv_from_view(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w) {
    const cv_rules *rules = (const cv_rules *)g->rules;
    (void)player;
    sr_jr_game(r, v, "capivarias");
    int segments = sr_jr_get(r, v, "segments");
    if (sr_jr_list(r, segments, "segments", 3) < 0) return;
    int pile = sr_jr_get(r, v, "pile");
    if (r->failed) return;
    if (!sr_jr_is(r, pile, SR_J_OBJ)) { sr_jr_bad(r, "a view's pile is {'count': n, 'top_modifier': m}"); return; }
    int64_t count = sr_jr_int(r, sr_jr_get(r, pile, "count"), "pile count", 0);
    int top = sr_jr_get(r, pile, "top_modifier");
    uint32_t seen = 0;
    for (int s = 0, seg = segments + 1; s < 3 && !r->failed; ++s, seg = r->doc->nodes[seg].next) {
        if (!sr_jr_is(r, seg, SR_J_OBJ)) { sr_jr_bad(r, "segment must be a dict"); return; }
        int river = sr_jr_get(r, seg, "river");
        if (r->failed) return;
        if (!sr_jr_is(r, river, SR_J_OBJ)) { sr_jr_bad(r, "a view's river card is {'modifier': m}"); return; }
        int cap = named(rules, r, sr_json_get(r->doc, seg, "capionca"));
        if (cap >= 0) seen |= 1u << cap;
        int sides = sr_jr_get(r, seg, "sides");
        int ns = sr_jr_list(r, sides, "sides", 2);
        for (int k = 0, side = sides + 1; k < ns && !r->failed; ++k, side = r->doc->nodes[side].next) {
            int m = sr_jr_list(r, side, "side", -1);
            for (int j = 0, x = side + 1; j < m; ++j, x = r->doc->nodes[x].next)
                if (named(rules, r, x) >= 0) seen |= 1u << named(rules, r, x);
        }
    }
    static const char *const keys[2] = {"available", "discard"};
    for (int k = 0; k < 2 && !r->failed; ++k) {
        int list = sr_jr_get(r, v, keys[k]);
        int m = sr_jr_list(r, list, keys[k], -1);
        for (int j = 0, x = list + 1; j < m; ++j, x = r->doc->nodes[x].next)
            if (named(rules, r, x) >= 0) seen |= 1u << named(rules, r, x);
    }
    int expansion = sr_jr_bool(r, sr_jr_get(r, v, "expansion"), "expansion");
    int unseen[CV_MAX_CARDS], nu = 0;
    for (int c = 0; c < rules->ncards; ++c)
        if ((expansion || !rules->card[c].expansion) && !(seen >> c & 1)) unseen[nu++] = c;
    int64_t wants[4];
    int nw = 0;
    for (int s = 0, seg = segments + 1; s < 3 && !r->failed; ++s, seg = r->doc->nodes[seg].next)
        wants[nw++] = sr_jr_int(r, sr_jr_get(r, sr_json_get(r->doc, seg, "river"), "modifier"), "river modifier", 0);
    if (count) wants[nw++] = sr_jr_int(r, top, "pile top_modifier", 0);
    if (r->failed) return;
    int pick[4];
    if (!match(rules, wants, nw, unseen, nu, pick, 0) || nu != 3 + count) {
        sr_jr_bad(r, "the view's river and pile do not fit the cards it does not show");
        return;
    }
    /* the view's fields in order: rivers named, the pile in full, seed 0 */
    char name[32];
    sr_jw_obj(w);
    for (int c = 0, i = v + 1, value; sr_jr_next_field(r, w, v, &c, &i, "seed", name, sizeof name, &value);) {
        if (strcmp(name, "segments") == 0) {
            sr_jw_arr(w);
            for (int s = 0, seg = segments + 1; s < 3; ++s, seg = r->doc->nodes[seg].next) {
                char field[32];
                sr_jw_obj(w);
                for (int f = 0, j = seg + 1, fv; sr_jr_next_field(r, w, seg, &f, &j, NULL, field, sizeof field, &fv);) {
                    if (strcmp(field, "river") == 0) sr_jw_str(w, rules->card[pick[s]].name);
                    else sr_jr_copy(r, fv, w);
                }
                sr_jw_end_obj(w);
            }
            sr_jw_end_arr(w);
        } else if (strcmp(name, "pile") == 0) {
            sr_jw_arr(w);
            if (count) sr_jw_str(w, rules->card[pick[3]].name);
            for (int j = 0; j < nu; ++j) {
                int used = 0;
                for (int q = 0; q < nw; ++q) used |= pick[q] == unseen[j];
                if (!used) sr_jw_str(w, rules->card[unseen[j]].name);
            }
            sr_jw_end_arr(w);
        } else {
            sr_jr_copy(r, value, w);
        }
    }
    sr_jr_end_rebuilt(w);
}

static void cv_params(sr_jread *r, int d, int *values, int *given) {
    values[CV_PARAM_EXPANSION] = sr_jr_bool(r, sr_jr_get(r, d, "expansion"), "expansion");
    given[CV_PARAM_EXPANSION] = 1;
}

/* ---- events (Game._seen_move, _aftermath) ---- */

/* Every move is public (a card taken or played face up). */
static void cv_seen(const sr_game *g, const int64_t *before, int nb, int action, int mover, int player,
                    const char *notation, sr_jw *w) {
    (void)g; (void)before; (void)nb; (void)action; (void)player;
    sr_jw_key(w, "move"); sr_jw_str(w, notation);
    sr_jw_key(w, "text"); sr_jw_strf(w, "P%d: %s", mover, notation);
}

/* A round's result and the next round's start (public: round wins are in
 * every view). Encoding fields: 1 round, 2 and 3 round wins, 6 winner. */
static void cv_after(const sr_game *g, const int64_t *b, int nb, const int64_t *a, int na, int over, sr_jw *w) {
    (void)g;
    if (nb < 8 || na < 8) return;
    if (a[1] == b[1] && a[6] < 0 && a[2] == b[2] && a[3] == b[3]) return;
    int won[2], n = 0;
    for (int p = 0; p < 2; ++p)
        if (a[2 + p] > b[2 + p]) won[n++] = p;
    char who[32];
    if (n == 2) snprintf(who, sizeof who, "P%d and P%d", won[0], won[1]);
    else if (n == 1) snprintf(who, sizeof who, "P%d", won[0]);
    else snprintf(who, sizeof who, "nobody");
    sr_jw_obj(w);
    sr_jw_key(w, "kind"); sr_jw_str(w, "round_end");
    sr_jw_key(w, "round"); sr_jw_int(w, b[1]);
    sr_jw_key(w, "winners"); sr_jw_arr(w); for (int k = 0; k < n; ++k) sr_jw_int(w, won[k]); sr_jw_end_arr(w);
    sr_jw_key(w, "round_wins"); sr_jw_arr(w); sr_jw_int(w, a[2]); sr_jw_int(w, a[3]); sr_jw_end_arr(w);
    sr_jw_key(w, "text");
    sr_jw_strf(w, "round %lld ends: %s %s it (round wins %lld-%lld)", (long long)b[1], who, n > 1 ? "win" : "wins",
               (long long)a[2], (long long)a[3]);
    sr_jw_end_obj(w);
    if (!over) {
        sr_jw_obj(w);
        sr_jw_key(w, "kind"); sr_jw_str(w, "round");
        sr_jw_key(w, "round"); sr_jw_int(w, a[1]);
        sr_jw_key(w, "text"); sr_jw_strf(w, "round %lld begins", (long long)a[1]);
        sr_jw_end_obj(w);
    }
}

const sr_json_codec cv_json = {
    .title = "Capiv\xc3\xa1rias",
    .write = cv_write,
    .parse_action = cv_parse,
    .read = cv_read,
    .dict_from_view = cv_from_view,
    .params_from_dict = cv_params,
    .seen_move = cv_seen,
    .aftermath = cv_after,
};
