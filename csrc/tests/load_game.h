/* load_game.h - the C drivers' registry loader: read a registered game's
 * data files from a directory and make an instance through the contract. */
#ifndef TABULEIRO_TESTS_LOAD_GAME_H
#define TABULEIRO_TESTS_LOAD_GAME_H
#include "game.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_text.h"

/* Load def's rules from data_dir into a malloc'd buffer (*rules) and make g
 * with params (NULL: the defaults). 0 on success. */
static int load_game(const sr_game_def *def, const char *data_dir, const int *params, void **rules, sr_game *g) {
    char path[1024], msg[SR_MSG_LEN];
    char *texts[4] = {0};
    int rc = -1, p[SR_MAX_PARAMS] = {0};
    *rules = calloc(1, def->rules_size);
    if (!*rules) return -1;
    for (int i = 0; i < def->num_data; ++i) {
        snprintf(path, sizeof path, "%s/%s", data_dir, def->data_files[i]);
        if (!(texts[i] = read_text(path))) goto done;
    }
    if (def->load_rules(*rules, (const char *const *)texts, msg, sizeof msg) != SR_OK) {
        fprintf(stderr, "%s: %s\n", def->name, msg);
        goto done;
    }
    for (int i = 0; i < def->num_params; ++i) p[i] = params ? params[i] : def->params[i].def;
    if (def->make(*rules, p, g, msg, sizeof msg) != SR_OK) { fprintf(stderr, "%s: %s\n", def->name, msg); goto done; }
    rc = 0;
done:
    for (int i = 0; i < 4; ++i) free(texts[i]);
    return rc;
}

#endif
