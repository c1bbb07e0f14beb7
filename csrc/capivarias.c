/* capivarias.c - Capivárias rules (RULES.md part 2, docs/engine-notes.md). */
#include "capivarias.h"
#include "rng.h"
#include <string.h>
#include <stdio.h>

#define BIT(c) (1u << (c))

static inline int popcount32(uint32_t x) {   /* SWAR: no libgcc call without -mpopcnt */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int ctz32(uint32_t x) { return tb_ctz32(x); }

/* R25: does a beat b (same herd)? The lower number loses, but 1 beats 5. */
static int beats_by_number(int na, int nb) {
    if (na == 1 && nb == 5) return 1;
    if (na == 5 && nb == 1) return 0;
    return na > nb;
}

int cv_rules_init(cv_rules *r, const cv_card_def *defs, int n) {
    memset(r, 0, sizeof *r);
    if (n < 1 || n > CV_MAX_CARDS) return -1;
    r->ncards = n;
    r->num_actions = 4 * n * (n + 1);
    for (int h = 0; h < CV_NUM_HERDS; ++h) r->capitico_of[h] = CV_NONE;
    for (int c = 0; c < n; ++c) {
        cv_card_def d = defs[c];
        d.name[CV_NAME_LEN - 1] = 0;
        r->card[c] = d;
        if (d.kind > CV_KIND_CAPISSOR) return -1;
        r->all_mask |= BIT(c);
        if (!d.expansion) r->base_mask |= BIT(c);
        switch (d.kind) {
        case CV_KIND_HERD:
            if (d.herd >= CV_HERD_CAPIOLIN) return -1;
            r->herd_mask[d.herd] |= BIT(c);
            r->capybara_mask |= BIT(c);
            break;
        case CV_KIND_CAPIOLIN:
            r->card[c].herd = CV_HERD_CAPIOLIN;
            r->herd_mask[CV_HERD_CAPIOLIN] |= BIT(c);
            r->capybara_mask |= BIT(c);
            r->capiolin_mask |= BIT(c);
            break;
        case CV_KIND_CAPITICO:
            if (d.herd >= CV_HERD_CAPIOLIN || r->capitico_of[d.herd] != CV_NONE) return -1;
            r->capitico_of[d.herd] = (uint8_t)c;
            r->capitico_mask |= BIT(c);
            break;
        default:
            r->card[c].herd = CV_NONE;
            break;
        }
    }
    for (int c = 0; c < n; ++c) {
        r->kind_of[c] = r->card[c].kind;
        r->herd_of[c] = r->card[c].herd;
        r->number_of[c] = r->card[c].number;
        r->modifier_of[c] = r->card[c].modifier;
    }
    for (int c = 0; c < n; ++c)                 /* r->beats and r->number_sum were zeroed above */
        for (int d = 0; d < n; ++d)
            if (beats_by_number(r->number_of[c], r->number_of[d])) r->beats[c] |= BIT(d);
    for (uint32_t m = r->capybara_mask; m; m &= m - 1) {
        const int c = ctz32(m);
        for (int b = 0; b < 256; ++b)
            if (b >> (c & 7) & 1) r->number_sum[c >> 3][b] = (int16_t)(r->number_sum[c >> 3][b] + r->number_of[c]);
    }
    for (int c = 0; c < n; ++c) {
        r->same_modifier[c] = 0;
        for (int d = 0; d < n; ++d)
            if (r->card[d].modifier == r->card[c].modifier) r->same_modifier[c] |= BIT(d);
    }
    for (int a = 0; a < r->num_actions; ++a) {   /* divisions once, not per apply */
        int t = a % (n + 1), seg = a / (n + 1) % 4, card = a / (n + 1) / 4;
        r->decode[a] = (uint16_t)(card | seg << 5 | t << 7);
    }
    return 0;
}

uint32_t cv_game_mask(const cv_rules *r, const cv_state *s) {
    return s->expansion ? r->all_mask : r->base_mask;
}

int cv_encode(const cv_rules *r, int card, int seg, int target) {
    return ((card * 4) + seg) * (r->ncards + 1) + target;
}

int cv_decode(const cv_rules *r, int action, int *card, int *seg, int *target) {
    if (action < 0 || action >= r->num_actions) return -1;
    unsigned d = r->decode[action];
    *card = (int)(d & 31);
    *seg = (int)(d >> 5 & 3);
    *target = (int)(d >> 7);
    return 0;
}

/* R20: shuffle every card of the game; 3 river cards, 4 available, rest pile. */
static void setup_round(const cv_rules *r, cv_state *s) {
    uint8_t cards[CV_MAX_CARDS] = {0};
    int n = 0;
    uint32_t m = cv_game_mask(r, s);
    while (m) { cards[n++] = (uint8_t)ctz32(m); m &= m - 1; }
    rng_shuffle_u8(&s->rng, cards, n);
    memset(s->side, 0, sizeof s->side);
    s->discard = 0;
    for (int i = 0; i < CV_SEGMENTS; ++i) { s->river[i] = cards[i]; s->capionca[i] = CV_NONE; }
    s->n_avail = 0;
    for (int i = 3; i < 7 && i < n; ++i) s->avail[s->n_avail++] = cards[i];
    s->pile_top = 0;
    s->n_pile = 0;
    for (int i = 7; i < n; ++i) s->pile[s->n_pile++] = cards[i];
}

void cv_new_game(const cv_rules *r, cv_state *s, uint64_t seed, int expansion, int first_player) {
    memset(s, 0, sizeof *s);
    s->rng = seed;
    s->expansion = (uint8_t)(expansion ? 1 : 0);
    s->round = 1;
    s->to_move = (uint8_t)(first_player & 1);
    s->last_taker = CV_NONE;
    s->winner = CV_NONE;
    setup_round(r, s);
}

/* ---- river queries ---------------------------------------------------- */

static inline uint32_t seg_cards(const cv_state *s, int i) { return s->side[i][0] | s->side[i][1]; }

/* Find the segment and side of a card lying in the river; returns 0 or -1. */
static int locate(const cv_state *s, int c, int *seg, int *side) {
    for (int i = 0; i < CV_SEGMENTS; ++i)
        for (int k = 0; k < 2; ++k)
            if (s->side[i][k] & BIT(c)) { *seg = i; *side = k; return 0; }
    return -1;
}

/* Mask of capybara c plus its capitico if it guards one (R22). */
static inline uint32_t with_capitico(const cv_rules *r, const cv_state *s, int c, int i, int k) {
    int h = r->herd_of[c];
    if (h < CV_HERD_CAPIOLIN) {
        int K = r->capitico_of[h];
        if (K != CV_NONE && (s->side[i][k] & BIT(K))) return BIT(c) | BIT(K);
    }
    return BIT(c);
}

/* R25: does capybara a beat b (same herd)? From the rules' table (beats_by_number):
 * no branch on the numbers in the search's loops. */
static inline int beats(const cv_rules *r, int a, int b) { return (int)(r->beats[a] >> b & 1); }

static void enter(const cv_rules *r, cv_state *s, int c, uint32_t m, int i, int k);

/* Push capybara c lying in segment i; m = exactly the cards that move with it
 * (c, plus the capitico it guards or takes along under R25). R26: a
 * non-capiolin leaving a segment where a capiolin stands on its side
 * switches side. */
static void push(const cv_rules *r, cv_state *s, int c, uint32_t m, int i) {
    int k = (s->side[i][0] & BIT(c)) ? 0 : 1;
    s->side[i][k] &= ~m;
    if (!(r->capiolin_mask & BIT(c)) && (s->side[i][k] & r->capiolin_mask)) k ^= 1; /* R26 */
    enter(r, s, c, m, i + 1, k);
}

/* Capybara c (m = c plus its capitico, if any) enters segment i on side k.
 * R25: compared with the other capybara of its herd there. Guardianship is
 * read before c is placed, while each segment side holds at most one
 * capybara of the herd. */
static void enter(const cv_rules *r, cv_state *s, int c, uint32_t m, int i, int k) {
    if (i >= CV_SEGMENTS) { s->discard |= m; return; }          /* off the end */
    uint32_t same = seg_cards(s, i) & r->herd_mask[r->herd_of[c]];
    if (!same) { s->side[i][k] |= m; return; }
    int b = ctz32(same);
    int kb = (s->side[i][0] & BIT(b)) ? 0 : 1;
    uint32_t mb = with_capitico(r, s, b, i, kb);
    s->side[i][k] |= m;
    int c_wins = beats(r, c, b);
    int loser = c_wins ? b : c, winner = c_wins ? c : b;
    uint32_t ml = c_wins ? mb : m, mw = c_wins ? m : mb;
    if (ml == BIT(loser)) {
        push(r, s, loser, ml, i);
    } else {
        /* R25: the guardian stays; the winner is pushed and takes the capitico. */
        uint32_t K = ml & ~BIT(loser);
        int kl = (s->side[i][0] & BIT(loser)) ? 0 : 1;
        s->side[i][kl] &= ~K;
        push(r, s, winner, mw | K, i);
    }
}

/* ---- legal actions ----------------------------------------------------- */

/* Guardians in the river: the capybara sharing a side with its capitico. */
static inline uint32_t guardian_mask(const cv_rules *r, const cv_state *s, uint32_t in_river) {
    uint32_t g = 0, kk = in_river & r->capitico_mask;
    while (kk) {
        int K = ctz32(kk); kk &= kk - 1;
        for (int i = 0; i < CV_SEGMENTS; ++i)
            for (int k = 0; k < 2; ++k)
                if (s->side[i][k] & BIT(K)) g |= s->side[i][k] & r->herd_mask[r->herd_of[K]];
    }
    return g;
}

static inline uint32_t avail_mask(const cv_state *s) {
    /* the unused entries of avail[] are ignored: at most 4 cards */
    uint32_t m = 0;
    switch (s->n_avail) {
    case 4: m |= BIT(s->avail[3]); /* fall through */
    case 3: m |= BIT(s->avail[2]); /* fall through */
    case 2: m |= BIT(s->avail[1]); /* fall through */
    case 1: m |= BIT(s->avail[0]); /* fall through */
    default: break;
    }
    return m;
}

int cv_legal_actions(const cv_rules *r, const cv_state *s, int *buf) {
    if (cv_is_terminal(s)) return 0;
    const int C = r->ncards, C1 = C + 1, me = s->to_move;
    const uint32_t seg[CV_SEGMENTS] = {s->side[0][0] | s->side[0][1], s->side[1][0] | s->side[1][1],
                                       s->side[2][0] | s->side[2][1]};
    const uint32_t in_river = seg[0] | seg[1] | seg[2];
    uint32_t guards = 0;
    int guards_known = !(in_river & r->capitico_mask);   /* computed when a push needs them */
    int n = 0;
    uint32_t m = avail_mask(s);      /* ascending card index = ascending ids */
    while (m) {
        int c = ctz32(m); m &= m - 1;
        const int base = c * 4 * C1, start = n;
        switch (r->kind_of[c]) {
        case CV_KIND_HERD:
            buf[n++] = base + C;
            break;
        case CV_KIND_CAPIOLIN:
            for (int i = 0; i < CV_SEGMENTS; ++i)
                if (!s->side[i][me]) { buf[n++] = base + i * C1 + C; break; }
            break;
        case CV_KIND_SWITCH_ALL:
            for (int i = 0; i < CV_SEGMENTS; ++i)
                if (s->capionca[i] == CV_NONE) buf[n++] = base + i * C1 + C;
            break;
        case CV_KIND_PUSH:
        case CV_KIND_SWITCH_ONE: {
            /* R21: capybaras of either side; R27: a push never targets a guardian */
            uint32_t exclude = 0;
            if (r->kind_of[c] == CV_KIND_PUSH) {
                if (!guards_known) { guards = guardian_mask(r, s, in_river); guards_known = 1; }
                exclude = guards;
            }
            for (int i = 0; i < CV_SEGMENTS; ++i) {
                if (s->capionca[i] != CV_NONE) continue;
                uint32_t t = seg[i] & r->capybara_mask & ~exclude;
                int b = base + i * C1;
                if (!t) buf[n++] = b + C;
                while (t) { buf[n++] = b + ctz32(t); t &= t - 1; }
            }
            break;
        }
        case CV_KIND_CAPITICO: {                                   /* R22 */
            uint32_t t = in_river & r->herd_mask[r->herd_of[c]];
            while (t) { buf[n++] = base + 3 * C1 + ctz32(t); t &= t - 1; }
            break;
        }
        case CV_KIND_CAPISSOR: {                                   /* R23 */
            uint32_t t = in_river & r->capitico_mask;
            while (t) { buf[n++] = base + 3 * C1 + ctz32(t); t &= t - 1; }
            break;
        }
        }
        if (n == start) buf[n++] = base + 3 * C1 + C;               /* R24 */
    }
    return n;
}

/* ---- apply --------------------------------------------------------------- */

void cv_scores(const cv_rules *r, const cv_state *s, int out[2]) {
    for (int k = 0; k < 2; ++k) {
        /* R28: each capybara's number plus its segment's river modifier; the
         * numbers summed a byte of cards at a time over the whole side (the
         * segments hold different cards), the modifiers counted per segment */
        const uint32_t all = (s->side[0][k] | s->side[1][k] | s->side[2][k]) & r->capybara_mask;
        int total = r->number_sum[0][all & 255] + r->number_sum[1][all >> 8 & 255] + r->number_sum[2][all >> 16 & 255] +
                    r->number_sum[3][all >> 24];
        for (int i = 0; i < CV_SEGMENTS; ++i) {
            const uint32_t sd = s->side[i][k];
            total += r->modifier_of[s->river[i]] * popcount32(sd & r->capybara_mask);
            /* a guardian (R22: the capybara on its capitico's side; a segment
             * holds at most one capybara of a herd) scores one more */
            for (uint32_t kk = sd & r->capitico_mask; kk; kk &= kk - 1)
                total += (sd & r->herd_mask[r->herd_of[ctz32(kk)]]) != 0;
        }
        out[k] = total;
    }
}

void cv_segment_scores(const cv_rules *r, const cv_state *s, int player, int score[CV_SEGMENTS],
                       int capybaras[CV_SEGMENTS]) {
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        const uint32_t sd = s->side[i][player], cap = sd & r->capybara_mask;
        const int n = popcount32(cap);
        int total = r->number_sum[0][cap & 255] + r->number_sum[1][cap >> 8 & 255] + r->number_sum[2][cap >> 16 & 255] +
                    r->number_sum[3][cap >> 24] + r->modifier_of[s->river[i]] * n;
        for (uint32_t kk = sd & r->capitico_mask; kk; kk &= kk - 1)   /* a guardian scores one more (R22, R28) */
            total += (sd & r->herd_mask[r->herd_of[ctz32(kk)]]) != 0;
        score[i] = total;
        capybaras[i] = n;
    }
}

