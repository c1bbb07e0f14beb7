/* game.h - the game contract every search in csrc/search/ runs on
 * (the OpenSpiel shape: current player, sorted legal actions, apply, copy,
 * terminal, returns, plus determinize and an information-state key).
 *
 * A state is a flat POD blob of state_size bytes: copying it is a memcpy.
 * Every function is pure and thread-safe on distinct states. */
#ifndef TABULEIRO_SEARCH_GAME_H
#define TABULEIRO_SEARCH_GAME_H
#include <stddef.h>
#include <stdint.h>

#define SR_MAX_PLAYERS 5
#define SR_MAX_LEGAL 1024        /* legal actions in any position of any game */
#define SR_MAX_STATE 1024        /* bytes of the largest state */
#define SR_TERMINAL (-4)         /* current_player of a finished game (OpenSpiel's value) */

typedef struct sr_game {
    const char *name;
    const void *rules;           /* the game's card tables, read only */
    size_t state_size;           /* <= SR_MAX_STATE */
    int num_actions;             /* distinct action ids: [0, num_actions) */
    /* players in this state (2 for Capivárias, 2-5 for Capulana) */
    int (*num_players)(const void *rules, const void *state);
    /* player to move, or SR_TERMINAL */
    int (*current_player)(const void *rules, const void *state);
    /* sorted legal ids into buf (SR_MAX_LEGAL long); the count */
    int (*legal_actions)(const void *rules, const void *state, int *buf);
    /* apply a legal action */
    void (*apply)(const void *rules, void *state, int action);
    /* per-player returns once terminal (in [-1, 1]) */
    void (*returns)(const void *rules, const void *state, double *out);
    /* a full state consistent with what `player` sees; depends only on that and the seed */
    void (*determinize)(const void *rules, const void *state, int player, uint64_t seed, void *out);
    /* 64-bit hash of what `player` sees */
    uint64_t (*infostate_key)(const void *rules, const void *state, int player);
    /* the cheap heuristic rollout policy: index into legal[0..n) */
    int (*heuristic_action)(const void *rules, const void *state, const int *legal, int n, uint64_t *rng);
    /* optional move prior: fill out[i] for legal[i] and return 1, or return 0
     * when it has no opinion here (with out == NULL: only say which). With a prior, trees expand the best-rated
     * untried action first and widen progressively (1 + sqrt(visits) children). */
    int (*action_prior)(const void *rules, const void *state, const int *legal, int n, double *out);
} sr_game;

#endif
