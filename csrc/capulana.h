/* capulana.h - Capulana rules engine (RULES.md part 1, docs/engine-notes.md).
 *
 * The card table and the objectives are data (cp_rules, read from the
 * shipped CSVs by cp_load_rules, capulana_game.h); no card face is written
 * in C. The game contract's table and state codec are in capulana_game.c. The state (cp_state) is a flat POD struct of at most 512
 * bytes: clone is one memcpy.
 *
 * Card ids: 0..55 = fabric cards F01..F56, 56..60 = initial cards I1..I5.
 * Every set of cards (hands, offers, known cards) is a uint64_t mask over ids.
 * A capulana row is held as six bit planes over its visible strips (bit 0 =
 * the rightmost strip): a strip is a 3-bit colour code and a 3-bit pattern
 * code, bit j of plane k is bit k of strip j's code. Appending a card is a
 * shift and an OR of the card's precomputed nibbles; covering k strips is a
 * right shift; scoring (R10) is bit-parallel over the planes.
 *
 * Action ids (RULES 1.6): 0..4 bid k, 5..60 offer F01..F56, 61 done, 62 stop,
 * 63 + 14*c + 7*orientation + m weave fabric card c; 847 ids.
 *
 * All functions are pure C, allocate nothing, and are thread-safe on
 * distinct states (the rules are read only after cp_rules_init).
 */
#ifndef TABULEIRO_CAPULANA_H
#define TABULEIRO_CAPULANA_H
#include <stdint.h>
#include <stddef.h>

#define CP_MAX_PLAYERS 5
#define CP_MIN_PLAYERS 2
#define CP_NFABRIC 56
#define CP_NINITIAL 5
#define CP_NCARDS 61
#define CP_NOBJECTIVES 10
#define CP_REVEALED_OBJECTIVES 3
#define CP_HAND_SIZE 7
#define CP_ROUNDS 4
#define CP_MAX_OFFER_CARDS 3
#define CP_NUM_ACTIONS 847
#define CP_MAX_ACTIONS 848            /* at least any legal-action list */
#define CP_MAX_ROW 12                 /* cards in one row, initial included (a game places at most 9) */
#define CP_MAX_STRIPS 64              /* visible strips one row can hold (a game reaches at most 35) */
#define CP_NAME_LEN 8
#define CP_NONE 0xFF

/* action ids */
#define CP_A_BID 0
#define CP_A_OFFER 5
#define CP_A_DONE 61
#define CP_A_STOP 62
#define CP_A_WEAVE 63

/* strip codes: colour in planes 0..2, pattern in planes 3..5 */
#define CP_RAW 0                      /* "--" (both halves) */
#define CP_WILD 7                     /* "*" in either place */
/* colours 1..5 = Y G R B O ; patterns 1..5 = D T C Z L */

/* phases */
#define CP_PHASE_OFFER 0
#define CP_PHASE_WEAVE 1
#define CP_PHASE_OVER 2

/* card kinds */
#define CP_KIND_FABRIC 0
#define CP_KIND_INITIAL 1

/* objective keys (capulana_objectives.csv "key") */
enum {
    CP_OBJ_LONG_COLOR = 0,     /* a colour set of >= 6 strips */
    CP_OBJ_LONG_PATTERN,       /* a pattern set of >= 6 strips */
    CP_OBJ_THREE_COLORS,       /* colour sets in >= 3 colours */
    CP_OBJ_THREE_PATTERNS,     /* pattern sets in >= 3 patterns */
    CP_OBJ_LONG_CAPULANA,      /* >= 16 visible strips */
    CP_OBJ_NO_LOOSE_STRIP,     /* >= 12 visible strips, each inside a set */
    CP_OBJ_TWO_WILDS,          /* >= 2 visible wild strips */
    CP_OBJ_SAVER,              /* >= 4 cards in hand */
    CP_OBJ_MANY_PIECES,        /* >= 8 cards in the row, initial included */
    CP_OBJ_PERFECT_MATCH,      /* 3 consecutive strips inside one colour and one pattern set */
    CP_OBJ_NKEYS
};

