/* capulana.c - Capulana rules (RULES.md part 1, docs/engine-notes.md). */
#include "capulana.h"
#include "rng.h"
#include <string.h>
#include <stdio.h>

#define BIT(c) (1ULL << (c))

/* popcount without a libgcc call when the target lacks POPCNT (portable.h) */
static inline int pop64(uint64_t x) { return tb_popcount64(x); }
static inline int ctz64(uint64_t x) { return tb_ctz64(x); }
static inline uint64_t lenmask(int n) { return n >= 64 ? ~0ULL : (BIT(n) - 1); }

/* ---- rules ---------------------------------------------------------------- */

int cp_rules_init(cp_rules *r, const cp_card_def *cards, const cp_objective_def *objs) {
    memset(r, 0, sizeof *r);
    for (int c = 0; c < CP_NCARDS; ++c) {
        cp_card_def d = cards[c];
        d.name[CP_NAME_LEN - 1] = 0;
        int fabric = c < CP_NFABRIC;
        if (d.kind != (fabric ? CP_KIND_FABRIC : CP_KIND_INITIAL)) return -1;
        if (d.nstrips != (fabric ? 4 : 3)) return -1;
        if (!fabric) { d.value = 0; d.black = 0; }
        for (int i = 0; i < 4; ++i) {
            if (i >= d.nstrips) { d.colour[i] = d.pattern[i] = 0; continue; }
            int col = d.colour[i], pat = d.pattern[i];
            if (col > 7 || pat > 7 || col == 6 || pat == 6) return -1;
            if ((col == CP_RAW) != (pat == CP_RAW)) return -1;       /* raw is "--" */
            if (col == CP_WILD && pat == CP_WILD) return -1;
            if (!fabric && col == CP_RAW) return -1;                /* R1: a clean first piece */
        }
        r->card[c] = d;
        int raw = 0;
        for (int o = 0; o < 2; ++o) {
            for (int i = 0; i < d.nstrips; ++i) {
                int src = o ? d.nstrips - 1 - i : i;
                int code = d.colour[src] | (d.pattern[src] << 3);
                int bit = d.nstrips - 1 - i;              /* leftmost strip in the highest bit */
                for (int k = 0; k < 6; ++k)
                    if (code >> k & 1) r->nib[c][o][k] |= (uint8_t)(1 << bit);
                if (d.colour[src] == CP_RAW) { r->rawnib[c][o] |= (uint8_t)(1 << bit); raw = 1; }
            }
        }
        if (fabric) {
            r->fabric_mask |= BIT(c);
            if (d.black) { r->black_mask |= BIT(c); r->black_ids[r->nblack++] = (uint8_t)c; }
            else { r->purple_mask |= BIT(c); r->purple_ids[r->npurple++] = (uint8_t)c; }
            if (!raw) r->clean_mask |= BIT(c);
        }
    }
    if (r->nblack < CP_HAND_SIZE * CP_MAX_PLAYERS) return -1;
    for (int i = 0; i < CP_NOBJECTIVES; ++i) {
        r->obj[i] = objs[i];
        r->obj[i].name[CP_NAME_LEN - 1] = 0;
        if (objs[i].key >= CP_OBJ_NKEYS) return -1;
    }
    return 0;
}

/* ---- rows (1.4) -------------------------------------------------------------- */

static inline uint64_t raw_of(const cp_strips *row, int n) {
    return lenmask(n) & ~(row->pl[0] | row->pl[1] | row->pl[2]);
}

/* R8: is placement m legal on a row whose last card shows v strips? */
static inline int r8_ok(int m, int v) {
    if (m == 0) return 1;                 /* touching */
    if (m <= 3) return m <= v - 1;        /* over k */
    return m - 3 <= v;                    /* under k */
}

/* Place fabric card c (orientation o, placement m) on a row: word operations. */
static inline void place_strips(const cp_rules *r, cp_strips *row, int *n, int *v, int c, int o, int m) {
    const uint8_t *nb = r->nib[c][o];
    if (m == 0) {
        for (int k = 0; k < 6; ++k) row->pl[k] = (row->pl[k] << 4) | nb[k];
        *n += 4; *v = 4;
    } else if (m <= 3) {
        for (int k = 0; k < 6; ++k) row->pl[k] = ((row->pl[k] >> m) << 4) | nb[k];
        *n += 4 - m; *v = 4;
    } else {
        int keep = 7 - m;                 /* under k = m-3: the first k strips hidden */
        uint64_t mk = (uint64_t)((1 << keep) - 1);
        for (int k = 0; k < 6; ++k) row->pl[k] = (row->pl[k] << keep) | (nb[k] & mk);
        *n += keep; *v = keep;
    }
}

/* Raw mask after the placement, from the raw mask before (cheap R9 test). */
static inline uint64_t raw_after(const cp_rules *r, uint64_t raw, int c, int o, int m) {
    uint64_t rn = r->rawnib[c][o];
    if (m == 0) return (raw << 4) | rn;
    if (m <= 3) return ((raw >> m) << 4) | rn;
    int keep = 7 - m;
    return (raw << keep) | (rn & (uint64_t)((1 << keep) - 1));
}

static inline int new_v(int m) { return m <= 3 ? 4 : 7 - m; }

int cp_replay_row(const cp_rules *r, cp_state *s, int p) {
    cp_strips row;
    memset(&row, 0, sizeof row);
    int len = s->rlen[p];
    if (len < 1 || len > CP_MAX_ROW) return 1;
    int c0 = s->rcard[p][0];
    if (c0 < CP_NFABRIC || c0 >= CP_NCARDS) return 1;
    for (int k = 0; k < 6; ++k) row.pl[k] = r->nib[c0][0][k];
    int n = r->card[c0].nstrips, v = n;
    for (int i = 1; i < len; ++i) {
        int c = s->rcard[p][i];
        if (c >= CP_NFABRIC) return i + 1;
        int q = cp_place_of(s, c), o = q / 7, m = q % 7;
        if (q >= 14 || !r8_ok(m, v)) return i + 1;                        /* R8 */
        if (n + 4 > CP_MAX_STRIPS) return i + 1;
        place_strips(r, &row, &n, &v, c, o, m);
    }
    s->row[p] = row;
    s->nstrips[p] = (uint8_t)n;
    s->v[p] = (uint8_t)v;
    return 0;
}

uint64_t cp_woven_mask(const cp_state *s, int p) {
    uint64_t m = 0;
    for (int i = s->rlen[p] - s->woven[p]; i < s->rlen[p]; ++i) m |= BIT(s->rcard[p][i]);
    return m;
}

int cp_holder(const cp_state *s, int c) {
    for (int q = 0; q < s->players; ++q)
        if ((s->hold[q] | cp_woven_mask(s, q)) & BIT(c)) return q;
    return -1;
}

/* ---- scoring (R10, R11) ------------------------------------------------------- */

/* positions lying in a run of 3 or more of R */
static inline uint64_t runs3(uint64_t R) {
    uint64_t T = R & (R >> 1) & (R >> 2);
    return T | (T << 1) | (T << 2);
}

/* the runs of m that contain a bit of seed (Kogge-Stone occluded fill) */
static inline uint64_t fill_runs(uint64_t seed, uint64_t m) {
    uint64_t g = seed & m, p = m;
    g |= p & (g << 1); p &= p << 1;
    g |= p & (g << 2); p &= p << 2;
    g |= p & (g << 4); p &= p << 4;
    g |= p & (g << 8); p &= p << 8;
    g |= p & (g << 16); p &= p << 16;
    g |= p & (g << 32);
    p = m;
    g |= p & (g >> 1); p &= p >> 1;
    g |= p & (g >> 2); p &= p >> 2;
    g |= p & (g >> 4); p &= p >> 4;
    g |= p & (g >> 8); p &= p >> 8;
    g |= p & (g >> 16); p &= p >> 16;
    g |= p & (g >> 32);
    return g;
}

/* R10 for one half (colours: planes 0..2, patterns: planes 3..5): Q[i] = the
 * strips in sets of symbol i+1; returns their total length. */
static inline int half_sets(uint64_t a, uint64_t b, uint64_t c, uint64_t Q[5], uint64_t *wild) {
    uint64_t na = ~a, nb = ~b, nc = ~c;
    uint64_t W = a & b & c;
    uint64_t E[5] = { a & nb & nc, na & b & nc, a & b & nc, na & nb & c, a & nb & c };
    int slow = (W & (W >> 1) & (W >> 2)) != 0;   /* a run of 3 wilds could form a set of no symbol */
    uint64_t U = 0;
    for (int i = 0; i < 5; ++i) {
        uint64_t L = runs3(E[i] | W);
        if (slow) L = fill_runs(E[i] & L, L);
        Q[i] = L;
        U |= L;
    }
    /* sets of different symbols overlap only on wild strips: count the
     * union once, then each wild strip once more per extra set holding it */
    int total = pop64(U);
    for (uint64_t w = W & U; w; w &= w - 1) {
        uint64_t b = w & -w;
        total += ((Q[0] & b) != 0) + ((Q[1] & b) != 0) + ((Q[2] & b) != 0) + ((Q[3] & b) != 0) + ((Q[4] & b) != 0) - 1;
    }
    *wild = W;
    return total;
}

int cp_row_score(const cp_strips *row, int nstrips) {
    (void)nstrips;   /* positions past the row are raw (code 0): in no set */
    uint64_t Q[5], w;
    return half_sets(row->pl[0], row->pl[1], row->pl[2], Q, &w)
         + half_sets(row->pl[3], row->pl[4], row->pl[5], Q, &w);
}

static inline int has_run6(uint64_t m) {
    uint64_t a = m & (m >> 1), b = a & (a >> 2);
    return (b & (a >> 4)) != 0;
}
static inline int has_run3(uint64_t m) { return (m & (m >> 1) & (m >> 2)) != 0; }

