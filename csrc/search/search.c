/* search.c - FlatMC, determinized UCT and ISMCTS over the sr_game contract. */
#include "search.h"
#include "../portable.h"
#include "../rng.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NONE (-1)
#define MAX_DEPTH 1024

typedef struct {
    int first_edge;            /* linked list of edges */
    int player;                /* player acting here */
    uint64_t key;              /* ISMCTS: information-state key */
} node_t;

typedef struct {
    int action;
    int next;                  /* next edge of the same node */
    int child;                 /* MCTS: child node, NONE until reached */
    uint32_t visits;
    uint32_t avail;            /* times it was legal when its node was visited */
    double reward;             /* total return of the node's player */
} edge_t;

typedef struct {
    const sr_game *g;
    const sr_evaluator *ev;
    const sr_params *p;
    const uint8_t *root;
    int root_player;
    uint64_t rng;
    int64_t iterations_budget;    /* -1 = no iteration limit */
    int error;                 /* SR_OK, or the sr_error that ended this tree */
    double deadline;
    /* pools */
    node_t *nodes; int64_t n_nodes, cap_nodes;
    edge_t *edges; int64_t n_edges, cap_edges;
    int *table; int64_t table_mask;    /* ISMCTS: node index by key, open addressing */
    /* ISMCTS: a node's key (the evaluator's node_key, else the game's infostate_key) */
    uint64_t (*node_key)(const void *rules, const void *state, int player);
    int pool_full;
    int stopped;               /* the stop flag ended this tree */
    int64_t iterations_done;
    int n_root;
    uint64_t *legal_bits;      /* bitmaps scratch (num_actions bits) */
    uint64_t *edge_bits;
    int root_prior_n, root_prior_have;
    /* ---- the arrays below are not zeroed by tree_init (tens of KB a search):
     * each entry is written before it is read ---- */
    int root_legal[SR_MAX_LEGAL];       /* [0, n_root) */
    /* FlatMC root statistics, [0, n_root) zeroed by tree_init */
    double flat_reward[SR_MAX_LEGAL];
    int64_t flat_visits[SR_MAX_LEGAL];
    double prior[SR_MAX_LEGAL];
    /* the root prior, computed once for root_prior_legal[0..root_prior_n)
     * (root_prior_n = 0: not yet); root_prior_have = 0: no opinion there */
    double root_prior[SR_MAX_LEGAL];
    int root_prior_legal[SR_MAX_LEGAL];
    double root_bias[SR_MAX_LEGAL];     /* (prior - best) / (best - worst) in [-1, 0], same order */
} tree_t;

/* log(n) for small n, filled once: UCB takes one per legal edge per step. */
#define LOG_TABLE 4096
static double log_table[LOG_TABLE];
static tb_once log_once = TB_ONCE_INIT;
static void log_init(void) {
    log_table[0] = 0.0;
    for (int i = 1; i < LOG_TABLE; ++i) log_table[i] = log((double)i);
}
static inline double log_n(uint32_t n) { return n < LOG_TABLE ? log_table[n] : log((double)n); }

static double now_seconds(void) { return tb_monotonic_seconds(); }

void sr_make_evaluator(const sr_policy *policy, int heuristic_rollout, int shaped, int prior, int horizon,
                       int control_variates, sr_evaluator *out) {
    out->rollout = heuristic_rollout && policy ? policy->heuristic_action : NULL;
    out->value = shaped && policy ? policy->shaped_returns : NULL;
    out->prior = prior && policy ? policy->action_prior : NULL;
    out->root_prior = prior && policy && policy->action_prior ? policy->root_prior : NULL;
    out->root_bias = out->root_prior ? policy->root_bias : 0.0;
    int h = horizon && policy && policy->phase && policy->horizon_value;
    out->phase = h ? policy->phase : NULL;
    out->horizon_value = h ? policy->horizon_value : NULL;
    out->node_key = policy ? policy->search_key : NULL;
    out->baseline = control_variates && !out->rollout && policy ? policy->rollout_baseline : NULL;
}


/* Play out from state: to the end, or with a horizon until the phase changes
 * (*cut set then). SR_OK, or SR_E_STUCK as sr_playout. */
static inline int rollout(tree_t *t, void *state, int *cut) {
    const sr_evaluator *ev = t->ev;
    return sr_playout(t->g, state, ev->rollout, ev->horizon_value ? ev->phase : NULL, &t->rng, NULL, cut);
}

/* The rollout's value: at a horizon the evaluator's estimate, else the
 * evaluator's value, else the game's true returns. */
