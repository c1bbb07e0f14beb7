/* toy.c - Toy on the game contract (game.h): rules, the instance table and
 * the state codec in one file (the rules are described in toy.h). */
#include "toy.h"
#include "rng.h"
#include <stdio.h>
#include <string.h>

TB_STATIC_ASSERT(sizeof(toy_state) == 8 + 6 + 2 * TOY_CARDS + 6, "toy_state has no padding");
TB_STATIC_ASSERT(sizeof(toy_state) <= SR_MAX_STATE, "toy_state must fit an sr state buffer");
TB_STATIC_ASSERT(TB_ALIGNOF(toy_state) <= SR_STATE_ALIGN, "toy_state must fit an sr state buffer's alignment");
TB_STATIC_ASSERT(TOY_MAX_ENCODED <= SR_MAX_ENCODED, "a Toy encoding must fit SR_MAX_ENCODED");

#define ALL_CARDS ((uint8_t)((1u << TOY_CARDS) - 1))
#define BIT(c) ((uint8_t)(1u << (c)))

static int popcount8(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
}

static int lowest(unsigned x) { return tb_ctz32(x); }

/* ---- rules ---------------------------------------------------------------- */

int toy_load_rules(void *rules, const char *const *texts, char *msg, size_t n) {
    (void)texts;   /* num_data 0: the rules are these six numbers */
    if (!rules) return sr_fail(SR_E_STATE, msg, n, "no room for the rules");
    toy_rules *r = (toy_rules *)rules;
    memset(r, 0, sizeof *r);
    for (int c = 0; c < TOY_CARDS; ++c) r->value[c] = (int8_t)(c + 1);
    r->loaded = 1;
    return SR_OK;
}

int toy_pile_score(const toy_rules *r, const toy_state *s, int p) {
    int score = 0;
    for (int i = 0; i < s->n_pile[p] && i < TOY_CARDS; ++i) {
        int v = r->value[s->pile[p][i]];
        score += i > 0 && r->value[s->pile[p][i - 1]] > v ? 2 * v : v;   /* onto a higher card: double */
    }
    return score;
}

/* ---- the state functions ------------------------------------------------------ */

static void g_new(const sr_game *g, void *state, uint64_t seed) {
    (void)g;
    toy_state s;
    memset(&s, 0, sizeof s);
    s.rng = seed;
    uint8_t deck[TOY_CARDS];
    for (int c = 0; c < TOY_CARDS; ++c) deck[c] = (uint8_t)c;
    rng_shuffle_u8(&s.rng, deck, TOY_CARDS);
    for (int i = 0; i < TOY_HAND; ++i) {
        s.hand[0] |= BIT(deck[i]);
        s.hand[1] |= BIT(deck[TOY_HAND + i]);
    }
    for (int i = 2 * TOY_HAND; i < TOY_CARDS; ++i) s.stock |= BIT(deck[i]);
    s.to_move = 0;
    memcpy(state, &s, sizeof s);
}

static int g_current(const void *r, const void *state) {
    (void)r;
    const toy_state *s = (const toy_state *)state;
    return s->to_move == TOY_NONE ? SR_TERMINAL : s->to_move;
}

static int g_legal(const void *r, const void *state, int *buf) {
    (void)r;
    const toy_state *s = (const toy_state *)state;
    if (s->to_move > 1) return 0;
    int n = 0;
    for (unsigned m = s->hand[s->to_move]; m; m &= m - 1) buf[n++] = lowest(m);   /* ascending ids */
    return n;
}

static void g_apply(const void *r, void *state, int action) {
    (void)r;
    toy_state *s = (toy_state *)state;
    const int p = s->to_move;
    if (p > 1 || action < 0 || action >= TOY_CARDS || !(s->hand[p] & BIT(action))) return;   /* unchecked, but harmless */
    s->hand[p] &= (uint8_t)~BIT(action);
    s->pile[p][s->n_pile[p]++] = (uint8_t)action;
    if (s->stock) {                                /* draw one stock card uniformly */
        unsigned m = s->stock;
        for (int k = (int)rng_below(&s->rng, (uint32_t)popcount8(m)); k > 0; --k) m &= m - 1;
        s->stock &= (uint8_t)~BIT(lowest(m));
        s->hand[p] |= BIT(lowest(m));
    }
    if (s->hand[1 - p]) s->to_move = (uint8_t)(1 - p);
    else if (!s->hand[p]) s->to_move = TOY_NONE;
}

