/* capulana_json.h - what the two halves of Capulana's JSON layer share
 * (capulana_json.c: writer, notation, reader; capulana_json_view.c: a state
 * from a view, the events a seat sees): where each part of an encoding
 * lies, and the writer's small pieces. Internal to those two files. */
#ifndef TABULEIRO_CAPULANA_JSON_H
#define TABULEIRO_CAPULANA_JSON_H
#include "state_json.h"
#include "capulana_game.h"

extern const char *const CP_JSON_PHASES[3];      /* "offer", "weave", "over" */
extern const char *const CP_JSON_PLACEMENTS[7];  /* "+", ">1", ... "<3" */
extern const char CP_JSON_ORIENTATIONS[2];       /* 'n', 'r' */

/* Where each part of an encoding lies (indices into it), read once. */
typedef struct {
    int players;
    int objectives, deck, slots;             /* index of each list's count */
    int n_offers, offer[2 * CP_MAX_PLAYERS]; /* index of each closed offer's player field */
    int open;                                /* the open offer's player field, or -1 */
    int hand[CP_MAX_PLAYERS], row[CP_MAX_PLAYERS];
    int woven, done, known;
} cp_layout;

/* The layout of enc[0..n): SR_OK, or SR_E_STATE if it is not one. */
int cp_json_layout(const int64_t *enc, int n, cp_layout *L);
/* The card names of the list at enc[at] (count, ids) as a JSON array. */
void cp_json_names(const cp_rules *r, const int64_t *enc, int at, sr_jw *w);
/* The k-th child of array node list. */
int cp_json_nth(const sr_jread *r, int list, int k);

/* capulana_json_view.c */
void cp_json_from_view(const sr_game *g, sr_jread *r, int v, int player, sr_jw *w);
void cp_json_seen(const sr_game *g, const int64_t *b, int nb, int action, int mover, int player, const char *notation,
                  sr_jw *w);
void cp_json_after(const sr_game *g, const int64_t *b, int nb, const int64_t *a, int na, int over, sr_jw *w);

#endif