static inline void value_of(const tree_t *t, const void *state, int cut, double *out) {
    if (cut) t->ev->horizon_value(t->g->rules, state, out);
    else if (t->ev->value) t->ev->value(t->g->rules, state, out);
    else t->g->returns(t->g->rules, state, out);
}

/* Where a rollout from the phase ph0 stops: 1 at the end of the game, 2 at
 * the horizon (the phase changed), else 0. */
static inline int rollout_end(const tree_t *t, const void *state, int ph0) {
    if (t->g->current_player(t->g->rules, state) == SR_TERMINAL) return 1;
    return t->ev->phase && t->ev->horizon_value && t->ev->phase(t->g->rules, state) != ph0 ? 2 : 0;
}

/* A uniform rollout with control variates (issue 25): at each step the mean,
 * over every legal action, of the value of the state it leads to (the
 * baseline's, or value_of's where the rollout would stop there) is added,
 * and that of the action drawn taken off. Each such term has mean zero
 * given the steps before it, so the estimate's mean is the plain rollout's;
 * where the baseline tracks the value, most of what the draws add to the
 * variance cancels. The values of every player into ret: not clipped to
 * the returns' range, which they may leave (clipping them would pull every
 * mean near a bound towards the middle). SR_OK or SR_E_STUCK, as a rollout. */
static int rollout_cv(tree_t *t, void *state, double *ret) {
    const sr_game *g = t->g;
    const int np = g->info.num_players;
    const size_t size = g->info.state_size;
    const int ph0 = t->ev->phase && t->ev->horizon_value ? t->ev->phase(g->rules, state) : 0;
    int legal[SR_MAX_LEGAL];
    double acc[SR_MAX_PLAYERS] = {0}, w[SR_MAX_PLAYERS], w_drawn[SR_MAX_PLAYERS] = {0}, mean[SR_MAX_PLAYERS];
    sr_state_buf next, drawn;
    int end = rollout_end(t, state, ph0);
    if (end) { value_of(t, state, end == 2, ret); return SR_OK; }
    for (int steps = 0; steps < g->info.max_game_length; ++steps) {
        const int n = g->legal_actions(g->rules, state, legal);
        if (n <= 0) return SR_E_STUCK;
        const int pick = (int)rng_pick(&t->rng, (uint32_t)n);
        int end_drawn = 0;
        for (int k = 0; k < np; ++k) mean[k] = 0.0;
        for (int i = 0; i < n; ++i) {
            memcpy(next.b, state, size);
            g->apply(g->rules, next.b, legal[i]);
            const int e = rollout_end(t, next.b, ph0);
            if (e) value_of(t, next.b, e == 2, w);
            else t->ev->baseline(g->rules, next.b, w);
            for (int k = 0; k < np; ++k) mean[k] += w[k];
            if (i == pick) {
                memcpy(drawn.b, next.b, size);
                memcpy(w_drawn, w, sizeof w);
                end_drawn = e;
            }
        }
        for (int k = 0; k < np; ++k) acc[k] += mean[k] / n - w_drawn[k];
        memcpy(state, drawn.b, size);
        if (end_drawn) {
            for (int k = 0; k < np; ++k) ret[k] = w_drawn[k] + acc[k];
            return SR_OK;
        }
    }
    return SR_E_STUCK;
}

/* The value of a rollout from state (state is played out): with control
 * variates where the evaluator has a baseline. SR_OK or SR_E_STUCK. */
static int evaluate(tree_t *t, void *state, double *ret) {
    if (t->ev->baseline) return rollout_cv(t, state, ret);
    int cut;
    int rc = rollout(t, state, &cut);
    if (rc == SR_OK) value_of(t, state, cut, ret);
    return rc;
}

/* ---- pools ---------------------------------------------------------------- */

static int new_node(tree_t *t, int player, uint64_t key) {
    if (t->n_nodes >= t->cap_nodes) { t->pool_full = 1; return NONE; }
    node_t *n = &t->nodes[t->n_nodes];
    n->first_edge = NONE;
    n->player = player;
    n->key = key;
    return (int)t->n_nodes++;
}

static int new_edge(tree_t *t, int node, int action) {
    if (t->n_edges >= t->cap_edges) { t->pool_full = 1; return NONE; }
    edge_t *e = &t->edges[t->n_edges];
    e->action = action;
    e->child = NONE;
    e->visits = 0;
    e->avail = 0;
    e->reward = 0.0;
    e->next = t->nodes[node].first_edge;
    t->nodes[node].first_edge = (int)t->n_edges;
    return (int)t->n_edges++;
}