void cv_returns(const cv_state *s, double out[2]) {
    out[0] = out[1] = 0.0;
    if (cv_is_terminal(s) && s->winner != CV_NONE) {
        out[s->winner] = 1.0;
        out[1 - s->winner] = -1.0;
    }
}

int cv_settle_round(cv_state *s, int round_winner) {
    const int sudden = s->wins[0] >= 2 && s->wins[1] >= 2;
    if (round_winner < 0) { s->wins[0]++; s->wins[1]++; }
    else s->wins[round_winner]++;
    int game_winner = -1;
    if (sudden) { if (round_winner >= 0) game_winner = round_winner; }         /* R29 */
    else if ((s->wins[0] >= 2) != (s->wins[1] >= 2)) game_winner = s->wins[0] >= 2 ? 0 : 1;
    if (game_winner < 0 && s->round < CV_MAX_ROUNDS) return 0;                /* R30 */
    s->to_move = CV_NONE;
    s->winner = game_winner >= 0 ? (uint8_t)game_winner : CV_NONE;
    return 1;
}

/* R28-R30: score the round (into sc), then end the game or set up the next
 * round (dealt only when deal is set). */
static void end_round(const cv_rules *r, cv_state *s, int mover, cv_state *snapshot, int sc[2], int deal) {
    if (snapshot) *snapshot = *s;
    cv_scores(r, s, sc);
    if (cv_settle_round(s, sc[0] > sc[1] ? 0 : sc[1] > sc[0] ? 1 : -1)) return;
    s->round++;
    s->last_taker = (uint8_t)mover;
    s->to_move = (uint8_t)mover;
    if (deal) setup_round(r, s);
    else s->n_avail = 0;   /* not dealt: nothing to play from here (cv_apply_scored) */
}

