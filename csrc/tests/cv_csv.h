/* cv_csv.h - read capivarias_cards.csv for the C test drivers. */
#ifndef TABULEIRO_CV_CSV_H
#define TABULEIRO_CV_CSV_H
#include "capivarias.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *KINDS[] = {"herd", "capiolin", "capionca:push", "capionca:switch-one",
                              "capionca:switch-all", "capitico", "capissor"};
static const char *HERDS[] = {"capicria", "capiox", "capitche", "capiolin"};

static int load_csv(const char *path, cv_card_def *defs) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[256];
    int n = 0;
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; }  /* header */
    while (fgets(line, sizeof line, f) && n < CV_MAX_CARDS) {
        char *fld[6];
        char *p = line;
        for (int i = 0; i < 6; ++i) {
            fld[i] = p;
            p = strpbrk(p, ",\r\n");
            if (p) *p++ = 0; else p = "";
        }
        memset(&defs[n], 0, sizeof defs[n]);
        strncpy(defs[n].name, fld[0], CV_NAME_LEN - 1);
        defs[n].kind = 255;
        for (int k = 0; k < 7; ++k) if (!strcmp(fld[1], KINDS[k])) defs[n].kind = (uint8_t)k;
        defs[n].herd = CV_NONE;
        for (int h = 0; h < 4; ++h) if (!strcmp(fld[2], HERDS[h])) defs[n].herd = (uint8_t)h;
        defs[n].number = (int8_t)atoi(fld[3]);
        defs[n].modifier = (int8_t)atoi(fld[4]);
        defs[n].expansion = (uint8_t)atoi(fld[5]);
        ++n;
    }
    fclose(f);
    return n;
}

#endif
