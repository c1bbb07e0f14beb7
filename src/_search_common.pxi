# Shared by the game modules (include "_search_common.pxi"): run a search
# on a game contract with the GIL released.
from libc.stdlib cimport malloc, free


cdef object run_search(const sr_game *g, const void *root, int kind, uint64_t seed, long iterations,
                       double time_limit, double c, int rollout, int threads, long max_nodes):
    cdef sr_params p
    p.kind = kind
    p.seed = seed
    p.iterations = iterations
    p.time_limit = time_limit
    p.c = c
    p.rollout = rollout
    p.threads = threads
    p.max_nodes = max_nodes
    cdef sr_result *res = <sr_result *> malloc(sizeof(sr_result))
    if res == NULL:
        raise MemoryError()
    cdef int rc
    try:
        with nogil:
            rc = sr_search(g, root, &p, res)
        if rc != 0:
            raise ValueError("search failed: the game is over, the budget is empty or memory ran out")
        stats = [(res.stats[i].action, res.stats[i].visits, res.stats[i].mean) for i in range(res.n)]
        return res.best, stats, res.iterations, res.nodes, bool(res.pool_full)
    finally:
        free(res)