/* Take card c out of the available row, keeping the order of the others
 * (a legal action's card is in avail[0..n_avail)). The row as one word: the
 * first byte equal to c found without a branch, the bytes above it moved
 * down one; what lies past n_avail is not read by anything. */
static inline void take_avail(cv_state *s, int c) {
    const uint32_t w = (uint32_t)s->avail[0] | (uint32_t)s->avail[1] << 8 | (uint32_t)s->avail[2] << 16 |
                       (uint32_t)s->avail[3] << 24;
    const uint32_t x = w ^ (0x01010101u * (uint32_t)(uint8_t)c);
    const uint32_t z = (x - 0x01010101u) & ~x & 0x80808080u;   /* exact at its lowest set byte */
    const int j = z ? ctz32(z) >> 3 : 4;
    if (j < s->n_avail) {
        const uint32_t low = (1u << (8 * j)) - 1u, v = (w & low) | ((w >> 8) & ~low);
        s->avail[0] = (uint8_t)v; s->avail[1] = (uint8_t)(v >> 8);
        s->avail[2] = (uint8_t)(v >> 16); s->avail[3] = (uint8_t)(v >> 24);
    }
    s->n_avail--;
}

/* Apply action; at a round's end, snapshot (if any) gets the river as scored,
 * sc the scores, and the next round is dealt when deal is set. Returns 1 when
 * the round ended. */
