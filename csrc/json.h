/* json.h - a small strict JSON writer and reader, no dependency.
 *
 * The games' JSON layer (state_json.h) writes state dicts, views and
 * events with the writer and reads state dicts and views with the reader,
 * for every host (the Cython binding, the WebAssembly entry layer), so the
 * JSON of RULES.md part 4 has one implementation.
 *
 * Writer: compact JSON exactly as Python's json.dumps(separators=(",", ":"))
 * writes it (ASCII; other characters as \uXXXX). It never writes past its
 * buffer: once full it only counts, and sr_jw_finish says so.
 *
 * Reader: the whole text into a flat array of nodes in preorder (the
 * caller's pool; object keys are nodes too): strict RFC 8259 (no NaN,
 * Infinity, comments or trailing commas), valid UTF-8 only (escapes may
 * name lone surrogates, as Python's json allows), nesting at most
 * SR_JSON_MAX_DEPTH, at most the pool's nodes. Integers are exact in
 * [-2^63, 2^64); a longer one is kept as its digits (flag big). A node
 * can be marked as a Python tuple by the host (sr_json_mark_tuple): it is
 * then named and shown as Python shows a tuple.
 */
#ifndef TABULEIRO_JSON_H
#define TABULEIRO_JSON_H
#include <stddef.h>
#include <stdint.h>

#define SR_JSON_MAX_DEPTH 16     /* nesting a reader accepts (_fields.MAX_DEPTH; a state nests 4 deep) */
#define SR_JSON_MAX_VALUES 100000 /* values a reader accepts (_fields.MAX_VALUES) */
#define SR_JSON_STACK 24         /* the writer's nesting (events nest 4 deep) */

/* ---- writer ------------------------------------------------------------------ */

typedef struct {
    char *buf;
    size_t cap;                  /* bytes of buf (one is kept for the NUL) */
    size_t len;                  /* bytes written, or that would have been */
    int depth;
    uint8_t first[SR_JSON_STACK];/* 1 = no value yet in the open container */
    int bad;                     /* nesting overflow or misuse */
} sr_jw;

/* Start writing into buf[0..cap) (cap may be 0: then only count). */
void sr_jw_init(sr_jw *w, char *buf, size_t cap);
/* Open / close an object or array (a value in place). */
void sr_jw_obj(sr_jw *w);
void sr_jw_end_obj(sr_jw *w);
void sr_jw_arr(sr_jw *w);
void sr_jw_end_arr(sr_jw *w);
/* An object key; the next call writes its value. */
void sr_jw_key(sr_jw *w, const char *key);
/* Scalar values. sr_jw_str escapes as json.dumps does (ensure_ascii). */
void sr_jw_int(sr_jw *w, int64_t v);
void sr_jw_u64(sr_jw *w, uint64_t v);
void sr_jw_bool(sr_jw *w, int v);
void sr_jw_null(sr_jw *w);
void sr_jw_str(sr_jw *w, const char *s);
/* A string made as printf makes it (cut at 1023 bytes). */
void sr_jw_strf(sr_jw *w, const char *fmt, ...);
/* An int, or null when v < 0 (the encodings' "none"). */
void sr_jw_opt(sr_jw *w, int64_t v);
/* Raw JSON text (already valid) as a value; the offset it starts at. */
size_t sr_jw_raw(sr_jw *w, const char *text, size_t n);
/* NUL-terminate: the length, -SR_E_RANGE (game.h) if it did not fit,
 * -SR_E_PARAM if the calls did not nest. */
int sr_jw_finish(sr_jw *w);

/* ---- reader ------------------------------------------------------------------ */

typedef enum { SR_J_NULL, SR_J_FALSE, SR_J_TRUE, SR_J_INT, SR_J_FLOAT, SR_J_STR, SR_J_ARR, SR_J_OBJ } sr_jtype;

/* One value. A container's children are the nodes that follow it (an
 * object's as key, value pairs): `count` children (pairs for an object),
 * `next` the index after its whole subtree. */
typedef struct {
    uint8_t type;                /* sr_jtype */
    uint8_t big;                 /* SR_J_INT beyond [-2^63, 2^64): only its text is kept */
    uint8_t neg;                 /* SR_J_INT: negative (i holds it) */
    uint8_t tuple;               /* SR_J_ARR: a Python tuple (set by the host) */
    int32_t count;
    int32_t next;
    uint64_t u;                  /* SR_J_INT: the value when not negative */
    int64_t i;                   /* SR_J_INT: the value when negative */
    double f;                    /* SR_J_FLOAT: the value */
    const char *src;             /* the value's text in the input */
    uint32_t len;                /* its bytes */
} sr_jnode;

typedef struct {
    sr_jnode *nodes;
    int cap, n;
} sr_jdoc;

/* Parse text[0..len) into doc (nodes[0] the root; doc->nodes/cap set by the
 * caller). SR_OK, or SR_E_STATE with msg saying why ("it nests deeper than
 * 16 levels", "it is not valid JSON: ... at byte N"), or SR_E_NOMEM when
 * the pool is full ("it holds more than N values"). */
int sr_json_parse(const char *text, size_t len, sr_jdoc *doc, char *msg, size_t msg_len);

/* Mark array node i as a Python tuple: 0, or -1 if it is not an array. */
int sr_json_mark_tuple(sr_jdoc *doc, int i);

/* A string node's text, unescaped (lone surrogates in their 3-byte form),
 * into buf (NUL-terminated, cut to n - 1 bytes); its full length. */
size_t sr_json_str(const sr_jnode *node, char *buf, size_t n);
/* 1 if string node i equals the NUL-terminated s. */
int sr_json_str_eq(const sr_jdoc *doc, int i, const char *s);
/* The value of the first key named key in object node i, or -1. */
int sr_json_get(const sr_jdoc *doc, int i, const char *key);
/* Whether node i is an integer in [lo, hi] (*v set), a small enough float is not. */
int sr_json_int_in(const sr_jdoc *doc, int i, int64_t lo, int64_t hi, int64_t *v);
/* Python's type name of node i: "NoneType", "bool", "int", "float", "str",
 * "list", "tuple", "dict". */
const char *sr_json_type_name(const sr_jdoc *doc, int i);
/* Python's repr of node i, cut as _fields.short does (over `limit` code
 * points: the first limit - 3 and "..."), into buf (NUL-terminated). */
void sr_json_repr(const sr_jdoc *doc, int i, int limit, char *buf, size_t n);
/* Structural equality of node a of doc x and node b of doc y, as Python
 * compares the values json.loads makes (objects by keys, 1 == 1.0,
 * tuples never: the hosts compare JSON-loaded copies). */
int sr_json_equal(const sr_jdoc *x, int a, const sr_jdoc *y, int b);

#endif