/* The objectives of mask objectives that a row meets (R11), as a mask: Qc, Qp
 * are its colour and pattern sets (half_sets), wild its wild strips. */
static uint32_t objectives_met(const cp_rules *r, uint32_t objectives, const uint64_t Qc[5],
                               const uint64_t Qp[5], uint64_t wild, int nstrips, int rlen, int hand) {
    uint32_t out = 0;
    for (uint32_t objs = objectives; objs; objs &= objs - 1) {
        int i = ctz64(objs);
        int met = 0;
        switch (r->obj[i].key) {
        case CP_OBJ_LONG_COLOR:
            for (int k = 0; k < 5; ++k) met |= has_run6(Qc[k]);
            break;
        case CP_OBJ_LONG_PATTERN:
            for (int k = 0; k < 5; ++k) met |= has_run6(Qp[k]);
            break;
        case CP_OBJ_THREE_COLORS: {
            int cnt = 0;
            for (int k = 0; k < 5; ++k) cnt += Qc[k] != 0;
            met = cnt >= 3;
            break;
        }
        case CP_OBJ_THREE_PATTERNS: {
            int cnt = 0;
            for (int k = 0; k < 5; ++k) cnt += Qp[k] != 0;
            met = cnt >= 3;
            break;
        }
        case CP_OBJ_LONG_CAPULANA:
            met = nstrips >= 16;
            break;
        case CP_OBJ_NO_LOOSE_STRIP: {
            uint64_t u = 0;
            for (int k = 0; k < 5; ++k) u |= Qc[k] | Qp[k];
            met = nstrips >= 12 && u == lenmask(nstrips);
            break;
        }
        case CP_OBJ_TWO_WILDS:
            met = pop64(wild) >= 2;         /* a wild strip: any strip with a '*' */
            break;
        case CP_OBJ_SAVER:
            met = hand >= 4;
            break;
        case CP_OBJ_MANY_PIECES:
            met = rlen >= 8;                /* the initial card counts */
            break;
        case CP_OBJ_PERFECT_MATCH:           /* inside one colour set and one pattern set */
            for (int k = 0; k < 5 && !met; ++k)
                for (int j = 0; j < 5 && !met; ++j) met = has_run3(Qc[k] & Qp[j]);
            break;
        }
        if (met) out |= 1u << i;
    }
    return out;
}

/* R10 score of a row plus the points of the revealed objectives it meets (R11). */
static int final_score(const cp_rules *r, uint16_t objectives, const cp_strips *row, int nstrips,
                       int rlen, int hand, int *capulana) {
    uint64_t Qc[5], Qp[5], Wc, Wp;
    int sc = half_sets(row->pl[0], row->pl[1], row->pl[2], Qc, &Wc)
           + half_sets(row->pl[3], row->pl[4], row->pl[5], Qp, &Wp);
    if (capulana) *capulana = sc;
    int total = sc;
    for (uint32_t met = objectives_met(r, objectives, Qc, Qp, Wc | Wp, nstrips, rlen, hand); met; met &= met - 1)
        total += r->obj[ctz64(met)].points;
    return total;
}

static inline int hand_count(const cp_state *s, int p) { return pop64(s->hold[p] & ~s->offered); }

void cp_scores(const cp_rules *r, const cp_state *s, int *out) {
    for (int p = 0; p < s->players; ++p)
        out[p] = final_score(r, s->objectives, &s->row[p], s->nstrips[p], s->rlen[p], hand_count(s, p), NULL);
}

void cp_returns(const cp_rules *r, const cp_state *s, double *out) {
    int n = s->players;
    for (int p = 0; p < n; ++p) out[p] = 0.0;
    if (!cp_is_terminal(s)) return;
    int sc[CP_MAX_PLAYERS], best = -1, k = 0;
    cp_scores(r, s, sc);
    for (int p = 0; p < n; ++p) if (sc[p] > best) best = sc[p];
    for (int p = 0; p < n; ++p) k += sc[p] == best;
    for (int p = 0; p < n; ++p) if (sc[p] == best) out[p] = 1.0 / k;   /* R11: tied winners share */
}

/* A row of n <= CP_MAX_STRIPS strips given as codes, left to right, as bit planes. */
static void strips_from_codes(const uint8_t *colour, const uint8_t *pattern, int n, cp_strips *row) {
    memset(row, 0, sizeof *row);
    for (int i = 0; i < n; ++i) {
        int code = colour[i] | (pattern[i] << 3), bit = n - 1 - i;
        for (int k = 0; k < 6; ++k) if (code >> k & 1) row->pl[k] |= BIT(bit);
    }
}

uint16_t cp_objectives_met(const cp_rules *r, uint16_t objectives, const uint8_t *colour, const uint8_t *pattern,
                           int n, int rlen, int hand) {
    cp_strips row;
    uint64_t Qc[5], Qp[5], Wc, Wp;
    if (n > CP_MAX_STRIPS) n = CP_MAX_STRIPS;
    strips_from_codes(colour, pattern, n, &row);
    half_sets(row.pl[0], row.pl[1], row.pl[2], Qc, &Wc);
    half_sets(row.pl[3], row.pl[4], row.pl[5], Qp, &Wp);
    return (uint16_t)objectives_met(r, objectives & ((1u << CP_NOBJECTIVES) - 1), Qc, Qp, Wc | Wp, n, rlen, hand);   /* R11 */
}

int cp_score_sets(const uint8_t *colour, const uint8_t *pattern, int n, cp_set *out, int max, int *total) {
    cp_strips row;
    if (n > CP_MAX_STRIPS) n = CP_MAX_STRIPS;
    strips_from_codes(colour, pattern, n, &row);
    uint64_t Q[2][5], w;
    int sc = half_sets(row.pl[0], row.pl[1], row.pl[2], Q[0], &w);
    sc += half_sets(row.pl[3], row.pl[4], row.pl[5], Q[1], &w);
    *total = sc;
    int cnt = 0;
    for (int kind = 0; kind < 2; ++kind) {
        /* each group by start (left to right = from the high bits), then symbol */
        for (int start = 0; start < n; ++start) {
            int bit = n - 1 - start;
            for (int sym = 0; sym < 5; ++sym) {
                uint64_t m = Q[kind][sym];
                if (!(m & BIT(bit)) || (bit + 1 < 64 && (m & BIT(bit + 1)))) continue;   /* not a run start */
                int len = 0;
                while (bit - len >= 0 && (m & BIT(bit - len))) ++len;
                if (cnt < max) out[cnt] = (cp_set){ (uint8_t)kind, (uint8_t)(sym + 1), (uint8_t)start, (uint8_t)len };
                ++cnt;
            }
        }
    }
    return cnt;
}

int cp_row_strips(const cp_state *s, int p, uint8_t *colour, uint8_t *pattern) {
    int n = s->nstrips[p];
    for (int i = 0; i < n; ++i) {
        int bit = n - 1 - i, code = 0;
        for (int k = 0; k < 6; ++k) code |= (int)((s->row[p].pl[k] >> bit) & 1) << k;
        colour[i] = (uint8_t)(code & 7);
        pattern[i] = (uint8_t)(code >> 3);
    }
    return n;
}

/* ---- setup (R1, R2; engine-notes "Setup") --------------------------------------- */

void cp_new_game(const cp_rules *r, cp_state *s, int players, uint64_t seed) {
    memset(s, 0, sizeof *s);
    int n = players;
    s->rng = seed;
    s->players = (uint8_t)n;
    uint8_t initials[CP_NINITIAL];
    for (int i = 0; i < CP_NINITIAL; ++i) initials[i] = (uint8_t)(CP_NFABRIC + i);
    rng_shuffle_u8(&s->rng, initials, CP_NINITIAL);                       /* R1 */
    uint8_t black[CP_NFABRIC];
    memcpy(black, r->black_ids, r->nblack);
    rng_shuffle_u8(&s->rng, black, r->nblack);
    for (int p = 0; p < n; ++p) {
        s->rcard[p][0] = initials[p];
        s->rlen[p] = 1;
        cp_replay_row(r, s, p);
        for (int i = 0; i < CP_HAND_SIZE; ++i) s->hold[p] |= BIT(black[CP_HAND_SIZE * p + i]);
    }
    int nd = 0;
    for (int i = CP_HAND_SIZE * n; i < r->nblack; ++i) s->deck[nd++] = black[i];
    for (int i = 0; i < r->npurple; ++i) s->deck[nd++] = r->purple_ids[i];
    rng_shuffle_u8(&s->rng, s->deck, nd);
    uint8_t objs[CP_NOBJECTIVES];
    for (int i = 0; i < CP_NOBJECTIVES; ++i) objs[i] = (uint8_t)i;
    rng_shuffle_u8(&s->rng, objs, CP_NOBJECTIVES);
    for (int i = 0; i < CP_REVEALED_OBJECTIVES; ++i) s->objectives |= (uint16_t)(1u << objs[i]);
    for (int i = 0; i < n; ++i) s->slots[i] = s->deck[i];                 /* announcement */
    for (int i = n; i < CP_MAX_PLAYERS; ++i) s->slots[i] = CP_NONE;
    s->deck_top = (uint8_t)n;
    s->deck_n = (uint8_t)nd;
    s->round = 1;
    s->start = 0;                                                         /* R2 */
    s->phase = CP_PHASE_OFFER;
    s->to_move = 0;
}

/* ---- offers (1.3, R3, R4) ----------------------------------------------------------- */

/* Cards of the k-th offer of the round (closed or open). */
static inline uint64_t offer_cards(const cp_state *s, int k) {
    int q = cp_offerer(s, k);
    uint64_t m = s->hold[q] & s->offered;
    return k < s->players ? m & ~s->second : m & s->second;
}

