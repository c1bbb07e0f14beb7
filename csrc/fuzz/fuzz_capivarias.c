/* fuzz_capivarias.c - libFuzzer harness: Capivárias states decoded from the
 * input and played by it, every contract invariant checked (fuzz_common.h). */
#include "game.h"
#include <stdint.h>

#define FUZZ_GAME "capivarias"
#define FUZZ_SEED_FIELD 7   /* expansion, round, wins x2, to_move, last_taker, winner, seed */

/* from_dict: a state played with the expansion loads only into an instance
 * with the expansion, and one without only into one without. */
static int fuzz_instance_accepts(const sr_game *g, const int64_t *f, int n) {
    return n > 0 && f[0] == g->params[0];
}

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_run(data, size); }
