/* capivarias_game.c - Capivárias on the game contract (game.h): the card
 * table read from its CSV text, the instance table, the state codec. */
#include "capivarias_game.h"
#include "csv.h"
#include <stdio.h>
#include <string.h>

TB_STATIC_ASSERT(sizeof(cv_state) <= SR_MAX_STATE, "cv_state must fit an sr state buffer");
TB_STATIC_ASSERT(TB_ALIGNOF(cv_state) <= SR_STATE_ALIGN, "cv_state must fit an sr state buffer's alignment");
TB_STATIC_ASSERT(CV_MAX_ACTIONS <= SR_MAX_LEGAL, "Capivárias legal lists must fit SR_MAX_LEGAL");

#define BIT(c) (1u << (c))

static inline int popcount32(uint32_t x) {   /* SWAR: no libgcc call without -mpopcnt */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* ---- rules: capivarias_cards.csv ------------------------------------------ */

static const char *const KIND_NAMES[] = {"herd", "capiolin", "capionca:push", "capionca:switch-one",
                                         "capionca:switch-all", "capitico", "capissor"};
static const char *const HERD_NAMES[] = {"capicria", "capiox", "capitche", "capiolin"};
enum { COL_NAME, COL_KIND, COL_HERD, COL_NUMBER, COL_MODIFIER, COL_EXPANSION, NUM_COLS };
static const char *const COL_NAMES[NUM_COLS] = {"name", "kind", "herd", "number", "river_modifier", "expansion"};

static int index_of(const char *s, const char *const *names, int n) {
    for (int i = 0; i < n; ++i)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

int cv_load_rules(void *rules, const char *const *texts, char *msg, size_t n) {
#define BAD(...) do { memset(rules, 0, sizeof(cv_rules)); return sr_fail(SR_E_STATE, msg, n, __VA_ARGS__); } while (0)
#define REFUSED() do { memset(rules, 0, sizeof(cv_rules)); return SR_E_STATE; } while (0)   /* the reader wrote msg */
#define ROW_BAD(...) do { csv_fail(&rd, row.line, CSV_E_VALUE, __VA_ARGS__); REFUSED(); } while (0)
    if (!rules) return sr_fail(SR_E_STATE, msg, n, "no room for the rules");
    if (!texts || !texts[0]) BAD("capivarias_cards.csv: no text");
    cv_card_def defs[CV_MAX_CARDS];
    memset(defs, 0, sizeof defs);
    int col[NUM_COLS], ncards = 0, rc;
    int capitico_line[CV_NUM_HERDS] = {0};
    csv_reader rd;
    csv_row row;
    csv_open(&rd, "capivarias_cards.csv", texts[0], strlen(texts[0]), 0, msg, n);   /* no quoted fields */
    if (csv_header(&rd, COL_NAMES, NUM_COLS, col)) REFUSED();
    while ((rc = csv_next(&rd, &row)) == 1) {
        if (ncards == CV_MAX_CARDS) ROW_BAD("more than %d cards", CV_MAX_CARDS);
        cv_card_def *d = &defs[ncards];
        const char *name = row.f[col[COL_NAME]];
        size_t nl = strlen(name);
        if (nl < 1 || nl >= CV_NAME_LEN) ROW_BAD("card name '%s' must have 1 to %d bytes", name, CV_NAME_LEN - 1);
        if (strpbrk(name, "/@ \t")) ROW_BAD("card name '%s' must not contain '/', '@' or spaces", name);
        for (int c = 0; c < ncards; ++c)
            if (strcmp(defs[c].name, name) == 0) ROW_BAD("card name %s appears twice", name);
        memcpy(d->name, name, nl + 1);
        int kind = index_of(row.f[col[COL_KIND]], KIND_NAMES, 7);
        if (kind < 0) ROW_BAD("unknown kind '%s'", row.f[col[COL_KIND]]);
        d->kind = (uint8_t)kind;
        const char *herd_text = row.f[col[COL_HERD]];
        int herd = *herd_text ? index_of(herd_text, HERD_NAMES, CV_NUM_HERDS) : -1;
        if (*herd_text && herd < 0) ROW_BAD("unknown herd '%s'", herd_text);
        switch (kind) {
        case CV_KIND_HERD:
        case CV_KIND_CAPITICO:
            if (herd < 0 || herd >= CV_HERD_CAPIOLIN)
                ROW_BAD("a %s belongs to herd capicria, capiox or capitche, not '%s'", KIND_NAMES[kind], herd_text);
            if (kind == CV_KIND_CAPITICO) {
                if (capitico_line[herd])
                    ROW_BAD("a second capitico of herd %s (line %d)", HERD_NAMES[herd], capitico_line[herd]);
                capitico_line[herd] = row.line;
            }
            break;
        case CV_KIND_CAPIOLIN:
            if (herd >= 0 && herd != CV_HERD_CAPIOLIN) ROW_BAD("a capiolin belongs to herd capiolin, not '%s'", herd_text);
            herd = CV_HERD_CAPIOLIN;
            break;
        default:
            if (herd >= 0) ROW_BAD("a %s has no herd, not '%s'", KIND_NAMES[kind], herd_text);
            break;
        }
        d->herd = herd < 0 ? CV_NONE : (uint8_t)herd;
        int number, modifier;
        if (csv_int(&rd, &row, col[COL_NUMBER], -128, 127, NULL, &number) ||
            csv_int(&rd, &row, col[COL_MODIFIER], -128, 127, NULL, &modifier))
            REFUSED();
        d->number = (int8_t)number;
        d->modifier = (int8_t)modifier;
        const char *ex = row.f[col[COL_EXPANSION]];
        if (strcmp(ex, "0") != 0 && strcmp(ex, "1") != 0) ROW_BAD("expansion '%s' must be 0 or 1", ex);
        d->expansion = (uint8_t)(ex[0] == '1');
        ++ncards;
    }
    if (rc < 0) REFUSED();
    if (!ncards) BAD("capivarias_cards.csv has no cards");
    if (cv_rules_init((cv_rules *)rules, defs, ncards) != 0) BAD("capivarias_cards.csv: the card table is not usable by the engine");
    return SR_OK;
#undef ROW_BAD
#undef REFUSED
#undef BAD
}

/* ---- the instance table ------------------------------------------------------ */

int cv_max_game_length(const cv_rules *r, int expansion) {
    /* Every action takes one card out of the available row, and within a
     * round no card ever returns to it: the row only refills from the pile.
     * A round deals its P cards in play as 3 river cards and P - 3 cards
     * that pass through the row (4 available, the rest in the pile), and it
     * ends when 1 card is available and the pile is empty (2.3): exactly
     * P - 4 actions (16 base, 24 with the expansion; RULES 2.1). A game has
     * at most 9 rounds (R30), so 9 (P - 4) actions: 144 base, 216 with the
     * expansion. It bounds what is left from any state decode accepts too:
     * in round k at most P - 4 actions remain of that round (the row and
     * pile hold at most P - 3 cards, the river 3 others) and P - 4 in each
     * of the 9 - k rounds after it. */
    int p = popcount32(expansion ? r->all_mask : r->base_mask);
    return CV_MAX_ROUNDS * (p - 4);
}

static void g_new(const sr_game *g, void *state, uint64_t seed) {
    cv_new_game((const cv_rules *)g->rules, (cv_state *)state, seed, g->params[CV_PARAM_EXPANSION],
                g->params[CV_PARAM_FIRST_PLAYER]);
}

static int g_current(const void *r, const void *s) {
    (void)r;
    const cv_state *st = (const cv_state *)s;
    return cv_is_terminal(st) ? SR_TERMINAL : st->to_move;
}

static int g_legal(const void *r, const void *s, int *buf) { return cv_legal_actions(r, s, buf); }
static void g_apply(const void *r, void *s, int a) { cv_apply(r, s, a); }
static void g_returns(const void *r, const void *s, double *out) { (void)r; cv_returns(s, out); }
static void g_scores(const void *r, const void *s, int *out) { cv_scores(r, s, out); }
static void g_determinize(const void *r, const void *s, int p, uint64_t seed, void *out) {
    cv_determinize(r, s, p, seed, out);
}
static uint64_t g_key(const void *r, const void *s, int p) { return cv_infostate_key(r, s, p); }
static int g_action_to_string(const void *r, int a, char *buf, size_t n) {
    int len = cv_action_to_string(r, a, buf, n);
    return len < 0 ? -SR_E_RANGE : len;
}

/* ---- observation (docs/observations.md) ------------------------------------------ */

/* Floats of the observation for a table of C cards: 26 + 14 C (418 for 28). */
static int cv_observation_size(const cv_rules *r) { return 26 + 14 * r->ncards; }

static void put_bits(float *o, uint32_t m) {
    for (; m; m &= m - 1) o[tb_ctz32(m)] = 1.0f;
}

/* view(player): everything but the river cards' identities (their modifiers
 * are seen), the pile below its top (its count and top modifier are seen)
 * and the seed (R20) -- exactly what cv_infostate_key hashes. Seats are
 * relative: "me" is player, "opponent" 1 - player. */
static void g_observation(const void *rules, const void *state, int player, float *out) {
    const cv_rules *r = (const cv_rules *)rules;
    const cv_state *s = (const cv_state *)state;
    const int C = r->ncards, me = player & 1, op = 1 - me;
    memset(out, 0, sizeof(float) * (size_t)cv_observation_size(r));
    float *o = out;
    o[me] = 1.0f;                                                  /* 0: seat */
    if (s->to_move != CV_NONE) o[2 + (s->to_move != me)] = 1.0f;   /* 2: to move: me, opponent */
    if (s->round >= 1 && s->round <= CV_MAX_ROUNDS) o[4 + s->round - 1] = 1.0f;   /* 4: round 1..9 */
    o[13] = s->wins[me];                                           /* 13: round wins */
    o[14] = s->wins[op];
    if (s->last_taker != CV_NONE) o[15 + (s->last_taker != me)] = 1.0f;   /* 15: last taker */
    if (s->winner != CV_NONE) o[17 + (s->winner != me)] = 1.0f;           /* 17: winner */
    o[19] = s->expansion;                                          /* 19 */
    o += 20;
    for (int i = 0; i < CV_SEGMENTS; ++i) {                        /* 20 + i (3C + 1) */
        put_bits(o, s->side[i][me]);
        put_bits(o + C, s->side[i][op]);
        if (s->capionca[i] != CV_NONE) o[2 * C + s->capionca[i]] = 1.0f;
        o[3 * C] = r->modifier_of[s->river[i]];
        o += 3 * C + 1;
    }
    for (int j = 0; j < s->n_avail && j < 4; ++j) o[j * C + s->avail[j]] = 1.0f;   /* available row */
    o += 4 * C;
    const int np = s->n_pile - s->pile_top;
    o[0] = (float)np;                                              /* pile count, top seen, its modifier */
    if (np > 0) {
        o[1] = 1.0f;
        o[2] = r->modifier_of[s->pile[s->pile_top]];
    }
    o += 3;
    put_bits(o, s->discard);                                       /* discard pile */
}

int cv_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n) {
    const cv_rules *r = (const cv_rules *)rules;
    if (!r || r->ncards < 1) return sr_fail(SR_E_STATE, msg, n, "the Capivárias card table is not loaded");
    int expansion = params ? params[CV_PARAM_EXPANSION] : 0, first = params ? params[CV_PARAM_FIRST_PLAYER] : 0;
    if (expansion != 0 && expansion != 1) return sr_fail(SR_E_PARAM, msg, n, "expansion must be 0 or 1, not %d", expansion);
    if (first != 0 && first != 1) return sr_fail(SR_E_PARAM, msg, n, "first_player must be 0 or 1, not %d", first);
    int in_play = popcount32(expansion ? r->all_mask : r->base_mask);
    if (in_play < 7)   /* 2.2: 3 river cards and 4 available */
        return sr_fail(SR_E_STATE, msg, n, "a Capivárias round needs at least 7 cards, the deck has %d", in_play);
    memset(g, 0, sizeof *g);
    g->info.name = "capivarias";
    g->info.num_players = 2;
    g->info.num_distinct_actions = r->num_actions;
    g->info.min_utility = -1.0;
    g->info.max_utility = 1.0;
    g->info.constant_sum = 1;
    g->info.utility_sum = 0.0;
    g->info.max_game_length = cv_max_game_length(r, expansion);
    g->info.hidden_information = 1;
    g->info.exact_determinize = 1;
    g->info.state_size = sizeof(cv_state);
    g->rules = r;
    g->params[CV_PARAM_EXPANSION] = expansion;
    g->params[CV_PARAM_FIRST_PLAYER] = first;
    g->new_initial_state = g_new;
    g->current_player = g_current;
    g->legal_actions = g_legal;
    g->apply = g_apply;
    g->returns = g_returns;
    g->scores = g_scores;
    g->determinize = g_determinize;
    g->infostate_key = g_key;
    g->action_to_string = g_action_to_string;
    g->encode = cv_encode_state;
    g->decode = cv_decode_state;
    g->decode_loose = cv_decode_state_loose;
    g->info.observation_size = cv_observation_size(r);
    g->observation = g_observation;
    return SR_OK;
}

/* ---- encode ------------------------------------------------------------------- */

static inline int64_t opt(uint8_t v) { return v == CV_NONE ? -1 : (int64_t)v; }

static int put_mask(int64_t *out, int k, uint32_t m) {
    out[k++] = popcount32(m);
    for (; m; m &= m - 1) out[k++] = tb_ctz32(m);   /* ascending ids */
    return k;
}

int cv_encode_state(const void *rules, const void *state, int64_t *out, int max) {
    (void)rules;
    const cv_state *s = (const cv_state *)state;
    const int n_pile = s->n_pile - s->pile_top;
    int need = 8 + 3 + s->n_avail + n_pile + popcount32(s->discard);
    for (int i = 0; i < CV_SEGMENTS; ++i) need += 4 + popcount32(s->side[i][0]) + popcount32(s->side[i][1]);
    if (!out || max < need) return -SR_E_RANGE;
    int k = 0;
    int64_t seed;
    memcpy(&seed, &s->rng, sizeof seed);   /* the uint64 bit pattern */
    out[k++] = s->expansion;
    out[k++] = s->round;
    out[k++] = s->wins[0];
    out[k++] = s->wins[1];
    out[k++] = opt(s->to_move);
    out[k++] = opt(s->last_taker);
    out[k++] = opt(s->winner);
    out[k++] = seed;
    for (int i = 0; i < CV_SEGMENTS; ++i) {
        out[k++] = s->river[i];
        out[k++] = opt(s->capionca[i]);
        k = put_mask(out, k, s->side[i][0]);
        k = put_mask(out, k, s->side[i][1]);
    }
    out[k++] = s->n_avail;
    for (int i = 0; i < s->n_avail; ++i) out[k++] = s->avail[i];
    out[k++] = n_pile;
    for (int i = s->pile_top; i < s->n_pile; ++i) out[k++] = s->pile[i];
    k = put_mask(out, k, s->discard);
    return k;
}

/* ---- decode ------------------------------------------------------------------- */

/* Where a card was found, for "in two places" (0 = not yet). */
enum { AT_NONE = 0, AT_RIVER = 1, AT_CAPIONCA = 4, AT_SIDE = 7, AT_AVAILABLE = 13, AT_PILE, AT_DISCARD };

static const char *where_name(int at, char *buf, size_t n) {
    if (at >= AT_RIVER && at < AT_CAPIONCA) snprintf(buf, n, "segment %d river", at - AT_RIVER);
    else if (at >= AT_CAPIONCA && at < AT_SIDE) snprintf(buf, n, "segment %d capionca", at - AT_CAPIONCA);
    else if (at >= AT_SIDE && at < AT_AVAILABLE) snprintf(buf, n, "segment %d side %d", (at - AT_SIDE) / 2, (at - AT_SIDE) % 2);
    else snprintf(buf, n, "%s", at == AT_AVAILABLE ? "available" : at == AT_PILE ? "pile" : "discard");
    return buf;
}

typedef struct {
    const cv_rules *r;
    const int64_t *in;
    int n, pos;
    uint32_t game;              /* cards in play */
    uint8_t at[CV_MAX_CARDS];   /* where each card was found */
    char *msg;
    size_t len;
} reader;

/* The next field into *v; 0, or -1 with a message when the input ends. */
static int next(reader *rd, int64_t *v) {
    if (rd->pos >= rd->n) {
        sr_fail(SR_E_STATE, rd->msg, rd->len, "the encoding ends early (after %d fields)", rd->n < 0 ? 0 : rd->n);
        return -1;
    }
    *v = rd->in[rd->pos++];
    return 0;
}

/* Report a bad field at `at` (the formatting kept out of the hot path). */
enum { E_COUNT, E_UNKNOWN, E_EXPANSION, E_TWICE, E_ORDER };
static int field_error(reader *rd, int what, int at, int64_t v, int prev) {
    char w[32], w2[32];
    const cv_rules *r = rd->r;
    where_name(at, w, sizeof w);
    switch (what) {
    case E_COUNT:
        return sr_fail(-1, rd->msg, rd->len, "%s count must be an integer in [0, %d], not %s", w, CV_MAX_CARDS, sr_show_value(v).s);
    case E_UNKNOWN:
        return sr_fail(-1, rd->msg, rd->len, "%s: unknown card id %s", w, sr_show_value(v).s);
    case E_EXPANSION:
        return sr_fail(-1, rd->msg, rd->len, "%s: %s is an expansion card but expansion is false", w, r->card[v].name);
    case E_TWICE:
        return sr_fail(-1, rd->msg, rd->len, "card %s is in two places (%s and %s)", r->card[v].name,
                    where_name(rd->at[v], w2, sizeof w2), w);
    default:
        return sr_fail(-1, rd->msg, rd->len, "%s: cards must be listed in card order (%s after %s)", w, r->card[v].name,
                    r->card[prev].name);
    }
}

/* A list's count in [0, CV_MAX_CARDS]; 0 or -1 with a message. */
static int next_count(reader *rd, int at, int64_t *v) {
    if (next(rd, v) < 0) return -1;
    if (*v < 0 || *v > CV_MAX_CARDS) return field_error(rd, E_COUNT, at, *v, 0);
    return 0;
}

/* The next field as a card of this game not seen before (from_dict's
 * card()); the card, or -1 with a message. */
static int next_card(reader *rd, int at) {
    if (rd->pos >= rd->n) return next(rd, NULL);   /* the message */
    int64_t v = rd->in[rd->pos++];
    if (v < 0 || v >= rd->r->ncards) return field_error(rd, E_UNKNOWN, at, v, 0);
    if (!(rd->game & BIT(v))) return field_error(rd, E_EXPANSION, at, v, 0);
    if (rd->at[v]) return field_error(rd, E_TWICE, at, v, 0);
    rd->at[v] = (uint8_t)at;
    return (int)v;
}

/* A set of cards listed in ascending ids (the canonical order, so that
 * encode(decode(x)) == x); the mask, or -1 with a message. */
static int64_t next_set(reader *rd, int at) {
    int64_t cnt;
    if (next_count(rd, at, &cnt) < 0) return -1;
    uint32_t m = 0;
    int prev = -1;
    for (int64_t j = 0; j < cnt; ++j) {
        int c = next_card(rd, at);
        if (c < 0) return -1;
        if (c < prev) return field_error(rd, E_ORDER, at, c, prev);
        prev = c;
        m |= BIT(c);
    }
    return m;
}

static int missing_error(const cv_rules *r, uint32_t missing, char *msg, size_t n) {
    char list[SR_MSG_LEN];
    size_t used = 0;
    list[0] = 0;
    for (int c = 0; c < r->ncards && used < sizeof list; ++c)
        if (missing & BIT(c)) {
            int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", r->card[c].name);
            if (w < 0) break;
            used += (size_t)w;
        }
    return sr_fail(SR_E_STATE, msg, n, "cards missing from the state: %s", list);
}

/* cv_check, whatever the message buffer. */
static int last_guard(const cv_rules *r, const cv_state *s, char *msg, size_t n, int loose) {
    char why[SR_MSG_LEN];
    if ((loose ? cv_check_loose : cv_check)(r, s, why, sizeof why) != 0) return sr_fail(SR_E_STATE, msg, n, "%s", why);
    return SR_OK;
}

static int is_capionca(int kind) {
    return kind == CV_KIND_PUSH || kind == CV_KIND_SWITCH_ONE || kind == CV_KIND_SWITCH_ALL;
}

static int decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len,
                        int loose) {
#define BAD(...) return sr_fail(SR_E_STATE, msg, msg_len, __VA_ARGS__)
#define NEXT(v) do { if (next(&rd, &(v)) < 0) return SR_E_STATE; } while (0)
    const cv_rules *r = (const cv_rules *)rules;
    if (!r || r->ncards < 1) BAD("the Capivárias card table is not loaded");
    if (!state) BAD("no state to decode into");
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.r = r;
    rd.in = in;
    rd.n = in ? n : 0;
    rd.msg = msg;
    rd.len = msg_len;

    /* scalars, checked in from_dict's order */
    int64_t expansion, rnd, wins[2], to_move, last_taker, winner, seed;
    NEXT(expansion);
    NEXT(rnd);
    NEXT(wins[0]);
    NEXT(wins[1]);
    NEXT(to_move);
    NEXT(last_taker);
    NEXT(winner);
    NEXT(seed);
    if (expansion != 0 && expansion != 1) BAD("expansion must be true or false, not %s", sr_show_value(expansion).s);
    if (rnd < 1 || rnd > CV_MAX_ROUNDS) BAD("round must be an integer in [1, %d], not %s", CV_MAX_ROUNDS, sr_show_value(rnd).s);
    for (int k = 0; k < 2; ++k)
        if (wins[k] < 0 || wins[k] > CV_MAX_ROUNDS)
            BAD("round_wins[%d] must be an integer in [0, %d], not %s", k, CV_MAX_ROUNDS, sr_show_value(wins[k]).s);
    if (to_move < -1 || to_move > 1) BAD("to_move must be an integer in [0, 1] or null, not %s", sr_show_value(to_move).s);
    if (last_taker < -1 || last_taker > 1) BAD("last_taker must be an integer in [0, 1] or null, not %s", sr_show_value(last_taker).s);
    if (winner < -1 || winner > 1) BAD("winner must be an integer in [0, 1] or null, not %s", sr_show_value(winner).s);
    if (rnd == 1 && last_taker >= 0) BAD("last_taker must be null in round 1");
    if (rnd > 1 && last_taker < 0) BAD("last_taker must be set in round %d", (int)rnd);
    if (to_move >= 0 && winner >= 0) BAD("a winner is set but to_move is not null (the game is not over)");
    if (to_move < 0 && winner < 0 && rnd != CV_MAX_ROUNDS)
        BAD("the game is over without a winner, which only an R30 draw after round 9 allows");
    /* Round wins, closed under play: a finished round gives each player at
     * most one win (a tie gives both one), so an unfinished game in round k
     * has at most k - 1 wins each and a game over in round k at most k.
     * Play keeps this: ending round k adds at most 1 to each count (<= k),
     * and then either the game ends in round k (bound k) or round k + 1
     * starts (bound k); round stays <= 9 since the game ends after round 9
     * (R30). States reached from new games satisfy it (0 wins in round 1).
     * No fixed bound B is closed: from [B, B] a tied round plays to
     * [B + 1, B + 1] (with B = 9, round 8 [9, 9] played to [9, 10]). */
    {
        int64_t most = to_move < 0 ? rnd : rnd - 1;
        for (int k = 0; k < 2; ++k)
            if (wins[k] > most) {
                if (to_move < 0)
                    BAD("round_wins[%d] must be an integer in [0, %lld] in a game over in round %lld (one win per round "
                        "played at most), not %lld", k, (long long)most, (long long)rnd, (long long)wins[k]);
                BAD("round_wins[%d] must be an integer in [0, %lld] in round %lld (one win per finished round at most), "
                    "not %lld", k, (long long)most, (long long)rnd, (long long)wins[k]);
            }
    }

    cv_state s;
    int64_t cnt;
    memset(&s, 0, sizeof s);
    memcpy(&s.rng, &seed, sizeof s.rng);
    s.expansion = (uint8_t)expansion;
    s.round = (uint8_t)rnd;
    s.wins[0] = (uint8_t)wins[0];
    s.wins[1] = (uint8_t)wins[1];
    s.to_move = to_move < 0 ? CV_NONE : (uint8_t)to_move;
    s.last_taker = last_taker < 0 ? CV_NONE : (uint8_t)last_taker;
    s.winner = winner < 0 ? CV_NONE : (uint8_t)winner;
    rd.game = cv_game_mask(r, &s);

    for (int i = 0; i < CV_SEGMENTS; ++i) {
        int c = next_card(&rd, AT_RIVER + i);
        if (c < 0) return SR_E_STATE;
        s.river[i] = (uint8_t)c;
        int64_t cap;
        NEXT(cap);
        s.capionca[i] = CV_NONE;
        if (cap != -1) {
            rd.pos--;   /* read it again as a card */
            c = next_card(&rd, AT_CAPIONCA + i);
            if (c < 0) return SR_E_STATE;
            if (!is_capionca(r->kind_of[c]))
                BAD("segment %d: %s lies as a capionça but is a %s", i, r->card[c].name, KIND_NAMES[r->kind_of[c]]);
            s.capionca[i] = (uint8_t)c;
        }
        int herd_card[CV_NUM_HERDS] = {-1, -1, -1, -1};   /* capybara of each herd in the segment */
        for (int k = 0; k < 2; ++k) {
            const int at = AT_SIDE + 2 * i + k;
            uint32_t m = 0;
            int prev = -1;
            if (next_count(&rd, at, &cnt) < 0) return SR_E_STATE;
            for (int64_t j = 0; j < cnt; ++j) {   /* from_dict's checks, card by card */
                int d = next_card(&rd, at);
                if (d < 0) return SR_E_STATE;
                if (d < prev)
                    BAD("segment %d side %d: cards must be listed in card order (%s after %s)", i, k, r->card[d].name,
                        r->card[prev].name);
                prev = d;
                int kind = r->kind_of[d];
                if (!(r->capybara_mask & BIT(d)) && kind != CV_KIND_CAPITICO)
                    BAD("segment %d side %d: a %s (%s) cannot lie on a side", i, k, KIND_NAMES[kind], r->card[d].name);
                if (r->capybara_mask & BIT(d)) {
                    int h = r->herd_of[d];
                    if (herd_card[h] >= 0)
                        BAD("segment %d holds two capybaras of one herd: %s and %s", i, r->card[herd_card[h]].name,
                            r->card[d].name);
                    herd_card[h] = d;
                }
                m |= BIT(d);
            }
            for (uint32_t kk = m & r->capitico_mask; kk; kk &= kk - 1) {
                int K = tb_ctz32(kk);
                if (!(m & r->herd_mask[r->herd_of[K]]))
                    BAD("segment %d side %d: capitico %s has no guardian of its herd on that side", i, k, r->card[K].name);
            }
            s.side[i][k] = m;
        }
    }

    if (next_count(&rd, AT_AVAILABLE, &cnt) < 0) return SR_E_STATE;
    int n_avail = (int)cnt;
    for (int j = 0; j < n_avail; ++j) {   /* more than 4: refused below, after the card checks */
        int c = next_card(&rd, AT_AVAILABLE);
        if (c < 0) return SR_E_STATE;
        if (j < 4) s.avail[j] = (uint8_t)c;
    }
    if (next_count(&rd, AT_PILE, &cnt) < 0) return SR_E_STATE;
    s.n_pile = (uint8_t)cnt;
    for (int j = 0; j < s.n_pile; ++j) {
        int c = next_card(&rd, AT_PILE);
        if (c < 0) return SR_E_STATE;
        s.pile[j] = (uint8_t)c;
    }
    int64_t discard = next_set(&rd, AT_DISCARD);
    if (discard < 0) return SR_E_STATE;
    s.discard = (uint32_t)discard;
    if (rd.pos != rd.n) BAD("the encoding has %d fields after the state", rd.n - rd.pos);

    uint32_t missing = rd.game;
    for (int c = 0; c < r->ncards; ++c)
        if (rd.at[c]) missing &= ~BIT(c);
    if (missing) return missing_error(r, missing, msg, msg_len);
    if (n_avail > 4) BAD("at most 4 cards are available, not %d", n_avail);
    if (to_move >= 0 && n_avail < 2)
        BAD("the player to move has no legal action: an unfinished round needs 2 to 4 available cards, not %d", n_avail);
    s.n_avail = (uint8_t)n_avail;

    if (last_guard(r, &s, msg, msg_len, loose) != SR_OK) return SR_E_STATE;
    memcpy(state, &s, sizeof s);
    return SR_OK;
#undef NEXT
#undef BAD
}

int cv_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len) {
    return decode_state(rules, in, n, state, msg, msg_len, 0);
}

int cv_decode_state_loose(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len) {
    return decode_state(rules, in, n, state, msg, msg_len, 1);
}
