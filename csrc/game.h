/* game.h - the one game contract of tabuleiro (the OpenSpiel shape).
 *
 * A game module (csrc/<game>.c plus csrc/<game>_game.c) fills one sr_game
 * table per game instance: GameInfo facts, the state functions (current
 * player, sorted legal actions, apply, true returns, scores, determinize,
 * information-state key), action_to_string, and the state codec (encode /
 * decode with the consistency check that from_dict and the fuzzers use).
 * The bindings, the search, perft, random playouts and every adapter use
 * only this table; nothing else in the tree knows a game's internals.
 *
 * A state is a flat POD blob of info.state_size bytes (<= SR_MAX_STATE,
 * alignment <= SR_STATE_ALIGN): copying it is a memcpy. Every function is
 * pure and thread-safe on distinct states; rules are read only.
 *
 * Search policy (rollout policies, move priors, reward shaping, greedy
 * play) is not part of a game's rules: it lives in an sr_policy table
 * (csrc/search/), joined to the game only by the registry below.
 */
#ifndef TABULEIRO_GAME_H
#define TABULEIRO_GAME_H
#include "portable.h"
#include <stddef.h>
#include <stdint.h>

#define SR_MAX_PLAYERS 5
#define SR_MAX_LEGAL 1024        /* legal actions in any position of any game */
/* bytes of the largest state (Capulana's is 504). 896, not 1024: the
 * binding's state object (the buffer inline, plus about 100 bytes of header
 * and move stack) then stays within glibc's per-thread cache of small
 * blocks (requests up to 1,032 bytes), so a new state, clone or
 * determinization allocates in ~20 instructions instead of ~450. */
#define SR_MAX_STATE 896
#define SR_STATE_ALIGN 16        /* state buffers are aligned to this */
#define SR_MAX_ENCODED 1024      /* int64 fields of an encoded state */
#define SR_MAX_PARAMS 4          /* integer parameters of a game instance */
#define SR_MSG_LEN 256           /* room for an error message */
#define SR_MAX_OBSERVATION 8192 /* floats of the largest observation tensor */
#define SR_TERMINAL (-4)         /* current_player of a finished game (OpenSpiel's value) */

/* A buffer any game's state fits in, aligned for it. */
typedef struct { TB_ALIGNAS(SR_STATE_ALIGN) uint8_t b[SR_MAX_STATE]; } sr_state_buf;

/* Error codes: 0 is success; callers tell failures apart by these. */
typedef enum {
    SR_OK = 0,
    SR_E_TERMINAL = 1,           /* the game is over: nothing to search / apply */
    SR_E_PARAM = 2,              /* a bad parameter (budget, threads, cap, player, depth) */
    SR_E_NOMEM = 3,              /* memory could not be had */
    SR_E_STATE = 4,              /* a malformed or inconsistent state (message says why) */
    SR_E_ILLEGAL = 5,            /* an action that is not legal in the state */
    SR_E_STOPPED = 6,            /* the stop flag was raised */
    SR_E_STUCK = 7,              /* an unfinished state with no legal action, or a game longer
                                    than info.max_game_length: a bug or a bad state, never a hang */
    SR_E_RANGE = 8,              /* an id or index out of range */
    SR_E_NOTATION = 9            /* text that is not a move of the game (message says why) */
} sr_error;

/* Static facts of a game instance (OpenSpiel's GameType + GameInfo). */
typedef struct {
    const char *name;            /* registry name, e.g. "capivarias" */
    int num_players;             /* players of this instance */
    int num_distinct_actions;    /* action ids are in [0, num_distinct_actions) */
    double min_utility, max_utility;  /* range of returns() */
    int max_game_length;         /* no game has more actions than this */
    int hidden_information;      /* 1 = imperfect information (view/determinize matter) */
    size_t state_size;           /* bytes of a state (<= SR_MAX_STATE) */
    int observation_size;        /* floats of observation() (<= SR_MAX_OBSERVATION) */
    int constant_sum;            /* 1 = every finished game's returns sum to utility_sum (zero-sum
                                    when it is 0); 0 = general-sum (OpenSpiel's GameType.utility) */
    double utility_sum;          /* that sum (read only when constant_sum is 1) */
    int exact_determinize;       /* 1 = determinize draws uniformly from every world consistent with the view */
} sr_game_info;

typedef struct sr_game sr_game;
struct sr_game {
    sr_game_info info;
    const void *rules;           /* the game's card tables, read only, outlive the table */
    int params[SR_MAX_PARAMS];   /* the instance's parameters, as the registry lists them */

