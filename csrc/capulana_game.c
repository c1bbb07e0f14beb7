/* capulana_game.c - Capulana on the game contract: rules from the CSV texts,
 * the sr_game table, and the state codec (capulana_game.h). */
#include "capulana_game.h"
#include "csv.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define BIT(c) (1ULL << (c))

static const char *const OBJ_KEYS[CP_OBJ_NKEYS] = {
    "long-color", "long-pattern", "three-colors", "three-patterns", "long-capulana",
    "no-loose-strip", "two-wilds", "saver", "many-pieces", "perfect-match",
};
static const char *const PLACEMENTS[7] = { "+", ">1", ">2", ">3", "<1", "<2", "<3" };

/* A card or objective name: 1 to CP_NAME_LEN - 1 bytes, no space or control byte. */
static int good_name(const char *s) {
    size_t len = strlen(s);
    if (len < 1 || len >= CP_NAME_LEN) return 0;
    for (size_t i = 0; i < len; ++i)
        if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f) return 0;
    return 1;
}

/* A strip "CP" (tabuleiro.capulana._strip_codes): 0, or -1 with a message. */
static int strip_codes(const char *s, size_t len, uint8_t *colour, uint8_t *pattern) {
    static const char COLOURS[] = "YGRBO", PATTERNS[] = "DTCZL";
    if (len != 2) return -1;
    if (s[0] == '-' && s[1] == '-') { *colour = *pattern = CP_RAW; return 0; }
    if (s[0] == '-' || s[1] == '-' || (s[0] == '*' && s[1] == '*')) return -1;
    const char *c = s[0] ? strchr(COLOURS, s[0]) : NULL, *p = s[1] ? strchr(PATTERNS, s[1]) : NULL;
    int cc = s[0] == '*' ? CP_WILD : c ? (int)(c - COLOURS) + 1 : -1;
    int pc = s[1] == '*' ? CP_WILD : p ? (int)(p - PATTERNS) + 1 : -1;
    if (cc < 0 || pc < 0) return -1;
    *colour = (uint8_t)cc;
    *pattern = (uint8_t)pc;
    return 0;
}

/* in the loaders: a message naming the file and line, fail with -1 */
#define LFAIL(...) do { csv_fail(&rd, row.line, CSV_E_VALUE, __VA_ARGS__); return -1; } while (0)

#define FABRIC_CSV "capulana_fabric_cards.csv"
#define OBJ_CSV "capulana_objectives.csv"

static int load_cards(const char *text, cp_card_def *defs, char *msg, size_t mn) {
    static const char *const COLS[5] = { "id", "kind", "stripe", "value", "strips" };
    static const int ZERO = 0;                            /* an empty value reads as 0 */
    csv_reader rd;
    csv_row row;
    int col[5], count = 0, rc;
    csv_open(&rd, FABRIC_CSV, text, strlen(text), 1, msg, mn);
    if (csv_header(&rd, COLS, 5, col)) return -1;
    while ((rc = csv_next(&rd, &row)) == 1) {
        if (count == CP_NCARDS) LFAIL("more than %d cards", CP_NCARDS);
        const char *id = row.f[col[0]], *kind = row.f[col[1]], *stripe = row.f[col[2]];
        cp_card_def *d = &defs[count];
        memset(d, 0, sizeof *d);
        if (!good_name(id)) LFAIL("card id '%s' must be 1 to %d bytes without spaces", id, CP_NAME_LEN - 1);
        for (int i = 0; i < count; ++i)
            if (!strcmp(defs[i].name, id)) LFAIL("card id %s is used twice", id);
        memcpy(d->name, id, strlen(id));
        int fabric = count < CP_NFABRIC;
        if (strcmp(kind, fabric ? "fabric" : "initial"))
            LFAIL("card %s has kind '%s', but the table lists %d fabric cards and then %d initial cards",
                  id, kind, CP_NFABRIC, CP_NINITIAL);
        d->kind = fabric ? CP_KIND_FABRIC : CP_KIND_INITIAL;
        if (fabric ? strcmp(stripe, "black") && strcmp(stripe, "purple") : stripe[0] != 0)
            LFAIL("card %s has stripe '%s' (%s)", id, stripe, fabric ? "black or purple" : "empty for an initial card");
        d->black = (uint8_t)(fabric && !strcmp(stripe, "black"));
        int value;
        if (csv_int(&rd, &row, col[3], 0, 255, &ZERO, &value)) return -1;
        d->value = (uint8_t)value;
        const char *s = row.f[col[4]];
        int want = fabric ? 4 : 3;
        for (;;) {
            while (*s == ' ' || *s == '\t') ++s;
            if (!*s) break;
            size_t len = strcspn(s, " \t");
            if (d->nstrips == want) LFAIL("card %s has more than %d strips", id, want);
            if (strip_codes(s, len, &d->colour[d->nstrips], &d->pattern[d->nstrips]))
                LFAIL("card %s: '%.*s' is not a strip (raw is '--', wild is one '*', colours YGRBO, patterns DTCZL)",
                      id, (int)(len < 8 ? len : 8), s);
            if (!fabric && d->colour[d->nstrips] == CP_RAW) LFAIL("initial card %s has a raw strip (R1)", id);
            d->nstrips++;
            s += len;
        }
        if (d->nstrips != want) LFAIL("card %s has %d strips, not %d", id, d->nstrips, want);
        ++count;
    }
    if (rc < 0) return -1;
    if (count == CP_NCARDS) return 0;
    csv_fail(&rd, 0, CSV_E_VALUE, "has %d cards, not %d (%d fabric, %d initial)", count, CP_NCARDS, CP_NFABRIC, CP_NINITIAL);
    return -1;
}

