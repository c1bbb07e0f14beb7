/* test_capulana.c - the C core's own test: plays N random games for each of
 * 2..5 players and checks every state with cp_check, the action lists, the
 * notation, apply_checked refusals, determinization (consistent, same
 * information-set key) and weaving options (each one's actions reproduce its
 * row and score). Meant to run under -fsanitize=address,undefined.
 * Usage: test_capulana FABRIC.csv OBJECTIVES.csv [N]   (exit 0 = clean) */
#include "capulana.h"
#include "rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int colour_code(char ch) {
    const char *s = strchr("-YGRBO", ch);
    if (ch == '*') return CP_WILD;
    return s && ch ? (int)(s - "-YGRBO") : -1;
}
static int pattern_code(char ch) {
    const char *s = strchr("-DTCZL", ch);
    if (ch == '*') return CP_WILD;
    return s && ch ? (int)(s - "-DTCZL") : -1;
}

/* split one CSV line (quoted fields allowed) into at most nf fields */
static int split_csv(char *line, char **fld, int nf) {
    int n = 0;
    char *p = line;
    while (n < nf) {
        if (*p == '"') {
            fld[n++] = ++p;
            char *q = strchr(p, '"');
            if (!q) return n;
            *q = 0;
            p = q + 1;
            if (*p == ',') ++p; else break;
        } else {
            fld[n++] = p;
            p = strpbrk(p, ",\r\n");
            if (!p) break;
            if (*p != ',') { *p = 0; break; }
            *p++ = 0;
        }
    }
    return n;
}

static int load_cards(const char *path, cp_card_def *defs) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[256];
    int n = 0;
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; }
    while (fgets(line, sizeof line, f) && n < CP_NCARDS) {
        char *fld[5];
        if (split_csv(line, fld, 5) < 5) continue;
        cp_card_def *d = &defs[n];
        memset(d, 0, sizeof *d);
        strncpy(d->name, fld[0], CP_NAME_LEN - 1);
        d->kind = !strcmp(fld[1], "initial") ? CP_KIND_INITIAL : CP_KIND_FABRIC;
        d->black = !strcmp(fld[2], "black");
        d->value = (uint8_t)atoi(fld[3]);
        char *tok = strtok(fld[4], " \r\n");
        while (tok && d->nstrips < 4) {
            int c = colour_code(tok[0]), p = pattern_code(tok[1]);
            if (c < 0 || p < 0 || strlen(tok) != 2) { fclose(f); return -1; }
            d->colour[d->nstrips] = (uint8_t)c;
            d->pattern[d->nstrips] = (uint8_t)p;
            d->nstrips++;
            tok = strtok(NULL, " \r\n");
        }
        ++n;
    }
    fclose(f);
    return n;
}

static const char *KEYS[CP_OBJ_NKEYS] = {"long-color", "long-pattern", "three-colors", "three-patterns",
    "long-capulana", "no-loose-strip", "two-wilds", "saver", "many-pieces", "perfect-match"};

static int load_objectives(const char *path, cp_objective_def *objs) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[256];
    int n = 0;
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; }
    while (fgets(line, sizeof line, f) && n < CP_NOBJECTIVES) {
        char *fld[4];
        if (split_csv(line, fld, 4) < 3) continue;
        memset(&objs[n], 0, sizeof objs[n]);
        strncpy(objs[n].name, fld[0], CP_NAME_LEN - 1);
        objs[n].points = (uint8_t)atoi(fld[1]);
        objs[n].key = 255;
        for (int k = 0; k < CP_OBJ_NKEYS; ++k) if (!strcmp(fld[2], KEYS[k])) objs[n].key = (uint8_t)k;
        ++n;
    }
    fclose(f);
    return n;
}

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

