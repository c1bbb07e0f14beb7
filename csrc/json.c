/* json.c - the JSON writer of json.h. */
#include "json.h"
#include "game.h"
#include <stdarg.h>
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

void sr_jw_strf(sr_jw *w, const char *fmt, ...) {
    char t[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    sr_jw_str(w, t);
}

size_t sr_jw_raw(sr_jw *w, const char *text, size_t n) {
    before_value(w);
    size_t at = w->len;
    put(w, text, n);
    return at;
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

/* ---- reader ------------------------------------------------------------------ */

#include "pytext.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
    const char *s;
    size_t len, i;
    sr_jdoc *doc;
    char *msg;
    size_t msg_len;
    int rc;
} parser;

static int perr(parser *p, int rc, const char *what) {
    if (p->rc == SR_OK) {
        p->rc = rc;
        if (rc == SR_E_NOMEM) snprintf(p->msg, p->msg_len, "it holds more than %d values", p->doc->cap);
        else if (what[0] == '!') snprintf(p->msg, p->msg_len, "%s", what + 1);
        else snprintf(p->msg, p->msg_len, "it is not valid JSON: %s at byte %zu", what, p->i);
    }
    return -1;
}

static void ws(parser *p) {
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int new_node(parser *p, sr_jtype type) {
    if (p->doc->n >= p->doc->cap) return perr(p, SR_E_NOMEM, "");
    int k = p->doc->n++;
    sr_jnode *nd = &p->doc->nodes[k];
    memset(nd, 0, sizeof *nd);
    nd->type = (uint8_t)type;
    nd->src = p->s + p->i;
    return k;
}

static int hexval(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string at p->i (at its opening quote): checked, kept escaped. */
static int parse_string(parser *p) {
    int k = new_node(p, SR_J_STR);
    if (k < 0) return -1;
    p->i++;
    while (p->i < p->len) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            p->doc->nodes[k].len = (uint32_t)(p->s + p->i - p->doc->nodes[k].src);
            p->doc->nodes[k].next = k + 1;
            return k;
        }
        if (c < 0x20) return perr(p, SR_E_STATE, "invalid control character in a string");
        if (c == '\\') {
            char e = p->i + 1 < p->len ? p->s[p->i + 1] : 0;
            if (strchr("\"\\/bfnrt", e) && e) { p->i += 2; continue; }
            if (e == 'u' && p->i + 5 < p->len && hexval(p->s[p->i + 2]) >= 0 && hexval(p->s[p->i + 3]) >= 0 &&
                hexval(p->s[p->i + 4]) >= 0 && hexval(p->s[p->i + 5]) >= 0) {
                p->i += 6;
                continue;
            }
            return perr(p, SR_E_STATE, "invalid escape in a string");
        }
        if (c < 0x80) { p->i++; continue; }
        size_t at = p->i;
        int32_t cp = sr_utf8_next(p->s, p->len, &p->i);
        if (cp < 0 || (cp >= 0xD800 && cp <= 0xDFFF)) { p->i = at; return perr(p, SR_E_STATE, "!it is not UTF-8"); }
    }
    return perr(p, SR_E_STATE, "unterminated string");
}

static int parse_number(parser *p) {
    int k = new_node(p, SR_J_INT);
    if (k < 0) return -1;
    size_t start = p->i;
    int neg = 0, is_float = 0;
    if (p->s[p->i] == '-') { neg = 1; p->i++; }
    if (p->i >= p->len || p->s[p->i] < '0' || p->s[p->i] > '9') return perr(p, SR_E_STATE, "expecting value");
    if (p->s[p->i] == '0') p->i++;
    else while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
    size_t int_end = p->i;
    if (p->i < p->len && p->s[p->i] == '.') {
        is_float = 1;
        p->i++;
        if (p->i >= p->len || p->s[p->i] < '0' || p->s[p->i] > '9') return perr(p, SR_E_STATE, "expecting digits");
        while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
    }
    if (p->i < p->len && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        is_float = 1;
        p->i++;
        if (p->i < p->len && (p->s[p->i] == '+' || p->s[p->i] == '-')) p->i++;
        if (p->i >= p->len || p->s[p->i] < '0' || p->s[p->i] > '9') return perr(p, SR_E_STATE, "expecting digits");
        while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9') p->i++;
    }
    sr_jnode *nd = &p->doc->nodes[k];
    nd->len = (uint32_t)(p->i - start);
    nd->next = k + 1;
    if (is_float) {
        char tmp[512];
        size_t n = p->i - start;
        if (n >= sizeof tmp) return perr(p, SR_E_STATE, "!it holds a number too long to read");
        memcpy(tmp, p->s + start, n);
        tmp[n] = '\0';
        nd->type = SR_J_FLOAT;
        nd->f = strtod(tmp, NULL);
        if (!isfinite(nd->f)) return perr(p, SR_E_STATE, "!it holds a number that is not finite");
        return k;
    }
    /* an integer: exact in [-2^63, 2^64), else its digits only */
    uint64_t v = 0;
    int over = 0;
    for (size_t j = start + (size_t)neg; j < int_end; ++j) {
        unsigned d = (unsigned)(p->s[j] - '0');
        if (v > (UINT64_MAX - d) / 10) { over = 1; break; }
        v = v * 10 + d;
    }
    if (neg && v == 0) return k;                          /* -0 is 0 */
    if (over || (neg && v > (uint64_t)1 << 63)) { nd->big = 1; nd->neg = (uint8_t)neg; return k; }
    nd->neg = (uint8_t)neg;
    if (neg) nd->i = v == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)v;
    else nd->u = v;
    return k;
}