static int load_objectives(const char *text, cp_objective_def *objs, char *msg, size_t mn) {
    static const char *const COLS[3] = { "id", "points", "key" };
    csv_reader rd;
    csv_row row;
    int col[3], count = 0, rc;
    csv_open(&rd, OBJ_CSV, text, strlen(text), 1, msg, mn);
    if (csv_header(&rd, COLS, 3, col)) return -1;
    while ((rc = csv_next(&rd, &row)) == 1) {
        if (count == CP_NOBJECTIVES) LFAIL("more than %d objectives", CP_NOBJECTIVES);
        const char *id = row.f[col[0]], *key = row.f[col[2]];
        cp_objective_def *o = &objs[count];
        memset(o, 0, sizeof *o);
        if (!good_name(id)) LFAIL("objective id '%s' must be 1 to %d bytes without spaces", id, CP_NAME_LEN - 1);
        for (int i = 0; i < count; ++i)
            if (!strcmp(objs[i].name, id)) LFAIL("objective id %s is used twice", id);
        memcpy(o->name, id, strlen(id));
        int points;
        if (csv_int(&rd, &row, col[1], 0, 255, NULL, &points)) return -1;
        o->points = (uint8_t)points;
        int k = 0;
        while (k < CP_OBJ_NKEYS && strcmp(key, OBJ_KEYS[k])) ++k;
        if (k == CP_OBJ_NKEYS) LFAIL("objective %s has an unknown key '%s'", id, key);
        o->key = (uint8_t)k;
        ++count;
    }
    if (rc < 0) return -1;
    if (count == CP_NOBJECTIVES) return 0;
    csv_fail(&rd, 0, CSV_E_VALUE, "has %d objectives, not %d", count, CP_NOBJECTIVES);
    return -1;
}

int cp_load_rules(void *rules, const char *const *texts, char *msg, size_t n) {
    cp_rules *r = rules;
    cp_card_def cards[CP_NCARDS];
    cp_objective_def objs[CP_NOBJECTIVES];
    memset(r, 0, sizeof *r);
    if (!texts || !texts[0] || !texts[1]) return sr_fail(SR_E_STATE, msg, n, "Capulana needs the texts of " FABRIC_CSV " and " OBJ_CSV);
    if (load_cards(texts[0], cards, msg, n) || load_objectives(texts[1], objs, msg, n)) return SR_E_STATE;
    int black = 0;
    for (int c = 0; c < CP_NFABRIC; ++c) black += cards[c].black;
    if (black < CP_HAND_SIZE * CP_MAX_PLAYERS)
        return sr_fail(SR_E_STATE, msg, n, FABRIC_CSV " has %d black cards: 5 hands of %d need %d", black, CP_HAND_SIZE, CP_HAND_SIZE * CP_MAX_PLAYERS);
    if (cp_rules_init(r, cards, objs) != 0) {
        memset(r, 0, sizeof *r);
        return sr_fail(SR_E_STATE, msg, n, "the Capulana tables are not usable by the engine");
    }
    if (msg && n) msg[0] = 0;
    return SR_OK;
}

/* ---- the codec ------------------------------------------------------------------- */

static inline int64_t i64_of(uint64_t u) { int64_t v; memcpy(&v, &u, sizeof v); return v; }
static inline uint64_t u64_of(int64_t v) { uint64_t u; memcpy(&u, &v, sizeof u); return u; }

typedef struct {
    int64_t *out;
    int max, n;
} writer;

/* write one field (counted even past max, so the caller learns it is short) */
#define put(w, v) do { writer *w_ = (w); int64_t v_ = (v); if (w_->n < w_->max) w_->out[w_->n] = v_; w_->n++; } while (0)

static void put_mask(writer *w, uint64_t m) {
    put(w, tb_popcount64(m));
    for (; m; m &= m - 1) put(w, tb_ctz64(m));
}

