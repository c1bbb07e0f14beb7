/* test_csv.c - the C core's own test of its CSV reader (csrc/csv.h): every
 * malformed input gives its error code and a message naming the file, the
 * line and the problem; well-formed variants (BOM, CRLF, blank lines,
 * quoted fields with commas, quotes and line breaks, no final newline) read
 * alike. Each text is read from a heap copy of exactly its length with no
 * NUL after it, so under -fsanitize=address any read past the end fails.
 * Usage: test_csv   (exit 0 = clean) */
#include "csv.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...) do { ++checks; if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); ++failures; return 1; } } while (0)

static const char *const COLS[2] = {"a", "b"};

/* Read text[0..len) as a table with columns a and b (quotes on or off),
 * column a an integer in [0, 99]: CSV_OK, or the first error's code (its
 * message in msg). *rows counts the records read. */
static int read_table(const char *text, size_t len, int quotes, char *msg, size_t mn, int *rows) {
    char *copy = malloc(len ? len : 1);   /* exactly len bytes: no NUL after the text */
    if (!copy) return -1;
    memcpy(copy, text, len);
    csv_reader r;
    csv_row row;
    int col[2], rc, v;
    *rows = 0;
    csv_open(&r, "t.csv", copy, len, quotes, msg, mn);
    rc = csv_header(&r, COLS, 2, col);
    while (rc == CSV_OK && (rc = csv_next(&r, &row)) == 1) {
        ++*rows;
        rc = csv_int(&r, &row, col[0], 0, 99, NULL, &v);
    }
    free(copy);
    return rc < 0 ? -rc : rc;
}

typedef struct {
    const char *what;
    const char *text;
    size_t len;                  /* 0: strlen(text) */
    int quotes;
    int code;                    /* the expected csv_error */
    const char *words;           /* expected in the message, after "t.csv line N: " (line > 0) */
    int line;
} bad_case;

static const bad_case BAD[] = {
    {"empty text", "", 0, 1, CSV_E_EMPTY, "t.csv is empty", 0},
    {"blank lines only", "\n\r\n\n", 0, 1, CSV_E_EMPTY, "t.csv is empty", 0},
    {"BOM only", "\xEF\xBB\xBF", 0, 1, CSV_E_EMPTY, "t.csv is empty", 0},
    {"missing header column", "\xEF\xBB\xBF\n\na,c\n1,2\n", 0, 1, CSV_E_COLUMN, "the header has no column 'b'", 3},
    {"header without the columns", "1,2\n", 0, 1, CSV_E_COLUMN, "no column 'a'", 1},
    {"column named twice", "a,b,a\n1,2,3\n", 0, 1, CSV_E_COLUMN, "column 'a' twice", 1},
    {"too few fields", "a,b\n1,2\n\n3\n", 0, 1, CSV_E_FIELDS, "1 fields, but the header has 2", 4},
    {"too many fields", "a,b\r\n1,2\r\n3,4,5\r\n", 0, 1, CSV_E_FIELDS, "3 fields, but the header has 2", 3},
    {"over CSV_MAX_FIELDS", "a,b\n1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n", 0, 1, CSV_E_FIELDS, "more than 16 fields", 2},
    {"bad number", "a,b\n1,x\nx5,y\n", 0, 1, CSV_E_NUMBER, "a 'x5' is not an integer", 3},
    {"decimal number", "a,b\n1.5,y\n", 0, 1, CSV_E_NUMBER, "a '1.5' is not an integer", 2},
    {"empty number", "a,b\n,y\n", 0, 1, CSV_E_NUMBER, "a '' is not an integer", 2},
    {"sign alone", "a,b\n-,y\n", 0, 1, CSV_E_NUMBER, "not an integer", 2},
    {"two numbers", "a,b\n1 2,y\n", 0, 1, CSV_E_NUMBER, "not an integer", 2},
    {"number out of range", "a,b\n100,y\n", 0, 1, CSV_E_RANGE, "a '100' is not in [0, 99]", 2},
    {"negative number", "a,b\n-1,y\n", 0, 1, CSV_E_RANGE, "is not in [0, 99]", 2},
    {"number past any int", "a,b\n99999999999999999999999,y\n", 0, 1, CSV_E_RANGE, "is not in [0, 99]", 2},
    {"unclosed quote", "a,b\n1,\"open\n2,3\n", 0, 1, CSV_E_QUOTE, "a quoted field is not closed", 2},
    {"text after a closing quote", "a,b\n1,\"x\"y\n", 0, 1, CSV_E_QUOTE, "text after a closing quote", 2},
    {"quote where quotes are off", "a,b\n1,\"y\"\n", 0, 0, CSV_E_QUOTE, "quoted fields are not supported", 2},
    {"quote inside a field, quotes off", "a,b\n1,y\"\n", 0, 0, CSV_E_QUOTE, "quoted fields are not supported", 2},
    {"lone CR", "a,b\n1,2\r3,4\n", 0, 1, CSV_E_CR, "a carriage return inside a line", 2},
    {"CR-only line ends", "a,b\r1,2\r", 0, 1, CSV_E_CR, "a carriage return inside a line", 1},
    {"NUL byte", "a,b\n1,2\n3,x\0y\n", 14, 1, CSV_E_NUL, "a NUL byte", 3},
    {"NUL byte in a quoted field", "a,b\n1,\"x\n\0\"\n", 12, 1, CSV_E_NUL, "a NUL byte", 3},
    {"NUL byte in the header", "a,\0b\n", 5, 1, CSV_E_NUL, "a NUL byte", 1},
    {"field over 127 bytes", "a,b\n1,"
     "0123456789012345678901234567890123456789012345678901234567890123"
     "0123456789012345678901234567890123456789012345678901234567890123\n", 0, 1, CSV_E_LONG,
     "a field is longer than 127 bytes", 2},
    {"quoted field over 127 bytes", "a,b\n1,\""
     "0123456789012345678901234567890123456789012345678901234567890123"
     "0123456789012345678901234567890123456789012345678901234567890123\"\n", 0, 1, CSV_E_LONG,
     "a field is longer than 127 bytes", 2},
};