static int parse_value(parser *p, int depth) {
    ws(p);
    if (p->i >= p->len) return perr(p, SR_E_STATE, "expecting value");
    char c = p->s[p->i];
    if (c == '{' || c == '[') {
        if (depth >= SR_JSON_MAX_DEPTH) {
            char t[64];
            snprintf(t, sizeof t, "!it nests deeper than %d levels", SR_JSON_MAX_DEPTH);
            return perr(p, SR_E_STATE, t);
        }
        int k = new_node(p, c == '{' ? SR_J_OBJ : SR_J_ARR);
        if (k < 0) return -1;
        char close = c == '{' ? '}' : ']';
        int count = 0;
        p->i++;
        ws(p);
        if (p->i < p->len && p->s[p->i] == close) {
            p->i++;
        } else {
            for (;;) {
                if (c == '{') {
                    ws(p);
                    if (p->i >= p->len || p->s[p->i] != '"') return perr(p, SR_E_STATE, "expecting a property name");
                    if (parse_string(p) < 0) return -1;
                    ws(p);
                    if (p->i >= p->len || p->s[p->i] != ':') return perr(p, SR_E_STATE, "expecting ':'");
                    p->i++;
                }
                if (parse_value(p, depth + 1) < 0) return -1;
                count++;
                ws(p);
                if (p->i < p->len && p->s[p->i] == ',') { p->i++; continue; }
                if (p->i < p->len && p->s[p->i] == close) { p->i++; break; }
                return perr(p, SR_E_STATE, "expecting ',' or a closing bracket");
            }
        }
        sr_jnode *nd = &p->doc->nodes[k];
        nd->count = count;
        nd->next = p->doc->n;
        nd->len = (uint32_t)(p->s + p->i - nd->src);
        return k;
    }
    if (c == '"') return parse_string(p);
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p);
    static const struct { const char *word; sr_jtype type; } words[] = {
        {"true", SR_J_TRUE}, {"false", SR_J_FALSE}, {"null", SR_J_NULL}};
    for (int w = 0; w < 3; ++w) {
        size_t n = strlen(words[w].word);
        if (p->len - p->i >= n && memcmp(p->s + p->i, words[w].word, n) == 0) {
            int k = new_node(p, words[w].type);
            if (k < 0) return -1;
            p->i += n;
            p->doc->nodes[k].len = (uint32_t)n;
            p->doc->nodes[k].next = k + 1;
            return k;
        }
    }
    return perr(p, SR_E_STATE, "expecting value");
}

