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

/* A reader of one state dict or view (doc) into an encoding: the checks
 * of python/tabuleiro/_fields.Fields, with its messages. Every helper
 * does nothing once failed is set, so a codec reads straight on and looks
 * at failed at the end; the first problem is the message. */
typedef struct {
    const sr_jdoc *doc;
    const char *title;           /* the game's title */
    char *msg;
    size_t msg_len;
    int failed;                  /* the sr_error of the first problem, or SR_OK */
    int64_t *out;                /* the encoding being built (SR_MAX_ENCODED long) */
    int n;
    /* dict_from_view's verbatim copies (sr_jr_copy): where each starts in
     * the text written and the view node it is, so that the nodes the host
     * marked as tuples stay marked in the dict read next */
    size_t *copy_at;
    int *copy_node;
    int n_copies, cap_copies;
} sr_jread;

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
    /* The encoding of state dict node d of r->doc into r->out (the shape
     * and type checks: decode judges the rest); problems go to r. */
    void (*read)(const sr_game *g, sr_jread *r, int d);
    /* A full state dict consistent with view node v of seat player, as JSON
     * into w (hidden cards placed where they may lie, seed 0; untouched
     * fields copied as they are); problems go to r (r->out unused). The
     * caller reads the result with read and compares its view with v. */
    void (*dict_from_view)(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w);
    /* The game's parameters a state dict names (Game.params_from_dict):
     * values[k] of registry parameter k when given[k] is set. */
    void (*params_from_dict)(sr_jread *r, int d, int *values, int *given);
    /* What seat `player` sees of the move `action` (notation given) by
     * `mover` from the state encoded before[0..nb): the "move" (notation or
     * null) and "text" fields of the move event (Game._seen_move). NULL: a
     * player sees only their own moves. */
    void (*seen_move)(const sr_game *g, const int64_t *before, int nb, int action, int mover, int player,
                      const char *notation, sr_jw *w);
    /* The public events the move set off (Game._aftermath: a round's end,
     * an auction, the weaving shown), as objects into the open array w.
     * NULL: none. */
    void (*aftermath)(const sr_game *g, const int64_t *before, int nb, const int64_t *after, int na,
                      int after_terminal, sr_jw *w);
    /* 1: dict_from_view reads a JSON copy of the view (Python tuples are
     * lists there, as capulana.py's json.loads(json.dumps(view)) made them,
     * after it had checked the view's "game" on the view itself). */
    int view_is_json_copy;
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

/* A state from the JSON text[0..len) of a state dict (as_view_of -1) or of
 * seat as_view_of's view, checked as decode checks (the one authority):
 * SR_OK with *state filled, or SR_E_STATE with msg naming the first
 * problem as the Python package words it ("invalid Toy state: missing
 * key 'seed'"), never quoting a hidden card or the seed of the input;
 * SR_E_NOMEM when no memory could be had. tuples (may be NULL) lists the
 * preorder nodes the host saw as Python tuples (their type name is then
 * "tuple"). Any input is safe. */
int sr_state_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, int as_view_of,
                       const int *tuples, int n_tuples, void *state, char *msg, size_t msg_len);

/* The encoding (game.h) a state dict's JSON gives, with the reader's
 * shape and type checks only (decode not run: tests compose positions for
 * decode_loose so): its field count into *n_out (out SR_MAX_ENCODED
 * long), SR_OK, or SR_E_STATE with msg. */
int sr_fields_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, const int *tuples,
                        int n_tuples, int64_t *out, int *n_out, char *msg, size_t msg_len);

/* What seat player sees happen when the player to move in state plays
 * action (Game.public_events, docs/protocol.md): a JSON array of events,
 * the move's ({"kind": "move", "player", "move", "text"}), those it set
 * off (the codec's aftermath), and {"kind": "over", "winners", "scores",
 * "text"} when it ended the game, into buf. Its length; -SR_E_TERMINAL,
 * -SR_E_ILLEGAL, -SR_E_RANGE (an action not legal in state, state
 * untouched), -SR_E_PARAM (player), -SR_E_RANGE (buf too small). */
int sr_events_json(const sr_game_def *d, const sr_game *g, const void *state, int action, int player, char *buf,
                   size_t n);

/* The parameters a state dict's JSON names (Game.params_from_dict): SR_OK
 * with values[k], given[k] for registry parameter k (SR_MAX_PARAMS long),
 * or SR_E_STATE with msg (tuples as sr_state_from_json's). */
int sr_params_from_json(const sr_game_def *d, const char *text, size_t len, const int *tuples, int n_tuples,
                        int *values, int *given, char *msg, size_t msg_len);

/* ---- the reader's checks (_fields.Fields), for the codecs ---- */

/* Fail with "invalid <title> state: " and the message (sr_msgf's format). */
void sr_jr_bad(sr_jread *r, const char *fmt, ...);
/* The value of key in object node obj, or -1 with "missing key 'key'". */
int sr_jr_get(sr_jread *r, int obj, const char *key);
/* Node d's "game" is name ("game must be 'toy', not ..."). */
void sr_jr_game(sr_jread *r, int d, const char *name);
/* An integer in [-2^31, 2^31) (null as -1 when nullable). */
int64_t sr_jr_int(sr_jread *r, int i, const char *what, int nullable);
/* true or false. */
int sr_jr_bool(sr_jread *r, int i, const char *what);
/* A list (of length entries unless length < 0): its count, or -1. */
int sr_jr_list(sr_jread *r, int i, const char *what, int length);
/* The seed in [0, 2^64) as the encoding holds it (bit pattern as int64). */
int64_t sr_jr_seed(sr_jread *r, int i);
/* Append to the encoding. */
void sr_jr_push(sr_jread *r, int64_t v);
/* _fields.short of node i into buf (60 code points). */
void sr_jr_short(const sr_jread *r, int i, char *buf, size_t n);
/* Python's whole repr of node i (a message's {x!r}), cut only to fit buf. */
void sr_jr_repr(const sr_jread *r, int i, char *buf, size_t n);
/* _fields.Fields.ids: list node `list` (where names it) of cards, each read
 * by card (an id, or -1 after failing); pushes the count, then the ids
 * (sorted when is_set). */
typedef int (*sr_jr_card_fn)(const sr_game *g, sr_jread *r, int node, const char *where);
void sr_jr_ids(sr_jread *r, const sr_game *g, int list, const char *where, sr_jr_card_fn card, int is_set);
/* Fields.card over a table of n names: the index of string node i, else
 * "{where}: a card is a name string, not ..." / "{where}: unknown card ...". */
int sr_jr_card_named(sr_jread *r, int i, const char *where, const char *const *names, int n);
/* Write view node i into w as it is (dict_from_view's copies). */
void sr_jr_copy(sr_jread *r, int i, sr_jw *w);
/* A view-to-state rebuild's walk over object node obj's fields, in order:
 * start with *c = 0 and *i = obj + 1; each call writes the next field's key
 * to w, gives its name (NUL-terminated in name[0..name_len)) and value node
 * and returns 1 (the caller writes the value), or returns 0 when none is
 * left. A field named `skip` (may be NULL), a name of name_len bytes or
 * more, and a repeated key (the first counts) are passed over. */
int sr_jr_next_field(const sr_jread *r, sr_jw *w, int obj, int *c, int *i, const char *skip, char *name,
                     size_t name_len, int *value);
/* A rebuilt state's last field, "seed": 0 (a view has no seed), and its
 * closing brace. */
void sr_jr_end_rebuilt(sr_jw *w);
/* Whether node i is an object / array / string (no failure). */
int sr_jr_is(const sr_jread *r, int i, int type);

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