static inline uint64_t key_hash(int player, uint64_t key) {
    uint64_t h = key ^ ((uint64_t)(player + 1) * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 32;
    return h;
}

/* ISMCTS: find (player, key); create it when `create` (NONE if absent/full). */
static int lookup(tree_t *t, int player, uint64_t key, int create) {
    uint64_t i = key_hash(player, key) & (uint64_t)t->table_mask;
    for (;;) {
        int n = t->table[i];
        if (n == NONE) break;
        if (t->nodes[n].key == key && t->nodes[n].player == player) return n;
        i = (i + 1) & (uint64_t)t->table_mask;
    }
    if (!create) return NONE;
    int n = new_node(t, player, key);
    if (n != NONE) t->table[i] = n;
    return n;
}

/* ---- one iteration of MCTS / ISMCTS ------------------------------------------- */

/* The root prior's bias of root action a (0 when there is none). */
static double root_bias_of(const tree_t *t, int a) {
    if (!t->root_prior_have || t->root_prior_n <= 0) return 0.0;
    int lo = 0, hi = t->root_prior_n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->root_prior_legal[mid] < a) lo = mid + 1; else hi = mid;
    }
    return t->root_prior_legal[lo] == a ? t->root_bias[lo] : 0.0;
}

/* The prior of the actions legal[0..n) at the root into t->prior: the
 * evaluator's root prior, computed on the first call and reused while the
 * root's legal actions are the same (they are in every world of a search:
 * they depend on what the searching player sees), else the plain prior
 * (also where the root prior has no opinion). Returns 1, or what the plain
 * prior returns. */
static int root_prior_of(tree_t *t, const void *state, const int *legal, int n) {
    const sr_evaluator *ev = t->ev;
    if (t->root_prior_n != n || memcmp(t->root_prior_legal, legal, sizeof *legal * (size_t)n) != 0) {
        t->root_prior_have = ev->root_prior(t->g->rules, state, legal, n, t->root_prior);
        t->root_prior_n = n;                    /* n >= 1 here; 0 (from tree_init's memset) = not yet */
        memcpy(t->root_prior_legal, legal, sizeof *legal * (size_t)n);
        double hi = -1e300, lo = 1e300;
        for (int i = 0; t->root_prior_have && i < n; ++i) {   /* no opinion: root_prior[] unwritten */
            if (t->root_prior[i] > hi) hi = t->root_prior[i];
            if (t->root_prior[i] < lo) lo = t->root_prior[i];
        }
        for (int i = 0; i < n; ++i)
            t->root_bias[i] = t->root_prior_have && hi > lo ? (t->root_prior[i] - hi) / (hi - lo) : 0.0;
    }
    if (!t->root_prior_have) return ev->prior(t->g->rules, state, legal, n, t->prior);
    memcpy(t->prior, t->root_prior, sizeof *t->prior * (size_t)n);
    return 1;
}

/* Zero the bits a tree step set (cheaper than clearing num_actions bits). */
static inline void clear_bits(tree_t *t, const int *legal, int n) {
    for (int i = 0; i < n; ++i) {
        t->legal_bits[legal[i] >> 6] = 0;
        t->edge_bits[legal[i] >> 6] = 0;
    }
}

