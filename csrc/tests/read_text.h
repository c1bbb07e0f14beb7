/* read_text.h - the C drivers' file reader: a whole data file as a string. */
#ifndef TABULEIRO_TESTS_READ_TEXT_H
#define TABULEIRO_TESTS_READ_TEXT_H
#include <stdio.h>
#include <stdlib.h>

/* The whole file as a NUL-terminated string (malloc'd), or NULL (the
 * reason printed to stderr when the file cannot be opened). */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) { free(buf); buf = NULL; }
    if (buf) buf[len] = 0;
    fclose(f);
    return buf;
}

#endif