static void g_scores(const void *rules, const void *state, int *out) {
    const toy_rules *r = (const toy_rules *)rules;
    const toy_state *s = (const toy_state *)state;
    out[0] = toy_pile_score(r, s, 0);
    out[1] = toy_pile_score(r, s, 1);
}

static void g_returns(const void *rules, const void *state, double *out) {
    const toy_state *s = (const toy_state *)state;
    out[0] = out[1] = 0.0;
    if (s->to_move != TOY_NONE) return;
    int sc[2];
    g_scores(rules, state, sc);
    if (sc[0] != sc[1]) {
        out[0] = sc[0] > sc[1] ? 1.0 : -1.0;
        out[1] = -out[0];
    }
}

/* What player sees of the cards: own hand and both piles. */
static uint8_t seen_by(const toy_state *s, int player) {
    uint8_t seen = s->hand[player];
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < s->n_pile[p] && i < TOY_CARDS; ++i) seen |= BIT(s->pile[p][i]);
    return seen;
}

/* The unseen cards (the opponent's hand and the stock, as one set in card
 * order: known from the view) shuffled by seed, dealt back keeping both
 * counts; the generator word is a draw of seed too (later stock draws are
 * unknown). So the result depends only on the view and seed. */
static void g_determinize(const void *r, const void *state, int player, uint64_t seed, void *out) {
    (void)r;
    toy_state d;
    memcpy(&d, state, sizeof d);
    if (player == 0 || player == 1) {
        const int opp = 1 - player;
        uint8_t pool[TOY_CARDS];
        int np = 0;
        for (unsigned m = ALL_CARDS & ~seen_by(&d, player); m; m &= m - 1) pool[np++] = (uint8_t)lowest(m);
        uint64_t g = seed;
        rng_shuffle_u8(&g, pool, np);
        const int k = popcount8(d.hand[opp]);
        d.hand[opp] = d.stock = 0;
        for (int i = 0; i < np; ++i) {
            if (i < k) d.hand[opp] |= BIT(pool[i]);
            else d.stock |= BIT(pool[i]);
        }
        d.rng = rng_draw(&g);
    }
    memcpy(out, &d, sizeof d);
}

/* Hash of the view: player, to_move, own hand, the opponent's hand count,
 * the stock count, both piles in order. 0 for a player out of range. */
static uint64_t g_key(const void *r, const void *state, int player) {
    (void)r;
    if (player != 0 && player != 1) return 0;
    const toy_state *s = (const toy_state *)state;
    uint64_t h = key_mix(0x746F7920676D6521ULL, (uint64_t)player);
    h = key_mix(h, (uint64_t)s->to_move | (uint64_t)s->hand[player] << 8 |
                 (uint64_t)popcount8(s->hand[1 - player]) << 16 | (uint64_t)popcount8(s->stock) << 24);
    for (int p = 0; p < 2; ++p) {
        uint64_t v = s->n_pile[p];
        for (int i = 0; i < s->n_pile[p] && i < TOY_CARDS; ++i) v = v << 4 | s->pile[p][i];
        h = key_mix(h, v);
    }
    return h;
}

/* The observation (docs/observations.md), 84 floats, seats relative to
 * player: seat (2), to move: me, opponent (2), my hand (6, by card id),
 * the opponent's hand count (1), the stock count (1), my pile then the
 * opponent's, 6 positions bottom first, each a card one-hot (2 x 36): what
 * g_key hashes. */
#define TOY_OBSERVATION_SIZE 84
static void g_observation(const void *r, const void *state, int player, float *out) {
    (void)r;
    const toy_state *s = (const toy_state *)state;
    const int me = player & 1, op = 1 - me;
    memset(out, 0, sizeof(float) * TOY_OBSERVATION_SIZE);
    out[me] = 1.0f;
    if (s->to_move != TOY_NONE) out[2 + (s->to_move != me)] = 1.0f;
    for (unsigned m = s->hand[me]; m; m &= m - 1) out[4 + lowest(m)] = 1.0f;
    out[10] = (float)popcount8(s->hand[op]);
    out[11] = (float)popcount8(s->stock);
    for (int k = 0; k < 2; ++k) {
        const int p = k ? op : me;
        for (int i = 0; i < s->n_pile[p] && i < TOY_CARDS; ++i) out[12 + 36 * k + 6 * i + s->pile[p][i]] = 1.0f;
    }
}