static int apply_impl(const cv_rules *r, cv_state *s, int action, cv_state *snapshot, int sc[2], int deal) {
    int c = 0, seg = 0, t = 0;
    cv_decode(r, action, &c, &seg, &t);
    const int C = r->ncards, me = s->to_move;
    take_avail(s, c);

    const cv_card_def *d = &r->card[c];
    if (seg == 3 && t == C) {                                  /* R24 discard */
        s->discard |= BIT(c);
    } else switch (d->kind) {
    case CV_KIND_HERD:
        enter(r, s, c, BIT(c), 0, me);
        break;
    case CV_KIND_CAPIOLIN:
        enter(r, s, c, BIT(c), seg, me);
        break;
    case CV_KIND_PUSH:                                         /* R21, R27 */
        s->capionca[seg] = (uint8_t)c;
        if (t != C) push(r, s, t, BIT(t), seg);   /* never a guardian (R27) */
        break;
    case CV_KIND_SWITCH_ONE:
        s->capionca[seg] = (uint8_t)c;
        if (t != C) {
            int k = (s->side[seg][0] & BIT(t)) ? 0 : 1;
            uint32_t m = with_capitico(r, s, t, seg, k);
            s->side[seg][k] &= ~m;
            s->side[seg][k ^ 1] |= m;
        }
        break;
    case CV_KIND_SWITCH_ALL: {
        s->capionca[seg] = (uint8_t)c;
        uint32_t a = s->side[seg][0];
        s->side[seg][0] = s->side[seg][1];
        s->side[seg][1] = a;
        break;
    }
    case CV_KIND_CAPITICO: {                                   /* R22 */
        int i = 0, k = 0;
        locate(s, t, &i, &k);
        s->side[i][k] &= ~BIT(t);
        s->side[i][me] |= BIT(t) | BIT(c);
        break;
    }
    case CV_KIND_CAPISSOR: {                                   /* R23 */
        int i = 0, k = 0;
        locate(s, t, &i, &k);
        s->discard |= BIT(c);
        if (i != 0) {
            uint32_t g = s->side[i][k] & r->herd_mask[r->herd_of[t]];
            int gc = ctz32(g);
            uint32_t m = BIT(gc) | BIT(t);
            s->side[i][k] &= ~m;
            enter(r, s, gc, m, 0, k);
        }
        break;
    }
    }

    if (s->n_avail == 1)
        while (s->n_avail < 4 && s->pile_top < s->n_pile) s->avail[s->n_avail++] = s->pile[s->pile_top++];
    if (s->n_avail == 1 && s->pile_top == s->n_pile) { end_round(r, s, me, snapshot, sc, deal); return 1; }
    s->to_move = (uint8_t)(me ^ 1);
    return 0;
}

