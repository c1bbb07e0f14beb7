/* game.c - operations every game gets from the contract alone (game.h). */
#include "game.h"
#include "portable.h"
#include "rng.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sr_fail(int code, char *msg, size_t n, const char *fmt, ...) {
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return code;
}

sr_value_text sr_show_value(int64_t v) {
    sr_value_text out;
    if (v >= -1000000 && v <= 1000000) snprintf(out.s, sizeof out.s, "%lld", (long long)v);
    else snprintf(out.s, sizeof out.s, "a large number");
    return out;
}

int sr_apply_checked(const sr_game *g, void *state, int action) {
    if (action < 0 || action >= g->info.num_distinct_actions) return SR_E_RANGE;
    if (g->current_player(g->rules, state) == SR_TERMINAL) return SR_E_TERMINAL;
    int buf[SR_MAX_LEGAL];
    int n = g->legal_actions(g->rules, state, buf);
    int lo = 0, hi = n;                   /* legal ids are sorted */
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (buf[mid] < action) lo = mid + 1; else hi = mid;
    }
    if (lo == n || buf[lo] != action) return SR_E_ILLEGAL;
    g->apply(g->rules, state, action);
    return SR_OK;
}

int sr_legal_mask(const sr_game *g, const void *state, uint8_t *mask) {
    int buf[SR_MAX_LEGAL];
    int n = g->legal_actions(g->rules, state, buf);
    memset(mask, 0, (size_t)g->info.num_distinct_actions);
    for (int i = 0; i < n; ++i) mask[buf[i]] = 1;
    return n;
}

static uint64_t perft_rec(const sr_game *g, const void *state, int depth, const volatile int *stop, int *rc) {
    if (depth == 0) return 1;
    int buf[SR_MAX_LEGAL];
    int n = g->legal_actions(g->rules, state, buf);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    sr_state_buf child;
    for (int i = 0; i < n; ++i) {
        if (*rc != SR_OK) break;
        if (stop && *stop) { *rc = SR_E_STOPPED; break; }
        memcpy(child.b, state, g->info.state_size);
        g->apply(g->rules, child.b, buf[i]);
        total += perft_rec(g, child.b, depth - 1, stop, rc);
    }
    return total;
}

uint64_t sr_perft(const sr_game *g, const void *state, int depth, const volatile int *stop, int *rc) {
    *rc = SR_OK;
    if (depth < 0) { *rc = SR_E_PARAM; return 0; }
    if (stop && *stop) { *rc = SR_E_STOPPED; return 0; }   /* a flag set before the start: no work */
    return perft_rec(g, state, depth, stop, rc);
}

int sr_playout(const sr_game *g, void *state, sr_pick_fn pick, sr_phase_fn phase, uint64_t *rng,
               const volatile int *stop, int *cut) {
    int buf[SR_MAX_LEGAL];
    const int phase0 = phase ? phase(g->rules, state) : 0;
    if (cut) *cut = 0;
    for (int steps = 0;; ++steps) {
        if (g->current_player(g->rules, state) == SR_TERMINAL) return SR_OK;
        if (phase && phase(g->rules, state) != phase0) { *cut = 1; return SR_OK; }
        if (steps >= g->info.max_game_length) return SR_E_STUCK;
        if (stop && (steps & 63) == 0 && *stop) return SR_E_STOPPED;   /* before the first step too */
        int n = g->legal_actions(g->rules, state, buf);
        if (n <= 0) return SR_E_STUCK;
        int i = pick ? pick(g->rules, state, buf, n, rng) : (int)rng_pick(rng, (uint32_t)n);
        g->apply(g->rules, state, buf[i]);
    }
}

int sr_random_playouts(const sr_game *g, uint64_t n, uint64_t seed, const volatile int *stop, sr_playout_stats *out) {
    memset(out, 0, sizeof *out);
    const int np = g->info.num_players;
    uint64_t rng = seed;
    sr_state_buf s;
    int buf[SR_MAX_LEGAL];
    for (uint64_t k = 0; k < n; ++k) {
        if (stop && *stop) return SR_E_STOPPED;
        g->new_initial_state(g, s.b, rng_draw(&rng));
        for (int steps = 0;; ++steps) {
            if (g->current_player(g->rules, s.b) == SR_TERMINAL) break;
            int m = g->legal_actions(g->rules, s.b, buf);
            if (m <= 0 || steps >= g->info.max_game_length) return SR_E_STUCK;
            g->apply(g->rules, s.b, buf[rng_pick(&rng, (uint32_t)m)]);
            out->actions++;
        }
        double ret[SR_MAX_PLAYERS];
        int sc[SR_MAX_PLAYERS];
        g->returns(g->rules, s.b, ret);
        g->scores(g->rules, s.b, sc);
        int top = 0, ties = 0, all_equal = 1;
        for (int p = 0; p < np; ++p) {
            out->returns_sum[p] += ret[p];
            out->score_sum[p] += sc[p];
            if (ret[p] != ret[0]) all_equal = 0;
            if (ret[p] > ret[top]) { top = p; ties = 0; }
            else if (p != top && ret[p] == ret[top]) ties++;
        }
        if (all_equal) out->draws++;
        else if (!ties) out->wins[top]++;
        out->games++;
    }
    return SR_OK;
}

/* ---- running long work on a worker thread, interruptibly ------------------- */

typedef struct {
    void (*work)(void *);
    void *arg;
    int done;
    tb_mutex mu;
    tb_cond cv;
} polled_job;

static void *polled_main(void *p) {
    polled_job *j = p;
    j->work(j->arg);
    tb_mutex_lock(&j->mu);
    j->done = 1;
    tb_cond_signal(&j->cv);
    tb_mutex_unlock(&j->mu);
    return NULL;
}

int sr_run_polled(void (*work)(void *), void *arg, volatile int *stop, const volatile int *external,
                  int (*poll)(void *), void *ctx, int poll_ms, int *polled) {
    polled_job j = {.work = work, .arg = arg, .done = 0};
    tb_thread tid;
    *polled = 0;
    if (external && *external) *stop = 1;   /* a flag set before the start: the work sees it at once */
    if (tb_mutex_init(&j.mu) != 0) {
        work(arg);
        return SR_E_NOMEM;
    }
    if (tb_cond_init(&j.cv) != 0) {
        tb_mutex_destroy(&j.mu);
        work(arg);
        return SR_E_NOMEM;
    }
    if (tb_thread_create(&tid, polled_main, &j) != 0) {
        tb_cond_destroy(&j.cv);
        tb_mutex_destroy(&j.mu);
        work(arg);
        return SR_E_NOMEM;
    }
    tb_mutex_lock(&j.mu);
    while (!j.done) {
        tb_cond_wait_ms(&j.cv, &j.mu, poll_ms);
        if (j.done) break;
        tb_mutex_unlock(&j.mu);
        if (!*polled && poll) *polled = poll(ctx);
        if (*polled || (external && *external)) *stop = 1;
        tb_mutex_lock(&j.mu);
    }
    tb_mutex_unlock(&j.mu);
    tb_thread_join(tid);
    if (!*polled && poll) *polled = poll(ctx);
    tb_mutex_destroy(&j.mu);
    tb_cond_destroy(&j.cv);
    return SR_OK;
}