/* Cards of the k-th offer of the round (closed or open). */
static uint64_t offer_mask(const cp_state *s, int k) {
    uint64_t m = s->hold[cp_offerer(s, k)] & s->offered;
    return k < s->players ? m & ~s->second : m & s->second;
}

int cp_encode_state(const void *rules, const void *state, int64_t *out, int max) {
    (void)rules;
    const cp_state *s = state;
    writer w = { out, max < 0 ? 0 : max, 0 };
    int n = s->players, over = cp_is_terminal(s), offer = s->phase == CP_PHASE_OFFER;
    put(&w, n);
    put(&w, s->round);
    put(&w, s->start);
    put(&w, s->phase);
    put(&w, over ? -1 : s->to_move);
    put(&w, i64_of(s->rng));
    put_mask(&w, s->objectives);
    put(&w, s->deck_n - s->deck_top);
    for (int i = s->deck_top; i < s->deck_n; ++i) put(&w, s->deck[i]);
    put(&w, offer ? n : 0);
    if (offer) for (int j = 0; j < n; ++j) put(&w, s->slots[j]);
    put(&w, offer ? s->n_offers : 0);
    int made = offer ? s->n_offers + s->open : 0;
    for (int k = 0; k < made; ++k) {
        if (k == s->n_offers) put(&w, 1);                  /* the open offer */
        put(&w, cp_offerer(s, k));
        put(&w, s->offer_slot[k]);
        put_mask(&w, offer_mask(s, k));
    }
    if (!(offer && s->open)) put(&w, 0);
    for (int q = 0; q < n; ++q) put_mask(&w, s->hold[q] & ~s->offered);
    for (int q = 0; q < n; ++q) {
        put(&w, s->rlen[q]);
        for (int i = 0; i < s->rlen[q]; ++i) {
            int c = s->rcard[q][i];
            put(&w, c);
            put(&w, i ? cp_place_of(s, c) : 0);
        }
    }
    for (int q = 0; q < n; ++q) put(&w, s->woven[q]);
    for (int q = 0; q < n; ++q) put(&w, s->weave_done >> q & 1);
    put(&w, tb_popcount64(s->known));
    if (s->known) {
        uint64_t held[CP_MAX_PLAYERS];                    /* cp_holder, once per player */
        for (int q = 0; q < n; ++q) held[q] = s->hold[q] | cp_woven_mask(s, q);
        for (uint64_t m = s->known; m; m &= m - 1) {
            int c = tb_ctz64(m), h = -1;
            for (int q = 0; q < n && h < 0; ++q) if (held[q] >> c & 1) h = q;
            put(&w, c);
            put(&w, h);
        }
    }
    return w.n > w.max ? -SR_E_RANGE : w.n;
}

/* where a card was found while decoding (for "in two places") */
enum { W_NONE = 0, W_DECK, W_SLOTS, W_OFFER, W_OPEN, W_HAND, W_ROW };

typedef struct {
    const cp_rules *r;
    const int64_t *in;
    int n, pos;
    char *msg;
    size_t ml;
    uint8_t wkind[CP_NCARDS], widx[CP_NCARDS];
} decoder;

/* A field value for a message: its digits when small, else words (a field
 * moved by a malformed encoding may be the seed, which messages never show). */
static const char *value_text(int64_t v, char *buf) {
    if (v > -1000 && v < 1000) snprintf(buf, 24, "%d", (int)v);
    else snprintf(buf, 24, "%s", v < 0 ? "a large negative value" : "a large value");
    return buf;
}
#define V(v) value_text((v), (char[24]){0})

static int dfail(decoder *d, const char *fmt, ...) TB_PRINTF_LIKE(2, 3);
static int dfail(decoder *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, d->ml, fmt, ap);
    va_end(ap);
    return SR_E_STATE;
}

/* The name of a place, e.g. "hand of player 2" (idx 0..9; n >= 21). */
static void where_text(int kind, int idx, char *buf, size_t n) {
    static const char *const NAMES[] = { "", "deck", "slots", "offer ", "open_offer", "hand of player ", "capulana of player " };
    if (kind <= W_NONE || kind > W_ROW) kind = W_ROW;
    size_t len = strlen(NAMES[kind]);
    if (len + 2 > n) { buf[0] = 0; return; }
    memcpy(buf, NAMES[kind], len);
    if (kind == W_OFFER || kind == W_HAND || kind == W_ROW) buf[len++] = (char)('0' + idx % 10);
    buf[len] = 0;
}

/* The next field into *v, or a message naming what was due. */
static int next(decoder *d, int64_t *v, const char *what) {
    *v = 0;
    if (d->pos >= d->n) return dfail(d, "the encoding ends before %s (%d fields)", what, d->n);
    *v = d->in[d->pos++];
    return SR_OK;
}

