/* policies.h - the search policies of the registered games (rollout
 * heuristics, greedy play, shaped rewards, move priors): search policy, not
 * rules, so they live beside the search and meet their games only in
 * csrc/registry.c. */
#ifndef TABULEIRO_SEARCH_POLICIES_H
#define TABULEIRO_SEARCH_POLICIES_H
#include "../game.h"

extern const sr_policy cv_policy;   /* Capivárias: cv_policy.c */
extern const sr_policy cp_policy;   /* Capulana: cp_policy.c */
extern const sr_policy toy_policy;  /* Toy: toy_policy.c */

#endif