void cv_apply(const cv_rules *r, cv_state *s, int action) {
    int sc[2];
    apply_impl(r, s, action, NULL, sc, 1);
}

int cv_apply_round_end(const cv_rules *r, cv_state *s, int action, cv_state *river) {
    int sc[2];
    return apply_impl(r, s, action, river, sc, 1);
}

int cv_apply_scored(const cv_rules *r, cv_state *s, int action, int sc[2]) {
    return apply_impl(r, s, action, NULL, sc, 0);   /* sc is written only when the round ends */
}

int cv_apply_checked(const cv_rules *r, cv_state *s, int action) {
    int buf[CV_MAX_ACTIONS];
    int n = cv_legal_actions(r, s, buf);
    for (int i = 0; i < n; ++i)
        if (buf[i] == action) { cv_apply(r, s, action); return 0; }
    return -1;
}

/* ---- notation ------------------------------------------------------------ */

int cv_action_to_string(const cv_rules *r, int action, char *buf, size_t n) {
    int c, seg, t;
    if (cv_decode(r, action, &c, &seg, &t) < 0 || c >= r->ncards) return -1;
    const int C = r->ncards;
    const cv_card_def *d = &r->card[c];
    const char *tn = t < C ? r->card[t].name : "";
    /* one string per id (legal or not), the same as tabuleiro.capivarias.Move's str() */
    if (seg == 3 && t == C) return snprintf(buf, n, "discard %s", d->name);
    if (t == C && ((d->kind == CV_KIND_HERD && seg == 0) || d->kind == CV_KIND_CAPIOLIN))
        return snprintf(buf, n, "%s", d->name);
    if (seg == 3) return snprintf(buf, n, "%s/%s", d->name, tn);
    if (t == C) return snprintf(buf, n, "%s@%d", d->name, seg);
    return snprintf(buf, n, "%s@%d/%s", d->name, seg, tn);
}

