/* state_json.h - the games' JSON layer: the state dict of RULES.md part 4
 * and a seat's view as JSON text, one implementation for every host (the
 * Cython binding in src/, the WebAssembly entry layer csrc/wasm/tbw.c).
 *
 * Each game has one sr_json_codec (csrc/<game>_json.c), joined to its
 * rules by the registry (sr_game_def.json, csrc/registry.c) like its
 * search policy. A codec works on the game's canonical encoding (game.h
 * encode), so it knows the encoding's layout and the card names, never
 * the state struct.
 */
#ifndef TABULEIRO_STATE_JSON_H
#define TABULEIRO_STATE_JSON_H
#include "game.h"
#include "json.h"

#define SR_MAX_JSON 16384        /* bytes of the largest state dict or view of any game, NUL included */

struct sr_json_codec {
    const char *title;           /* the game's name as people write it ("Capivárias"), UTF-8 */
    /* The state dict of the encoding enc[0..n) (viewer -1), or what seat
     * viewer sees of it (a view: no seed, hidden cards as counts), into w.
     * SR_OK, or SR_E_STATE if enc is not a well-formed encoding. */
    int (*write)(const sr_game *g, const int64_t *enc, int n, int viewer, sr_jw *w);
    /* The action id the notation text[0..len) (UTF-8, any bytes) names, into
     * *action: SR_OK; SR_E_NOTATION when it is not a move of the game;
     * SR_E_ILLEGAL when notation that needs the position (a Capivárias
     * capiolin) names no legal move in state. state may be NULL: such
     * notation is then SR_E_NOTATION. An id given is not checked for
     * legality (the host does that). msg quotes the text as Python's repr. */
    int (*parse_action)(const sr_game *g, const void *state, const char *text, size_t len, int *action, char *msg,
                        size_t msg_len);
};

/* The state dict (viewer -1) or seat viewer's view of state as compact JSON
 * text into buf (NUL-terminated), exactly what Python's json.dumps(...,
 * separators=(",", ":")) writes of State.to_dict() / State.view(viewer).
 * Its length, or -SR_E_RANGE (buf too small: SR_MAX_JSON always suffices),
 * -SR_E_PARAM (viewer not -1 nor a player), -SR_E_STATE (no codec). */
int sr_state_to_json(const sr_game_def *d, const sr_game *g, const void *state, int viewer, char *buf, size_t n);

/* sr_state_to_json of an encoding enc[0..n) (game.h encode's layout)
 * rather than a state: any input is safe (a malformed one gives
 * -SR_E_STATE; it is not checked as decode checks). */
int sr_fields_to_json(const sr_game_def *d, const sr_game *g, const int64_t *enc, int n, int viewer, char *buf,
                      size_t len);

/* The notation text[0..len) as an action id of g (state may be NULL): the
 * codec's parse_action, see above. msg_len of 8 * len + 512 holds any
 * message whole (it is cut to fit otherwise, NUL-terminated). */
int sr_parse_action(const sr_game_def *d, const sr_game *g, const void *state, const char *text, size_t len,
                    int *action, char *msg, size_t msg_len);

/* A message into msg as snprintf would, with one more conversion: %R takes
 * (const char *, size_t) and writes Python's repr of those bytes (pytext.h).
 * Only %s, %d, %R and %% are understood. Returns code (for `return
 * sr_msgf(SR_E_..., ...)`). */
int sr_msgf(int code, char *msg, size_t n, const char *fmt, ...);

/* A cursor over an encoding for the codecs: reads past the end give 0 and
 * set bad; sr_jcur_count also refuses a count larger than what is left. */
typedef struct {
    const int64_t *f;
    int n, i, bad;
} sr_jcur;

static inline int64_t sr_jcur_next(sr_jcur *c) {
    if (c->i >= c->n) { c->bad = 1; return 0; }
    return c->f[c->i++];
}

static inline int sr_jcur_count(sr_jcur *c) {
    int64_t k = sr_jcur_next(c);
    if (k < 0 || k > c->n - c->i) { c->bad = 1; return 0; }
    return (int)k;
}

/* The registered codecs (csrc/<game>_json.c). */
extern const sr_json_codec cv_json;
extern const sr_json_codec cp_json;
extern const sr_json_codec toy_json;

#endif