/* A list count in [lo, hi]. */
static int next_count(decoder *d, int64_t *v, const char *what, int lo, int hi) {
    if (next(d, v, what)) return SR_E_STATE;
    if (*v < lo || *v > hi) return dfail(d, "%s must have %d to %d entries, not %s", what, lo, hi, V(*v));
    return SR_OK;
}

/* Take card v for a place (wkind, widx): a fabric card, or with initial an
 * initial card (the first entry of a capulana); every card in one place. */
static int take_card(decoder *d, int64_t v, int wkind, int widx, int initial, int *out) {
    char where[32], other[32];
    int c = (int)v;
    *out = 0;
    if (v < 0 || v >= CP_NCARDS || (c >= CP_NFABRIC) != initial || d->wkind[c] != W_NONE) {   /* a message */
        where_text(wkind, widx, where, sizeof where);
        if (v < 0 || v >= CP_NCARDS) return dfail(d, "%s: unknown card id %s", where, V(v));
        const char *name = d->r->card[c].name;
        if ((c >= CP_NFABRIC) != initial) {
            if (initial) return dfail(d, "%s must start with an initial card (R1), not the fabric card %s", where, name);
            return dfail(d, "%s: %s is an initial card; it can only start a capulana (R1)", where, name);
        }
        where_text(d->wkind[c], d->widx[c], other, sizeof other);
        return dfail(d, "card %s is in two places (%s and %s)", name, other, where);
    }
    d->wkind[c] = (uint8_t)wkind;
    d->widx[c] = (uint8_t)widx;
    *out = c;
    return SR_OK;
}

/* A set of fabric cards: count, then ids ascending. */
static int take_set(decoder *d, int wkind, int widx, uint64_t *mask) {
    char where[32];
    int64_t cnt = 0, v = 0;
    int prev = -1, c = 0;
    where_text(wkind, widx, where, sizeof where);
    if (next_count(d, &cnt, where, 0, CP_NFABRIC)) return SR_E_STATE;
    *mask = 0;
    for (int i = 0; i < cnt; ++i) {
        if (next(d, &v, where) || take_card(d, v, wkind, widx, 0, &c)) return SR_E_STATE;
        if (c < prev) return dfail(d, "%s must list its cards in ascending id order", where);
        prev = c;
        *mask |= BIT(c);
    }
    return SR_OK;
}

/* Offer k of the round (closed, or the open one): player, slot, cards. */
static int take_offer(decoder *d, cp_state *t, int k, int open) {
    char where[32];
    int64_t v = 0;
    int n = t->players, due = cp_offerer(t, k);
    uint64_t m;
    where_text(open ? W_OPEN : W_OFFER, k, where, sizeof where);
    if (next(d, &v, "an offer's player")) return SR_E_STATE;
    if (v < 0 || v >= n) return dfail(d, "%s player must be an integer in [0, %d], not %s", where, n - 1, V(v));
    if (v != due)
        return dfail(d, "%s is by player %s, but offer %d of the round is player %d's (1.3 offer order)", where, V(v), k, due);
    if (next(d, &v, "an offer's slot")) return SR_E_STATE;
    if (v < 0 || v >= n) return dfail(d, "%s slot must be an integer in [0, %d], not %s", where, n - 1, V(v));
    t->offer_slot[k] = (uint8_t)v;
    if (take_set(d, open ? W_OPEN : W_OFFER, k, &m)) return SR_E_STATE;
    t->hold[due] |= m;
    t->offered |= m;
    if (k >= n) t->second |= m;
    return SR_OK;
}

/* Read the fields into t and check them (see cp_decode_state; without the
 * counts when loose). */