int sr_json_parse(const char *text, size_t len, sr_jdoc *doc, char *msg, size_t msg_len) {
    parser p = {text, len, 0, doc, msg, msg_len, SR_OK};
    char dummy[1];
    if (!msg || !msg_len) { p.msg = dummy; p.msg_len = sizeof dummy; }
    p.msg[0] = '\0';
    doc->n = 0;
    if (len > 0x7fffffff) return perr(&p, SR_E_STATE, "!it is too long"), p.rc;
    if (parse_value(&p, 0) >= 0) {
        ws(&p);
        if (p.i < len) perr(&p, SR_E_STATE, "extra data");
    }
    return p.rc;
}

int sr_json_mark_tuple(sr_jdoc *doc, int i) {
    if (i < 0 || i >= doc->n || doc->nodes[i].type != SR_J_ARR) return -1;
    doc->nodes[i].tuple = 1;
    return 0;
}

/* Append code point cp as UTF-8 (a surrogate in its 3-byte form). */
static size_t put_utf8(uint32_t cp, char *out) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | (cp >> 6 & 0x3F)); out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t sr_json_str(const sr_jnode *node, char *buf, size_t n) {
    const char *s = node->src + 1;
    size_t end = node->len >= 2 ? node->len - 2 : 0, out = 0;
    for (size_t i = 0; i < end;) {
        char t[4];
        size_t k = 1;
        if (s[i] != '\\') { t[0] = s[i++]; }
        else {
            char e = s[i + 1];
            if (e != 'u') {
                t[0] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
                i += 2;
            } else {
                uint32_t cp = (uint32_t)(hexval(s[i + 2]) << 12 | hexval(s[i + 3]) << 8 | hexval(s[i + 4]) << 4 | hexval(s[i + 5]));
                i += 6;
                if (cp >= 0xD800 && cp < 0xDC00 && i + 5 < end && s[i] == '\\' && s[i + 1] == 'u') {
                    uint32_t lo = (uint32_t)(hexval(s[i + 2]) << 12 | hexval(s[i + 3]) << 8 | hexval(s[i + 4]) << 4 |
                                             hexval(s[i + 5]));
                    if (lo >= 0xDC00 && lo < 0xE000) { cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); i += 6; }
                }
                k = put_utf8(cp, t);
            }
        }
        for (size_t j = 0; j < k; ++j, ++out)
            if (n && out < n - 1) buf[out] = t[j];
    }
    if (n) buf[out < n ? out : n - 1] = '\0';
    return out;
}

int sr_json_str_eq(const sr_jdoc *doc, int i, const char *s) {
    char buf[256];
    if (i < 0 || doc->nodes[i].type != SR_J_STR) return 0;
    size_t n = sr_json_str(&doc->nodes[i], buf, sizeof buf);
    return n < sizeof buf && n == strlen(s) && memcmp(buf, s, n) == 0;
}

int sr_json_get(const sr_jdoc *doc, int i, const char *key) {
    if (i < 0 || doc->nodes[i].type != SR_J_OBJ) return -1;
    int k = i + 1;
    for (int c = 0; c < doc->nodes[i].count; ++c) {
        int v = k + 1;
        if (sr_json_str_eq(doc, k, key)) return v;
        k = doc->nodes[v].next;
    }
    return -1;
}

int sr_json_int_in(const sr_jdoc *doc, int i, int64_t lo, int64_t hi, int64_t *v) {
    const sr_jnode *nd = &doc->nodes[i];
    if (nd->type != SR_J_INT || nd->big) return 0;
    if (nd->neg) { if (nd->i < lo || nd->i > hi) return 0; *v = nd->i; return 1; }
    if (hi < 0 || nd->u > (uint64_t)hi || (lo > 0 && nd->u < (uint64_t)lo)) return 0;
    *v = (int64_t)nd->u;
    return 1;
}

const char *sr_json_type_name(const sr_jdoc *doc, int i) {
    switch (doc->nodes[i].type) {
    case SR_J_NULL: return "NoneType";
    case SR_J_TRUE: case SR_J_FALSE: return "bool";
    case SR_J_INT: return "int";
    case SR_J_FLOAT: return "float";
    case SR_J_STR: return "str";
    case SR_J_ARR: return doc->nodes[i].tuple ? "tuple" : "list";
    default: return "dict";
    }
}

