/* search.h - Monte Carlo searches over the sr_game contract (game.h).
 *
 *   SR_FLATMC  flat Monte Carlo: root actions in turn, one determinization
 *              and one rollout per iteration, best mean wins.
 *   SR_MCTS    UCT over determinized worlds: one tree over action histories,
 *              a fresh determinization of the root per iteration; children
 *              appear as actions become legal in some world.
 *   SR_ISMCTS  information-set MCTS (Cowling, Powley, Whitehouse 2012): nodes
 *              keyed by (player to act, information-state key), availability
 *              counts in UCB, max^n backups for 2-5 players.
 *
 * Budgets: iterations and/or wall time. Nodes come from pools allocated once
 * per search; when the cap is reached the tree stops growing and iterations
 * go on as rollouts below the frontier. Root parallelism: `threads` trees
 * searched independently (seeds derived per thread), root statistics merged
 * in thread order, so a search with an iteration budget is deterministic.
 */
#ifndef TABULEIRO_SEARCH_H
#define TABULEIRO_SEARCH_H
#include "game.h"

typedef enum { SR_FLATMC = 0, SR_MCTS = 1, SR_ISMCTS = 2 } sr_kind;
typedef enum { SR_ROLLOUT_RANDOM = 0, SR_ROLLOUT_HEURISTIC = 1 } sr_rollout;

typedef struct {
    int kind;                  /* sr_kind */
    uint64_t seed;
    long iterations;           /* 0 = no iteration limit (then time_limit > 0) */
    double time_limit;         /* seconds; 0 = none */
    double c;                  /* UCT exploration constant */
    int rollout;               /* sr_rollout */
    int threads;               /* >= 1 */
    long max_nodes;            /* node cap per thread (memory) */
} sr_params;

typedef struct {
    int action;
    long visits;
    double mean;               /* mean return of the searching player */
} sr_root_stat;

typedef struct {
    int n;                     /* root actions */
    sr_root_stat stats[SR_MAX_LEGAL];
    long iterations;           /* over all threads */
    long nodes;                /* tree nodes created, over all threads */
    int pool_full;             /* a tree hit its node cap */
    int best;                  /* chosen action */
} sr_result;

/* Search from `root` for the player to move. Returns 0, or -1 when the root
 * is terminal, the parameters are invalid or memory cannot be had. */
int sr_search(const sr_game *g, const void *root, const sr_params *p, sr_result *out);

/* Play uniformly random (or heuristic) actions until the game ends. */
void sr_playout(const sr_game *g, void *state, int heuristic, uint64_t *rng);

#endif
