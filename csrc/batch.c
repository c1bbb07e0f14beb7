/* batch.c - n games of one sr_game stepped together (batch.h). */
#include "batch.h"
#include "rng.h"
#include <string.h>

/* Write game i's outputs (and its own copies); fresh = the mask holds no
 * previous legal ids to clear. */
static void write_out(const sr_game *g, const void *st, int i, const sr_batch_out *out, int fresh) {
    int p = g->current_player(g->rules, st);
    if (out->player) out->player[i] = p;
    if (out->obs) {
        /* a finished game (only when restarting failed) is seen by player 0 */
        g->observation(g->rules, st, p < 0 ? 0 : p, out->obs + (size_t)i * (size_t)g->info.observation_size);
    }
    uint8_t *mask = out->mask ? out->mask + (size_t)i * (size_t)g->info.num_distinct_actions : NULL;
    int32_t *own = out->own.legal + (size_t)i * (size_t)out->legal_cap;
    int32_t *row = out->legal ? out->legal + (size_t)i * (size_t)out->legal_cap : NULL;
    if (mask) {
        if (fresh) memset(mask, 0, (size_t)g->info.num_distinct_actions);
        else
            for (int k = 0; k < out->own.num_legal[i]; ++k) mask[own[k]] = 0;   /* ids C wrote: in range */
    }
    int buf[SR_MAX_LEGAL];
    int n = g->legal_actions(g->rules, st, buf);
    if (n > out->legal_cap) n = out->legal_cap;
    for (int k = 0; k < n; ++k) {
        own[k] = buf[k];
        if (row) row[k] = buf[k];
        if (mask) mask[buf[k]] = 1;
    }
    out->own.num_legal[i] = n;
    if (out->num_legal) out->num_legal[i] = n;
}

static void restart(const sr_game *g, void *st, uint64_t *rng) {
    g->new_initial_state(g, st, rng_draw(rng));
}

void sr_batch_reset(const sr_game *g, void *states, size_t stride, uint64_t *rng, int first, int count,
                    const sr_batch_out *out) {
    const int np = g->info.num_players;
    for (int i = first; i < first + count; ++i) {
        void *st = (uint8_t *)states + (size_t)i * stride;
        restart(g, st, &rng[i]);
        if (out->rewards) memset(out->rewards + (size_t)i * np, 0, sizeof(float) * (size_t)np);
        out->own.done[i] = 0;
        out->own.length[i] = 0;
        if (out->done) out->done[i] = 0;
        if (out->length) out->length[i] = 0;
        write_out(g, st, i, out, 1);
    }
}

void sr_batch_refresh(const sr_game *g, const void *states, size_t stride, int first, int count,
                      const sr_batch_out *out) {
    for (int i = first; i < first + count; ++i) {
        if (out->done) out->done[i] = out->own.done[i];
        if (out->length) out->length[i] = out->own.length[i];
        write_out(g, (const uint8_t *)states + (size_t)i * stride, i, out, 1);
    }
}

static int is_legal(const sr_game *g, const void *st, int a) {
    int buf[SR_MAX_LEGAL];
    if (a < 0 || a >= g->info.num_distinct_actions) return 0;
    int n = g->legal_actions(g->rules, st, buf);
    for (int k = 0; k < n; ++k)   /* sorted ascending */
        if (buf[k] >= a) return buf[k] == a;
    return 0;
}

static int step_range(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                      int first, int count, const sr_batch_out *out) {
    const int np = g->info.num_players;
    int rc = SR_OK;
    int buf[SR_MAX_LEGAL];
    double ret[SR_MAX_PLAYERS];
    for (int i = first; i < first + count; ++i) {
        void *st = (uint8_t *)states + (size_t)i * stride;
        int a;
        if (actions) {
            a = actions[i];
        } else if (out->own.num_legal[i] > 0) {
            /* the legal ids the last step (or reset) found, from the batch's own copy */
            a = out->own.legal[(size_t)i * (size_t)out->legal_cap + rng_pick(&rng[i], (uint32_t)out->own.num_legal[i])];
        } else {
            int n = g->legal_actions(g->rules, st, buf);
            if (n <= 0) {   /* a finished or stuck game: restart it */
                if (g->current_player(g->rules, st) != SR_TERMINAL) rc = SR_E_STUCK;
                a = -1;
            } else {
                a = buf[rng_pick(&rng[i], (uint32_t)n)];
            }
        }
        if (a >= 0) g->apply(g->rules, st, a);
        int32_t len = out->own.done[i] ? 1 : out->own.length[i] + 1;
        float *rw = out->rewards ? out->rewards + (size_t)i * np : NULL;
        if (a < 0 || g->current_player(g->rules, st) == SR_TERMINAL) {
            g->returns(g->rules, st, ret);
            if (rw)
                for (int q = 0; q < np; ++q) rw[q] = (float)ret[q];
            out->own.done[i] = 1;
            restart(g, st, &rng[i]);
        } else {
            if (rw)
                for (int q = 0; q < np; ++q) rw[q] = 0.0f;
            out->own.done[i] = 0;
        }
        out->own.length[i] = len;   /* a finished game's length on the step that ends it */
        if (out->done) out->done[i] = out->own.done[i];
        if (out->length) out->length[i] = len;
        write_out(g, st, i, out, 0);
    }
    return rc;
}

int sr_batch_step(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                  int first, int count, const sr_batch_out *out, int *bad) {
    if (actions)
        for (int i = first; i < first + count; ++i)
            if (!is_legal(g, (uint8_t *)states + (size_t)i * stride, actions[i])) {
                if (bad) *bad = i;
                return SR_E_ILLEGAL;
            }
    return step_range(g, states, stride, rng, actions, first, count, out);
}

/* ---- threads ------------------------------------------------------------------ */

typedef struct {
    const sr_game *g;
    void *states;
    size_t stride;
    uint64_t *rng;
    const int32_t *actions;
    int first, count;
    const sr_batch_out *out;
    int rc;
} share;

static void *run_share(void *arg) {
    share *s = (share *)arg;
    s->rc = step_range(s->g, s->states, s->stride, s->rng, s->actions, s->first, s->count, s->out);
    return NULL;
}

#define BATCH_MAX_THREADS 64

int sr_batch_step_threads(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                          int n, const sr_batch_out *out, int *bad, int threads) {
    if (threads > BATCH_MAX_THREADS) threads = BATCH_MAX_THREADS;
    if (threads > n) threads = n;
    if (threads <= 1) return sr_batch_step(g, states, stride, rng, actions, 0, n, out, bad);
    if (actions)
        for (int i = 0; i < n; ++i)
            if (!is_legal(g, (uint8_t *)states + (size_t)i * stride, actions[i])) {
                if (bad) *bad = i;
                return SR_E_ILLEGAL;
            }
    share sh[BATCH_MAX_THREADS];
    tb_thread th[BATCH_MAX_THREADS];
    int started[BATCH_MAX_THREADS];
    for (int t = 0; t < threads; ++t) {
        int lo = (int)((long long)n * t / threads), hi = (int)((long long)n * (t + 1) / threads);
        sh[t] = (share){g, states, stride, rng, actions, lo, hi - lo, out, SR_OK};
        started[t] = t > 0 && tb_thread_create(&th[t], run_share, &sh[t]) == 0;
        if (t > 0 && !started[t]) run_share(&sh[t]);   /* no thread: do it here */
    }
    run_share(&sh[0]);
    int rc = SR_OK;
    for (int t = 0; t < threads; ++t) {
        if (started[t]) tb_thread_join(th[t]);
        if (sh[t].rc != SR_OK) rc = sh[t].rc;
    }
    return rc;
}