static int decode_body(decoder *d, cp_state *t, int loose) {
    const cp_rules *r = d->r;
    int64_t v = 0, cnt = 0;
    int c = 0;
    memset(t, 0, sizeof *t);
    memset(d->wkind, W_NONE, sizeof d->wkind);
    /* header */
    if (next(d, &v, "players")) return SR_E_STATE;
    if (v < CP_MIN_PLAYERS || v > CP_MAX_PLAYERS) return dfail(d, "players must be an integer in [2, 5], not %s", V(v));
    int n = (int)v;
    t->players = (uint8_t)n;
    if (next(d, &v, "round")) return SR_E_STATE;
    if (v < 1 || v > CP_ROUNDS) return dfail(d, "round must be an integer in [1, 4], not %s", V(v));
    t->round = (uint8_t)v;
    if (next(d, &v, "start_player")) return SR_E_STATE;
    if (v < 0 || v >= n) return dfail(d, "start_player must be an integer in [0, %d], not %s", n - 1, V(v));
    t->start = (uint8_t)v;
    if (next(d, &v, "phase")) return SR_E_STATE;
    if (v < CP_PHASE_OFFER || v > CP_PHASE_OVER) return dfail(d, "phase must be 0 (offer), 1 (weave) or 2 (over), not %s", V(v));
    int phase = (int)v;
    t->phase = (uint8_t)phase;
    if (next(d, &v, "to_move")) return SR_E_STATE;
    if (v != -1 && (v < 0 || v >= n)) return dfail(d, "to_move must be an integer in [0, %d] or null (-1), not %s", n - 1, V(v));
    if ((v == -1) != (phase == CP_PHASE_OVER)) return dfail(d, "to_move must be null exactly when the phase is 'over'");
    t->to_move = v == -1 ? CP_NONE : (uint8_t)v;
    if (next(d, &v, "seed")) return SR_E_STATE;
    t->rng = u64_of(v);
    /* objectives */
    if (next_count(d, &cnt, "objectives", 0, CP_NOBJECTIVES)) return SR_E_STATE;
    for (int i = 0, prev = -1; i < cnt; ++i) {
        if (next(d, &v, "objectives")) return SR_E_STATE;
        if (v < 0 || v >= CP_NOBJECTIVES) return dfail(d, "objectives: unknown objective id %s", V(v));
        if (t->objectives >> v & 1) return dfail(d, "objectives: %s is listed twice", r->obj[v].name);
        if (v < prev) return dfail(d, "objectives must be listed in ascending id order");
        prev = (int)v;
        t->objectives |= (uint16_t)(1u << v);
    }
    /* deck, slots */
    if (next_count(d, &cnt, "deck", 0, CP_NFABRIC)) return SR_E_STATE;
    for (int i = 0; i < cnt; ++i) {
        if (next(d, &v, "deck") || take_card(d, v, W_DECK, 0, 0, &c)) return SR_E_STATE;
        t->deck[i] = (uint8_t)c;
    }
    t->deck_top = 0;
    t->deck_n = (uint8_t)cnt;
    if (next(d, &cnt, "slots")) return SR_E_STATE;
    if (phase == CP_PHASE_OFFER && cnt != n) return dfail(d, "the offer phase needs %d announced cards in slots, not %s", n, V(cnt));
    if (phase != CP_PHASE_OFFER && cnt != 0) return dfail(d, "slots must be empty outside the offer phase");
    memset(t->slots, CP_NONE, sizeof t->slots);
    for (int i = 0; i < cnt; ++i) {
        if (next(d, &v, "slots") || take_card(d, v, W_SLOTS, 0, 0, &c)) return SR_E_STATE;
        t->slots[i] = (uint8_t)c;
    }
    /* offers */
    if (next(d, &cnt, "offers")) return SR_E_STATE;
    if (cnt < 0) return dfail(d, "offers must have 0 or more entries, not %s", V(cnt));
    if (phase != CP_PHASE_OFFER && cnt) return dfail(d, "offers must be empty and open_offer null outside the offer phase");
    if (cnt >= 2 * n) return dfail(d, "%s closed offers: the auction resolves when offer %d closes", V(cnt), 2 * n);
    for (int k = 0; k < cnt; ++k)
        if (take_offer(d, t, k, 0)) return SR_E_STATE;
    t->n_offers = (uint8_t)cnt;
    if (next(d, &v, "open_offer")) return SR_E_STATE;
    if (v != 0 && v != 1) return dfail(d, "open_offer must be 0 (null) or 1 (an offer follows), not %s", V(v));
    if (v && phase != CP_PHASE_OFFER) return dfail(d, "offers must be empty and open_offer null outside the offer phase");
    t->open = (uint8_t)v;
    if (t->open && take_offer(d, t, t->n_offers, 1)) return SR_E_STATE;
    /* hands, capulanas */
    for (int q = 0; q < n; ++q) {
        uint64_t m;
        if (take_set(d, W_HAND, q, &m)) return SR_E_STATE;
        t->hold[q] |= m;
    }
    for (int q = 0; q < n; ++q) {
        if (next(d, &cnt, "a capulana")) return SR_E_STATE;
        if (cnt == 0) return dfail(d, "the capulana of player %d is empty: it starts with an initial card (R1)", q);
        if (cnt < 0) return dfail(d, "capulana of player %d must have 1 to %d entries, not %s", q, CP_MAX_ROW, V(cnt));
        if (cnt > CP_MAX_ROW)
            return dfail(d, "the capulana of player %d has %s cards: this engine holds at most %d", q, V(cnt), CP_MAX_ROW);
        for (int i = 0; i < cnt; ++i) {
            int64_t pq = 0;
            if (next(d, &v, "a capulana entry") || take_card(d, v, W_ROW, q, i == 0, &c)) return SR_E_STATE;
            if (next(d, &pq, "a capulana placement")) return SR_E_STATE;
            if (pq < 0 || pq >= 14)
                return dfail(d, "capulana of player %d: entry %d has placement code %s, not 0 to 13", q, i, V(pq));
            if (i == 0 && pq != 0)
                return dfail(d, "capulana of player %d must start with its initial card placed 'n+' (R1), not '%s %c%s'",
                             q, r->card[c].name, pq < 7 ? 'n' : 'r', PLACEMENTS[pq % 7]);
            t->rcard[q][i] = (uint8_t)c;
            if (i) cp_set_place(t, c, (int)pq);
        }
        t->rlen[q] = (uint8_t)cnt;
    }
    {   /* every fabric card somewhere */
        char list[SR_MSG_LEN];
        size_t len = 0;
        list[0] = 0;
        for (int x = 0; x < CP_NFABRIC; ++x)
            if (d->wkind[x] == W_NONE && len < sizeof list) {
                int w = snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", r->card[x].name);
                len += w > 0 ? (size_t)w : 0;
            }
        if (list[0]) return dfail(d, "cards missing from the state: %s", list);
    }
    /* woven, weave_done, known */
    for (int q = 0; q < n; ++q) {
        if (next(d, &v, "woven")) return SR_E_STATE;
        if (v < 0 || v > 2) return dfail(d, "woven[%d] must be an integer in [0, 2], not %s", q, V(v));
        t->woven[q] = (uint8_t)v;
    }
    for (int q = 0; q < n; ++q) {
        if (next(d, &v, "weave_done")) return SR_E_STATE;
        if (v != 0 && v != 1) return dfail(d, "weave_done[%d] must be true or false (1 or 0), not %s", q, V(v));
        t->weave_done |= (uint8_t)(v << q);
    }
    int8_t holder[CP_NFABRIC];
    memset(holder, -1, sizeof holder);
    if (next_count(d, &cnt, "known", 0, CP_NFABRIC)) return SR_E_STATE;
    for (int i = 0, prev = -1; i < cnt; ++i) {
        if (next(d, &v, "known")) return SR_E_STATE;
        if (v < 0 || v >= CP_NCARDS) return dfail(d, "known: unknown card id %s", V(v));
        if (v >= CP_NFABRIC) return dfail(d, "known: %s is not a fabric card", r->card[v].name);
        c = (int)v;
        if (c <= prev) return dfail(d, "known must list its cards once each, in ascending id order");
        prev = c;
        if (next(d, &v, "a known card's holder")) return SR_E_STATE;
        if (v < 0 || v >= n) return dfail(d, "known[%s] must be an integer in [0, %d], not %s", r->card[c].name, n - 1, V(v));
        holder[c] = (int8_t)v;
        t->known |= BIT(c);
    }
    if (d->pos != d->n) return dfail(d, "%d fields after the end of the state", d->n - d->pos);

    /* the rows as placed (tabuleiro._capulana._load) */
    for (int q = 0; q < n; ++q) {
        int bad = cp_replay_row(r, t, q);
        if (bad == 1) return dfail(d, "the capulana of player %d must start with an initial card placed 'n+' (R1)", q);
        if (bad)
            return dfail(d, "the capulana of player %d is illegal when replayed: entry %d breaks the R8 limits or the row outgrows %d strips",
                         q, bad - 1, CP_MAX_STRIPS);
        if (t->woven[q] >= t->rlen[q])
            return dfail(d, "woven[%d] is %d, but the capulana of player %d holds %d cards after its initial card",
                         q, t->woven[q], q, t->rlen[q] - 1);
    }
    /* R6: each known card's holder is the one named */
    for (uint64_t m = t->known; m; m &= m - 1) {
        c = tb_ctz64(m);
        int h = cp_holder(t, c);
        if (h < 0) return dfail(d, "known: %s is not in a hand, an offer or this step's weaving (R6)", r->card[c].name);
        if (h != holder[c]) return dfail(d, "known: %s is held by player %d, not %d (R6)", r->card[c].name, h, holder[c]);
    }
    /* the last guard: offer order, R3, R4, to_move, raw strips (R9, also as
     * each row stood when the weaving step began), engine limits, a legal action */
    if ((loose ? cp_check_loose : cp_check)(r, t, d->msg, d->ml)) return SR_E_STATE;
    return SR_OK;
}