/* R3: with on[j] = players already on slot j (offers 0..made-1), can the
 * offers made..2n-1 still all be placed? A tiny bipartite b-matching, decided
 * by the cut condition: for every set A of players still to offer,
 * sum of their offers <= sum over slots of min(free places, A's players
 * allowed there). */
static const uint8_t POP5[32] = {0,1,1,2,1,2,2,3,1,2,2,3,2,3,3,4,1,2,2,3,2,3,3,4,2,3,3,4,3,4,4,5};

static int placeable(const cp_state *s, const uint8_t on[CP_MAX_PLAYERS], int made) {
    int n = s->players;
    uint8_t d[CP_MAX_PLAYERS] = {0};
    for (int k = made; k < 2 * n; ++k) d[cp_offerer(s, k)]++;
    unsigned full = (1u << n) - 1, D = 0;
    uint8_t freej[CP_MAX_PLAYERS], allowed[CP_MAX_PLAYERS];
    for (int j = 0; j < n; ++j) {
        int pc = POP5[on[j] & 31];
        if (pc > 2) return 0;
        freej[j] = (uint8_t)(2 - pc);
        allowed[j] = (uint8_t)(~on[j] & full);
    }
    for (int q = 0; q < n; ++q) if (d[q]) D |= 1u << q;
    uint8_t need[32];
    need[0] = 0;
    unsigned A = 0;
    do {                                   /* the subsets of D in increasing order */
        A = (A - D) & D;
        if (!A) break;
        need[A] = (uint8_t)(need[A & (A - 1)] + d[tb_ctz32(A)]);
        int room = 0;
        for (int j = 0; j < n; ++j) {
            int allow = POP5[A & allowed[j]];
            room += freej[j] < allow ? freej[j] : allow;
        }
        if (need[A] > room) return 0;
    } while (A != D);
    return 1;
}

static inline void slot_players(const cp_state *s, int upto, uint8_t on[CP_MAX_PLAYERS]) {
    memset(on, 0, CP_MAX_PLAYERS);
    for (int k = 0; k < upto; ++k) on[s->offer_slot[k]] |= (uint8_t)(1u << cp_offerer(s, k));
}

/* 1.3 + R3: may player q open the next offer on slot j? */
static int bid_ok(const cp_state *s, int q, int j, const uint8_t on0[CP_MAX_PLAYERS]) {
    if (POP5[on0[j] & 31] >= 2 || (on0[j] >> q & 1)) return 0;
    uint8_t on[CP_MAX_PLAYERS];
    memcpy(on, on0, CP_MAX_PLAYERS);
    on[j] |= (uint8_t)(1u << q);
    return placeable(s, on, s->n_offers + 1);
}

/* ---- legal actions ------------------------------------------------------------------ */

static int weave_actions(const cp_rules *r, const cp_state *s, int *buf) {
    int p = s->to_move, n = 0;
    uint64_t hand = s->hold[p];
    uint64_t raw = raw_of(&s->row[p], s->nstrips[p]);
    int v = s->v[p], first = s->woven[p] == 0;
    if (!raw) buf[n++] = CP_A_STOP;                                        /* R9 */
    uint64_t h = hand;
    while (h) {
        int c = ctz64(h); h &= h - 1;
        int fix = first && (r->clean_mask & hand & ~BIT(c)) != 0;         /* a clean second card */
        for (int o = 0; o < 2; ++o)
            for (int m = 0; m < 7; ++m) {
                if (!r8_ok(m, v)) continue;                                 /* R8 */
                uint64_t ra = raw_after(r, raw, c, o, m);
                if (ra) {                                                   /* R9 look-ahead */
                    int v2 = new_v(m), kmax = v2 - 1 < 3 ? v2 - 1 : 3;
                    if (!fix || kmax < 1 || (ra >> kmax)) continue;
                }
                buf[n++] = CP_A_WEAVE + 14 * c + 7 * o + m;
            }
    }
    return n;
}

int cp_legal_actions(const cp_rules *r, const cp_state *s, int *buf) {
    if (s->phase == CP_PHASE_WEAVE) return weave_actions(r, s, buf);
    if (s->phase != CP_PHASE_OFFER) return 0;
    int q = s->to_move, n = 0;
    if (!s->open) {
        uint8_t on[CP_MAX_PLAYERS];
        slot_players(s, s->n_offers, on);
        for (int j = 0; j < s->players; ++j)
            if (bid_ok(s, q, j, on)) buf[n++] = CP_A_BID + j;
        return n;
    }
    uint64_t hand = s->hold[q] & ~s->offered;
    int cnt = pop64(offer_cards(s, s->n_offers));
    if (cnt >= CP_MAX_OFFER_CARDS || !hand) { buf[0] = CP_A_DONE; return 1; }
    uint64_t h = hand;
    while (h) { buf[n++] = CP_A_OFFER + ctz64(h); h &= h - 1; }
    if (cnt > 0 || pop64(hand) + cnt <= 1) buf[n++] = CP_A_DONE;          /* R4 */
    return n;
}

int cp_is_legal(const cp_rules *r, const cp_state *s, int action) {
    int buf[CP_MAX_ACTIONS];
    if (action < 0 || action >= CP_NUM_ACTIONS) return 0;
    int n = cp_legal_actions(r, s, buf);
    for (int i = 0; i < n; ++i) if (buf[i] == action) return 1;
    return 0;
}

/* ---- apply ---------------------------------------------------------------------------- */

/* R5, R6: resolve every slot once the last offer has closed. */
static void auction(const cp_rules *r, cp_state *s) {
    int n = s->players;
    uint64_t om[2 * CP_MAX_PLAYERS];
    for (int k = 0; k < 2 * n; ++k) om[k] = offer_cards(s, k);
    for (int j = 0; j < n; ++j) {
        int a = -1, b = -1;
        for (int k = 0; k < 2 * n; ++k)
            if (s->offer_slot[k] == j) { if (a < 0) a = k; else b = k; }
        int pa = cp_offerer(s, a), pb = cp_offerer(s, b);
        int va = 0, vb = 0;
        for (uint64_t m = om[a]; m; m &= m - 1) va += r->card[ctz64(m)].value;
        for (uint64_t m = om[b]; m; m &= m - 1) vb += r->card[ctz64(m)].value;
        int ca = pop64(om[a]), cb = pop64(om[b]);
        int a_wins;                                                       /* R5 */
        if (va != vb) a_wins = va > vb;
        else if (ca != cb) a_wins = ca > cb;
        else a_wins = (pa - s->start + n) % n < (pb - s->start + n) % n;
        int w = a_wins ? pa : pb, l = a_wins ? pb : pa;
        uint64_t W = a_wins ? om[a] : om[b], L = a_wins ? om[b] : om[a];
        uint64_t ann = BIT(s->slots[j]);
        s->hold[w] = (s->hold[w] & ~W) | L | ann;
        s->hold[l] = (s->hold[l] & ~L) | W;
        s->known |= W | L | ann;                                           /* R6 */
    }
    s->offered = s->second = 0;
    for (int j = 0; j < CP_MAX_PLAYERS; ++j) s->slots[j] = CP_NONE;
    s->n_offers = 0;
    s->open = 0;
    s->phase = CP_PHASE_WEAVE;                                             /* R7 */
    memset(s->woven, 0, sizeof s->woven);
    s->weave_done = 0;
    s->to_move = s->start;
}

static void end_step(cp_state *s) {
    int n = s->players;
    for (int p = 0; p < n; ++p) {
        s->known &= ~cp_woven_mask(s, p);                                  /* R6: known until woven */
        s->woven[p] = 0;
    }
    if (s->round >= CP_ROUNDS) {
        s->phase = CP_PHASE_OVER;
        s->to_move = CP_NONE;
        s->weave_done = (uint8_t)((1u << n) - 1);
        return;
    }
    s->start = (uint8_t)((s->start + 1) % n);                              /* R2 */
    s->round++;
    for (int i = 0; i < n; ++i) s->slots[i] = s->deck[s->deck_top++];      /* announcement */
    s->phase = CP_PHASE_OFFER;
    s->weave_done = 0;
    s->to_move = s->start;
}

static void end_turn(cp_state *s) {
    int n = s->players;
    s->weave_done |= (uint8_t)(1u << s->to_move);
    for (int i = 0; i < n; ++i) {                                          /* R7: seat order */
        int q = (s->start + i) % n;
        if (!(s->weave_done >> q & 1)) { s->to_move = (uint8_t)q; return; }
    }
    end_step(s);
}

void cp_apply(const cp_rules *r, cp_state *s, int a) {
    int p = s->to_move;
    if (a < CP_A_OFFER) {                                  /* bid k */
        s->offer_slot[s->n_offers] = (uint8_t)(a - CP_A_BID);
        s->open = 1;
    } else if (a < CP_A_DONE) {                            /* offer card */
        uint64_t b = BIT(a - CP_A_OFFER);
        s->offered |= b;
        if (s->n_offers >= s->players) s->second |= b;
    } else if (a == CP_A_DONE) {
        s->open = 0;
        s->n_offers++;
        if (s->n_offers == 2 * s->players) auction(r, s);  /* R5 */
        else s->to_move = (uint8_t)cp_offerer(s, s->n_offers);
    } else if (a == CP_A_STOP) {
        end_turn(s);
    } else {                                               /* weave */
        int x = a - CP_A_WEAVE, c = x / 14, q = x % 14;
        int n = s->nstrips[p], v = s->v[p];
        s->hold[p] &= ~BIT(c);
        s->rcard[p][s->rlen[p]++] = (uint8_t)c;
        cp_set_place(s, c, q);
        place_strips(r, &s->row[p], &n, &v, c, q / 7, q % 7);
        s->nstrips[p] = (uint8_t)n;
        s->v[p] = (uint8_t)v;
        if (++s->woven[p] == 2) end_turn(s);               /* the turn ends after the second card */
    }
}