/* ---- hidden information ---------------------------------------------------- */

void cv_determinize(const cv_rules *r, const cv_state *s, int player, uint64_t seed, cv_state *out) {
    (void)player;  /* both players see the same things in Capivárias (R20) */
    if (out != s) *out = *s;
    if (cv_is_terminal(s)) return;
    uint64_t g = seed;
    /* the unseen cards (the three river cards and the whole pile), in card
     * order: the result depends only on what the player sees and the seed */
    uint32_t seen = s->discard;
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        seen |= s->side[i][0] | s->side[i][1];
        if (s->capionca[i] != CV_NONE) seen |= BIT(s->capionca[i]);
    }
    for (int i = 0; i < s->n_avail; ++i) seen |= BIT(s->avail[i]);
    uint32_t unseen = cv_game_mask(r, s) & ~seen;
    /* positions whose modifier is public: river 0..2, then the pile top;
     * each takes a uniform card among the unseen ones with its modifier */
    const int has_top = s->pile_top < s->n_pile;
    for (int p = 0; p < CV_SEGMENTS + has_top; ++p) {
        uint32_t cand = unseen & r->same_modifier[p < CV_SEGMENTS ? s->river[p] : s->pile[s->pile_top]];
        for (int k = (int)rng_below(&g, (uint32_t)popcount32(cand)); k > 0; --k) cand &= cand - 1;
        int c = ctz32(cand);
        unseen &= ~BIT(c);
        if (p < CV_SEGMENTS) out->river[p] = (uint8_t)c;
        else out->pile[s->pile_top] = (uint8_t)c;
    }
    /* the rest of the pile: the remaining unseen cards, shuffled */
    uint8_t pool[CV_MAX_CARDS];
    int np = 0;
    for (uint32_t m = unseen; m; m &= m - 1) pool[np++] = (uint8_t)ctz32(m);
    rng_shuffle_u8(&g, pool, np);
    for (int i = 0; i < np; ++i) out->pile[s->pile_top + has_top + i] = pool[i];
    out->rng = rng_draw(&g);  /* future reshuffles are unknown too */
}

uint64_t cv_infostate_key(const cv_rules *r, const cv_state *s, int player) {
    /* R20: everything but the river cards' identities and the pile below its top */
    uint64_t h = key_mix(0x6361706976617269ULL, (uint64_t)player);
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        h = key_mix(h, s->side[i][0] | (uint64_t)s->side[i][1] << 32);
        h = key_mix(h, (uint64_t)(uint8_t)r->modifier_of[s->river[i]] << 8 | s->capionca[i]);
    }
    uint64_t av = s->n_avail;
    for (int i = 0; i < s->n_avail; ++i) av = av << 8 | s->avail[i];
    int np = s->n_pile - s->pile_top;
    uint64_t top = np ? (uint8_t)r->card[s->pile[s->pile_top]].modifier : 0xFF;
    h = key_mix(h, av);
    h = key_mix(h, s->discard | (uint64_t)np << 32 | top << 40);
    h = key_mix(h, (uint64_t)s->round | (uint64_t)s->wins[0] << 8 | (uint64_t)s->wins[1] << 16 |
                 (uint64_t)s->to_move << 24 | (uint64_t)s->last_taker << 32 | (uint64_t)s->expansion << 40);
    return h;
}