static int test_bad(const bad_case *c) {
    char msg[256], want[64];
    int rows;
    size_t len = c->len ? c->len : strlen(c->text);
    memset(msg, 0, sizeof msg);
    int rc = read_table(c->text, len, c->quotes, msg, sizeof msg, &rows);
    CHECK(rc == c->code, "%s: code %d, not %d (message '%s')", c->what, rc, c->code, msg);
    CHECK(strstr(msg, c->words), "%s: message '%s' lacks '%s'", c->what, msg, c->words);
    if (c->line > 0) {
        snprintf(want, sizeof want, "t.csv line %d: ", c->line);
        CHECK(strncmp(msg, want, strlen(want)) == 0, "%s: message '%s' does not start '%s'", c->what, msg, want);
    }
    /* the same refusal with no message buffer, and into a tiny one (cut, terminated) */
    CHECK(read_table(c->text, len, c->quotes, NULL, 0, &rows) == c->code, "%s: another code without a message buffer", c->what);
    memset(msg, 'x', sizeof msg);
    CHECK(read_table(c->text, len, c->quotes, msg, 6, &rows) == c->code && strlen(msg) == 5, "%s: tiny buffer", c->what);
    return 0;
}

/* Well-formed variants of one table all read the same records. */
static int test_good(void) {
    static const char *const VARIANTS[] = {
        "a,b\n1,x\n2,\"y, \"\"z\"\"\"\n3,\n",
        "\xEF\xBB\xBF" "a,b\r\n1,x\r\n\r\n2,\"y, \"\"z\"\"\"\r\n3,",
        "\n\na,b\n\n1,x\n2,\"y, \"\"z\"\"\"\n3,\r",
        "a,b\n1,\"x\"\n\"2\",\"y, \"\"z\"\"\"\n 3 ,\"\"\n\n\n",
    };
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; ++i) {
        const char *t = VARIANTS[i];
        size_t len = strlen(t);
        char *copy = malloc(len);
        CHECK(copy, "no memory");
        memcpy(copy, t, len);
        char msg[256];
        csv_reader r;
        csv_row row;
        int col[2], v, n = 0;
        csv_open(&r, "t.csv", copy, len, 1, msg, sizeof msg);
        CHECK(csv_header(&r, COLS, 2, col) == CSV_OK && col[0] == 0 && col[1] == 1, "variant %zu: header: %s", i, msg);
        static const char *const B[3] = {"x", "y, \"z\"", ""};
        int rc;
        while ((rc = csv_next(&r, &row)) == 1) {
            CHECK(n < 3 && row.n == 2 && csv_int(&r, &row, col[0], 0, 99, NULL, &v) == CSV_OK && v == n + 1 &&
                  strcmp(row.f[1], B[n]) == 0, "variant %zu: record %d reads '%s','%s' (%s)", i, n, row.f[0], row.f[1], msg);
            ++n;
        }
        CHECK(rc == 0 && n == 3, "variant %zu: %d records, end %d: %s", i, n, rc, msg);
        CHECK(csv_next(&r, &row) == 0, "variant %zu: reads past the end", i);
        free(copy);
    }
    return 0;
}

