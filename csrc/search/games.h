/* games.h - sr_game adapters of the games in csrc/. */
#ifndef TABULEIRO_SEARCH_GAMES_H
#define TABULEIRO_SEARCH_GAMES_H
#include "game.h"
#include "../capivarias.h"
#include "../capulana.h"

/* Fill g with the Capivárias contract over rules r (r must outlive g). */
void cv_search_game(const cv_rules *r, sr_game *g);

/* Capivárias greedy choice: the action after which the mover's round score
 * minus the opponent's is highest (the river as scored if the move ends the
 * round; a won game counts above any score), ties broken by rng. Returns an
 * index into legal[0..n). */
int cv_greedy_index(const cv_rules *r, const cv_state *s, const int *legal, int n, uint64_t *rng);

/* Fill g with the Capulana contract over rules r (r must outlive g). */
void cp_search_game(const cp_rules *r, sr_game *g);

/* Capulana greedy choice (index into legal[0..n)): in a weaving turn, the
 * first action of the weaving_options step with the best final score (R11)
 * for the mover, ties by rng; in the offer phase, uniform. Allocates the
 * options buffer (once per call, not per simulation); -1 if memory fails. */
int cp_greedy_index(const cp_rules *r, const cp_state *s, const int *legal, int n, uint64_t *rng);

#endif
