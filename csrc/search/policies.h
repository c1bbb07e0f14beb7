/* policies.h - the search policies of the registered games (rollout
 * heuristics, greedy play, shaped rewards, move priors): search policy, not
 * rules, so they live beside the search and meet their games only in
 * csrc/registry.c. */
#ifndef TABULEIRO_SEARCH_POLICIES_H
#define TABULEIRO_SEARCH_POLICIES_H
#include "../game.h"

extern const sr_policy cv_policy;   /* Capivárias: cv_policy.c */
/* Capivárias' round horizon values each later round as won by either player
 * with probability (1 - CV_TIE_RATE) / 2 or tied: 4.8% of 3,847 rounds of
 * greedy self-play were tied, 4.6% of 3,698 random ones. */
#define CV_TIE_RATE 0.05
extern const sr_policy cp_policy;   /* Capulana: cp_policy.c */
extern const sr_policy toy_policy;  /* Toy: toy_policy.c */

#endif