static int g_action_to_string(const void *rules, int action, char *buf, size_t n) {
    const toy_rules *r = (const toy_rules *)rules;
    if (action < 0 || action >= TOY_CARDS) return -SR_E_RANGE;
    int len = snprintf(buf, n, "play %d", r->value[action]);
    return len < 0 ? -SR_E_RANGE : len;
}

int toy_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n) {
    (void)params;
    const toy_rules *r = (const toy_rules *)rules;
    if (!r || !r->loaded) return sr_fail(SR_E_STATE, msg, n, "the Toy rules are not loaded");
    if (!g) return sr_fail(SR_E_PARAM, msg, n, "no game table to fill");
    memset(g, 0, sizeof *g);
    g->info.name = "toy";
    g->info.num_players = 2;
    g->info.num_distinct_actions = TOY_CARDS;
    g->info.min_utility = -1.0;
    g->info.max_utility = 1.0;
    g->info.constant_sum = 1;
    g->info.utility_sum = 0.0;
    g->info.max_game_length = TOY_MAX_GAME_LENGTH;
    g->info.hidden_information = 1;
    g->info.exact_determinize = 1;
    g->info.state_size = sizeof(toy_state);
    g->rules = r;
    g->new_initial_state = g_new;
    g->current_player = g_current;
    g->legal_actions = g_legal;
    g->apply = g_apply;
    g->returns = g_returns;
    g->scores = g_scores;
    g->determinize = g_determinize;
    g->infostate_key = g_key;
    g->action_to_string = g_action_to_string;
    g->encode = toy_encode_state;
    g->decode = toy_decode_state;
    g->info.observation_size = TOY_OBSERVATION_SIZE;
    g->observation = g_observation;
    return SR_OK;
}

/* ---- codec ------------------------------------------------------------------- */

static int put_set(int64_t *out, int k, unsigned m) {
    out[k++] = popcount8(m);
    for (; m; m &= m - 1) out[k++] = lowest(m);
    return k;
}

int toy_encode_state(const void *rules, const void *state, int64_t *out, int max) {
    (void)rules;
    const toy_state *s = (const toy_state *)state;
    const int need = 2 + 5 + popcount8(s->hand[0]) + popcount8(s->hand[1]) + popcount8(s->stock) + s->n_pile[0] +
                     s->n_pile[1];
    if (!out || max < need) return -SR_E_RANGE;
    int k = 0;
    int64_t seed;
    memcpy(&seed, &s->rng, sizeof seed);   /* the uint64 bit pattern */
    out[k++] = s->to_move == TOY_NONE ? -1 : s->to_move;
    out[k++] = seed;
    k = put_set(out, k, s->hand[0]);
    k = put_set(out, k, s->hand[1]);
    k = put_set(out, k, s->stock);
    for (int p = 0; p < 2; ++p) {
        out[k++] = s->n_pile[p];
        for (int i = 0; i < s->n_pile[p]; ++i) out[k++] = s->pile[p][i];
    }
    return k;
}

enum { AT_NONE, AT_HAND0, AT_HAND1, AT_STOCK, AT_PILE0, AT_PILE1 };
static const char *const AT_NAME[] = {"", "hands[0]", "hands[1]", "stock", "piles[0]", "piles[1]"};

typedef struct {
    const toy_rules *r;
    const int64_t *in;
    int n, pos;
    uint8_t at[TOY_CARDS];   /* where each card was found (AT_NONE: not yet) */
    char *msg;
    size_t len;
} reader;

/* The next field into *v; 0, or -1 with a message when the input ends. */
static int next(reader *rd, int64_t *v) {
    if (rd->pos >= rd->n) {
        sr_fail(SR_E_STATE, rd->msg, rd->len, "the encoding ends early (after %d fields)", rd->n);
        return -1;
    }
    *v = rd->in[rd->pos++];
    return 0;
}