/* ---- playouts, perft ------------------------------------------------------- */

/* ---- consistency ----------------------------------------------------------- */

#define FAIL(...) do { snprintf(msg, n, __VA_ARGS__); return -1; } while (0)

/* The counts the rules imply for the round (issue 26), each a necessary
 * condition of every state play reaches from a new game (the check stays
 * closed under play). A round deals 3 river cards and 4 available from the
 * whole game's cards (2.2); each turn takes one available card, and when 1 is
 * left the pile refills the row to 4 or until it is empty (2.3), so the cards
 * taken this round, t = cards - 3 - available - pile, fix how many are
 * available (4 - t mod 3 while the pile lasts); the round ends with 1
 * available and the pile empty, and the game's last round stays so (a
 * finished game). Turns alternate from the round's starter, who from round 2
 * on is last_taker (2.2): to_move = last_taker when t is even (round 1's
 * starter is the game's first_player parameter, which a state does not hold).
 * Each finished round gives one win to its winner or one to each player on a
 * tie (2.6), and the game ends as soon as exactly one player has 2 (R29), so
 * an unfinished game has both below 2 or (sudden death, entered only from a
 * tie at 1-1) both equal; a won game ends 2 to 0 or 1, or one ahead after
 * sudden death; an R30 draw ends equal. */
static int count_check(const cv_rules *r, const cv_state *s, char *msg, size_t n) {
    const int cards = popcount32(cv_game_mask(r, s));
    const int avail = s->n_avail, pile = s->n_pile - s->pile_top, taken = cards - 3 - avail - pile;
    const int over = cv_is_terminal(s);
    if (over) {
        if (avail != 1 || pile != 0)
            FAIL("the game is over, so its last round ended with 1 available card and an empty pile (2.3), not %d and %d",
                 avail, pile);
    } else {
        int a = 4, p = cards - 7;                                  /* the schedule of 2.3 */
        for (int t = 0; t < taken && p >= 0; ++t) {
            if (--a == 1 && p > 0) { int k = p < 3 ? p : 3; a += k; p -= k; }
        }
        if (taken < 0 || p < 0 || a != avail || p != pile)
            FAIL("%d cards are taken this round (of %d: 3 river cards, the available row and the pile hold the rest), so %d "
                 "must be available and %d in the pile (2.3), not %d and %d", taken < 0 ? 0 : taken, cards,
                 a, p < 0 ? 0 : p, avail, pile);
        if (s->round > 1 && s->last_taker <= 1 && s->to_move != (s->last_taker ^ (taken & 1)))
            FAIL("round %d was started by player %d (last_taker) and %d cards are taken, so player %d is to move, not %d (2.2)",
                 s->round, s->last_taker, taken, s->last_taker ^ (taken & 1), s->to_move);
    }
    const int finished = s->round - (over ? 0 : 1), w0 = s->wins[0], w1 = s->wins[1];
    if (w0 + w1 < finished)
        FAIL("round_wins [%d, %d] count fewer wins than the %d rounds finished (each gives at least one: 2.6)", w0, w1, finished);
    if (!over) {
        if ((w0 >= 2) != (w1 >= 2))
            FAIL("round_wins [%d, %d]: the game would be over, one player having 2 wins (R29)", w0, w1);
        if (w0 >= 2 && w0 != w1)
            FAIL("round_wins [%d, %d]: sudden death starts at a 2-2 tie and only tied rounds continue it (R29)", w0, w1);
    } else if (s->winner <= 1) {
        int w = s->wins[s->winner], l = s->wins[1 - s->winner];
        if (!((w == 2 && l <= 1) || (l >= 2 && w == l + 1)))
            FAIL("round_wins [%d, %d] cannot end a game won by player %d: it ends 2 to 0 or 1, or one win ahead "
                 "after sudden death (R29)", w0, w1, s->winner);
    } else if (w0 != w1) {
        FAIL("round_wins [%d, %d] cannot end in a draw: only a sudden death of tied rounds lasts to round 9 (R30)", w0, w1);
    }
    return 0;
}