/* Python's repr of a float (the shortest text that reads back). */
static size_t float_repr(double x, char *out, size_t n) {
    char t[40];
    int prec;
    for (prec = 1; prec <= 17; ++prec) {
        snprintf(t, sizeof t, "%.*e", prec - 1, x);
        if (strtod(t, NULL) == x) break;
    }
    /* t is [-]d.ddde[+-]XX: digits and a decimal exponent */
    char digits[24];
    int nd = 0, neg = t[0] == '-';
    const char *q = t + neg;
    for (; *q && *q != 'e'; ++q)
        if (*q >= '0' && *q <= '9') digits[nd++] = *q;
    int exp = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    char r[48];
    size_t k = 0;
    if (neg) r[k++] = '-';
    if (exp >= -4 && exp < 16) {                  /* repr's fixed notation (1e-05 and 1e+16 are shown with exponents) */
        if (exp < 0) {
            r[k++] = '0'; r[k++] = '.';
            for (int z = 0; z < -exp - 1; ++z) r[k++] = '0';
            for (int d = 0; d < nd; ++d) r[k++] = digits[d];
        } else {
            for (int d = 0; d <= exp; ++d) r[k++] = d < nd ? digits[d] : '0';
            r[k++] = '.';
            if (nd > exp + 1) for (int d = exp + 1; d < nd; ++d) r[k++] = digits[d];
            else r[k++] = '0';
        }
    } else {
        r[k++] = digits[0];
        if (nd > 1) { r[k++] = '.'; for (int d = 1; d < nd; ++d) r[k++] = digits[d]; }
        k += (size_t)snprintf(r + k, sizeof r - k, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
    r[k] = '\0';
    return (size_t)snprintf(out, n, "%s", r);
}

typedef struct { char *buf; size_t cap, len; int cps, limit; } rsink;

/* Append bytes counting code points; stop past the limit (+1 marks "longer"). */
static void rput(rsink *o, const char *s, size_t n) {
    for (size_t i = 0; i < n && o->cps <= o->limit; ++i) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80) o->cps++;
        if (o->cps > o->limit) break;
        if (o->len + 1 < o->cap) o->buf[o->len++] = (char)c;
    }
}

static void repr_node(const sr_jdoc *doc, int i, rsink *o, int depth) {
    const sr_jnode *nd = &doc->nodes[i];
    char t[64];
    if (o->cps > o->limit || depth > SR_JSON_MAX_DEPTH + 1) return;
    switch (nd->type) {
    case SR_J_NULL: rput(o, "None", 4); return;
    case SR_J_TRUE: rput(o, "True", 4); return;
    case SR_J_FALSE: rput(o, "False", 5); return;
    case SR_J_INT:
        if (nd->big) { rput(o, nd->src, nd->len); return; }
        if (nd->neg) snprintf(t, sizeof t, "%lld", (long long)nd->i);
        else snprintf(t, sizeof t, "%llu", (unsigned long long)nd->u);
        rput(o, t, strlen(t));
        return;
    case SR_J_FLOAT: float_repr(nd->f, t, sizeof t); rput(o, t, strlen(t)); return;
    case SR_J_STR: {
        char raw[4 * 64 + 8], rep[16 * 64 + 8];
        size_t n = sr_json_str(nd, raw, sizeof raw);   /* enough of it for any cut repr */
        if (n > sizeof raw - 1) n = sizeof raw - 1;
        size_t m = sr_py_repr(raw, n, rep, sizeof rep);
        if (m > sizeof rep - 1) m = sizeof rep - 1;
        rput(o, rep, m);
        return;
    }
    default: break;
    }
    int obj = nd->type == SR_J_OBJ, tup = nd->tuple;
    rput(o, obj ? "{" : tup ? "(" : "[", 1);
    int k = i + 1;
    for (int c = 0; c < nd->count && o->cps <= o->limit; ++c) {
        if (c) rput(o, ", ", 2);
        if (obj) { repr_node(doc, k, o, depth + 1); rput(o, ": ", 2); k++; }
        repr_node(doc, k, o, depth + 1);
        k = doc->nodes[k].next;
    }
    if (tup && nd->count == 1) rput(o, ",", 1);
    rput(o, obj ? "}" : tup ? ")" : "]", 1);
}