static int decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len,
                        int loose) {
    char local[SR_MSG_LEN];
    decoder d;
    cp_state t;
    d.r = rules;
    d.in = in;
    d.n = in && n > 0 ? n : 0;
    d.pos = 0;
    d.msg = msg && msg_len ? msg : local;
    d.ml = msg && msg_len ? msg_len : sizeof local;
    d.msg[0] = 0;
    int rc = decode_body(&d, &t, loose);
    if (rc != SR_OK) {
        if (!d.msg[0]) snprintf(d.msg, d.ml, "inconsistent state");
        return rc;
    }
    memcpy(state, &t, sizeof t);
    return SR_OK;
}

int cp_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len) {
    return decode_state(rules, in, n, state, msg, msg_len, 0);
}

int cp_decode_state_loose(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len) {
    return decode_state(rules, in, n, state, msg, msg_len, 1);
}

/* ---- the sr_game table -------------------------------------------------------------- */

int cp_max_game_length(int players) {
    /* per round: 2 * players offers of at most 5 actions (bid, at most 3
     * cards, done: 1.3, the 3-card limit) and one weaving turn per player of
     * at most 2 actions (stop; a card and stop; or two cards, after which
     * the turn ends by itself). A state is never past its round's start by
     * a negative count, so the 4 rounds bound every game and every
     * continuation of an accepted state. */
    return CP_ROUNDS * (2 * players * (2 + CP_MAX_OFFER_CARDS) + 2 * players);
}