static cp_weave_option OPTS[1 << 14];

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s FABRIC.csv OBJECTIVES.csv [N]\n", argv[0]); return 2; }
    long games = argc > 3 ? atol(argv[3]) : 5000;
    cp_card_def cards[CP_NCARDS];
    cp_objective_def objs[CP_NOBJECTIVES];
    static cp_rules r;
    CHECK(load_cards(argv[1], cards) == CP_NCARDS, "cannot load %s", argv[1]);
    CHECK(load_objectives(argv[2], objs) == CP_NOBJECTIVES, "cannot load %s", argv[2]);
    CHECK(cp_rules_init(&r, cards, objs) == 0, "card table refused");
    CHECK(sizeof(cp_state) <= 512, "cp_state is %zu bytes", sizeof(cp_state));
    {   /* figure VI: RC YC YZ YD YD YD Y* *T GT GT GL scores 19 (R10) */
        const char *fig = "RC YC YZ YD YD YD Y* *T GT GT GL";
        uint8_t col[16], pat[16];
        int ns = 0;
        for (const char *p = fig; *p; p += (p[2] ? 3 : 2)) { col[ns] = (uint8_t)colour_code(p[0]); pat[ns] = (uint8_t)pattern_code(p[1]); ++ns; }
        cp_set sets[16];
        int total = 0, k = cp_score_sets(col, pat, ns, sets, 16, &total);
        CHECK(total == 19 && k == 4, "figure VI scores %d in %d sets", total, k);
    }
    uint64_t g = 12345;
    char msg[200], text[32];
    int buf[CP_MAX_ACTIONS];
    long actions = 0, options_checked = 0;
    for (int players = 2; players <= 5; ++players) {
        double wins = 0;
        for (long i = 0; i < games; ++i) {
            cp_state s;
            cp_new_game(&r, &s, players, rng_draw(&g));
            while (1) {
                CHECK(cp_check(&r, &s, msg, sizeof msg) == 0, "players %d game %ld action %ld: %s", players, i, actions, msg);
                int k = cp_legal_actions(&r, &s, buf);
                if (cp_is_terminal(&s)) { CHECK(k == 0, "terminal state with actions"); break; }
                CHECK(k > 0 && k <= CP_NUM_ACTIONS, "game %ld: %d actions", i, k);
                for (int j = 0; j < k; ++j) {
                    CHECK(buf[j] >= 0 && buf[j] < CP_NUM_ACTIONS, "id out of range");
                    CHECK(j == 0 || buf[j - 1] < buf[j], "actions not sorted and unique");
                    CHECK(cp_action_to_string(&r, buf[j], text, sizeof text) > 0, "no notation");
                }
                if ((actions & 255) == 0) {    /* determinize: consistent, same view */
                    for (int p = 0; p < players; ++p) {
                        cp_state d;
                        cp_determinize(&r, &s, p, rng_draw(&g), &d);
                        CHECK(cp_check(&r, &d, msg, sizeof msg) == 0, "determinized for %d: %s", p, msg);
                        CHECK(cp_infostate_key(&r, &d, p) == cp_infostate_key(&r, &s, p), "determinize changed the view of %d", p);
                    }
                }
                if (s.phase == CP_PHASE_WEAVE && (actions & 1023) == 0) {   /* weaving options replay */
                    int no = cp_weaving_options(&r, &s, OPTS, 1 << 14);
                    CHECK(no > 0, "no weaving option (%d)", no);
                    for (int j = 0; j < no; ++j) {
                        cp_state t = s;
                        int p = s.to_move;
                        for (int a = 0; a < OPTS[j].n_actions; ++a)
                            CHECK(cp_apply_checked(&r, &t, OPTS[j].actions[a]) == 0, "weaving option %d: action %d illegal", j, OPTS[j].actions[a]);
                        CHECK(t.to_move != p || t.phase != CP_PHASE_WEAVE || (t.weave_done >> p & 1), "option did not end the turn");
                        CHECK(cp_row_score(&OPTS[j].row, OPTS[j].nstrips) == OPTS[j].score, "option score");
                        ++options_checked;
                    }
                }
                {   /* an illegal id is refused and leaves the state untouched */
                    int bad = -1;
                    for (int a = 0, j = 0; a < CP_NUM_ACTIONS; ++a) {
                        if (j < k && buf[j] == a) { ++j; continue; }
                        bad = a; break;
                    }
                    if (bad >= 0) {
                        cp_state t = s;
                        CHECK(cp_apply_checked(&r, &t, bad) == -1 && !memcmp(&t, &s, sizeof s), "illegal action accepted");
                    }
                }
                cp_apply(&r, &s, buf[rng_below(&g, (uint32_t)k)]);
                ++actions;
            }
            double ret[CP_MAX_PLAYERS], sum = 0;
            cp_returns(&r, &s, ret);
            for (int p = 0; p < players; ++p) sum += ret[p];
            CHECK(sum > 0.999 && sum < 1.001, "returns sum to %f", sum);
            CHECK(s.round == CP_ROUNDS, "game ended in round %d", s.round);
            wins += ret[0];
        }
        printf("%d players: %ld games clean, player 0 won %.1f\n", players, games, wins);
    }
    printf("%ld actions, %ld weaving options replayed\n", actions, options_checked);
    return 0;
}