/* Everything cv_check checks but the counts (cv_check_loose). */
static int check_structure(const cv_rules *r, const cv_state *s, char *msg, size_t n) {
    uint32_t game = cv_game_mask(r, s), seen = 0;
#define PLACE(c, where) do { \
        if ((c) >= r->ncards || !(game & BIT(c))) FAIL("card %d in %s is not in this game", (int)(c), where); \
        if (seen & BIT(c)) FAIL("card %s is in two places", r->card[c].name); \
        seen |= BIT(c); } while (0)
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        PLACE(s->river[i], "river");
        if (s->capionca[i] != CV_NONE) {
            PLACE(s->capionca[i], "capionca");
            int k = r->card[s->capionca[i]].kind;
            if (k != CV_KIND_PUSH && k != CV_KIND_SWITCH_ONE && k != CV_KIND_SWITCH_ALL)
                FAIL("segment %d: %s is not a capionça", i, r->card[s->capionca[i]].name);
        }
        if (s->side[i][0] & s->side[i][1]) FAIL("segment %d: a card lies on both sides", i);
        for (int k = 0; k < 2; ++k) {
            uint32_t m = s->side[i][k];
            if (m & ~game) FAIL("segment %d: a side holds a card not in this game", i);
            if (m & ~(r->capybara_mask | r->capitico_mask)) FAIL("segment %d: a side holds a card that cannot lie there", i);
            if (m & seen) FAIL("segment %d: a card is in two places", i);
            seen |= m;
            uint32_t kk = m & r->capitico_mask;
            while (kk) {
                int K = ctz32(kk); kk &= kk - 1;
                if (!(m & r->herd_mask[r->herd_of[K]])) FAIL("segment %d: capitico %s has no guardian on its side", i, r->card[K].name);
            }
        }
        for (int h = 0; h < CV_NUM_HERDS; ++h)
            if (popcount32(seg_cards(s, i) & r->herd_mask[h]) > 1) FAIL("segment %d holds two capybaras of one herd", i);
    }
    if (s->n_avail > 4) FAIL("more than 4 available cards");
    for (int i = 0; i < s->n_avail; ++i) PLACE(s->avail[i], "available");
    if (s->pile_top > s->n_pile || s->n_pile > CV_MAX_CARDS) FAIL("bad pile");
    for (int i = s->pile_top; i < s->n_pile; ++i) PLACE(s->pile[i], "pile");
    if (s->discard & seen) FAIL("a discarded card is in two places");
    if (s->discard & ~game) FAIL("a discarded card is not in this game");
    seen |= s->discard;
    if (seen != game) FAIL("%d cards of the game are missing", popcount32(game & ~seen));
    if (s->round < 1 || s->round > CV_MAX_ROUNDS) FAIL("round %d is not in 1..9", s->round);
    if ((s->round == 1) != (s->last_taker == CV_NONE)) FAIL("last_taker must be null in round 1 and only there");
    if (s->last_taker != CV_NONE && s->last_taker > 1) FAIL("last_taker must be 0, 1 or null");
    if (s->winner != CV_NONE && s->winner > 1) FAIL("winner must be 0, 1 or null");
    if (cv_is_terminal(s) && s->winner == CV_NONE && s->round != CV_MAX_ROUNDS)
        FAIL("the game is over without a winner, which only an R30 draw after round 9 allows");
    /* one win per player per finished round: closed under play (capivarias_game.c) */
    for (int k = 0; k < 2; ++k)
        if (s->wins[k] > s->round - (cv_is_terminal(s) ? 0 : 1)) FAIL("round_wins[%d] is more than the rounds finished", k);
    if (!cv_is_terminal(s)) {
        if (s->to_move > 1) FAIL("to_move must be 0, 1 or null");
        if (s->winner != CV_NONE) FAIL("a winner is set but the game is not over");
        if (s->n_avail < 2) FAIL("an unfinished round needs 2 to 4 available cards");
    }
    return 0;
#undef PLACE
}

int cv_check(const cv_rules *r, const cv_state *s, char *msg, size_t n) {
    if (check_structure(r, s, msg, n)) return -1;
    return count_check(r, s, msg, n);
}

int cv_check_loose(const cv_rules *r, const cv_state *s, char *msg, size_t n) {
    return check_structure(r, s, msg, n);
}
