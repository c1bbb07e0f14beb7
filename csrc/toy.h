/* toy.h - Toy, a tiny 2-player card game that exists to prove the game
 * contract (game.h): hidden hands, a chance draw from the state's own
 * generator, a scoring rule where order matters, and a state codec. It has
 * no data file and no Cython of its own; adding it took this module, its
 * policy (search/toy_policy.c), one registry entry and python/tabuleiro/toy.py
 * (docs/adding-a-game.md).
 *
 * Rules. Six cards numbered 1..6 (card id = number - 1). A new game
 * shuffles them with the state's generator (rng.h, seeded by the seed):
 * two to player 0's hand, two to player 1's, two face down in the stock.
 * Player 0 starts. A turn plays one card of the mover's hand face up onto
 * the mover's own pile (action id = card id, notation "play N"); then, if
 * the stock has cards, the mover draws one of them uniformly at random
 * (one draw of the generator: rng_below(count), the k-th stock card in
 * card order). Next the opponent moves if they hold a card, else the mover
 * again if they do; when both hands are empty the game is over. A pile
 * scores the sum of its cards, a card played onto a higher card counting
 * double. The higher score wins: returns +1 / -1, or 0 / 0 on equal scores.
 * Each player sees their own hand, both piles, and how many cards the
 * opponent holds and the stock has, not which ones, nor the seed.
 *
 * Encoding of a state (int64 fields; a list is a count and then that many
 * card ids):
 *   to_move (-1 once over),
 *   seed (the generator word, a uint64 bit pattern read as int64),
 *   hand 0, hand 1, stock (sets: ascending ids),
 *   pile 0, pile 1 (in play order, bottom first).
 * decode checks consistency, not reachability (RULES.md part 4): every
 * card in exactly one place, sets in ascending order, the game over
 * exactly when both hands are empty, the player to move holding a card.
 */
#ifndef TABULEIRO_TOY_H
#define TABULEIRO_TOY_H
#include "game.h"
#include <stdint.h>

#define TOY_CARDS 6               /* cards 1..6, ids 0..5 */
#define TOY_HAND 2                /* cards dealt to each hand */
#define TOY_NONE 0xFF             /* to_move once the game is over */
#define TOY_MAX_GAME_LENGTH 6     /* each action puts a card on a pile for good */
#define TOY_MAX_ENCODED (2 + 5 + TOY_CARDS)   /* 2 scalars, 5 counts, each card once */

/* The rules: the card values (read from no file). */
typedef struct {
    int loaded;                   /* 1 once toy_load_rules filled it */
    int8_t value[TOY_CARDS];      /* card id -> number */
} toy_rules;

/* A position: a flat POD with no padding and unused pile slots zero, so
 * equal positions are equal bytes. */
typedef struct {
    uint64_t rng;                 /* splitmix64 word: the next draw */
    uint8_t hand[2];              /* card masks (bit id) */
    uint8_t stock;                /* card mask */
    uint8_t to_move;              /* 0, 1, or TOY_NONE once over */
    uint8_t n_pile[2];
    uint8_t pile[2][TOY_CARDS];   /* card ids, bottom first */
    uint8_t reserved[6];          /* always 0 (fills the struct to 32 bytes: no padding) */
} toy_state;

/* Fill rules (a toy_rules); texts is ignored (num_data 0). Always SR_OK
 * for a non-NULL rules. */
int toy_load_rules(void *rules, const char *const *texts, char *msg, size_t n);

/* Fill every field of g for loaded rules (which must outlive g); params
 * is ignored (Toy has none). SR_OK, or SR_E_STATE with a message. */
int toy_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n);

/* The score of player p's pile as it stands (the final score once over). */
int toy_pile_score(const toy_rules *r, const toy_state *s, int p);

/* The codec (layout above). toy_encode_state returns the field count, or
 * -SR_E_RANGE if max is too small. toy_decode_state accepts any input:
 * SR_OK, or SR_E_STATE with a message naming the first problem (never the
 * seed); an accepted input re-encodes to exactly itself, and every state
 * reachable from it by legal play is accepted too. */
int toy_encode_state(const void *rules, const void *state, int64_t *out, int max);
int toy_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);

#endif
