/* capivarias_game.h - Capivárias on the game contract (game.h): the rules
 * read from capivarias_cards.csv, the instance table and the state codec.
 *
 * Encoding of a state (int64 fields; -1 = null; a list is a count and then
 * that many card ids, card id = CSV row index):
 *   expansion (0/1), round (1..9), round_wins[0], round_wins[1],
 *   to_move (-1 once over), last_taker (-1 in round 1), winner (-1 = none),
 *   seed (the generator word, a uint64 bit pattern read as int64),
 *   then for segments 0, 1, 2: river card, capionça card (-1),
 *                               side 0 list, side 1 list (ascending ids; a
 *                               capitico is listed on its guardian's side),
 *   then the available list (left to right), the pile list (top first),
 *   the discard list (ascending ids).
 */
#ifndef TABULEIRO_CAPIVARIAS_GAME_H
#define TABULEIRO_CAPIVARIAS_GAME_H
#include "game.h"
#include "capivarias.h"

/* Instance parameters (sr_game.params), as the registry lists them. */
#define CV_PARAM_EXPANSION 0      /* 0 = base deck, 1 = with the expansion */
#define CV_PARAM_FIRST_PLAYER 1   /* who starts round 1 */

/* Fill rules (a cv_rules) from texts[0], the full text of
 * capivarias_cards.csv (header line naming the columns name, kind, herd,
 * number, river_modifier, expansion; LF or CRLF; blank lines ignored).
 * SR_OK, or SR_E_STATE with a message naming the first bad line; on failure
 * the rules are zeroed. */
int cv_load_rules(void *rules, const char *const *texts, char *msg, size_t n);

/* Fill every field of g for rules (a loaded cv_rules, which must outlive g)
 * and params [expansion, first_player]. SR_OK, or SR_E_PARAM / SR_E_STATE
 * with a message. */
int cv_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n);

/* The codec of the table (see the layout above). cv_encode_state writes
 * the canonical fields of a cv_state and returns their count, or
 * -SR_E_RANGE if max is too small. cv_decode_state builds a cv_state from
 * any input: SR_OK, or SR_E_STATE with a message naming the first problem
 * (never the seed); every state it accepts re-encodes to exactly its input,
 * and every state reachable from it by legal play is accepted too. */
int cv_encode_state(const void *rules, const void *state, int64_t *out, int max);
int cv_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);
/* cv_decode_state without the counts the rules imply (cv_check_loose). */
int cv_decode_state_loose(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);

/* Most actions any game (or any accepted state) can still take: 9 rounds
 * (R30) of (cards in play - 4) turns each. */
int cv_max_game_length(const cv_rules *r, int expansion);

#endif