/* A list at `at`: its count (in [0, TOY_CARDS]) and cards, each a card not
 * seen before, ascending when `set`; the ids go to ids[] (if given) and the
 * mask is returned, or -1 with a message. */
static int next_list(reader *rd, int at, int set, uint8_t *ids) {
    int64_t cnt, v;
    if (next(rd, &cnt) < 0) return -1;
    if (cnt < 0 || cnt > TOY_CARDS) {
        sr_fail(SR_E_STATE, rd->msg, rd->len, "%s count must be an integer in [0, %d], not %s", AT_NAME[at], TOY_CARDS,
             sr_show_value(cnt).s);
        return -1;
    }
    int mask = 0, prev = -1;
    for (int j = 0; j < (int)cnt; ++j) {
        if (next(rd, &v) < 0) return -1;
        if (v < 0 || v >= TOY_CARDS) {
            sr_fail(SR_E_STATE, rd->msg, rd->len, "%s: unknown card id %s", AT_NAME[at], sr_show_value(v).s);
            return -1;
        }
        const int c = (int)v, num = rd->r->value[c];
        if (rd->at[c]) {
            sr_fail(SR_E_STATE, rd->msg, rd->len, "card %d is in two places (%s and %s)", num, AT_NAME[rd->at[c]], AT_NAME[at]);
            return -1;
        }
        if (set && c < prev) {
            sr_fail(SR_E_STATE, rd->msg, rd->len, "%s: cards must be listed in ascending order (%d after %d)", AT_NAME[at], num,
                 rd->r->value[prev]);
            return -1;
        }
        rd->at[c] = (uint8_t)at;
        prev = c;
        mask |= BIT(c);
        if (ids) ids[j] = (uint8_t)c;
    }
    return mask;
}

int toy_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len) {
#define BAD(...) return sr_fail(SR_E_STATE, msg, msg_len, __VA_ARGS__)
    const toy_rules *r = (const toy_rules *)rules;
    if (!r || !r->loaded) BAD("the Toy rules are not loaded");
    if (!state) BAD("no state to decode into");
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.r = r;
    rd.in = in;
    rd.n = in && n > 0 ? n : 0;
    rd.msg = msg;
    rd.len = msg_len;

    int64_t to_move, seed;
    if (next(&rd, &to_move) < 0 || next(&rd, &seed) < 0) return SR_E_STATE;
    if (to_move < -1 || to_move > 1) BAD("to_move must be an integer in [0, 1] or null, not %s", sr_show_value(to_move).s);

    toy_state s;
    memset(&s, 0, sizeof s);
    memcpy(&s.rng, &seed, sizeof s.rng);
    s.to_move = to_move < 0 ? TOY_NONE : (uint8_t)to_move;
    int m;
    for (int p = 0; p < 2; ++p) {
        if ((m = next_list(&rd, AT_HAND0 + p, 1, NULL)) < 0) return SR_E_STATE;
        s.hand[p] = (uint8_t)m;
    }
    if ((m = next_list(&rd, AT_STOCK, 1, NULL)) < 0) return SR_E_STATE;
    s.stock = (uint8_t)m;
    for (int p = 0; p < 2; ++p) {
        if ((m = next_list(&rd, AT_PILE0 + p, 0, s.pile[p])) < 0) return SR_E_STATE;
        s.n_pile[p] = (uint8_t)popcount8((unsigned)m);
    }
    if (rd.pos != rd.n) BAD("the encoding has %d fields after the state", rd.n - rd.pos);

    char missing[64];
    size_t used = 0;
    missing[0] = 0;
    for (int c = 0; c < TOY_CARDS; ++c)
        if (!rd.at[c]) {
            int w = snprintf(missing + used, sizeof missing - used, "%s%d", used ? ", " : "", r->value[c]);
            if (w > 0) used += (size_t)w;
        }
    if (used) BAD("cards missing from the state: %s", missing);
    if (to_move < 0) {
        for (int p = 0; p < 2; ++p)
            if (s.hand[p]) BAD("the game is over (to_move is null) but player %d still holds cards", p);
    } else if (!s.hand[to_move]) {
        BAD("player %d is to move but holds no card (an unfinished game's player to move must have a legal action)",
            (int)to_move);
    }
    memcpy(state, &s, sizeof s);
    return SR_OK;
#undef BAD
}