int cp_apply_checked(const cp_rules *r, cp_state *s, int action) {
    if (!cp_is_legal(r, s, action)) return -1;
    cp_apply(r, s, action);
    return 0;
}

/* ---- notation --------------------------------------------------------------------------- */

int cp_action_to_string(const cp_rules *r, int a, char *buf, size_t n) {
    static const char *pl[7] = { "+", ">1", ">2", ">3", "<1", "<2", "<3" };
    if (a < 0 || a >= CP_NUM_ACTIONS) return -1;
    if (a < CP_A_OFFER) return snprintf(buf, n, "bid %d", a - CP_A_BID);
    if (a < CP_A_DONE) return snprintf(buf, n, "offer %s", r->card[a - CP_A_OFFER].name);
    if (a == CP_A_DONE) return snprintf(buf, n, "done");
    if (a == CP_A_STOP) return snprintf(buf, n, "stop");
    int x = a - CP_A_WEAVE, c = x / 14, q = x % 14;
    return snprintf(buf, n, "%s %c%s", r->card[c].name, q < 7 ? 'n' : 'r', pl[q % 7]);
}

/* ---- weaving options ---------------------------------------------------------------------- */

#define WO_BITS 12
#define WO_BUCKETS (1 << WO_BITS)

static inline uint32_t row_hash(const cp_strips *row, int n) {
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < 6; ++k) h = (h ^ row->pl[k]) * 0xBF58476D1CE4E5B9ULL;
    return (uint32_t)(h >> 32);
}

typedef struct {
    const cp_rules *r;
    const cp_state *s;
    cp_weave_option *out;
    int max, count, overflow, p, rlen, hand;
    int32_t head[WO_BUCKETS];
} wo_ctx;

static inline int same_row(const cp_strips *a, const cp_strips *b) {
    return a->pl[0] == b->pl[0] && a->pl[1] == b->pl[1] && a->pl[2] == b->pl[2]
        && a->pl[3] == b->pl[3] && a->pl[4] == b->pl[4] && a->pl[5] == b->pl[5];
}

static void wo_add(wo_ctx *x, const cp_strips *row, int n, int v, int a0, int a1, int a2, int na, int ncards) {
    uint32_t hv = row_hash(row, n), h = hv >> (32 - WO_BITS);
    for (int32_t i = x->head[h]; i >= 0; i = x->out[i].next)
        if (x->out[i].hash == hv && x->out[i].nstrips == n && same_row(&x->out[i].row, row)) return;
    if (x->count >= x->max) { x->overflow = 1; return; }
    cp_weave_option *o = &x->out[x->count];
    o->row = *row;
    o->next = x->head[h];
    o->hash = hv;
    x->head[h] = x->count++;
    o->actions[0] = (int16_t)a0; o->actions[1] = (int16_t)a1; o->actions[2] = (int16_t)a2;
    o->n_actions = (uint8_t)na;
    o->ncards = (uint8_t)ncards;
    o->nstrips = (uint8_t)n;
    o->v = (uint8_t)v;
    int sc;
    o->final_score = (int16_t)final_score(x->r, x->s->objectives, row, n, x->rlen + ncards, x->hand - ncards, &sc);
    o->score = (int16_t)sc;
}

int cp_weaving_options(const cp_rules *r, const cp_state *s, cp_weave_option *out, int max) {
    if (s->phase != CP_PHASE_WEAVE) return 0;
    wo_ctx x;
    x.r = r; x.s = s; x.out = out; x.max = max; x.count = 0; x.overflow = 0;
    int p = s->to_move;
    x.p = p;
    x.rlen = s->rlen[p];
    uint64_t hand = s->hold[p];
    x.hand = pop64(hand);
    memset(x.head, 0xff, sizeof x.head);
    const cp_strips base = s->row[p];
    int n0 = s->nstrips[p], v0 = s->v[p];
    uint64_t raw0 = raw_of(&base, n0);
    int first = s->woven[p] == 0;
    if (!raw0) wo_add(&x, &base, n0, v0, CP_A_STOP, -1, -1, 1, 0);         /* R9 */
    for (uint64_t h = hand; h; h &= h - 1) {
        int c = ctz64(h);
        for (int o = 0; o < 2; ++o)
            for (int m = 0; m < 7; ++m) {
                if (!r8_ok(m, v0)) continue;                                 /* R8 */
                int a1 = CP_A_WEAVE + 14 * c + 7 * o + m;
                uint64_t ra = raw_after(r, raw0, c, o, m);
                cp_strips row1 = base;
                int n1 = n0, v1 = v0;
                place_strips(r, &row1, &n1, &v1, c, o, m);
                if (!ra) {
                    if (first) wo_add(&x, &row1, n1, v1, a1, CP_A_STOP, -1, 2, 1);
                    else wo_add(&x, &row1, n1, v1, a1, -1, -1, 1, 1);   /* the second card ends the turn */
                }
                if (!first) continue;
                /* second card: with raw strips showing, only an over placement of a clean card helps (R9) */
                uint64_t h2 = (hand & ~BIT(c)) & (ra ? r->clean_mask : ~0ULL);
                int kmax = v1 - 1 < 3 ? v1 - 1 : 3;
                if (ra && (kmax < 1 || (ra >> kmax))) continue;
                for (; h2; h2 &= h2 - 1) {
                    int c2 = ctz64(h2);
                    for (int o2 = 0; o2 < 2; ++o2)
                        for (int m2 = 0; m2 < 7; ++m2) {
                            if (!r8_ok(m2, v1)) continue;
                            if (raw_after(r, ra, c2, o2, m2)) continue;
                            cp_strips row2 = row1;
                            int n2 = n1, v2 = v1;
                            place_strips(r, &row2, &n2, &v2, c2, o2, m2);
                            wo_add(&x, &row2, n2, v2, a1, CP_A_WEAVE + 14 * c2 + 7 * o2 + m2, -1, 2, 2);
                        }
                }
            }
    }
    return x.overflow ? -1 : x.count;
}

/* ---- hidden information ---------------------------------------------------------------------- */

/* Undo player q's weaving in the current step: the woven cards go back to the hand. */
static void undo_weaving(const cp_rules *r, cp_state *s, int q) {
    if (!s->woven[q]) return;
    s->hold[q] |= cp_woven_mask(s, q);
    s->rlen[q] = (uint8_t)(s->rlen[q] - s->woven[q]);
    s->woven[q] = 0;
    cp_replay_row(r, s, q);
}

static int mask_to_ids(uint64_t m, uint8_t *out) {
    int n = 0;
    while (m) { out[n++] = (uint8_t)ctz64(m); m &= m - 1; }
    return n;
}

void cp_determinize_legacy(const cp_rules *r, const cp_state *s, int player, uint64_t seed, cp_state *out) {
    if (out != s) *out = *s;     /* drawn in place: no copy on the stack, no second copy out */
    cp_state *t = out;
    uint64_t g = seed;
    int n = t->players;
    uint64_t pool = 0, unknown_places = 0;
    for (int q = 0; q < n; ++q) {
        if (q == player) continue;
        undo_weaving(r, t, q);                           /* R7: nothing woven is seen yet */
        uint64_t u = t->hold[q] & ~t->known;
        pool |= u;
        unknown_places += (uint64_t)pop64(u);
    }
    for (int i = t->deck_top; i < t->deck_n; ++i) pool |= BIT(t->deck[i]);
    uint8_t blk[CP_NFABRIC], oth[CP_NFABRIC];
    int nb = mask_to_ids(pool & r->black_mask, blk);
    int no = mask_to_ids(pool & ~r->black_mask, oth);
    uint8_t all[CP_NFABRIC];
    int na = 0;
    if ((uint64_t)nb >= unknown_places) {
        /* unknown cards of others are initially dealt (black) cards */
        rng_shuffle_u8(&g, blk, nb);
        for (int i = 0; i < nb; ++i) all[na++] = blk[i];
        for (int i = 0; i < no; ++i) all[na++] = oth[i];
        /* all[0 .. unknown_places) are black; the rest goes to the deck */
    } else {
        for (int i = 0; i < nb; ++i) all[na++] = blk[i];
        for (int i = 0; i < no; ++i) all[na++] = oth[i];
        rng_shuffle_u8(&g, all, na);
    }
    int next = 0;
    uint64_t others = 0;
    for (int q = 0; q < n; ++q) if (q != player) others |= t->hold[q];
    uint64_t n_offered = t->offered & ~others, n_second = t->second & ~others;
    for (int q = 0; q < n; ++q) {
        if (q == player) continue;
        uint64_t first = t->hold[q] & t->offered & ~t->second, second = t->hold[q] & t->second;
        int nf = pop64(first), ns = pop64(second);
        uint8_t cards[CP_NFABRIC];
        int nc = mask_to_ids(t->hold[q] & t->known, cards);
        int nu = pop64(t->hold[q] & ~t->known);
        for (int i = 0; i < nu; ++i) cards[nc++] = all[next++];
        rng_shuffle_u8(&g, cards, nc);                     /* R6: known cards anywhere in hand or offers */
        uint64_t hold = 0, f = 0, sc = 0;
        for (int i = 0; i < nc; ++i) {
            hold |= BIT(cards[i]);
            if (i < nf) f |= BIT(cards[i]);
            else if (i < nf + ns) sc |= BIT(cards[i]);
        }
        n_offered |= f | sc;
        n_second |= sc;
        t->hold[q] = hold;
    }
    t->offered = n_offered;
    t->second = n_second;
    int rest = na - next;
    rng_shuffle_u8(&g, all + next, rest);
    for (int i = 0; i < rest; ++i) t->deck[i] = all[next + i];
    t->deck_top = 0;
    t->deck_n = (uint8_t)rest;
    t->rng = rng_draw(&g);          /* no later event draws from it; any value will do */
}

