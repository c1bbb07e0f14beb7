/* registry.c - the games tabuleiro knows: one entry per game joins its rules
 * (csrc/<game>_game.c) to its search policy (csrc/search/<g>_policy.c)
 * and its JSON layer (csrc/<game>_json.c).
 * Adding a game is one entry here. */
#include "game.h"
#include "capivarias_game.h"
#include "capulana_game.h"
#include "toy.h"
#include "search/policies.h"
#include "state_json.h"
#include <string.h>

static const sr_game_def GAMES[] = {
    {
        .name = "capivarias",
        .rules_size = sizeof(cv_rules),
        .num_data = 1,
        .data_files = {"capivarias_cards.csv"},
        .load_rules = cv_load_rules,
        .num_params = 2,
        .params = {{"expansion", 0, 1, 0, 1}, {"first_player", 0, 1, 0, 0}},
        .make = cv_make_game,
        .policy = &cv_policy,
        .json = &cv_json,
    },
    {
        .name = "capulana",
        .rules_size = sizeof(cp_rules),
        .num_data = 2,
        .data_files = {"capulana_fabric_cards.csv", "capulana_objectives.csv"},
        .load_rules = cp_load_rules,
        .num_params = 2,
        .params = {{"players", 2, 5, 3, 0}, {"legacy_determinize", 0, 1, 0, 1}},
        .make = cp_make_game,
        .policy = &cp_policy,
        .json = &cp_json,
    },
    {
        .name = "toy",
        .rules_size = sizeof(toy_rules),
        .num_data = 0,
        .load_rules = toy_load_rules,
        .num_params = 0,
        .make = toy_make_game,
        .policy = &toy_policy,
        .json = &toy_json,
    },
};

int sr_game_count(void) { return (int)(sizeof GAMES / sizeof GAMES[0]); }

const sr_game_def *sr_game_at(int i) { return i >= 0 && i < sr_game_count() ? &GAMES[i] : NULL; }

const sr_game_def *sr_find_game(const char *name) {
    for (int i = 0; i < sr_game_count(); ++i)
        if (strcmp(GAMES[i].name, name) == 0) return &GAMES[i];
    return NULL;
}