static void g_new(const sr_game *g, void *state, uint64_t seed) {
    cp_new_game(g->rules, state, g->params[CP_PARAM_PLAYERS], seed);
}

static int g_current(const void *rules, const void *state) {
    (void)rules;
    const cp_state *s = state;
    return cp_is_terminal(s) ? SR_TERMINAL : s->to_move;
}

static int g_legal(const void *rules, const void *state, int *buf) { return cp_legal_actions(rules, state, buf); }
static void g_apply(const void *rules, void *state, int action) { cp_apply(rules, state, action); }
static void g_returns(const void *rules, const void *state, double *out) { cp_returns(rules, state, out); }
static void g_scores(const void *rules, const void *state, int *out) { cp_scores(rules, state, out); }
static void g_determinize(const void *rules, const void *state, int player, uint64_t seed, void *out) {
    cp_determinize(rules, state, player, seed, out);
}
static void g_determinize_legacy(const void *rules, const void *state, int player, uint64_t seed, void *out) {
    cp_determinize_legacy(rules, state, player, seed, out);
}
static uint64_t g_key(const void *rules, const void *state, int player) { return cp_infostate_key(rules, state, player); }
static int g_action_to_string(const void *rules, int action, char *buf, size_t n) {
    int len = cp_action_to_string(rules, action, buf, n);
    return len < 0 ? -SR_E_RANGE : len;
}

/* ---- observation (docs/observations.md) ------------------------------------------ */

#define CP_OBS_ROW (CP_NCARDS + 14)   /* one row position: card one-hot, placement one-hot */
#define CP_OBS_PLAYER (3 + CP_NCARDS + CP_MAX_ROW * CP_OBS_ROW)   /* 964 */

/* Floats of the observation for n players: the header 4n + 79, the offer
 * block 2n^2 + 7n + 124, and 964 per player (2: 2161, 3: 3146, 4: 4135,
 * 5: 5128). */
static int cp_observation_size(int n) {
    return (4 * n + 79) + (2 * n * n + 7 * n + 124) + n * CP_OBS_PLAYER;
}

static void put_bits64(float *o, uint64_t m) {
    for (; m; m &= m - 1) o[tb_ctz64(m)] = 1.0f;
}

static inline uint64_t obs_offer_cards(const cp_state *s, int k) {
    int q = cp_offerer(s, k);
    uint64_t m = s->hold[q] & s->offered;
    return k < s->players ? m & ~s->second : m & s->second;
}

/* view(player), exactly what cp_infostate_key hashes, with seats relative
 * to player (seat r is player (player + r) mod n): others' hands and offers
 * only as counts and known cards (R6), others' rows as they stood when the
 * current weaving step began (R7), no deck order, no seed. */