    /* A new game from seed (the state's own generator decides every later draw). */
    void (*new_initial_state)(const sr_game *g, void *state, uint64_t seed);
    /* Player to move, or SR_TERMINAL. */
    int (*current_player)(const void *rules, const void *state);
    /* Sorted legal ids into buf (SR_MAX_LEGAL long); the count (0 only when terminal). */
    int (*legal_actions)(const void *rules, const void *state, int *buf);
    /* Apply a legal action (unchecked: see sr_apply_checked). */
    void (*apply)(const void *rules, void *state, int action);
    /* The game's true per-player returns (all 0 until terminal), in [min_utility, max_utility]. */
    void (*returns)(const void *rules, const void *state, double *out);
    /* Each player's score as the game counts it now (final scores once terminal). */
    void (*scores)(const void *rules, const void *state, int *out);
    /* A full state consistent with what `player` sees; depends only on that view and the seed. */
    void (*determinize)(const void *rules, const void *state, int player, uint64_t seed, void *out);
    /* 64-bit hash of what `player` sees: equal views, equal keys. */
    uint64_t (*infostate_key)(const void *rules, const void *state, int player);
    /* Notation of an action id into buf; its length, or -SR_E_RANGE. */
    int (*action_to_string)(const void *rules, int action, char *buf, size_t n);
    /* The state as a canonical list of int64 fields (two states behave alike iff
     * their encodings are equal); the count, or -SR_E_RANGE if max is too small. */
    int (*encode)(const void *rules, const void *state, int64_t *out, int max);
    /* Build a state from an encoding and check it (the one authority on what a
     * loadable state is): SR_OK, or SR_E_STATE with a message naming the first
     * problem. Any input, however malformed, is safe to pass. It enforces the
     * counts the rules imply for the phase and round, and accepts every state
     * play reaches from a new game (the check is closed under play). */
    int (*decode)(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);
    /* decode without the counts the rules imply for the phase and round
     * (deck, hand, pile sizes, turns, round wins): only for tests that compose
     * a position isolating one ruling, never for a public loader (from_dict,
     * from_view, the engine's load use decode). NULL: the game has no such
     * counts beyond decode's. */
    int (*decode_loose)(const void *rules, const int64_t *in, int n, void *state, char *msg, size_t msg_len);
    /* The observation tensor of `player` (any player, to move or not, terminal
     * states too): info.observation_size floats into out, a fixed layout per
     * instance (docs/observations.md). It encodes exactly view(player) and
     * nothing hidden from that player: a function of what infostate_key
     * hashes, so equal views give equal tensors. Writes every float. */
    void (*observation)(const void *rules, const void *state, int player, float *out);
};

/* ---- policy: what searches and agents use beyond the rules ------------------ */

typedef struct {
    /* heuristic rollout policy: an index into legal[0..n) */
    int (*heuristic_action)(const void *rules, const void *state, const int *legal, int n, uint64_t *rng);
    /* shaped reward for the search, per player in [0, 1] or [-1, 1] (NULL: none) */
    void (*shaped_returns)(const void *rules, const void *state, double *out);
    /* move prior: fill out[i] for legal[i] and return 1, or return 0 when it has
     * no opinion here (with out == NULL: only say which). NULL: none. */
    int (*action_prior)(const void *rules, const void *state, const int *legal, int n, double *out);
    /* move prior at a search's root, in place of action_prior there: the
     * same contract, computed once per search and tree (so it may cost what
     * a move of the greedy agent does). NULL: action_prior at the root too. */
    int (*root_prior)(const void *rules, const void *state, const int *legal, int n, double *out);
    /* weight of the root prior's progressive bias: a root child's UCB value
     * gets root_bias * (p - best) / (best - worst) / (1 + visits), so a small
     * search keeps to the prior's best moves and a large one outgrows it
     * (0: none; only with a root_prior) */
    double root_bias;
    /* greedy agent: an index into legal[0..n), or -SR_E_NOMEM */
    int (*greedy_index)(const void *rules, const void *state, const int *legal, int n, uint64_t *rng);
    /* rollout horizon (NULL: none): a rollout may end as soon as phase()
     * changes (e.g. a round ends) and is then valued by horizon_value, an
     * estimate of the returns, in their range, from the state the rollout
     * reached (the true returns once terminal) */
    int (*phase)(const void *rules, const void *state);
    void (*horizon_value)(const void *rules, const void *state, double *out);
    /* the key ISMCTS gives the node of `player` to act in `state`, in place
     * of the game's infostate_key (NULL: infostate_key). A function of what
     * `player` sees, and coarser where the policy judges information sets
     * alike: e.g. open loop on chance, where information sets that differ
     * only by what chance revealed share a node */
    uint64_t (*search_key)(const void *rules, const void *state, int player);
    /* a rollout baseline (NULL: none): a cheap estimate, per player (all
     * num_players entries), of what a uniform rollout to the horizon returns
     * from a state not past it. A fixed function of the state: no random
     * draws, nothing but the state read. Searches that ask for control
     * variates correct each uniform rollout by it (search.c, rollout_cv):
     * any such baseline leaves the rollout's mean where it was, and one
     * that tracks the value lowers its variance */
    void (*rollout_baseline)(const void *rules, const void *state, double *out);
    /* per-game search defaults (the one place they are stated) */
    double default_c;            /* UCT exploration constant */
    int default_shaped;          /* 1 = search on shaped_returns by default */
    int default_prior;           /* 1 = progressive widening under action_prior by default */
    int default_horizon;         /* 1 = rollouts end at the horizon by default */
    int default_control_variates;   /* 1 = ismcts corrects its rollouts by rollout_baseline by default */
} sr_policy;

