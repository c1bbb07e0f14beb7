/* games.h - sr_game adapters of the games in csrc/. */
#ifndef TABULEIRO_SEARCH_GAMES_H
#define TABULEIRO_SEARCH_GAMES_H
#include "game.h"
#include "../capivarias.h"

/* Fill g with the Capivárias contract over rules r (r must outlive g). */
void cv_search_game(const cv_rules *r, sr_game *g);

/* Capivárias greedy choice: the action after which the mover's round score
 * minus the opponent's is highest (the river as scored if the move ends the
 * round; a won game counts above any score), ties broken by rng. Returns an
 * index into legal[0..n). */
int cv_greedy_index(const cv_rules *r, const cv_state *s, const int *legal, int n, uint64_t *rng);

#endif