static void iterate_tree(tree_t *t, int ismcts) {
    const sr_game *g = t->g;
    const sr_evaluator *ev = t->ev;
    sr_state_buf sb;
    uint8_t *state = sb.b;
    int legal[SR_MAX_LEGAL];
    int path_node[MAX_DEPTH], path_edge[MAX_DEPTH], depth = 0;
    g->determinize(g->rules, t->root, t->root_player, rng_draw(&t->rng), state);

    int node;
    if (ismcts) node = lookup(t, t->root_player, t->node_key(g->rules, t->root, t->root_player), 1);
    else node = t->n_nodes ? 0 : new_node(t, t->root_player, 0);

    while (node != NONE && depth < MAX_DEPTH) {
        int player = g->current_player(g->rules, state);
        if (player == SR_TERMINAL) break;
        int n = g->legal_actions(g->rules, state, legal);
        if (n <= 0) { t->error = SR_E_STUCK; return; }   /* unfinished, nothing legal: a bad world */
        /* the bitmaps are all zero here: each step clears what it set */
        for (int i = 0; i < n; ++i) t->legal_bits[legal[i] >> 6] |= 1ULL << (legal[i] & 63);
        /* one walk over the node's edges (in list order, newest first): the
         * legal ones go to have[] in that order, so that selection below
         * reads only them (an open-loop node gathers the edges of every
         * world, most of them illegal in this one) */
        int have[SR_MAX_LEGAL];
        int n_have = 0;
        int64_t node_visits = 0;
        for (int e = t->nodes[node].first_edge; e != NONE; e = t->edges[e].next) {
            const edge_t *ed = &t->edges[e];
            const int a = ed->action;
            node_visits += ed->visits;
            const uint64_t bit = (t->legal_bits[a >> 6] >> (a & 63)) & 1;   /* branch-free: it is a coin toss */
            t->edge_bits[a >> 6] |= bit << (a & 63);
            have[n_have] = e;
            n_have += (int)bit;
        }
        const int n_edges_legal = n_have;
        int chosen = NONE;
        int have_prior = 0;
        if (n_have < n && ev->prior && ev->prior(g->rules, state, legal, n, NULL)) {
            /* progressive widening: with a prior, 1 + sqrt(visits) children */
            if (n_have > 0 && (double)n_have >= 1.0 + sqrt((double)node_visits)) n_have = -n_have;
            else if (depth == 0 && ev->root_prior) have_prior = root_prior_of(t, state, legal, n);
            else have_prior = ev->prior(g->rules, state, legal, n, t->prior);
        }
        if (n_have >= 0 && n_have < n) {
            int pick = NONE;
            if (have_prior) {
                /* expand the best-rated untried action (ties at random) */
                double best_p = -1e300;
                int ties = 0;
                for (int i = 0; i < n; ++i) {
                    int a = legal[i];
                    if (t->edge_bits[a >> 6] >> (a & 63) & 1) continue;
                    if (t->prior[i] > best_p) { best_p = t->prior[i]; pick = a; ties = 1; }
                    else if (t->prior[i] == best_p && rng_pick(&t->rng, (uint32_t)++ties) == 0) pick = a;
                }
            } else {
                /* expand: a random legal action without an edge */
                int k = (int)rng_pick(&t->rng, (uint32_t)(n - n_have));
                for (int i = 0; i < n; ++i) {
                    int a = legal[i];
                    if (t->edge_bits[a >> 6] >> (a & 63) & 1) continue;
                    if (k-- == 0) { pick = a; break; }
                }
            }
            chosen = new_edge(t, node, pick);
            if (chosen != NONE) {
                clear_bits(t, legal, n);
                edge_t *e = &t->edges[chosen];
                e->avail++;
                path_node[depth] = node; path_edge[depth++] = chosen;
                g->apply(g->rules, state, e->action);
                if (!ismcts) {
                    int nxt = g->current_player(g->rules, state);
                    e->child = new_node(t, nxt == SR_TERMINAL ? 0 : nxt, 0);
                }
                break;   /* one new edge (and node) per iteration, then roll out */
            }
            if (n_have == 0) { clear_bits(t, legal, n); break; }   /* pool full, nothing to select: roll out */
        }
        if (n_have < 0) n_have = -n_have;
        /* select by UCB with availability counts among the legal edges */
        double best = -1e300;
        for (int j = 0; j < n_edges_legal; ++j) {
            const int e = have[j];
            edge_t *ed = &t->edges[e];
            ed->avail++;
            double v = ed->visits ? ed->reward / ed->visits + t->p->c * sqrt(log_n(ed->avail) / ed->visits)
                                  : 1e300;
            if (depth == 0 && ev->root_bias > 0 && ed->visits)     /* progressive bias at the root */
                v += ev->root_bias * root_bias_of(t, ed->action) / (1.0 + ed->visits);
            if (v > best) { best = v; chosen = e; }
        }
        clear_bits(t, legal, n);
        path_node[depth] = node; path_edge[depth++] = chosen;
        g->apply(g->rules, state, t->edges[chosen].action);
        if (ismcts) {
            int nxt = g->current_player(g->rules, state);
            /* an information set reached for the first time becomes a node now */
            node = nxt == SR_TERMINAL ? NONE : lookup(t, nxt, t->node_key(g->rules, state, nxt), 1);
        } else {
            node = t->edges[chosen].child;
        }
    }
    double ret[SR_MAX_PLAYERS];
    int rc = evaluate(t, state, ret);
    if (rc != SR_OK) { t->error = rc; return; }
    for (int i = 0; i < depth; ++i) {          /* max^n: each node's player's return */
        edge_t *e = &t->edges[path_edge[i]];
        e->visits++;
        e->reward += ret[t->nodes[path_node[i]].player];
    }
}