typedef struct {
    char name[CP_NAME_LEN];
    uint8_t kind;              /* CP_KIND_* */
    uint8_t black;             /* 1 = black value stripe, 0 = purple */
    uint8_t value;             /* 5..30 for fabric cards, 0 for initial cards */
    uint8_t nstrips;           /* 4 (fabric) or 3 (initial) */
    uint8_t colour[4];         /* strip colours left to right (codes above) */
    uint8_t pattern[4];        /* strip patterns left to right */
} cp_card_def;

typedef struct {
    char name[CP_NAME_LEN];
    uint8_t points;
    uint8_t key;               /* CP_OBJ_* */
} cp_objective_def;

typedef struct {
    cp_card_def card[CP_NCARDS];
    cp_objective_def obj[CP_NOBJECTIVES];
    uint64_t fabric_mask, black_mask, purple_mask;
    uint64_t clean_mask;               /* fabric cards with no raw strip */
    uint8_t nib[CP_NCARDS][2][6];      /* plane nibbles per orientation (bit 3 = leftmost strip) */
    uint8_t rawnib[CP_NCARDS][2];      /* raw strips per orientation, same bit order */
    uint8_t nblack;
    uint8_t black_ids[CP_NFABRIC];     /* black cards in id order */
    uint8_t purple_ids[CP_NFABRIC];
    uint8_t npurple;
} cp_rules;

/* One capulana row's visible strips. */
typedef struct {
    uint64_t pl[6];
} cp_strips;

typedef struct {
    uint64_t rng;                       /* generator state = JSON "seed" (no event after setup draws) */
    uint64_t hold[CP_MAX_PLAYERS];      /* hand + the cards lying in the player's offers */
    uint64_t offered;                   /* cards lying in an offer, closed or open */
    uint64_t second;                    /* cards lying in second offers */
    uint64_t known;                     /* R6: cards whose holder is public */
    cp_strips row[CP_MAX_PLAYERS];      /* visible strips of each capulana */
    uint8_t rcard[CP_MAX_PLAYERS][CP_MAX_ROW]; /* placed cards in order; [0] is the initial card */
    uint8_t place[CP_NFABRIC / 2];      /* placement q (0..13) of each woven fabric card, 2 per byte */
    uint8_t deck[CP_NFABRIC];           /* deck[deck_top .. deck_n), top first */
    uint8_t deck_top, deck_n;
    uint8_t slots[CP_MAX_PLAYERS];      /* announced cards (offer phase) */
    uint8_t offer_slot[2 * CP_MAX_PLAYERS]; /* slot of the k-th offer of the round */
    uint8_t n_offers;                   /* closed offers this round */
    uint8_t open;                       /* 1 while offer n_offers is being built */
    uint8_t rlen[CP_MAX_PLAYERS];       /* cards in each row */
    uint8_t nstrips[CP_MAX_PLAYERS];    /* visible strips of each row */
    uint8_t v[CP_MAX_PLAYERS];          /* visible strips of each row's last card */
    uint8_t woven[CP_MAX_PLAYERS];      /* cards woven in the current weaving step */
    uint8_t weave_done;                 /* bit p: p finished the weaving turn */
    uint8_t players, round, start, phase, to_move; /* to_move = CP_NONE once over */
    uint16_t objectives;                /* bit i: objective i revealed */
} cp_state;

/* One complete weaving step (see cp_weaving_options). */
typedef struct {
    cp_strips row;           /* the resulting visible strips */
    int32_t next;            /* internal (dedup chain) */
    uint32_t hash;           /* internal (hash of the row) */
    int16_t actions[3];      /* the atomic actions, in order */
    uint8_t n_actions;       /* 1..3; 0- and 1-card steps end with stop */
    uint8_t ncards;          /* cards woven: 0, 1 or 2 */
    uint8_t nstrips, v;      /* resulting row length and last card's visible count */
    int16_t score;           /* capulana score of the resulting row (R10) */
    int16_t final_score;     /* final score as it would then stand (R11, objectives) */
} cp_weave_option;

