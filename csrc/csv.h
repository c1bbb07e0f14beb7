/* csv.h - the one CSV reader of the C core, used by every game's rules
 * loader (the games keep what each column means; only the reading is here).
 *
 * It reads a text buffer of a known length, record by record, as Python's
 * csv module reads it (RFC 4180: quoted fields may hold commas, doubled
 * quotes and line breaks), with: a UTF-8 byte-order mark skipped, LF or CRLF
 * line ends, blank lines skipped, a header record naming the columns, every
 * later record held to the header's field count, and integer fields read
 * with range checks. Every problem is an error code (csv_error) and a
 * message "FILE line N: problem" in the caller's buffer; no input, however
 * malformed, is read out of bounds. No heap allocation, no Python.h. */
#ifndef TABULEIRO_CSV_H
#define TABULEIRO_CSV_H
#include "portable.h"
#include <stddef.h>

#define CSV_MAX_FIELDS 16        /* fields of a record */
#define CSV_FIELD_LEN 128        /* bytes of a field, its NUL included */

/* Error codes: 0 is success; callers tell failures apart by these. */
typedef enum {
    CSV_OK = 0,
    CSV_E_EMPTY = 1,             /* no header record: the text is empty or blank */
    CSV_E_COLUMN = 2,            /* the header lacks a column the caller needs, or names it twice */
    CSV_E_FIELDS = 3,            /* a record's field count is not the header's, or over CSV_MAX_FIELDS */
    CSV_E_LONG = 4,              /* a field longer than CSV_FIELD_LEN - 1 bytes */
    CSV_E_QUOTE = 5,             /* a quoted field not closed, text after a closing quote, or a quote
                                    where the caller allows none */
    CSV_E_CR = 6,                /* a carriage return that ends no line (not followed by a line feed) */
    CSV_E_NUL = 7,               /* a NUL byte inside the text */
    CSV_E_NUMBER = 8,            /* a field that is not a decimal integer */
    CSV_E_RANGE = 9,             /* an integer outside the range the caller allows */
    CSV_E_VALUE = 10             /* a field the caller refuses (csv_fail) */
} csv_error;

/* One record: n fields (NUL-terminated, unquoted) and the line it starts on. */
typedef struct {
    int n, line;
    char f[CSV_MAX_FIELDS][CSV_FIELD_LEN];
} csv_row;

/* A reader over one text; fill it with csv_open. */
typedef struct {
    const char *p, *end;         /* the unread text */
    const char *file;            /* the file's name, for messages */
    int line;                    /* line of p, 1-based */
    int quotes;                  /* 1: quoted fields; 0: any '"' is CSV_E_QUOTE */
    int ncols;                   /* fields of the header (0 until csv_header has read it) */
    csv_row head;                /* the header record */
    char *msg;                   /* the caller's message buffer (may be NULL) */
    size_t msg_len;
} csv_reader;

/* Start reading text[0..len) (NULL reads as empty; a leading UTF-8 BOM is
 * skipped), naming it `file` in messages, which go to msg (msg_len bytes,
 * may be NULL). quotes 0 refuses quoted fields. Never fails. */
void csv_open(csv_reader *r, const char *file, const char *text, size_t len, int quotes, char *msg, size_t msg_len);

/* Read the header record and find each of names[0..k) in it: col[i] is the
 * field index of names[i]. CSV_OK, or CSV_E_EMPTY, CSV_E_COLUMN (a name
 * missing or twice) or any error of csv_next, with a message. Every later
 * record must then have the header's field count. */
int csv_header(csv_reader *r, const char *const *names, int k, int *col);

/* The next record into row: 1, 0 at the end of the text (row untouched), or
 * minus an error code (CSV_E_FIELDS, CSV_E_LONG, CSV_E_QUOTE, CSV_E_CR,
 * CSV_E_NUL) with a message naming the line. */
int csv_next(csv_reader *r, csv_row *row);

/* Field `col` of row as an integer in [lo, hi]: optional spaces or tabs
 * around an optional sign and decimal digits (as Python's int() reads it).
 * A blank field reads as *if_empty when if_empty is not NULL. CSV_OK (*out
 * set), or CSV_E_NUMBER / CSV_E_RANGE with a message naming the line and
 * the column (*out untouched). */
int csv_int(csv_reader *r, const csv_row *row, int col, int lo, int hi, const int *if_empty, int *out);

/* Write "FILE line N: <fmt...>" (line <= 0: "FILE <fmt...>") to the
 * reader's message buffer and return code: the callers' own checks of a
 * field word their refusals the same way. */
int csv_fail(csv_reader *r, int line, int code, const char *fmt, ...) TB_PRINTF_LIKE(4, 5);

#endif
