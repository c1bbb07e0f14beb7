/* search.h - Monte Carlo searches over the sr_game contract (game.h).
 *
 *   SR_FLATMC  flat Monte Carlo: root actions in turn, one determinization
 *              and one rollout per iteration, best mean wins.
 *   SR_MCTS    UCT over determinized worlds: one tree over action histories,
 *              a fresh determinization of the root per iteration; children
 *              appear as actions become legal in some world.
 *   SR_ISMCTS  information-set MCTS (Cowling, Powley, Whitehouse 2012): nodes
 *              keyed by (player to act, information-state key; or the game
 *              policy's coarser search_key), availability counts in UCB,
 *              max^n backups for 2-5 players.
 *
 * Budgets: iterations and/or wall time. Nodes come from pools allocated once
 * per search; when the cap is reached the tree stops growing and iterations
 * go on as rollouts below the frontier. Root parallelism: `threads` trees
 * searched independently (seeds derived per thread), root statistics merged
 * in thread order, so a search with an iteration budget is deterministic.
 */
#ifndef TABULEIRO_SEARCH_H
#define TABULEIRO_SEARCH_H
#include "../game.h"

typedef enum { SR_FLATMC = 0, SR_MCTS = 1, SR_ISMCTS = 2 } sr_kind;
typedef enum { SR_ROLLOUT_RANDOM = 0, SR_ROLLOUT_HEURISTIC = 1 } sr_rollout;

#define SR_MAX_THREADS 64
#define SR_MAX_NODES ((int64_t)1 << 26)  /* node cap per thread: about 4 GiB of tree at most */

/* What the search values and how it plays below the tree (OpenSpiel's
 * Evaluator): built from a game's sr_policy and the agent's choices, so the
 * game's own returns stay its true returns. */
typedef struct {
    sr_pick_fn rollout;        /* rollout policy; NULL = uniform */
    /* value of a finished rollout per player; NULL = the game's true returns */
    void (*value)(const void *rules, const void *state, double *out);
    /* move prior for progressive widening; NULL = none */
    int (*prior)(const void *rules, const void *state, const int *legal, int n, double *out);
    /* the prior at the root (computed once per tree); NULL = prior there too */
    int (*root_prior)(const void *rules, const void *state, const int *legal, int n, double *out);
    double root_bias;          /* the policy's root_bias with the prior on, else 0 */
    /* rollout horizon: stop when phase() changes, value by horizon_value; NULL = play to the end */
    sr_phase_fn phase;
    void (*horizon_value)(const void *rules, const void *state, double *out);
    /* control variates: each uniform rollout corrected by this baseline (the
     * policy's rollout_baseline); NULL = plain rollouts */
    void (*baseline)(const void *rules, const void *state, double *out);
    /* ISMCTS's node key; NULL = the game's infostate_key */
    uint64_t (*node_key)(const void *rules, const void *state, int player);
} sr_evaluator;

/* The evaluator an agent asks for: heuristic or uniform rollouts, the shaped
 * reward or the true returns, the prior on or off, rollouts to the end or to
 * the policy's horizon, uniform rollouts corrected by the policy's baseline
 * or not (each only where the policy has one; control variates only with
 * uniform rollouts, whose expectation they need). */
void sr_make_evaluator(const sr_policy *policy, int heuristic_rollout, int shaped, int prior, int horizon,
                       int control_variates, sr_evaluator *out);

typedef struct {
    int kind;                  /* sr_kind */
    uint64_t seed;
    int64_t iterations;           /* 0 = no iteration limit (then time_limit > 0) */
    double time_limit;         /* seconds; 0 = none */
    double c;                  /* UCT exploration constant */
    int rollout;               /* sr_rollout */
    int threads;               /* 1..SR_MAX_THREADS */
    int64_t max_nodes;            /* node cap per thread (memory), 1..SR_MAX_NODES */
    const volatile int *stop;  /* read before every iteration, the first included: nonzero ends the
                                  search early; may be NULL. A flag already set when the search
                                  starts: 0 iterations, stopped = 1, best = the lowest legal id
                                  (a root with one legal action is never searched) */
} sr_params;

typedef struct {
    int action;
    int64_t visits;
    double mean;               /* mean return of the searching player */
} sr_root_stat;

typedef struct {
    int n;                     /* root actions */
    sr_root_stat stats[SR_MAX_LEGAL];
    int64_t iterations;           /* over all threads */
    int64_t nodes;                /* tree nodes created, over all threads */
    int pool_full;             /* a tree hit its node cap */
    int stopped;               /* the stop flag ended the search (the result is the best so far) */
    int best;                  /* chosen action */
} sr_result;

/* Search from `root` for the player to move, valuing rollouts with `ev`.
 * Returns SR_OK (out filled; out->stopped if the stop flag ended it),
 * SR_E_TERMINAL (the root is over), SR_E_PARAM (kind, budget, threads, c,
 * node cap), SR_E_NOMEM, or SR_E_STUCK (a world with no legal action before
 * the end: never a hang). */
int sr_search(const sr_game *g, const sr_evaluator *ev, const void *root, const sr_params *p, sr_result *out);

#endif