/* One scored set of a row (cp_score_sets). */
typedef struct {
    uint8_t kind;            /* 0 = colour set, 1 = pattern set */
    uint8_t symbol;          /* 1..5: YGRBO or DTCZL */
    uint8_t start;           /* 0-based, counted from the left */
    uint8_t length;
} cp_set;

/* Fill r from the 61 card rows (ids 0..55 fabric, 56..60 initial) and the 10
 * objectives. Returns 0, or -1 if the tables cannot be used (wrong kinds or
 * counts, a strip code out of range, an initial card with a raw strip, fewer
 * than 35 black cards, an unknown objective key). */
int cp_rules_init(cp_rules *r, const cp_card_def *cards, const cp_objective_def *objs);

/* Set up a new game exactly as engine-notes "Setup" says (R1, R2); players
 * must be 2..5. */
void cp_new_game(const cp_rules *r, cp_state *s, int players, uint64_t seed);

static inline int cp_is_terminal(const cp_state *s) { return s->phase == CP_PHASE_OVER; }

/* The player who makes the k-th offer (0-based) of the round (RULES 1.3). */
static inline int cp_offerer(const cp_state *s, int k) {
    int n = s->players;
    return k < n ? (s->start + k) % n : (s->start + 2 * n - 1 - k) % n;
}

/* Write the legal action ids, sorted ascending, to buf (CP_MAX_ACTIONS long);
 * return the count. 0 only for terminal states (and states cp_check rejects). */
int cp_legal_actions(const cp_rules *r, const cp_state *s, int *buf);

/* 1 if action is legal in s (same answer as membership in cp_legal_actions). */
int cp_is_legal(const cp_rules *r, const cp_state *s, int action);

/* Apply a legal action (not checked). The auction resolves by itself when the
 * last offer closes (R5, R6); a weaving turn ends after the second card. */
void cp_apply(const cp_rules *r, cp_state *s, int action);

/* Apply action if legal and return 0; else return -1, s unchanged. */
int cp_apply_checked(const cp_rules *r, cp_state *s, int action);

/* Capulana score of a row (R10): colour-set points + pattern-set points. */
int cp_row_score(const cp_strips *row, int nstrips);

/* Final score of each player as it would stand now (R10 + R11 objectives). */
void cp_scores(const cp_rules *r, const cp_state *s, int *out);

/* Returns: 1/k for each of k tied winners once over, all 0 before (R11). */
void cp_returns(const cp_rules *r, const cp_state *s, double *out);

/* Notation of an action id (RULES 1.6) into buf; returns length or -1. */
int cp_action_to_string(const cp_rules *r, int action, char *buf, size_t n);

/* Rebuild row p's strips, nstrips and v from its cards and placements;
 * returns 0, or 1 + the index of the first bad entry (1 for a row that does
 * not start with an initial card or has 0 or more than CP_MAX_ROW cards; an
 * entry that breaks R8 or makes the row outgrow CP_MAX_STRIPS). Used by
 * from_dict, cp_check and determinize. */
int cp_replay_row(const cp_rules *r, cp_state *s, int p);

/* Placement q (0..13) of fabric card c in the state (valid if c is woven). */
static inline int cp_place_of(const cp_state *s, int c) {
    return (s->place[c >> 1] >> ((c & 1) * 4)) & 15;
}
static inline void cp_set_place(cp_state *s, int c, int q) {
    int sh = (c & 1) * 4;
    s->place[c >> 1] = (uint8_t)((s->place[c >> 1] & ~(15 << sh)) | (q << sh));
}

/* Mask of the cards player p wove in the current weaving step. */
uint64_t cp_woven_mask(const cp_state *s, int p);

/* The holder of a known card (R6): the player whose hand, offers or current
 * weaving holds it, or -1. */