void sr_json_repr(const sr_jdoc *doc, int i, int limit, char *buf, size_t n) {
    rsink o = {buf, n, 0, 0, limit};
    if (!n) return;
    repr_node(doc, i, &o, 0);
    if (o.cps > limit) {                          /* longer: the first limit - 3 code points and "..." */
        size_t len = 0;
        int cps = 0;
        while (len < o.len) {
            if (((unsigned char)buf[len] & 0xC0) != 0x80 && ++cps > limit - 3) break;
            len++;
        }
        if (len + 4 > n) len = n > 4 ? n - 4 : 0;
        memcpy(buf + len, "...", 3);
        o.len = len + 3;
    }
    buf[o.len < n ? o.len : n - 1] = '\0';
}

/* Numeric value of a number or a bool (Python: True == 1), 0 if none. */
static int numeric(const sr_jnode *nd, double *v, int *exact_int, int64_t *iv, uint64_t *uv) {
    *exact_int = 0;
    switch (nd->type) {
    case SR_J_TRUE: *v = 1; *exact_int = 1; *iv = 1; *uv = 1; return 1;
    case SR_J_FALSE: *v = 0; *exact_int = 1; *iv = 0; *uv = 0; return 1;
    case SR_J_FLOAT: *v = nd->f; return 1;
    case SR_J_INT:
        if (nd->big) return 0;
        *exact_int = 1;
        if (nd->neg) { *iv = nd->i; *uv = 0; *v = (double)nd->i; }
        else { *uv = nd->u; *iv = nd->u > INT64_MAX ? INT64_MAX : (int64_t)nd->u; *v = (double)nd->u; }
        return 1;
    default: return 0;
    }
}

int sr_json_equal(const sr_jdoc *x, int a, const sr_jdoc *y, int b) {
    const sr_jnode *p = &x->nodes[a], *q = &y->nodes[b];
    double pv, qv;
    int pe, qe;
    int64_t pi, qi;
    uint64_t pu, qu;
    int pn = numeric(p, &pv, &pe, &pi, &pu), qn = numeric(q, &qv, &qe, &qi, &qu);
    if (pn || qn) {
        if (!pn || !qn) return 0;
        if (pe && qe) return pi == qi && pu == qu && (p->type == SR_J_INT && p->neg) == (q->type == SR_J_INT && q->neg);
        return pv == qv;
    }
    if (p->type == SR_J_INT && q->type == SR_J_INT) return p->len == q->len && memcmp(p->src, q->src, p->len) == 0;
    if (p->type != q->type) return 0;
    if (p->type == SR_J_NULL) return 1;
    if (p->type == SR_J_STR) {
        char s1[512], s2[512];
        size_t n1 = sr_json_str(p, s1, sizeof s1), n2 = sr_json_str(q, s2, sizeof s2);
        if (n1 >= sizeof s1 || n2 >= sizeof s2) return n1 == n2 && p->len == q->len && memcmp(p->src, q->src, p->len) == 0;
        return n1 == n2 && memcmp(s1, s2, n1) == 0;
    }
    if (p->count != q->count) return 0;
    if (p->type == SR_J_ARR) {
        for (int c = 0, i = a + 1, j = b + 1; c < p->count; ++c, i = x->nodes[i].next, j = y->nodes[j].next)
            if (!sr_json_equal(x, i, y, j)) return 0;
        return 1;
    }
    /* objects: every key of p is in q with an equal value (equal counts: the same keys, first occurrences) */
    int i = a + 1;
    for (int c = 0; c < p->count; ++c) {
        char key[256];
        size_t kn = sr_json_str(&x->nodes[i], key, sizeof key);
        int v = i + 1;
        int w = kn < sizeof key ? sr_json_get(y, b, key) : -1;
        if (w < 0 || !sr_json_equal(x, v, y, w)) return 0;
        i = x->nodes[v].next;
    }
    return 1;
}
