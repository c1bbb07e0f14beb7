/* fuzz_capulana.c - libFuzzer harness: Capulana states decoded from the input
 * and played by it, every contract invariant checked (fuzz_common.h). */
#include "game.h"
#include <stdint.h>

#define FUZZ_GAME "capulana"
#define FUZZ_SEED_FIELD 5   /* players, round, start_player, phase, to_move, seed */

/* from_dict (and cp_decode_state's note): a state loads into the instance of
 * its player count only. */
static int fuzz_instance_accepts(const sr_game *g, const int64_t *f, int n) {
    return n > 0 && f[0] == g->params[0];
}

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_run(data, size); }
