/* fuzz_toy.c - libFuzzer harness: Toy states decoded from the input and
 * played by it, every contract invariant checked (fuzz_common.h). */
#include "game.h"
#include <stdint.h>

#define FUZZ_GAME "toy"
#define FUZZ_SEED_FIELD 1   /* to_move, seed */

/* Toy has no parameters: every state decode accepts belongs to its one instance. */
static int fuzz_instance_accepts(const sr_game *g, const int64_t *f, int n) {
    (void)g; (void)f; (void)n;
    return 1;
}

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_run(data, size); }
