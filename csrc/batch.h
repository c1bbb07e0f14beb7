/* batch.h - n games of one sr_game stepped together (tabuleiro.vector).
 *
 * The states live in one caller array (n slots of `stride` bytes, stride a
 * multiple of SR_STATE_ALIGN and >= info.state_size, the array aligned to
 * SR_STATE_ALIGN); each game i has its own generator rng[i] (rng.h), which
 * draws the seed of every new game it starts and the random legal actions
 * chosen in C, so a game's course depends on its rng word and the actions
 * given, never on n, on the other games or on threads. Nothing is allocated
 * here: every output goes to caller buffers (any of them may be NULL), and
 * what a step reads back comes only from the batch's own (sr_batch_own).
 *
 * A step applies one action to each game; a game that ends is reported
 * (done[i] = 1, rewards = its true returns) and restarted at once from a
 * fresh seed (auto-reset, Gymnasium's "same-step" mode): the observation,
 * mask and player written for it are those of the new game.
 */
#ifndef TABULEIRO_BATCH_H
#define TABULEIRO_BATCH_H
#include "game.h"

/* What a step reads back, kept where no caller can write (the batch's own
 * memory, n games, legal rows of legal_cap): the legal ids of each game's
 * player to move, their count, the current game's length and whether it
 * ended in the last step. Required: a caller that scribbles on its copies
 * of these (sr_batch_out) changes only what it reads. */
typedef struct {
    int32_t *legal;      /* n * legal_cap */
    int32_t *num_legal;  /* n */
    int32_t *length;     /* n */
    uint8_t *done;       /* n */
} sr_batch_own;

typedef struct {
    float *obs;          /* n * info.observation_size: each game's current player's observation */
    uint8_t *mask;       /* n * info.num_distinct_actions: that player's legal actions */
    float *rewards;      /* n * info.num_players: the returns of a game that ended in this step, else 0 */
    uint8_t *done;       /* n: 1 if the game ended in this step (and was restarted) */
    int32_t *player;     /* n: the player to move now */
    int32_t *length;     /* n: actions played in the current game (the finished one's length when done) */
    int32_t *legal;      /* n * legal_cap: the legal ids of the player to move, ascending */
    int32_t *num_legal;  /* n: how many */
    int legal_cap;       /* row length of legal: min(num_distinct_actions, SR_MAX_LEGAL) */
    sr_batch_own own;    /* required; the mask is updated by clearing the previous legal ids (own.legal)
                            only, so a mask the caller changed stays changed there until a reset */
} sr_batch_out;

/* Start games first..first+count-1 from seeds drawn from their rng and write
 * their outputs (done 0, rewards 0). */
void sr_batch_reset(const sr_game *g, void *states, size_t stride, uint64_t *rng, int first, int count,
                    const sr_batch_out *out);

/* Rewrite every bound output of games first..first+count-1 from their
 * current states (and done, length from the batch's own): what a newly
 * bound buffer needs before the next step (rewards are left as they are). */
void sr_batch_refresh(const sr_game *g, const void *states, size_t stride, int first, int count,
                      const sr_batch_out *out);

/* Step games first..first+count-1: actions[i] for game i, or with actions ==
 * NULL a uniformly random legal action drawn from rng[i]. Checked: if
 * actions[i] is not legal in game i, no game is changed, *bad = i and
 * SR_E_ILLEGAL is returned; else SR_OK (SR_E_STUCK if a game has no legal
 * action before its end: a bug, the game is restarted). */
int sr_batch_step(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                  int first, int count, const sr_batch_out *out, int *bad);

/* The same over [0, n) split across `threads` threads (each a contiguous
 * share; the results equal the one-thread ones). */
int sr_batch_step_threads(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                          int n, const sr_batch_out *out, int *bad, int threads);

#endif
