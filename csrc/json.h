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
 */
#ifndef TABULEIRO_JSON_H
#define TABULEIRO_JSON_H
#include <stddef.h>
#include <stdint.h>

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
/* An int, or null when v < 0 (the encodings' "none"). */
void sr_jw_opt(sr_jw *w, int64_t v);
/* Raw JSON text (already valid) as a value. */
void sr_jw_raw(sr_jw *w, const char *text, size_t n);
/* NUL-terminate: the length, -SR_E_RANGE (game.h) if it did not fit,
 * -SR_E_PARAM if the calls did not nest. */
int sr_jw_finish(sr_jw *w);

#endif