static void g_observation(const void *rules, const void *state, int player, float *out) {
    (void)rules;
    const cp_state *s = state;
    const int n = s->players;
    memset(out, 0, sizeof(float) * (size_t)cp_observation_size(n));
#define REL(q) (((q) - player + n) % n)
    float *o = out;
    o[player] = 1.0f;                                               /* seat */
    o += n;
    if (s->round >= 1 && s->round <= CP_ROUNDS) o[s->round - 1] = 1.0f;   /* round 1..4 */
    o += CP_ROUNDS;
    o[REL(s->start)] = 1.0f;                                        /* start player */
    o += n;
    if (s->phase <= CP_PHASE_OVER) o[s->phase] = 1.0f;             /* offer, weave, over */
    o += 3;
    if (s->to_move < n) o[REL(s->to_move)] = 1.0f;                 /* to move */
    o += n;
    for (int q = 0; q < n; ++q)
        if (s->weave_done >> q & 1) o[REL(q)] = 1.0f;
    o += n;                                                         /* finished weaving */
    for (int i = 0; i < CP_NOBJECTIVES; ++i)
        if (s->objectives >> i & 1) o[i] = 1.0f;
    o += CP_NOBJECTIVES;                                            /* revealed objectives */
    o[0] = (float)(s->deck_n - s->deck_top);                        /* deck count */
    o += 1;
    put_bits64(o, s->known);                                        /* known cards (R6) */
    o += CP_NCARDS;
    /* offer block: zero outside the offer phase */
    if (s->phase == CP_PHASE_OFFER) {
        for (int j = 0; j < n; ++j) o[j] = s->slots[j];
        int made = s->n_offers + s->open;
        o[n + s->n_offers] = 1.0f;
        o[n + 2 * n + 1] = s->open;
        float *ok = o + 3 * n + 2;
        for (int k = 0; k < made && k < 2 * n; ++k) {
            float *e = ok + k * (n + 2);
            uint64_t m = obs_offer_cards(s, k);
            e[0] = 1.0f;
            if (s->offer_slot[k] < n) e[1 + s->offer_slot[k]] = 1.0f;
            e[n + 1] = (float)tb_popcount64(m);
            if (cp_offerer(s, k) == player) put_bits64(ok + 2 * n * (n + 2) + (k < n ? 0 : CP_NCARDS), m);
        }
    }
    o += 2 * n * n + 7 * n + 124;
    for (int rq = 0; rq < n; ++rq, o += CP_OBS_PLAYER) {
        const int q = (player + rq) % n;
        int len = s->rlen[q];
        if (q == player) {
            uint64_t hand = s->hold[q] & ~s->offered;
            o[0] = (float)tb_popcount64(hand);
            put_bits64(o + 1, hand);
            o[1 + CP_NCARDS] = s->woven[q];
        } else {
            uint64_t wm = cp_woven_mask(s, q);
            o[0] = (float)(tb_popcount64(s->hold[q] & ~s->offered) + s->woven[q]);
            put_bits64(o + 1, s->known & (s->hold[q] | wm));
            len -= s->woven[q];
        }
        o[2 + CP_NCARDS] = (float)len;
        float *row = o + 3 + CP_NCARDS;
        for (int i = 0; i < len && i < CP_MAX_ROW; ++i) {
            int c = s->rcard[q][i];
            if (c < CP_NCARDS) row[i * CP_OBS_ROW + c] = 1.0f;
            row[i * CP_OBS_ROW + CP_NCARDS + (i ? cp_place_of(s, c) : 0)] = 1.0f;
        }
    }
#undef REL
}

int cp_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n) {
    int players = params ? params[CP_PARAM_PLAYERS] : -1;
    if (players < CP_MIN_PLAYERS || players > CP_MAX_PLAYERS) {
        if (msg && n) snprintf(msg, n, "players must be 2 to 5, not %d", players);
        return SR_E_PARAM;
    }
    TB_STATIC_ASSERT(sizeof(cp_state) <= SR_MAX_STATE, "cp_state fits the contract");
    TB_STATIC_ASSERT(TB_ALIGNOF(cp_state) <= SR_STATE_ALIGN, "cp_state alignment");
    TB_STATIC_ASSERT(CP_MAX_ACTIONS <= SR_MAX_LEGAL, "legal list fits");
    memset(g, 0, sizeof *g);
    g->info.name = "capulana";
    g->info.num_players = players;
    g->info.num_distinct_actions = CP_NUM_ACTIONS;
    g->info.min_utility = 0.0;
    g->info.max_utility = 1.0;
    g->info.constant_sum = 1;
    g->info.utility_sum = 1.0;
    g->info.max_game_length = cp_max_game_length(players);
    g->info.hidden_information = 1;
    g->info.state_size = sizeof(cp_state);
    g->rules = rules;
    g->params[CP_PARAM_PLAYERS] = players;
    g->params[CP_PARAM_LEGACY_DETERMINIZE] = params[CP_PARAM_LEGACY_DETERMINIZE] ? 1 : 0;
    g->new_initial_state = g_new;
    g->current_player = g_current;
    g->legal_actions = g_legal;
    g->apply = g_apply;
    g->returns = g_returns;
    g->scores = g_scores;
    g->determinize = params[CP_PARAM_LEGACY_DETERMINIZE] ? g_determinize_legacy : g_determinize;   /* issue 13 */
    g->info.exact_determinize = !params[CP_PARAM_LEGACY_DETERMINIZE];   /* the legacy one undoes others' weaving */
    g->infostate_key = g_key;
    g->action_to_string = g_action_to_string;
    g->encode = cp_encode_state;
    g->decode = cp_decode_state;
    g->decode_loose = cp_decode_state_loose;
    g->info.observation_size = cp_observation_size(players);
    g->observation = g_observation;
    if (msg && n) msg[0] = 0;
    return SR_OK;
}