/* ---- determinize: others' hidden weaving of the current step (issue 13) ---------------------
 *
 * A world is: the unknown cards of every other player (drawn from the pool P of
 * unseen black cards, or every unseen card in hand-made states that lack them),
 * the deck order, and for every other player q who has finished (or is in) the
 * weaving turn of this step, the cards q wove and their placements. Each world
 * counts once. Write K_q for q's known cards (R6), u_q for q's unknown places
 * and D_q for the pool cards that q's weaving uses (|D_q| <= 2). The number of
 * card assignments that give every q a hand containing D_q (the D_q pairwise
 * disjoint) depends only on t = sum |D_q|:
 *     #assignments = (m - t)! / ((m - sum u)! prod (u_q - d_q)!)        (m = |P|),
 * relative to t = 0 the factor prod falling(u_q, d_q) / falling(m, t). So a
 * world is drawn by: (1) the vector (d_q) with weight
 *     prod_q falling(u_q, d_q) S_q(d_q) / falling(m, t),
 * S_q(d) = the number of q's weaving sequences that use d pool cards (over
 * every choice of those cards); (2) each D_q with weight n_q(D_q), the number of
 * q's sequences using exactly those pool cards; (3) the sequence uniformly
 * among them; (4) the rest of each hand uniformly from P minus the D's, the
 * deck shuffled. Steps (1)-(4) draw every pair (assignment, weaving) of a
 * relaxed set uniformly; the relaxation is that two players' D may share a
 * card and that a mid-turn first card showing a raw strip needs a clean card
 * left in hand (R9), so the draw is accepted only when neither happens (exact:
 * uniform over the accepted pairs). Sequence counts use per-card tables: a
 * first placement leaves (v1, raw mask); the number of second placements of
 * card b is cnt0[b][v1] when no raw strip shows, else 2 * (the over placements
 * that cover it) if b is clean (only over placements of a clean card cover a
 * raw strip), so n(a then b) = sum_v1 A[a][v1] cnt0[b][v1] + clean(b) X[a]. */

typedef struct {
    int q, in_turn, u, wmax, v0;
    uint64_t K;                        /* known cards back in hand */
    double S[3];                       /* sequences by pool cards used */
    uint8_t one[CP_NFABRIC];           /* one-card steps ending clean */
    uint8_t rf[CP_NFABRIC];            /* mid-turn first cards showing a coverable raw strip */
    uint8_t A[CP_NFABRIC][5];          /* first placements ending clean, by v1 */
    uint16_t X[CP_NFABRIC];            /* sum over raw-showing first placements of their covers */
    double n1[CP_NFABRIC];             /* sequences using exactly pool card c */
} dz_player;

static inline int dz_kc(uint64_t ra, int v1) {
    int kmax = v1 - 1 < 3 ? v1 - 1 : 3, n = 0;
    for (int k = 1; k <= kmax; ++k) n += (ra >> k) == 0;
    return n;
}

static inline uint64_t dz_raw1(const cp_rules *r, int c, int o, int m) { return raw_after(r, 0, c, o, m); }

static void dz_tables(const cp_rules *r, dz_player *P, uint64_t cand) {
    /* a clean card: every R8 placement ends clean (the same counts for all of them) */
    int over = P->v0 - 1 < 3 ? P->v0 - 1 : 3, under = P->v0 < 3 ? P->v0 : 3;
    uint8_t cleanA[5] = {0};
    cleanA[4] = (uint8_t)(2 * (1 + over));
    for (int k = 1; k <= under; ++k) cleanA[4 - k] = (uint8_t)(cleanA[4 - k] + 2);
    for (uint64_t h = cand & r->clean_mask; h; h &= h - 1) {
        int c = ctz64(h);
        P->one[c] = (uint8_t)(2 * (1 + over + under));
        P->rf[c] = 0; P->X[c] = 0;
        memcpy(P->A[c], cleanA, 5);
    }
    for (uint64_t h = cand & ~r->clean_mask; h; h &= h - 1) {
        int c = ctz64(h);
        P->one[c] = P->rf[c] = 0; P->X[c] = 0;
        memset(P->A[c], 0, 5);
        for (int o = 0; o < 2; ++o)
            for (int m = 0; m < 7; ++m) {
                if (!r8_ok(m, P->v0)) continue;
                uint64_t ra = dz_raw1(r, c, o, m);
                int v1 = new_v(m);
                if (!ra) { P->one[c]++; P->A[c][v1]++; continue; }
                int kmax = v1 - 1 < 3 ? v1 - 1 : 3;
                if (kmax >= 1 && !(ra >> kmax)) P->rf[c]++;
                P->X[c] = (uint16_t)(P->X[c] + 2 * dz_kc(ra, v1));
            }
    }
}

/* second placements of b on a row whose last card shows v strips and no raw strip */
static void dz_cnt0(const cp_rules *r, uint64_t cand, uint8_t cnt0[CP_NFABRIC][5]) {
    /* a clean card: 2 orientations x (touching, over k <= v - 1, under k <= v) */
    static const uint8_t CLEAN[5] = {0, 2 * (1 + 0 + 1), 2 * (1 + 1 + 2), 2 * (1 + 2 + 3), 2 * (1 + 3 + 3)};
    for (uint64_t h = cand & r->clean_mask; h; h &= h - 1) memcpy(cnt0[ctz64(h)], CLEAN, 5);
    /* a card with a raw strip: only under placements that hide it */
    for (uint64_t h = cand & ~r->clean_mask; h; h &= h - 1) {
        int c = ctz64(h), n = 0;
        cnt0[c][0] = 0;
        for (int v = 1; v <= 4; ++v) {
            if (v <= 3)
                for (int o = 0; o < 2; ++o) n += !(r->rawnib[c][o] & ((1u << (4 - v)) - 1));   /* under k = v */
            cnt0[c][v] = (uint8_t)n;
        }
    }
}

static inline double dz_n2(const cp_rules *r, const dz_player *P, const uint8_t cnt0[CP_NFABRIC][5], int a, int b) {
    if (P->wmax < 2) return 0;
    const uint8_t *A = P->A[a], *C = cnt0[b];
    return (double)(A[1] * C[1] + A[2] * C[2] + A[3] * C[3] + A[4] * C[4])
         + ((r->clean_mask >> b & 1) ? (double)P->X[a] : 0.0);
}

static inline double dz_n1(const dz_player *P, int a) {
    if (P->wmax < 1) return 0;
    return (double)P->one[a] + (P->in_turn ? (double)P->rf[a] : 0.0);
}

/* sequences of q using exactly the pool cards D (a bit mask of 0, 1 or 2 cards) */
static double dz_class(const cp_rules *r, const dz_player *P, const uint8_t cnt0[CP_NFABRIC][5], uint64_t D) {
    int d = pop64(D);
    if (d == 0) {
        double n = 1;
        for (uint64_t h = P->K; h; h &= h - 1) {
            int a = ctz64(h);
            n += dz_n1(P, a);
            if (!P->in_turn)
                for (uint64_t g = P->K & ~BIT(a); g; g &= g - 1) n += dz_n2(r, P, cnt0, a, ctz64(g));
        }
        return n;
    }
    if (d == 1) {
        int c = ctz64(D);
        double n = dz_n1(P, c);
        if (!P->in_turn)
            for (uint64_t h = P->K; h; h &= h - 1) {
                int k = ctz64(h);
                n += dz_n2(r, P, cnt0, k, c) + dz_n2(r, P, cnt0, c, k);
            }
        return n;
    }
    if (P->in_turn) return 0;
    int a = ctz64(D), b = ctz64(D & (D - 1));
    return dz_n2(r, P, cnt0, a, b) + dz_n2(r, P, cnt0, b, a);
}

static inline double dz_unit(uint64_t *g) { return (double)(rng_draw(g) >> 11) * (1.0 / 9007199254740992.0); }

/* The idx-th one-card placement of a (R8, clean or, mid-turn, coverable): q code */
static int dz_pick1(const cp_rules *r, const dz_player *P, int a, double idx) {
    for (int o = 0; o < 2; ++o)
        for (int m = 0; m < 7; ++m) {
            if (!r8_ok(m, P->v0)) continue;
            uint64_t ra = dz_raw1(r, a, o, m);
            int ok = !ra;
            if (ra && P->in_turn) {
                int v1 = new_v(m), kmax = v1 - 1 < 3 ? v1 - 1 : 3;
                ok = kmax >= 1 && !(ra >> kmax);
            }
            if (ok) { if (idx < 1) return 7 * o + m; idx -= 1; }
        }
    return -1;
}

/* The idx-th two-card step a then b: writes both placement codes */
static void dz_pick2(const cp_rules *r, const dz_player *P, const uint8_t cnt0[CP_NFABRIC][5], int a, int b,
                     double idx, int *qa, int *qb) {
    int clean_b = (int)(r->clean_mask >> b & 1);
    for (int o = 0; o < 2; ++o)
        for (int m = 0; m < 7; ++m) {
            if (!r8_ok(m, P->v0)) continue;
            uint64_t ra = dz_raw1(r, a, o, m);
            int v1 = new_v(m);
            double comp = !ra ? cnt0[b][v1] : clean_b ? 2 * dz_kc(ra, v1) : 0;
            if (idx >= comp) { idx -= comp; continue; }
            *qa = 7 * o + m;
            for (int o2 = 0; o2 < 2; ++o2)
                for (int m2 = 0; m2 < 7; ++m2) {
                    if (!r8_ok(m2, v1) || raw_after(r, ra, b, o2, m2)) continue;
                    if (idx < 1) { *qb = 7 * o2 + m2; return; }
                    idx -= 1;
                }
        }
}