/* Line numbers count physical lines: a quoted field's line breaks, blank lines, CRLF. */
static int test_lines(void) {
    const char *t = "a,b\r\n\r\n1,\"two\nlines\"\n\n2,x\n";
    char msg[256];
    csv_reader r;
    csv_row row;
    int col[2];
    csv_open(&r, "t.csv", t, strlen(t), 1, msg, sizeof msg);
    CHECK(csv_header(&r, COLS, 2, col) == CSV_OK && r.head.line == 1, "header line");
    CHECK(csv_next(&r, &row) == 1 && row.line == 3 && strcmp(row.f[1], "two\nlines") == 0, "a two-line record: line %d", row.line);
    CHECK(csv_next(&r, &row) == 1 && row.line == 6, "the record after it: line %d, not 6", row.line);
    CHECK(csv_fail(&r, row.line, CSV_E_VALUE, "card %s is odd", "X") == CSV_E_VALUE &&
          strcmp(msg, "t.csv line 6: card X is odd") == 0, "csv_fail: '%s'", msg);
    CHECK(csv_fail(&r, 0, CSV_E_VALUE, "has %d cards", 2) == CSV_E_VALUE && strcmp(msg, "t.csv has 2 cards") == 0,
          "csv_fail without a line: '%s'", msg);
    return 0;
}

/* csv_int: spaces and signs as Python's int() reads them, bounds inclusive, if_empty. */
static int test_int(void) {
    static const struct { const char *field; int lo, hi, code, value; } CASES[] = {
        {"0", 0, 0, CSV_OK, 0},       {" 42\t", 0, 99, CSV_OK, 42}, {"+7", 0, 9, CSV_OK, 7},
        {"-128", -128, 127, CSV_OK, -128}, {"127", -128, 127, CSV_OK, 127}, {"128", -128, 127, CSV_E_RANGE, 0},
        {"-129", -128, 127, CSV_E_RANGE, 0}, {"0x10", 0, 99, CSV_E_NUMBER, 0}, {"1e3", 0, 9999, CSV_E_NUMBER, 0},
        {"--1", -9, 9, CSV_E_NUMBER, 0}, {"   ", 0, 9, CSV_E_NUMBER, 0},
    };
    char msg[256];
    csv_reader r;
    csv_row row;
    csv_open(&r, "t.csv", "", 0, 1, msg, sizeof msg);
    row.n = 1;
    row.line = 9;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        int v = -1000;
        snprintf(row.f[0], CSV_FIELD_LEN, "%s", CASES[i].field);
        int rc = csv_int(&r, &row, 0, CASES[i].lo, CASES[i].hi, NULL, &v);
        CHECK(rc == CASES[i].code, "'%s' in [%d, %d]: code %d, not %d", CASES[i].field, CASES[i].lo, CASES[i].hi, rc, CASES[i].code);
        CHECK(rc != CSV_OK || v == CASES[i].value, "'%s' reads %d", CASES[i].field, v);
        CHECK(rc == CSV_OK ? v != -1000 : v == -1000 && strstr(msg, "t.csv line 9: field"), "'%s': '%s'", CASES[i].field, msg);
    }
    static const int SEVEN = 7;
    int v = 0;
    snprintf(row.f[0], CSV_FIELD_LEN, " ");
    CHECK(csv_int(&r, &row, 0, 0, 9, &SEVEN, &v) == CSV_OK && v == 7, "a blank field with if_empty");
    CHECK(csv_int(&r, &row, 1, 0, 9, &SEVEN, &v) == CSV_E_FIELDS, "a column past the record");
    CHECK(csv_int(&r, &row, -1, 0, 9, &SEVEN, &v) == CSV_E_FIELDS, "a negative column");
    return 0;
}

int main(void) {
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; ++i) test_bad(&BAD[i]);
    test_good();
    test_lines();
    test_int();
    {   /* no text at all reads as empty */
        char msg[64];
        csv_reader r;
        int col[2];
        csv_open(&r, NULL, NULL, 5, 1, msg, sizeof msg);
        ++checks;
        if (csv_header(&r, COLS, 2, col) != CSV_E_EMPTY || !strstr(msg, "is empty")) { fprintf(stderr, "NULL text: %s\n", msg); ++failures; }
    }
    printf("test_csv: %d checks, %zu malformed inputs: %d passed, %d failed\n", checks, sizeof BAD / sizeof BAD[0],
           failures ? 0 : 1, failures ? 1 : 0);
    return failures ? 1 : 0;
}