static void iterate_flat(tree_t *t) {
    const sr_game *g = t->g;
    sr_state_buf sb;
    uint8_t *state = sb.b;
    double ret[SR_MAX_PLAYERS];
    int i = (int)(t->iterations_done % t->n_root);
    g->determinize(g->rules, t->root, t->root_player, rng_draw(&t->rng), state);
    g->apply(g->rules, state, t->root_legal[i]);
    int rc = evaluate(t, state, ret);
    if (rc != SR_OK) { t->error = rc; return; }
    t->flat_visits[i]++;
    t->flat_reward[i] += ret[t->root_player];
}

/* ---- driver ------------------------------------------------------------------ */

static void *run_tree(void *arg) {
    tree_t *t = (tree_t *)arg;
    const int kind = t->p->kind;
    const volatile int *stop = t->p->stop;
    for (int64_t it = 0;; ++it) {
        if (t->iterations_budget >= 0 && it >= t->iterations_budget) break;
        if (it >= (int64_t)UINT32_MAX) break;   /* edge visit counts are uint32_t: never wrap them */
        if (t->deadline > 0 && (it & 15) == 0 && it > 0 && now_seconds() >= t->deadline) break;
        if (stop && *stop) { t->stopped = 1; break; }
        if (kind == SR_FLATMC) iterate_flat(t);
        else iterate_tree(t, kind == SR_ISMCTS);
        if (t->error) break;
        t->iterations_done = it + 1;
    }
    return NULL;
}

static int tree_init(tree_t *t, const sr_game *g, const sr_evaluator *ev, const sr_params *p, const void *root,
                     int64_t budget, uint64_t seed) {
    memset(t, 0, offsetof(tree_t, root_legal));   /* the scalars and pointers; not the arrays */
    t->g = g; t->ev = ev; t->p = p; t->root = (const uint8_t *)root;
    t->root_player = g->current_player(g->rules, root);
    t->rng = seed;
    t->iterations_budget = budget;
    t->node_key = ev->node_key ? ev->node_key : g->infostate_key;
    t->n_root = g->legal_actions(g->rules, root, t->root_legal);
    for (int i = 0; i < t->n_root; ++i) { t->flat_reward[i] = 0.0; t->flat_visits[i] = 0; }
    int64_t cap = p->max_nodes;                        /* 1..SR_MAX_NODES, checked by sr_search */
    if (budget >= 0 && budget < cap - 2) cap = budget + 2;
    if (p->kind == SR_FLATMC) cap = 1;
    t->cap_nodes = cap;
    t->cap_edges = cap;
    t->nodes = malloc(sizeof(node_t) * (size_t)cap);
    t->edges = malloc(sizeof(edge_t) * (size_t)cap);
    int64_t ts = 16;
    while (ts < 2 * cap) ts <<= 1;
    t->table_mask = ts - 1;
    t->table = p->kind == SR_ISMCTS ? malloc(sizeof(int) * (size_t)ts) : NULL;
    int words = (g->info.num_distinct_actions + 63) / 64;
    t->legal_bits = malloc((size_t)words * 8);
    t->edge_bits = malloc((size_t)words * 8);
    if (!t->nodes || !t->edges || !t->legal_bits || !t->edge_bits || (p->kind == SR_ISMCTS && !t->table))
        return SR_E_NOMEM;
    if (t->table) memset(t->table, 0xFF, sizeof(int) * (size_t)ts);
    memset(t->legal_bits, 0, (size_t)words * 8);
    memset(t->edge_bits, 0, (size_t)words * 8);
    return 0;
}

static void tree_free(tree_t *t) {
    free(t->nodes); free(t->edges); free(t->table); free(t->legal_bits); free(t->edge_bits);
}

/* Root statistics of one tree into per-root-action arrays (aligned with root_legal). */
static void root_stats(tree_t *t, int64_t *visits, double *reward) {
    if (t->p->kind == SR_FLATMC) {
        for (int i = 0; i < t->n_root; ++i) { visits[i] += t->flat_visits[i]; reward[i] += t->flat_reward[i]; }
        return;
    }
    if (t->n_nodes == 0) return;
    int root = 0;   /* the root is the first node of both tree kinds */
    for (int e = t->nodes[root].first_edge; e != NONE; e = t->edges[e].next) {
        for (int i = 0; i < t->n_root; ++i)
            if (t->root_legal[i] == t->edges[e].action) { visits[i] += t->edges[e].visits; reward[i] += t->edges[e].reward; break; }
    }
}