/* Draw a sequence uniformly among q's sequences of class D: cards and codes. */
static int dz_pick_seq(const cp_rules *r, const dz_player *P, const uint8_t cnt0[CP_NFABRIC][5], uint64_t D,
                       double total, uint64_t *g, int cards[2], int codes[2]) {
    double x = dz_unit(g) * total;
    int d = pop64(D);
    if (d == 0) {
        if (x < 1) return 0;
        x -= 1;
        for (uint64_t h = P->K; h; h &= h - 1) {
            int a = ctz64(h);
            double n1 = dz_n1(P, a);
            if (x < n1) { cards[0] = a; codes[0] = dz_pick1(r, P, a, x); return 1; }
            x -= n1;
            if (P->in_turn) continue;
            for (uint64_t h2 = P->K & ~BIT(a); h2; h2 &= h2 - 1) {
                int b = ctz64(h2);
                double n2 = dz_n2(r, P, cnt0, a, b);
                if (x < n2) { cards[0] = a; cards[1] = b; dz_pick2(r, P, cnt0, a, b, x, &codes[0], &codes[1]); return 2; }
                x -= n2;
            }
        }
    } else if (d == 1) {
        int c = ctz64(D);
        double n1 = dz_n1(P, c);
        if (x < n1) { cards[0] = c; codes[0] = dz_pick1(r, P, c, x); return 1; }
        x -= n1;
        for (uint64_t h = P->K; h; h &= h - 1) {
            int k = ctz64(h);
            for (int side = 0; side < 2; ++side) {
                int a = side ? c : k, b = side ? k : c;
                double n2 = dz_n2(r, P, cnt0, a, b);
                if (x < n2) { cards[0] = a; cards[1] = b; dz_pick2(r, P, cnt0, a, b, x, &codes[0], &codes[1]); return 2; }
                x -= n2;
            }
        }
    } else {
        int c = ctz64(D), e = ctz64(D & (D - 1));
        for (int side = 0; side < 2; ++side) {
            int a = side ? e : c, b = side ? c : e;
            double n2 = dz_n2(r, P, cnt0, a, b);
            if (x < n2) { cards[0] = a; cards[1] = b; dz_pick2(r, P, cnt0, a, b, x, &codes[0], &codes[1]); return 2; }
            x -= n2;
        }
    }
    /* rounding at the very end of the range: take the last sequence of the class */
    return dz_pick_seq(r, P, cnt0, D, total, g, cards, codes);
}

static inline double dz_falling(int n, int k) {
    double x = 1;
    for (int i = 0; i < k; ++i) x *= (double)(n - i);
    return x;
}

/* The acceptance rate is measured at 0.6 to 1 in played positions (a world is
 * rejected only when two opponents' draws share a pool card, or a mid-turn
 * raw strip finds no clean card to cover it); after DZ_TRIES rejections in a
 * row (never seen; probability below e^-100 at a rate of 1e-3) the draw stops
 * and returns the world in which the weaving opponents wove nothing, which is
 * consistent with the view, so the call always ends in bounded time. */
#define DZ_TRIES 100000

void cp_determinize(const cp_rules *r, const cp_state *s, int player, uint64_t seed, cp_state *out) {
    int n = s->players;
    if (s->phase != CP_PHASE_WEAVE || player < 0 || player >= n) { cp_determinize_legacy(r, s, player, seed, out); return; }
    dz_player act[CP_MAX_PLAYERS];
    int nact = 0;
    for (int q = 0; q < n; ++q) {
        if (q == player) continue;
        int done = s->weave_done >> q & 1, in_turn = !done && s->to_move == q;
        if (done || in_turn) act[nact++].q = q;
    }
    if (!nact) { cp_determinize_legacy(r, s, player, seed, out); return; }

    /* the world is drawn in place, in out: the step as it began, then, once a
     * draw is accepted, its hands, weaving and deck (no copy on the stack) */
    cp_state tmp, *t0 = out == s ? &tmp : out;
    *t0 = *s;
    uint64_t g = seed;
    uint64_t unseen = 0;
    int u[CP_MAX_PLAYERS] = {0}, sumu = 0;
    for (int q = 0; q < n; ++q) {
        if (q == player) continue;
        undo_weaving(r, t0, q);                          /* the step as it began: what the viewer sees */
        uint64_t uq = t0->hold[q] & ~t0->known;
        unseen |= uq;
        u[q] = pop64(uq);
        sumu += u[q];
    }
    for (int i = t0->deck_top; i < t0->deck_n; ++i) unseen |= BIT(t0->deck[i]);
    uint64_t pool = unseen & r->black_mask;                /* unknown cards in hand were dealt black */
    if (pop64(pool) < sumu) pool = unseen;                 /* only in hand-made states */
    int m = pop64(pool);

    uint8_t cnt0[CP_NFABRIC][5];
    uint64_t allK = 0;
    for (int i = 0; i < nact; ++i) {
        dz_player *P = &act[i];
        int q = P->q;
        P->in_turn = !(s->weave_done >> q & 1);
        P->u = u[q];
        P->K = t0->hold[q] & t0->known;
        P->v0 = t0->v[q];
        allK |= P->K;
        int turns_after = CP_ROUNDS - s->round + P->in_turn; /* as cp_check counts them */
        int wm = P->in_turn ? 1 : 2;
        while (wm > 0 && (t0->rlen[q] + wm + 2 * turns_after > CP_MAX_ROW
                          || t0->nstrips[q] + 4 * wm + 8 * turns_after > CP_MAX_STRIPS)) --wm;
        P->wmax = wm;
        dz_tables(r, P, P->K | pool);
    }
    dz_cnt0(r, allK | pool, cnt0);
    /* column sums: sum over pool cards of cnt0, of A, of X, the clean pool cards; the same over K */
    double Cp[5] = {0}, cleanP = (double)pop64(pool & r->clean_mask);
    for (uint64_t h = pool; h; h &= h - 1)
        for (int v = 1; v <= 4; ++v) Cp[v] += cnt0[ctz64(h)][v];
    for (int i = 0; i < nact; ++i) {
        dz_player *P = &act[i];
        int two = !P->in_turn && P->wmax >= 2;
        P->S[0] = dz_class(r, P, cnt0, 0);
        P->S[1] = P->S[2] = 0;
        if (P->u < 1) continue;
        double Ak[5] = {0}, Ck[5] = {0}, Xk = 0, cleanK = (double)pop64(P->K & r->clean_mask);
        for (uint64_t h = P->K; h; h &= h - 1) {
            int k = ctz64(h);
            for (int v = 1; v <= 4; ++v) { Ak[v] += P->A[k][v]; Ck[v] += cnt0[k][v]; }
            Xk += P->X[k];
        }
        double Ap[5] = {0}, Xp = 0, diag = 0;
        for (uint64_t h = pool; h; h &= h - 1) {
            int c = ctz64(h);
            double n = dz_n1(P, c);
            if (two) {            /* sum over k in K of n(k then c) + n(c then k), in O(1) */
                int cl = (int)(r->clean_mask >> c & 1);
                for (int v = 1; v <= 4; ++v) {
                    n += Ak[v] * cnt0[c][v] + P->A[c][v] * Ck[v];
                    Ap[v] += P->A[c][v];
                    diag += (double)P->A[c][v] * cnt0[c][v];
                }
                n += (cl ? Xk : 0) + P->X[c] * cleanK;
                Xp += P->X[c];
                if (cl) diag += P->X[c];
            }
            P->n1[c] = n;
            P->S[1] += n;
        }
        if (two && P->u >= 2) {   /* sum over ordered pairs a != b of the pool of n(a then b) */
            double all = 0;
            for (int v = 1; v <= 4; ++v) all += Ap[v] * Cp[v];
            P->S[2] = all + Xp * cleanP - diag;
        }
    }
    /* (1) the weights of the d vectors: 3^nact of them */
    int ncomb = 1;
    for (int i = 0; i < nact; ++i) ncomb *= 3;
    double wcomb[81], wsum = 0;
    for (int k = 0; k < ncomb; ++k) {
        double w = 1;
        int x = k, tt = 0;
        for (int i = 0; i < nact; ++i, x /= 3) {
            int d = x % 3;
            w *= dz_falling(act[i].u, d) * act[i].S[d];
            tt += d;
        }
        w = tt > m || w == 0 ? 0 : w / dz_falling(m, tt);
        wcomb[k] = w;
        wsum += w;
    }

    for (int tries = 0;; ++tries) {
        double x = dz_unit(&g) * wsum;
        int k = 0;
        while (k < ncomb - 1 && (x >= wcomb[k] || wcomb[k] == 0)) { x -= wcomb[k]; ++k; }
        while (k > 0 && wcomb[k] == 0) --k;              /* rounding at the end of the range */
        uint64_t used = 0, D[CP_MAX_PLAYERS];
        int ok = 1, dv[CP_MAX_PLAYERS];
        int giveup = tries >= DZ_TRIES;
        for (int i = 0, y = k; i < nact; ++i, y /= 3) dv[i] = giveup ? 0 : y % 3;
        /* (2) each D_q by its count */
        for (int i = 0; i < nact && ok; ++i) {
            dz_player *P = &act[i];
            D[i] = 0;
            if (dv[i] == 0) continue;
            double z = dz_unit(&g) * P->S[dv[i]];
            uint64_t pick = 0;
            if (dv[i] == 1) {
                for (uint64_t h = pool; h; h &= h - 1) {
                    double c = P->n1[ctz64(h)];
                    if (c > 0) pick = h & -h;
                    if (z < c) { pick = h & -h; break; }
                    z -= c;
                }
            } else {              /* an ordered pair (a then b) by n(a then b): its class {a, b} by its count */
                int a = -1;
                double na = 0;
                for (uint64_t h = pool; h; h &= h - 1) {
                    int c = ctz64(h), cl = (int)(r->clean_mask >> c & 1);
                    double rowc = P->X[c] * (cleanP - cl);
                    for (int v = 1; v <= 4; ++v) rowc += (double)P->A[c][v] * (Cp[v] - cnt0[c][v]);
                    if (rowc > 0) { a = c; na = rowc; }
                    if (z < rowc) { na = rowc; break; }
                    z -= rowc;
                }
                double y = dz_unit(&g) * na;
                for (uint64_t h = pool & ~BIT(a); h; h &= h - 1) {
                    int b = ctz64(h);
                    double c = dz_n2(r, P, cnt0, a, b);
                    if (c > 0) pick = BIT(a) | BIT(b);
                    if (y < c) { pick = BIT(a) | BIT(b); break; }
                    y -= c;
                }
            }
            D[i] = pick;
            if (D[i] & used) ok = 0;                          /* the relaxation: shared pool cards */
            used |= D[i];
        }
        if (!ok) continue;
        /* (4) the hands: each other player's D and the rest of their places from the pool */
        uint8_t rest[CP_NFABRIC];
        int nr = mask_to_ids(pool & ~used, rest);
        rng_shuffle_u8(&g, rest, nr);
        int next = 0;
        uint64_t hand[CP_MAX_PLAYERS] = {0};
        for (int q = 0; q < n; ++q) {
            if (q == player) continue;
            uint64_t H = t0->hold[q] & t0->known;
            int need = u[q];
            for (int i = 0; i < nact; ++i) if (act[i].q == q) { H |= D[i]; need -= pop64(D[i]); }
            for (int j = 0; j < need; ++j) H |= BIT(rest[next++]);
            hand[q] = H;
        }
        /* (3) the sequences, and the R9 check of a mid-turn raw strip */
        int cards[CP_MAX_PLAYERS][2], codes[CP_MAX_PLAYERS][2], w[CP_MAX_PLAYERS];
        for (int i = 0; i < nact && ok; ++i) {
            dz_player *P = &act[i];
            w[i] = giveup ? 0 : dz_pick_seq(r, P, cnt0, D[i], dz_class(r, P, cnt0, D[i]), &g, cards[i], codes[i]);
            if (P->in_turn && w[i] == 1) {
                int c = cards[i][0], q = codes[i][0];
                if (dz_raw1(r, c, q / 7, q % 7) && !(hand[P->q] & ~BIT(c) & r->clean_mask)) ok = 0;
            }
        }
        if (!ok) continue;
        /* the world */
        cp_state *t = t0;           /* nothing reads the step as it began from here */
        for (int q = 0; q < n; ++q) if (q != player) t->hold[q] = hand[q];
        for (int i = 0; i < nact; ++i) {
            int q = act[i].q;
            for (int j = 0; j < w[i]; ++j) {
                t->hold[q] &= ~BIT(cards[i][j]);
                t->rcard[q][t->rlen[q]++] = (uint8_t)cards[i][j];
                cp_set_place(t, cards[i][j], codes[i][j]);
            }
            t->woven[q] = (uint8_t)w[i];
            cp_replay_row(r, t, q);
        }
        uint8_t deck[CP_NFABRIC];
        int nd = 0;
        for (int j = next; j < nr; ++j) deck[nd++] = rest[j];
        nd += mask_to_ids(unseen & ~pool, deck + nd);
        rng_shuffle_u8(&g, deck, nd);
        memcpy(t->deck, deck, (size_t)nd);
        t->deck_top = 0;
        t->deck_n = (uint8_t)nd;
        t->rng = rng_draw(&g);
        if (t != out) *out = *t;
        return;
    }
}

