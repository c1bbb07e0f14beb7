/* json.c - the JSON writer of json.h. */
#include "json.h"
#include "game.h"
#include <stdio.h>
#include <string.h>

static void put(sr_jw *w, const char *s, size_t n) {
    if (w->len < w->cap) {
        size_t room = w->cap - 1 - w->len;      /* one byte kept for the NUL */
        memcpy(w->buf + w->len, s, n < room ? n : room);
    }
    w->len += n;
}

static void putc1(sr_jw *w, char c) { put(w, &c, 1); }

/* A comma before every value but the first of its container (a key's value takes none). */
static void before_value(sr_jw *w) {
    if (w->depth <= 0) return;
    if (w->first[w->depth - 1] == 2) {          /* after a key */
        w->first[w->depth - 1] = 0;
        return;
    }
    if (!w->first[w->depth - 1]) putc1(w, ',');
    w->first[w->depth - 1] = 0;
}

void sr_jw_init(sr_jw *w, char *buf, size_t cap) {
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->cap = cap;
}

static void open_c(sr_jw *w, char c) {
    before_value(w);
    putc1(w, c);
    if (w->depth >= SR_JSON_STACK) { w->bad = 1; return; }
    w->first[w->depth++] = 1;
}

static void close_c(sr_jw *w, char c) {
    if (w->depth <= 0) { w->bad = 1; return; }
    w->depth--;
    putc1(w, c);
}

void sr_jw_obj(sr_jw *w) { open_c(w, '{'); }
void sr_jw_end_obj(sr_jw *w) { close_c(w, '}'); }
void sr_jw_arr(sr_jw *w) { open_c(w, '['); }
void sr_jw_end_arr(sr_jw *w) { close_c(w, ']'); }

static void str_raw(sr_jw *w, const char *s) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    putc1(w, '"');
    while (*p) {
        unsigned c = *p;
        uint32_t cp;
        int extra;
        if (c == '"') { put(w, "\\\"", 2); p++; continue; }
        if (c == '\\') { put(w, "\\\\", 2); p++; continue; }
        if (c == '\n') { put(w, "\\n", 2); p++; continue; }
        if (c == '\r') { put(w, "\\r", 2); p++; continue; }
        if (c == '\t') { put(w, "\\t", 2); p++; continue; }
        if (c == '\b') { put(w, "\\b", 2); p++; continue; }
        if (c == '\f') { put(w, "\\f", 2); p++; continue; }
        if (c >= 0x20 && c < 0x7f) { putc1(w, (char)c); p++; continue; }
        /* a control character, or UTF-8 (the engine's texts are valid UTF-8) as \uXXXX */
        if (c < 0x80) { cp = c; extra = 0; }
        else if (c >= 0xF0) { cp = c & 0x07; extra = 3; }
        else if (c >= 0xE0) { cp = c & 0x0F; extra = 2; }
        else { cp = c & 0x1F; extra = 1; }
        p++;
        for (int k = 0; k < extra && (*p & 0xC0) == 0x80; ++k, ++p) cp = cp << 6 | (*p & 0x3F);
        uint32_t units[2];
        int nu = 0;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            units[nu++] = 0xD800 | (cp >> 10);
            units[nu++] = 0xDC00 | (cp & 0x3FF);
        } else {
            units[nu++] = cp;
        }
        for (int k = 0; k < nu; ++k) {
            char e[6] = {'\\', 'u', hex[units[k] >> 12 & 15], hex[units[k] >> 8 & 15], hex[units[k] >> 4 & 15],
                         hex[units[k] & 15]};
            put(w, e, 6);
        }
    }
    putc1(w, '"');
}

void sr_jw_key(sr_jw *w, const char *key) {
    before_value(w);
    str_raw(w, key);
    putc1(w, ':');
    if (w->depth > 0) w->first[w->depth - 1] = 2;
}

void sr_jw_int(sr_jw *w, int64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%lld", (long long)v);
    before_value(w);
    put(w, t, (size_t)n);
}

void sr_jw_u64(sr_jw *w, uint64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    before_value(w);
    put(w, t, (size_t)n);
}

void sr_jw_bool(sr_jw *w, int v) {
    before_value(w);
    if (v) put(w, "true", 4); else put(w, "false", 5);
}

void sr_jw_null(sr_jw *w) {
    before_value(w);
    put(w, "null", 4);
}

void sr_jw_opt(sr_jw *w, int64_t v) {
    if (v < 0) sr_jw_null(w); else sr_jw_int(w, v);
}

void sr_jw_str(sr_jw *w, const char *s) {
    before_value(w);
    str_raw(w, s);
}

void sr_jw_raw(sr_jw *w, const char *text, size_t n) {
    before_value(w);
    put(w, text, n);
}

int sr_jw_finish(sr_jw *w) {
    if (w->bad || w->depth != 0) return -SR_E_PARAM;
    if (w->cap == 0 || w->len >= w->cap) {
        if (w->cap) w->buf[w->cap - 1] = '\0';
        return -SR_E_RANGE;
    }
    w->buf[w->len] = '\0';
    return w->len > (size_t)0x7fffffff ? -SR_E_RANGE : (int)w->len;
}
