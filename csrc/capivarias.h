/* capivarias.h - Capivárias rules engine (RULES.md part 2).
 *
 * The card table is data (cv_rules, filled from the shipped CSV at start-up);
 * the state (cv_state) is a flat POD struct: clone is one memcpy. Every river
 * side is a 32-bit mask of card indices. All functions that take a state and
 * the rules are pure C, allocate nothing and are thread-safe on distinct
 * states (the rules are read only after cv_rules_init).
 *
 * Action ids (RULES 2.7): id = ((card*4) + seg) * (C+1) + target, where C is
 * the number of cards in the table, seg 3 = none and target C = none.
 */
#ifndef TABULEIRO_CAPIVARIAS_H
#define TABULEIRO_CAPIVARIAS_H
#include <stdint.h>
#include <stddef.h>

#define CV_MAX_CARDS 32
#define CV_NONE 0xFF
#define CV_SEGMENTS 3
#define CV_MAX_ROUNDS 9                      /* R30 */
#define CV_MAX_ACTIONS 64                    /* more than any position needs */
#define CV_NAME_LEN 8

typedef enum {
    CV_KIND_HERD = 0,        /* capicria, capiôx, capitchê */
    CV_KIND_CAPIOLIN,        /* V: a herd of its own */
    CV_KIND_PUSH,            /* capionça: push */
    CV_KIND_SWITCH_ONE,      /* capionça: switch one */
    CV_KIND_SWITCH_ALL,      /* capionça: switch all */
    CV_KIND_CAPITICO,        /* K */
    CV_KIND_CAPISSOR         /* S */
} cv_kind;

#define CV_HERD_CAPIOLIN 3   /* herd index of the capiolins; 0..2 are C, X, T */
#define CV_NUM_HERDS 4

typedef struct {
    char name[CV_NAME_LEN];
    uint8_t kind;            /* cv_kind */
    uint8_t herd;            /* 0..3 or CV_NONE */
    int8_t number;           /* capybara number, 0 otherwise */
    int8_t modifier;         /* river_modifier */
    uint8_t expansion;       /* 1 = expansion card */
} cv_card_def;

typedef struct {
    int ncards;                         /* C */
    int num_actions;                    /* 4*C*(C+1) */
    cv_card_def card[CV_MAX_CARDS];
    uint32_t herd_mask[CV_NUM_HERDS];   /* capybaras of each herd */
    uint32_t capybara_mask;             /* herd cards and capiolins */
    uint32_t capiolin_mask;
    uint32_t capitico_mask;
    uint32_t base_mask, all_mask;       /* cards in play without / with expansion */
    uint8_t capitico_of[CV_NUM_HERDS];  /* capitico card of herd h, or CV_NONE */
    uint8_t kind_of[CV_MAX_CARDS], herd_of[CV_MAX_CARDS];   /* dense copies of card[] for hot loops */
    int8_t number_of[CV_MAX_CARDS], modifier_of[CV_MAX_CARDS];
    uint32_t same_modifier[CV_MAX_CARDS];  /* cards whose river modifier is card c's (c included) */
    uint16_t decode[4 * CV_MAX_CARDS * (CV_MAX_CARDS + 1)];  /* id -> card | seg<<5 | target<<7 */
    uint32_t beats[CV_MAX_CARDS];       /* the cards capybara c beats by number (R25; read within a herd) */
    int16_t number_sum[4][256];         /* [j][b]: the numbers of the capybaras among cards 8j..8j+7 in b */
} cv_rules;

typedef struct {
    uint64_t rng;                      /* generator state = JSON "seed" */
    uint32_t side[CV_SEGMENTS][2];     /* cards lying on each side (capybaras, capiticos) */
    uint32_t discard;                  /* public discard pile */
    uint8_t river[CV_SEGMENTS];        /* river card of each segment */
    uint8_t capionca[CV_SEGMENTS];     /* capionça under each segment or CV_NONE */
    uint8_t avail[4];                  /* available row, left to right */
    uint8_t n_avail;
    uint8_t pile_top;                  /* pile = pile[pile_top .. n_pile) , top first */
    uint8_t n_pile;
    uint8_t round;                     /* 1..9 */
    uint8_t wins[2];                   /* round wins */
    uint8_t to_move;                   /* 0/1, CV_NONE when over */
    uint8_t last_taker;                /* CV_NONE in round 1 */
    uint8_t winner;                    /* 0/1, CV_NONE (none yet / R30 draw) */
    uint8_t expansion;
    uint8_t pile[CV_MAX_CARDS];
} cv_state;

/* Error codes of cv_rules_init and cv_check. */
#define CV_OK 0

/* Fill r from n card definitions (only name, kind, herd, number, modifier,
 * expansion are read). Returns 0, or -1 if the table cannot be used
 * (n > 32, 4C(C+1) overflow, two capiticos of one herd, bad herd). */
