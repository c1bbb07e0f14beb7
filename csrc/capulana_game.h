/* capulana_game.h - Capulana on the game contract (game.h): the rules read
 * from capulana_fabric_cards.csv and capulana_objectives.csv, the instance
 * table and the state codec.
 *
 * Encoding of a state (int64 fields; -1 = null; a list is a count and then
 * that many items; card id = CSV row index: 0..55 = F01..F56, 56..60 =
 * I1..I5; objective id = row index 0..9). It is the JSON of RULES.md part 4
 * with names replaced by ids:
 *   players, round, start_player, phase (0 offer, 1 weave, 2 over),
 *   to_move (-1 once over), seed (the generator word, a uint64 bit pattern
 *   read as int64),
 *   objectives: n, ids ascending,
 *   deck: n, ids top first,
 *   slots: n, ids left to right (n = players in the offer phase, else 0),
 *   closed offers: n, then per offer in the order made: player, slot,
 *                  n, card ids ascending,
 *   open offer: 0, or 1 then player, slot, n, card ids ascending,
 *   hands: for each player, n, ids ascending (cards lying in offers are not
 *          in the hand),
 *   capulanas: for each player, n, then n pairs (card, q) in placement
 *          order, q = 7 * orientation (n 0, r 1) + placement index in
 *          "+ >1 >2 >3 <1 <2 <3"; entry 0 is the initial card with q 0,
 *   woven: one count per player, weave_done: one 0/1 per player,
 *   known (R6): n, then n pairs (card, holder), card ids ascending.
 */
#ifndef TABULEIRO_CAPULANA_GAME_H
#define TABULEIRO_CAPULANA_GAME_H
#include "game.h"
#include "capulana.h"

/* Instance parameters (sr_game.params), as the registry lists them. */
#define CP_PARAM_PLAYERS 0        /* 2..5 */
#define CP_PARAM_LEGACY_DETERMINIZE 1 /* 0 = determinize draws others' weaving (issue 13); 1 = the old one, which undoes it */

/* Fill rules (a cp_rules) from texts[0], the full text of
 * capulana_fabric_cards.csv (columns id, kind, stripe, value, strips), and
 * texts[1], capulana_objectives.csv (columns id, points, key, condition):
 * a header line naming the columns (in any order), LF or CRLF, quoted
 * fields, blank lines ignored. SR_OK, or SR_E_STATE with a message naming
 * the first bad line; on failure the rules are zeroed. */
int cp_load_rules(void *rules, const char *const *texts, char *msg, size_t n);

/* Fill every field of g for rules (a loaded cp_rules, which must outlive g)
 * and params [players, legacy_determinize]. SR_OK, or SR_E_PARAM with a message. */
int cp_make_game(const void *rules, const int *params, sr_game *g, char *msg, size_t n);

/* The codec of the table (see the layout above). cp_encode_state writes the
 * canonical fields of a cp_state and returns their count, or -SR_E_RANGE if
 * max is too small. cp_decode_state builds a cp_state from any input (it
 * reads at most n fields and writes the state only on success): SR_OK, or
 * SR_E_STATE with a message naming the first problem (never the seed).
 * Every state it accepts re-encodes to exactly its input, has a legal
 * action unless finished, and so do its determinizations for every player.
 * It accepts any player count 2..5: a caller holding an instance compares
 * field 0 with the instance's players. */
int cp_encode_state(const void *rules, const void *state, int64_t *out, int max);
int cp_decode_state(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);
/* cp_decode_state without the counts the rules imply (cp_check_loose). */
int cp_decode_state_loose(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);

/* Most actions any game (or any accepted state) of `players` can still
 * take: 4 rounds (R2) of 2 * players offers of at most 5 actions (bid, 3
 * cards, done: 1.3) and players weaving turns of at most 2 actions. */
int cp_max_game_length(int players);

#endif
