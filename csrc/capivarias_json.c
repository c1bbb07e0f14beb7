/* capivarias_json.c - Capivárias' JSON layer (state_json.h): the state dict
 * of RULES.md part 4 and a seat's view, from the encoding of
 * capivarias_game.h. */
#include "state_json.h"
#include "capivarias_game.h"
#include "pytext.h"
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

const sr_json_codec cv_json = {
    .title = "Capiv\xc3\xa1rias",
    .write = cv_write,
    .parse_action = cv_parse,
};