/* ---- registry -------------------------------------------------------------- */

typedef struct {
    const char *name;            /* e.g. "players" */
    int min, max, def;           /* inclusive range and default */
    int is_bool;                 /* 1 = a true/false parameter (0 or 1 here) */
} sr_param_spec;

/* A game's JSON layer (state_json.h). */
typedef struct sr_json_codec sr_json_codec;

typedef struct {
    const char *name;            /* registry name */
    size_t rules_size;           /* bytes of the rules the game keeps */
    int num_data;                /* shipped data files the rules are read from */
    const char *data_files[4];   /* their names under tabuleiro/data/ */
    /* Read the rules from the data files' texts (NUL-terminated): SR_OK, or
     * SR_E_STATE with a message. */
    int (*load_rules)(void *rules, const char *const *texts, char *msg, size_t msg_len);
    int num_params;
    sr_param_spec params[SR_MAX_PARAMS];
    /* Fill g for rules and params (already range-checked against params[]). */
    int (*make)(const void *rules, const int *params, sr_game *g, char *msg, size_t msg_len);
    const sr_policy *policy;
    const sr_json_codec *json;   /* its state dicts, views and notation as JSON (state_json.h) */
} sr_game_def;

/* Write a message into msg (printf format; nothing when msg is NULL or n is
 * 0) and return code: how every game's loader and decoder fails with a reason. */
int sr_fail(int code, char *msg, size_t n, const char *fmt, ...) TB_PRINTF_LIKE(4, 5);

/* A field's value as message text: small values (within a million of 0) in
 * digits, others as "a large number", so that a message never shows the
 * seed, wherever a bad input put it. */
typedef struct { char s[24]; } sr_value_text;
sr_value_text sr_show_value(int64_t v);

/* The registered games (csrc/registry.c). */
int sr_game_count(void);
const sr_game_def *sr_game_at(int i);
/* The game of that name, or NULL. */
const sr_game_def *sr_find_game(const char *name);

/* ---- generic operations over the contract (csrc/game.c) ---------------------- */

/* Apply action if legal: SR_OK; else SR_E_TERMINAL / SR_E_ILLEGAL / SR_E_RANGE, state unchanged. */
int sr_apply_checked(const sr_game *g, void *state, int action);

/* mask[a] = 1 for each legal action a, 0 otherwise (info.num_distinct_actions bytes); the count. */
int sr_legal_mask(const sr_game *g, const void *state, uint8_t *mask);

/* Nodes `depth` actions deep (a game that ends early contributes 0 below it);
 * *rc is SR_OK, or SR_E_STOPPED when *stop became nonzero (result partial).
 * *stop is read before any work (a flag already set: 0, nothing counted) and
 * before every child of every node above the last level, so between two
 * reads there is at most one apply and one legal_actions call. */
uint64_t sr_perft(const sr_game *g, const void *state, int depth, const volatile int *stop, int *rc);

/* Play from state to the end: the heuristic policy when given, else uniform;
 * with a phase function, only until the phase changes (then *cut = 1, else
 * 0; cut may be NULL without one). SR_OK, SR_E_STUCK (no legal action before
 * the end, or longer than info.max_game_length), or SR_E_STOPPED (*stop is
 * read before the first step and then every 64 steps). */
typedef int (*sr_pick_fn)(const void *rules, const void *state, const int *legal, int n, uint64_t *rng);
typedef int (*sr_phase_fn)(const void *rules, const void *state);
int sr_playout(const sr_game *g, void *state, sr_pick_fn pick, sr_phase_fn phase, uint64_t *rng,
               const volatile int *stop, int *cut);

typedef struct {
    uint64_t games, actions, draws;       /* draws: every return equal */
    double returns_sum[SR_MAX_PLAYERS];   /* summed returns */
    uint64_t wins[SR_MAX_PLAYERS];        /* games where the player's return is the strict top */
    int64_t score_sum[SR_MAX_PLAYERS];    /* summed final scores */
} sr_playout_stats;

/* Play n uniformly random games from new games whose seeds are drawn from
 * seed: SR_OK, SR_E_STUCK or SR_E_STOPPED (the stats count the games done). */
int sr_random_playouts(const sr_game *g, uint64_t n, uint64_t seed, const volatile int *stop, sr_playout_stats *out);

/* Run work(arg) on a worker thread while the calling thread calls
 * poll(ctx) every poll_ms milliseconds (and once the work ends); when poll
 * returns nonzero or *external becomes nonzero, *stop is raised for the work
 * to see. An *external already nonzero raises *stop before the work starts
 * (the work's first read of *stop sees it: no work is done). Returns when the work has ended (no thread is left running):
 * SR_OK, or SR_E_NOMEM if no thread could be started (then the work ran on
 * the calling thread without polling). The last poll value goes to *polled. */
int sr_run_polled(void (*work)(void *), void *arg, volatile int *stop, const volatile int *external,
                  int (*poll)(void *), void *ctx, int poll_ms, int *polled);

#endif
