/* pytext.h - Python's text conventions in C, for messages both hosts show
 * alike: repr() of a string (the way error messages quote the input) and
 * str.split()'s whitespace. Input is UTF-8 (a lone surrogate may come as
 * its 3-byte CESU form, as Python's "surrogatepass" writes it); invalid
 * bytes are shown as \xNN escapes and never read past len.
 *
 * repr escapes what Python's str.isprintable() refuses: controls, the
 * separators and spaces other than ' ', format characters, surrogates,
 * private use and noncharacters (Python's table also escapes unassigned
 * code points, which this one shows as they are). */
#ifndef TABULEIRO_PYTEXT_H
#define TABULEIRO_PYTEXT_H
#include <stddef.h>
#include <stdint.h>

/* The code point at s[*i..len) (advancing *i by its bytes), or -1 for an
 * invalid byte (advancing by one). */
int32_t sr_utf8_next(const char *s, size_t len, size_t *i);

/* Python's str.isspace() of one code point (what str.split() splits on). */
int sr_py_isspace(int32_t cp);

/* Append Python's repr of s[0..len) to out (NUL-terminated, cut to fit
 * cap); the bytes the whole repr takes (at most 4 * len + 2). */
size_t sr_py_repr(const char *s, size_t len, char *out, size_t cap);

/* _fields.short of a string: its repr cut to 60 code points (the first 57
 * and "...") into out (NUL-terminated). */
void sr_py_short(const char *s, size_t len, char *out, size_t cap);

/* str.split(): up to max words of s[0..len) as (start, length) byte spans;
 * the number of words (which may exceed max: only max are stored). */
int sr_py_split(const char *s, size_t len, size_t *start, size_t *wlen, int max);

/* str.strip(): the span of s[0..len) without leading and trailing whitespace. */
void sr_py_strip(const char *s, size_t len, size_t *start, size_t *slen);

#endif