int cp_holder(const cp_state *s, int c);

/* Draw a full state consistent with what `player` has seen (view(player)),
 * uniformly over those states: others' unknown hand and offer cards, the deck
 * order and, for every other player who has finished (or is in) their weaving
 * turn of the current step, how many cards they wove (0, 1 or 2; 0 or 1 mid
 * turn), which and in which placements (R8, R9), jointly with their hands
 * (issue 13; the algorithm and its cost: docs/engine-notes.md). Known cards
 * (R6) stay with their holder (in hand, in an offer, or woven this step);
 * unknown cards of others are drawn from the unseen black cards (they must be
 * initially dealt cards) when there are enough of them, else from every
 * unseen card. The result depends only on view(player) and seed. out may
 * equal s. */
void cp_determinize(const cp_rules *r, const cp_state *s, int player, uint64_t seed, cp_state *out);

/* The determinization before issue 13 (kept selectable to measure its effect
 * on play: game parameter "determinize" 0): others' weaving of the current
 * step is undone instead of drawn. */
void cp_determinize_legacy(const cp_rules *r, const cp_state *s, int player, uint64_t seed, cp_state *out);

/* 64-bit hash of everything `player` can see (the information set): equal for
 * two states with equal view(player). */
uint64_t cp_infostate_key(const cp_rules *r, const cp_state *s, int player);

/* Every complete weaving step open to the player to move (from the current
 * point of their turn): 0, 1 or 2 cards with placements, each as its atomic
 * action ids (0- and 1-card steps end with stop), deduplicated by the
 * resulting visible strips (the first in action order is kept), with the
 * R10 score and the R11 final score it yields. Writes at most max options;
 * returns their number, or -1 if more than max exist (retry larger), or 0
 * outside a weaving turn. */
int cp_weaving_options(const cp_rules *r, const cp_state *s, cp_weave_option *out, int max);

/* R10 breakdown of a row of strips given as codes (colour[i], pattern[i],
 * left to right): writes the sets (colour sets then pattern sets, each by
 * start then symbol) to out (max entries) and returns their number; *total
 * gets the score. n must be <= CP_MAX_STRIPS. */
int cp_score_sets(const uint8_t *colour, const uint8_t *pattern, int n, cp_set *out, int max, int *total);

/* R11: which objectives of the mask objectives (bit i: objective i, the
 * row of capulana_objectives.csv) a row meets, as a mask; the row is n strips
 * given as codes (colour[i], pattern[i], left to right; n is clamped to
 * CP_MAX_STRIPS), made of rlen cards (the initial one included), its owner
 * holding hand cards. The same test cp_scores adds the points of; the TUI
 * shows it per objective. */
uint16_t cp_objectives_met(const cp_rules *r, uint16_t objectives, const uint8_t *colour, const uint8_t *pattern,
                           int n, int rlen, int hand);

/* Visible strips of row p as codes, left to right; returns their number. */
int cp_row_strips(const cp_state *s, int p, uint8_t *colour, uint8_t *pattern);

/* Check a state's internal consistency (what from_dict enforces beyond the
 * JSON shape: every card in one place, rows legal when replayed, offer order,
 * R3, R4, known holders, to_move, raw strips (R9: also each row as it stood
 * when the current weaving step began, which views and determinize show),
 * deck size, a legal action for the player to move), then the counts the
 * rules imply for the phase and round (3 objectives, the deck's exact size,
 * purple cards out of the deck, each player's cards and row length, R6 for
 * purple cards: issue 26, capulana.c count_check); returns 0 or writes a
 * message and returns -1. Every state play reaches from a new game passes. */
int cp_check(const cp_rules *r, const cp_state *s, char *msg, size_t n);

/* cp_check without the counts: for tests that compose a position isolating
 * one ruling (cp_decode_state_loose); never what a public loader uses. */
int cp_check_loose(const cp_rules *r, const cp_state *s, char *msg, size_t n);

#endif