uint64_t cp_infostate_key(const cp_rules *r, const cp_state *s, int player) {
    (void)r;
    int n = s->players;
    uint64_t h = key_mix(0x243F6A8885A308D3ULL, (uint64_t)player);
    h = key_mix(h, (uint64_t)n | (uint64_t)s->round << 8 | (uint64_t)s->start << 16 | (uint64_t)s->phase << 24
              | (uint64_t)s->to_move << 32 | (uint64_t)s->weave_done << 40);
    h = key_mix(h, s->objectives);
    h = key_mix(h, (uint64_t)(s->deck_n - s->deck_top));
    h = key_mix(h, s->known);
    if (s->phase == CP_PHASE_OFFER) {
        for (int j = 0; j < n; ++j) h = key_mix(h, s->slots[j]);
        int made = s->n_offers + s->open;
        h = key_mix(h, (uint64_t)s->n_offers << 8 | s->open);
        for (int k = 0; k < made; ++k) {
            uint64_t m = offer_cards(s, k);
            h = key_mix(h, (uint64_t)s->offer_slot[k] << 8 | (uint64_t)pop64(m));
            if (cp_offerer(s, k) == player) h = key_mix(h, m);
        }
    }
    for (int q = 0; q < n; ++q) {
        uint64_t wm = cp_woven_mask(s, q);
        int len = s->rlen[q];
        if (q == player) {
            h = key_mix(h, s->hold[q] & ~s->offered);
            h = key_mix(h, s->woven[q]);
        } else {
            h = key_mix(h, (uint64_t)(pop64(s->hold[q] & ~s->offered) + s->woven[q]));
            h = key_mix(h, s->known & (s->hold[q] | wm));
            len -= s->woven[q];                   /* R7: the row as the step began */
        }
        h = key_mix(h, (uint64_t)len);
        for (int i = 0; i < len; ++i) {
            int c = s->rcard[q][i];
            h = key_mix(h, (uint64_t)c << 8 | (uint64_t)(i ? cp_place_of(s, c) : 0));
        }
    }
    return h;
}

/* ---- playouts, perft ---------------------------------------------------------------------------- */

/* ---- consistency ------------------------------------------------------------------------------------ */

#define FAIL(...) do { snprintf(msg, len, __VA_ARGS__); return -1; } while (0)

/* The counts the rules imply for the phase and round (issue 26), each a
 * necessary condition of every state play reaches from a new game, so the
 * check stays closed under play:
 *  - 3 objectives revealed (1.2);
 *  - the deck: 56 - 7n dealt at setup, n announced each round (1.2, 1.3), so
 *    56 - 7n - round * n cards in every phase (round stays 4 once over);
 *  - the dealt hands are black (1.2): outside the deck at most round * n
 *    purple cards (the announced ones);
 *  - a player's cards (hand, offers, and fabric cards in the row) change only
 *    in auctions, by -2 to +3 per slot (R5: a winner gains the announced card
 *    and the loser's 0..3 cards for its own 1..3, or loses its 1..3 to an
 *    empty offer; a loser swaps its 0..3 for the winner's 1..3), 2 slots per
 *    player a round: 7 - 4a to 7 + 6a after a auctions (7 exactly before the
 *    first);
 *  - each weaving turn places 0 to 2 cards (1.3): before this step's weaving
 *    the row holds at most 2 fabric cards per finished weaving step;
 *  - every card that went through an auction is known until woven (R6); the
 *    others in hands are dealt cards, black: a purple card in a hand, an offer
 *    or this step's weaving is known, and nothing is known before the first
 *    auction. */
static int count_check(const cp_rules *r, const cp_state *s, char *msg, size_t len) {
    const int n = s->players, rnd = s->round;
    const int auctions = s->phase == CP_PHASE_OFFER ? rnd - 1 : rnd;      /* auctions resolved so far */
    const int steps = s->phase == CP_PHASE_OVER ? rnd : rnd - 1;          /* weaving steps finished */
    int nobj = pop64(s->objectives);
    if (nobj != CP_REVEALED_OBJECTIVES)
        FAIL("%d objectives are revealed, not %d (1.2)", nobj, CP_REVEALED_OBJECTIVES);
    int deck = s->deck_n - s->deck_top, want = CP_NFABRIC - CP_HAND_SIZE * n - rnd * n;
    if (deck != want)
        FAIL("the deck holds %d cards, but in round %d it holds %d (%d dealt, %d announced per round: 1.2, 1.3)",
             deck, rnd, want, CP_HAND_SIZE * n, n);
    uint64_t out = 0;
    for (int i = s->deck_top; i < s->deck_n; ++i) out |= BIT(s->deck[i]);
    out = r->fabric_mask & ~out;
    int purple = pop64(out & r->purple_mask);
    if (purple > rnd * n)
        FAIL("%d purple cards are out of the deck, but only %d cards have been announced (the dealt hands are black: 1.2)",
             purple, rnd * n);
    for (int q = 0; q < n; ++q) {
        int cards = pop64(s->hold[q]) + s->rlen[q] - 1;
        int lo = CP_HAND_SIZE - 4 * auctions, hi = CP_HAND_SIZE + 6 * auctions;
        if (cards < lo || cards > hi) {
            if (!auctions)
                FAIL("player %d holds %d cards (hand, offers and capulana) before the first auction, not %d (1.2)",
                     q, cards, CP_HAND_SIZE);
            FAIL("player %d holds %d cards (hand, offers and capulana) after %d auctions, not %d to %d (R5: -2 to +3 per slot)",
                 q, cards, auctions, lo < 0 ? 0 : lo, hi);
        }
        int before = s->rlen[q] - 1 - (s->phase == CP_PHASE_WEAVE ? s->woven[q] : 0);
        if (before > 2 * steps)
            FAIL("the capulana of player %d holds %d fabric cards from %d weaving steps, at most %d (2 per step: 1.3)",
                 q, before, steps, 2 * steps);
    }
    if (!auctions && s->known) FAIL("known lists cards before the first auction (R6)");
    uint64_t unknown_purple = 0;
    for (int q = 0; q < n; ++q) {
        uint64_t m = s->hold[q] | (s->phase == CP_PHASE_WEAVE ? cp_woven_mask(s, q) : 0);
        unknown_purple |= m & r->purple_mask & ~s->known;
    }
    if (unknown_purple)
        FAIL("purple card %s is held but not known: every card out of the deck but the dealt (black) ones went "
             "through an auction and is known until woven (R6)", r->card[ctz64(unknown_purple)].name);
    return 0;
}