int sr_search(const sr_game *g, const sr_evaluator *ev, const void *root, const sr_params *p, sr_result *out) {
    tb_call_once(&log_once, log_init);
    memset(out, 0, sizeof *out);
    out->best = NONE;
    if (p->kind < SR_FLATMC || p->kind > SR_ISMCTS || p->threads < 1 || p->threads > SR_MAX_THREADS) return SR_E_PARAM;
    if (p->iterations < 0 || !(p->time_limit >= 0 && p->time_limit <= 1e9)) return SR_E_PARAM;   /* NaN fails */
    if (p->iterations == 0 && p->time_limit <= 0) return SR_E_PARAM;
    if (!(p->c >= 0 && p->c <= 1e9) || p->max_nodes < 1 || p->max_nodes > SR_MAX_NODES) return SR_E_PARAM;
    if (g->info.state_size > SR_MAX_STATE || g->info.num_players > SR_MAX_PLAYERS) return SR_E_PARAM;
    if (g->current_player(g->rules, root) == SR_TERMINAL) return SR_E_TERMINAL;
    int threads = p->threads;
    tree_t *trees = malloc((size_t)threads * sizeof(tree_t));   /* tree_init sets what is read */
    if (!trees) return SR_E_NOMEM;
    double deadline = p->time_limit > 0 ? now_seconds() + p->time_limit : 0;
    int rc = SR_OK;
    for (int k = 0; k < threads; ++k) {
        /* each thread's share of the iterations (0 is none at all); -1: time alone */
        int64_t budget = p->iterations > 0 ? p->iterations / threads + (k < p->iterations % threads) : -1;
        uint64_t s = p->seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(k + 1));
        int e = tree_init(&trees[k], g, ev, p, root, budget, s);
        if (e != SR_OK) rc = e;
        trees[k].deadline = deadline;
    }
    if (rc == SR_OK && trees[0].n_root <= 0) rc = SR_E_STUCK;
    if (rc == SR_OK) {
        int n_root = trees[0].n_root;
        if (n_root == 1 && p->kind != SR_FLATMC) {
            /* a single legal action: nothing to search (OpenSpiel does the same) */
        } else if (threads == 1) {
            run_tree(&trees[0]);
        } else {
            tb_thread tid[SR_MAX_THREADS];
            int started[SR_MAX_THREADS] = {0};
            for (int k = 1; k < threads; ++k) started[k] = tb_thread_create(&tid[k], run_tree, &trees[k]) == 0;
            run_tree(&trees[0]);
            for (int k = 1; k < threads; ++k) {
                if (started[k]) tb_thread_join(tid[k]);
                else run_tree(&trees[k]);
            }
        }
        int64_t visits[SR_MAX_LEGAL] = {0};
        double reward[SR_MAX_LEGAL] = {0};
        for (int k = 0; k < threads; ++k) {
            root_stats(&trees[k], visits, reward);
            out->iterations += trees[k].iterations_done;
            out->nodes += trees[k].n_nodes;
            out->pool_full |= trees[k].pool_full;
            out->stopped |= trees[k].stopped;
            if (trees[k].error) rc = trees[k].error;
        }
        out->n = n_root;
        double best_key = -1e300;
        for (int i = 0; i < n_root; ++i) {
            out->stats[i].action = trees[0].root_legal[i];
            out->stats[i].visits = visits[i];
            const double mean = visits[i] ? reward[i] / visits[i] : 0.0;
            /* reported within the returns' range: a mean of corrected rollouts
             * (control variates) may lie just past it */
            out->stats[i].mean = mean < g->info.min_utility ? g->info.min_utility
                                 : mean > g->info.max_utility ? g->info.max_utility : mean;
            /* FlatMC: best mean; trees: most visits, mean breaks ties */
            double key = p->kind == SR_FLATMC ? out->stats[i].mean   /* as reported: the analysis sorts on it */
                                              : (double)visits[i] + 1e-6 * (out->stats[i].mean + 2.0);
            if (visits[i] == 0) key = -1e299;
            if (key > best_key) { best_key = key; out->best = trees[0].root_legal[i]; }
        }
        if (out->best == NONE) out->best = trees[0].root_legal[0];
    }
    for (int k = 0; k < threads; ++k) tree_free(&trees[k]);
    free(trees);
    return rc;
}
