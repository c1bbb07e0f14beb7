/* pytext.c - Python's repr and whitespace (pytext.h). */
#include "pytext.h"
#include <stdio.h>
#include <string.h>

int32_t sr_utf8_next(const char *s, size_t len, size_t *i) {
    const unsigned char *p = (const unsigned char *)s + *i;
    size_t left = len - *i;
    unsigned c = p[0];
    int n;
    int32_t cp, min;
    if (c < 0x80) { *i += 1; return (int32_t)c; }
    if (c >= 0xC2 && c < 0xE0) { n = 1; cp = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c < 0xF0) { n = 2; cp = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c < 0xF5) { n = 3; cp = c & 0x07; min = 0x10000; }
    else { *i += 1; return -1; }
    if (left < (size_t)n + 1) { *i += 1; return -1; }
    for (int k = 1; k <= n; ++k) {
        if ((p[k] & 0xC0) != 0x80) { *i += 1; return -1; }
        cp = cp << 6 | (p[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF) { *i += 1; return -1; }
    *i += (size_t)n + 1;
    return cp;      /* a surrogate (ED A0..BF xx) is returned as such: repr escapes it */
}

int sr_py_isspace(int32_t cp) {
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000;
}

/* Not printable by Python's rules (see the header for what is left out). */
static int unprintable(int32_t cp) {
    static const int32_t ranges[][2] = {
        {0x00, 0x1F}, {0x7F, 0xA0}, {0xAD, 0xAD}, {0x600, 0x605}, {0x61C, 0x61C}, {0x6DD, 0x6DD},
        {0x70F, 0x70F}, {0x890, 0x891}, {0x8E2, 0x8E2}, {0x1680, 0x1680}, {0x180E, 0x180E}, {0x2000, 0x200F},
        {0x2028, 0x202F}, {0x205F, 0x2064}, {0x2066, 0x206F}, {0x3000, 0x3000}, {0xD800, 0xF8FF},
        {0xFDD0, 0xFDEF}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
        {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
        {0xF0000, 0x10FFFF},
    };
    if (cp >= 0x20 && cp < 0x7F) return 0;
    if ((cp & 0xFFFE) == 0xFFFE) return 1;          /* U+xxFFFE, U+xxFFFF: noncharacters */
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; ++k)
        if (cp >= ranges[k][0] && cp <= ranges[k][1]) return 1;
    return 0;
}

typedef struct { char *out; size_t cap, len; } sink;

static void emit(sink *o, const char *t, size_t n) {
    if (o->cap && o->len < o->cap - 1) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->out + o->len, t, n < room ? n : room);
    }
    o->len += n;
}

static void emit_escape(sink *o, char kind, uint32_t v, int digits) {
    static const char hex[] = "0123456789abcdef";
    char t[10] = {'\\', kind};
    for (int k = 0; k < digits; ++k) t[2 + k] = hex[v >> (4 * (digits - 1 - k)) & 15];
    emit(o, t, (size_t)digits + 2);
}

size_t sr_py_repr(const char *s, size_t len, char *out, size_t cap) {
    sink o = {out, cap, 0};
    char q = '\'';
    if (memchr(s, '\'', len) && !memchr(s, '"', len)) q = '"';
    emit(&o, &q, 1);
    for (size_t i = 0; i < len;) {
        size_t at = i;
        int32_t cp = sr_utf8_next(s, len, &i);
        if (cp < 0) { emit_escape(&o, 'x', (unsigned char)s[at], 2); continue; }   /* not UTF-8 */
        if (cp == '\\' || cp == q) { char t[2] = {'\\', (char)cp}; emit(&o, t, 2); }
        else if (cp == '\n') emit(&o, "\\n", 2);
        else if (cp == '\r') emit(&o, "\\r", 2);
        else if (cp == '\t') emit(&o, "\\t", 2);
        else if (!unprintable(cp)) emit(&o, s + at, i - at);
        else if (cp < 0x100) emit_escape(&o, 'x', (uint32_t)cp, 2);
        else if (cp < 0x10000) emit_escape(&o, 'u', (uint32_t)cp, 4);
        else emit_escape(&o, 'U', (uint32_t)cp, 8);
    }
    emit(&o, &q, 1);
    if (cap) out[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

int sr_py_split(const char *s, size_t len, size_t *start, size_t *wlen, int max) {
    int n = 0;
    size_t i = 0;
    while (i < len) {
        size_t at = i;
        int32_t cp = sr_utf8_next(s, len, &i);
        if (sr_py_isspace(cp)) continue;
        size_t end = i;
        while (i < len) {
            size_t here = i;
            if (sr_py_isspace(sr_utf8_next(s, len, &i))) { i = here; break; }
            end = i;
        }
        if (n < max) { start[n] = at; wlen[n] = end - at; }
        n++;
    }
    return n;
}

void sr_py_strip(const char *s, size_t len, size_t *start, size_t *slen) {
    size_t i = 0, first = len, last = 0;
    while (i < len) {
        size_t at = i;
        if (!sr_py_isspace(sr_utf8_next(s, len, &i))) {
            if (first == len) first = at;
            last = i;
        }
    }
    *start = first == len ? 0 : first;
    *slen = first == len ? 0 : last - first;
}

void sr_py_short(const char *s, size_t len, char *out, size_t cap) {
    char rep[4 * 64 + 8];
    size_t keep = 0;
    int cps = 0;
    /* 61 code points of the text always give more than 60 of its repr */
    for (size_t i = 0; i < len && cps < 61; ++cps) sr_utf8_next(s, len, &i), keep = i;
    size_t n = sr_py_repr(s, keep, rep, sizeof rep);
    if (n > sizeof rep - 1) n = sizeof rep - 1;
    size_t total_cps = 0, cut = n;
    for (size_t i = 0; i < n; ++i)
        if (((unsigned char)rep[i] & 0xC0) != 0x80) {
            if (total_cps == 57) cut = i;
            total_cps++;
        }
    if (keep < len || total_cps > 60) {
        snprintf(out, cap, "%.*s...", (int)cut, rep);
    } else {
        snprintf(out, cap, "%.*s", (int)n, rep);
    }
}