/* Everything cp_check checks but the counts (cp_check_loose). */
static int check_structure(const cp_rules *r, const cp_state *s, char *msg, size_t len) {
    int n = s->players;
    if (n < CP_MIN_PLAYERS || n > CP_MAX_PLAYERS) FAIL("players must be 2 to 5, not %d", n);
    if (s->round < 1 || s->round > CP_ROUNDS) FAIL("round must be 1 to 4, not %d", s->round);
    if (s->start >= n) FAIL("start_player %d is not a player", s->start);
    if (s->phase > CP_PHASE_OVER) FAIL("bad phase");
    if (s->objectives >> CP_NOBJECTIVES) FAIL("bad objectives");
    /* every fabric card in exactly one place */
    uint64_t seen = 0, initials = 0;
#define PLACE(m, where) do { uint64_t m_ = (m); \
        if (m_ & ~r->fabric_mask) FAIL("a card in %s is not a fabric card", where); \
        if (m_ & seen) FAIL("card %s is in two places (one is %s)", r->card[ctz64(m_ & seen)].name, where); \
        seen |= m_; } while (0)
    for (int q = 0; q < n; ++q) PLACE(s->hold[q], "a hand or offer");
    if (s->deck_top > s->deck_n || s->deck_n > CP_NFABRIC) FAIL("bad deck");
    for (int i = s->deck_top; i < s->deck_n; ++i) {
        if (s->deck[i] >= CP_NFABRIC) FAIL("the deck holds a card that is not a fabric card");
        PLACE(BIT(s->deck[i]), "the deck");
    }
    if (s->phase == CP_PHASE_OFFER)
        for (int j = 0; j < n; ++j) {
            if (s->slots[j] >= CP_NFABRIC) FAIL("slot %d holds no fabric card", j);
            PLACE(BIT(s->slots[j]), "the slots");
        }
    for (int q = 0; q < n; ++q) {
        if (s->rlen[q] < 1 || s->rlen[q] > CP_MAX_ROW) FAIL("the capulana of player %d has %d cards (1 to %d)", q, s->rlen[q], CP_MAX_ROW);
        int c0 = s->rcard[q][0];
        if (c0 < CP_NFABRIC || c0 >= CP_NCARDS) FAIL("the capulana of player %d does not start with an initial card", q);
        if (initials & BIT(c0)) FAIL("initial card %s is in two capulanas", r->card[c0].name);
        initials |= BIT(c0);
        for (int i = 1; i < s->rlen[q]; ++i) {
            if (s->rcard[q][i] >= CP_NFABRIC) FAIL("the capulana of player %d holds a second initial card", q);
            PLACE(BIT(s->rcard[q][i]), "a capulana");
        }
        cp_state t = *s;
        int bad = cp_replay_row(r, &t, q);
        if (bad) FAIL("the capulana of player %d is illegal when replayed at entry %d (R8)", q, bad - 1);
        if (memcmp(&t.row[q], &s->row[q], sizeof t.row[q]) || t.nstrips[q] != s->nstrips[q] || t.v[q] != s->v[q])
            FAIL("the strips of capulana %d do not match its placements", q);
    }
    if (seen != r->fabric_mask) FAIL("card %s is missing", r->card[ctz64(r->fabric_mask & ~seen)].name);
    if (s->second & ~s->offered) FAIL("bad offer masks");
    uint64_t allhold = 0;
    for (int q = 0; q < n; ++q) allhold |= s->hold[q];
    if (s->offered & ~allhold) FAIL("an offered card is in no hand");
    /* capacity for the rest of the game (engine limit, beyond anything play reaches) */
    for (int q = 0; q < n; ++q) {
        int turns = s->phase == CP_PHASE_OFFER ? CP_ROUNDS - s->round + 1
                  : s->phase == CP_PHASE_WEAVE ? CP_ROUNDS - s->round + !(s->weave_done >> q & 1) : 0;
        if (s->rlen[q] + 2 * turns > CP_MAX_ROW || s->nstrips[q] + 8 * turns > CP_MAX_STRIPS)
            FAIL("the capulana of player %d could outgrow this engine (%d cards, %d strips at most)", q, CP_MAX_ROW, CP_MAX_STRIPS);
    }
    int deck = s->deck_n - s->deck_top;
    if (s->phase != CP_PHASE_OVER && deck < n * (CP_ROUNDS - s->round))
        FAIL("the deck (%d cards) is too small for the %d announcements still to come", deck, n * (CP_ROUNDS - s->round));
    uint64_t wov[CP_MAX_PLAYERS];
    for (int q = 0; q < n; ++q) wov[q] = cp_woven_mask(s, q);
    if (s->phase == CP_PHASE_OFFER) {
        if (s->weave_done) FAIL("weave_done must be all false in the offer phase");
        for (int q = 0; q < n; ++q) if (s->woven[q]) FAIL("woven must be all 0 in the offer phase");
        int made = s->n_offers + (s->open ? 1 : 0);
        if (s->open > 1 || s->n_offers >= 2 * n) FAIL("bad offer count");
        uint64_t inoffers = 0;
        uint8_t on[CP_MAX_PLAYERS] = {0};
        for (int k = 0; k < made; ++k) {
            int q = cp_offerer(s, k), j = s->offer_slot[k];
            if (j >= n) FAIL("offer %d is on slot %d, which does not exist", k, j);
            if (on[j] >> q & 1) FAIL("player %d has two offers on slot %d", q, j);
            if (pop64(on[j]) >= 2) FAIL("slot %d holds more than 2 offers", j);
            on[j] |= (uint8_t)(1u << q);
            uint64_t m = offer_cards(s, k);
            inoffers |= m;
            if (pop64(m) > CP_MAX_OFFER_CARDS) FAIL("offer %d holds more than %d cards", k, CP_MAX_OFFER_CARDS);
            if (k < s->n_offers && !m) {                                    /* R4 */
                int held = hand_count(s, q);
                int later = k < n ? 2 * n - 1 - k : -1;                     /* the same player's second offer */
                if (later >= 0 && later < made) held += pop64(offer_cards(s, later));
                if (held > 1) FAIL("offer %d is empty but player %d held %d cards when it started (R4)", k, q, held);
            }
        }
        if (inoffers != s->offered) FAIL("a card lies in an offer that was not made");
        if (!placeable(s, on, made)) FAIL("the offers made leave no way to place the remaining ones (R3)");
        if (s->to_move != cp_offerer(s, s->n_offers)) FAIL("to_move must be player %d, the one due to offer", cp_offerer(s, s->n_offers));
        if (s->known & ~allhold) FAIL("a known card (R6) is not in a hand or an offer");
    } else {
        if (s->offered || s->n_offers || s->open) FAIL("offers outside the offer phase");
        for (int q = 0; q < n; ++q) if (s->woven[q] > 2 || s->woven[q] >= s->rlen[q]) FAIL("woven[%d] is out of range", q);
        uint64_t holders = 0;
        for (int q = 0; q < n; ++q) holders |= s->hold[q] | wov[q];
        if (s->known & ~holders) FAIL("a known card (R6) is not in a hand or woven in this step");
        if (s->phase == CP_PHASE_OVER) {
            if (s->to_move != CP_NONE) FAIL("to_move must be null once the game is over");
            if (s->weave_done != (1u << n) - 1) FAIL("weave_done must be all true once the game is over");
            for (int q = 0; q < n; ++q) if (s->woven[q]) FAIL("woven must be all 0 once the game is over");
        } else {
            if (s->weave_done >> n) FAIL("bad weave_done");
            int due = -1;
            for (int i = 0; i < n; ++i) {
                int q = (s->start + i) % n;
                int done = s->weave_done >> q & 1;
                if (due < 0 && !done) due = q;
                else if (due >= 0 && done) FAIL("player %d finished weaving before player %d (R7: seat order from the start player)", q, due);
                if (!done && q != due && s->woven[q]) FAIL("player %d has woven before their turn", q);
                if (!done && s->woven[q] >= 2) FAIL("player %d wove 2 cards but has not finished", q);
            }
            if (due < 0) FAIL("every player has finished weaving but the step has not ended");
            if (s->to_move != due) FAIL("to_move must be player %d, the one due to weave", due);
        }
    }
    for (int q = 0; q < n; ++q)
        if (raw_of(&s->row[q], s->nstrips[q])) {
            if (!(s->phase == CP_PHASE_WEAVE && q == s->to_move && s->woven[q] == 1))
                FAIL("a raw strip shows in the capulana of player %d outside their weaving turn (R9)", q);
            if (raw_of(&s->row[q], s->nstrips[q]) >> s->v[q])
                FAIL("a raw strip shows in the capulana of player %d before its last card (R9)", q);
        }
    for (int q = 0; q < n; ++q)
        if (s->woven[q]) {             /* R9 held when the weaving step began (views and determinize undo it) */
            cp_state t = *s;
            t.rlen[q] = (uint8_t)(t.rlen[q] - t.woven[q]);
            if (cp_replay_row(r, &t, q) == 0 && raw_of(&t.row[q], t.nstrips[q]))
                FAIL("a raw strip showed in the capulana of player %d when this weaving step began (R9)", q);
        }
    if (!cp_is_terminal(s)) {
        int buf[CP_MAX_ACTIONS];
        if (cp_legal_actions(r, s, buf) == 0) FAIL("player %d, to move, has no legal action", s->to_move);
    }
    return 0;
#undef PLACE
}

int cp_check(const cp_rules *r, const cp_state *s, char *msg, size_t len) {
    if (check_structure(r, s, msg, len)) return -1;
    return count_check(r, s, msg, len);
}

int cp_check_loose(const cp_rules *r, const cp_state *s, char *msg, size_t len) {
    return check_structure(r, s, msg, len);
}