int cv_rules_init(cv_rules *r, const cv_card_def *defs, int n);

/* Set up a new game: round 1, player first_player to move, shuffled from seed. */
void cv_new_game(const cv_rules *r, cv_state *s, uint64_t seed, int expansion, int first_player);

/* Mask of the cards in play in s (base deck or with the expansion). */
uint32_t cv_game_mask(const cv_rules *r, const cv_state *s);

static inline int cv_is_terminal(const cv_state *s) { return s->to_move == CV_NONE; }

/* A round's last take: two cards available and the pile empty (2.3: the
 * round ends when one is left). */
static inline int cv_is_last_take(const cv_state *s) { return s->n_avail == 2 && s->pile_top >= s->n_pile; }

/* The cards still to be taken this round: the available row and the pile. */
static inline int cv_cards_left(const cv_state *s) { return s->n_avail + s->n_pile - s->pile_top; }

/* Write the sorted legal action ids to buf (CV_MAX_ACTIONS long); return count.
 * Terminal states have none. */
int cv_legal_actions(const cv_rules *r, const cv_state *s, int *buf);

/* Apply a legal action (not checked: use cv_apply_checked from untrusted input). */
void cv_apply(const cv_rules *r, cv_state *s, int action);

/* Apply a legal action; if it ends a round, copy the state as it stood when
 * the round was scored (before the reshuffle) into *river and return 1; else
 * return 0 (river untouched). */
int cv_apply_round_end(const cv_rules *r, cv_state *s, int action, cv_state *river);

/* Apply a legal action for what it does to the match, not to play on: if it
 * ends a round, write the round's scores (R28, the river as it was scored)
 * to sc, settle the round wins and the game's end (R29, R30) as cv_apply
 * does, but leave the next round undealt, and return 1: s is then good for
 * its match fields only (wins, winner, round, to_move, last_taker), not for
 * play (it has no available card, so no legal action). Else apply as
 * cv_apply and return 0 (sc untouched). The search's horizon values a
 * round's last take with it, without a reshuffle. */
int cv_apply_scored(const cv_rules *r, cv_state *s, int action, int sc[2]);

/* Apply action if legal and return 0; else return -1 and leave s unchanged. */
int cv_apply_checked(const cv_rules *r, cv_state *s, int action);

/* Round score of each player as the river stands now (R28). */
void cv_scores(const cv_rules *r, const cv_state *s, int out[2]);

/* R29, R30: count a round won by round_winner (0 or 1; -1 for a tie) into
 * s's wins, and end the game (to_move CV_NONE; winner, or CV_NONE for
 * R30's draw) where that decides it or the round was the last. Touches
 * only wins, to_move and winner; returns 1 when the game is over. */
int cv_settle_round(cv_state *s, int round_winner);

/* Segment by segment, what `player`'s side scores now (R28, as cv_scores
 * sums it) and how many capybaras it holds. */
void cv_segment_scores(const cv_rules *r, const cv_state *s, int player, int score[CV_SEGMENTS],
                       int capybaras[CV_SEGMENTS]);

/* Returns: +1/-1 for winner/loser once over, 0/0 otherwise and on a draw. */
void cv_returns(const cv_state *s, double out[2]);

/* Decode an action id; returns 0 or -1 if out of range. */
int cv_decode(const cv_rules *r, int action, int *card, int *seg, int *target);
int cv_encode(const cv_rules *r, int card, int seg, int target);

/* Notation of an action in state s (RULES 2.7) into buf; returns length or -1. */
int cv_action_to_string(const cv_rules *r, int action, char *buf, size_t n);

/* Sample a state consistent with what `player` sees (R20): the river cards and
 * the pile order are redrawn among the unseen cards, keeping each river
 * card's modifier and the pile top's modifier. out may equal s. */
void cv_determinize(const cv_rules *r, const cv_state *s, int player, uint64_t seed, cv_state *out);

/* A 64-bit hash of everything `player` sees (the view): equal views, equal keys. */
uint64_t cv_infostate_key(const cv_rules *r, const cv_state *s, int player);

/* Check a state's internal consistency (cards, round, last_taker, winner,
 * round_wins at most one per finished round), then the counts the rules
 * imply (issue 26: see cv_check_loose); returns 0 or writes a message
 * and returns -1. The last guard of cv_decode_state (capivarias_game.h),
 * which is the authority on loadable states. */
int cv_check(const cv_rules *r, const cv_state *s, char *msg, size_t n);

/* cv_check without the counts the rules imply (capivarias.c count_check:
 * available and pile sizes for the cards taken, whose turn it is from round
 * 2, round wins): for tests that compose a position isolating one ruling
 * (cv_decode_state_loose); never what a public loader uses. */
int cv_check_loose(const cv_rules *r, const cv_state *s, char *msg, size_t n);

#endif
