/* csv.c - the one CSV reader of the C core (csv.h). */
#include "csv.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int vfail(csv_reader *r, int line, int code, const char *fmt, va_list ap) {
    if (r->msg && r->msg_len) {
        int k = line > 0 ? snprintf(r->msg, r->msg_len, "%s line %d: ", r->file, line)
                         : snprintf(r->msg, r->msg_len, "%s ", r->file);
        if (k >= 0 && (size_t)k < r->msg_len) vsnprintf(r->msg + k, r->msg_len - (size_t)k, fmt, ap);
    }
    return code;
}

int csv_fail(csv_reader *r, int line, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(r, line, code, fmt, ap);
    va_end(ap);
    return code;
}

void csv_open(csv_reader *r, const char *file, const char *text, size_t len, int quotes, char *msg, size_t msg_len) {
    memset(r, 0, sizeof *r);
    if (!text) len = 0;
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF) {
        text += 3;
        len -= 3;
    }
    r->p = text;
    r->end = text ? text + len : text;
    r->file = file ? file : "the CSV text";
    r->line = 1;
    r->quotes = quotes;
    r->msg = msg;
    r->msg_len = msg_len;
    if (msg && msg_len) msg[0] = 0;
}

/* end of a field: a comma, a line end or the end of the text */
static int at_field_end(const char *p, const char *end) {
    return p == end || *p == ',' || *p == '\n' || *p == '\r';
}

int csv_next(csv_reader *r, csv_row *row) {
    const char *p = r->p, *end = r->end;
    for (;;) {                                            /* blank lines are no records */
        if (p < end && *p == '\n') { ++p; ++r->line; }
        else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n') { p += 2; ++r->line; }
        else break;
    }
    r->p = p;
    if (p == end) return 0;
    int n = 0, line = r->line;
    for (;;) {
        if (n == CSV_MAX_FIELDS) return -csv_fail(r, line, CSV_E_FIELDS, "more than %d fields", CSV_MAX_FIELDS);
        char *dst = row->f[n];
        size_t len = 0;
        if (p < end && *p == '"' && r->quotes) {
            ++p;
            for (;;) {
                if (p == end) return -csv_fail(r, line, CSV_E_QUOTE, "a quoted field is not closed");
                char ch = *p;
                if (ch == '"') {
                    if (end - p < 2 || p[1] != '"') { ++p; break; }
                    ++p;                                  /* "" is one quote */
                } else if (ch == '\0') {
                    return -csv_fail(r, r->line, CSV_E_NUL, "a NUL byte");
                } else if (ch == '\n') {
                    ++r->line;
                }
                if (len + 1 >= CSV_FIELD_LEN) return -csv_fail(r, line, CSV_E_LONG, "a field is longer than %d bytes", CSV_FIELD_LEN - 1);
                dst[len++] = ch;
                ++p;
            }
            if (!at_field_end(p, end)) return -csv_fail(r, line, CSV_E_QUOTE, "text after a closing quote");
        } else {
            for (; !at_field_end(p, end); ++p) {
                if (*p == '\0') return -csv_fail(r, line, CSV_E_NUL, "a NUL byte");
                if (*p == '"' && !r->quotes) return -csv_fail(r, line, CSV_E_QUOTE, "quoted fields are not supported");
                if (len + 1 >= CSV_FIELD_LEN) return -csv_fail(r, line, CSV_E_LONG, "a field is longer than %d bytes", CSV_FIELD_LEN - 1);
                dst[len++] = *p;
            }
        }
        dst[len] = 0;
        ++n;
        if (p < end && *p == ',') { ++p; continue; }
        if (p < end && *p == '\r') {                      /* CRLF, or a CR that ends the text */
            if (end - p >= 2 && p[1] == '\n') ++p;
            else if (end - p >= 2) return -csv_fail(r, r->line, CSV_E_CR, "a carriage return inside a line");
            else { ++p; ++r->line; }
        }
        if (p < end && *p == '\n') { ++p; ++r->line; }
        break;
    }
    r->p = p;
    row->n = n;
    row->line = line;
    if (r->ncols && n != r->ncols) return -csv_fail(r, line, CSV_E_FIELDS, "%d fields, but the header has %d", n, r->ncols);
    return 1;
}

int csv_header(csv_reader *r, const char *const *names, int k, int *col) {
    int rc = csv_next(r, &r->head);
    if (rc < 0) return -rc;
    if (rc == 0) return csv_fail(r, 0, CSV_E_EMPTY, "is empty (no header line)");
    for (int i = 0; i < k; ++i) {
        col[i] = -1;
        for (int j = 0; j < r->head.n; ++j) {
            if (strcmp(r->head.f[j], names[i]) != 0) continue;
            if (col[i] >= 0) return csv_fail(r, r->head.line, CSV_E_COLUMN, "the header has column '%s' twice", names[i]);
            col[i] = j;
        }
        if (col[i] < 0) return csv_fail(r, r->head.line, CSV_E_COLUMN, "the header has no column '%s'", names[i]);
    }
    r->ncols = r->head.n;
    return CSV_OK;
}

int csv_int(csv_reader *r, const csv_row *row, int col, int lo, int hi, const int *if_empty, int *out) {
    const char *name = col >= 0 && col < r->head.n ? r->head.f[col] : "field";
    if (col < 0 || col >= row->n) return csv_fail(r, row->line, CSV_E_FIELDS, "no field %d", col + 1);
    const char *field = row->f[col], *s = field;
    while (*s == ' ' || *s == '\t') ++s;
    if (!*s && if_empty) { *out = *if_empty; return CSV_OK; }
    int neg = *s == '-', digits = 0, big = 0;
    if (*s == '+' || *s == '-') ++s;
    long long v = 0;
    for (; *s >= '0' && *s <= '9'; ++s, ++digits) {
        if (v < 1000000000000LL) v = v * 10 + (*s - '0');
        else big = 1;                                     /* past any int: out of range, never overflow */
    }
    while (*s == ' ' || *s == '\t') ++s;
    if (!digits || *s) return csv_fail(r, row->line, CSV_E_NUMBER, "%s '%s' is not an integer", name, field);
    if (neg) v = -v;
    if (big || v < lo || v > hi) return csv_fail(r, row->line, CSV_E_RANGE, "%s '%s' is not in [%d, %d]", name, field, lo, hi);
    *out = (int)v;
    return CSV_OK;
}
