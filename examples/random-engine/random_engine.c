/* A minimal external engine in C for `tabuleiro arena`: it speaks the
 * engine protocol (docs/protocol.md) on stdin/stdout and plays a uniformly
 * random move from the `legal` list of each `go`, seeded by the go's `seed`.
 * It is what the external-engine overhead benchmark
 * (bench/bench_arena_engines.py) plays, so that the figure is the arena's
 * cost, not the engine's. No game rules, no JSON library: a scanner reads
 * the top-level fields it needs (`id`, `cmd`, `seed`) and the `id` of each
 * entry of `legal`.
 *
 *   cc -O2 -o random_engine examples/random-engine/random_engine.c
 *   tabuleiro arena capivarias --engine r=./random_engine --agents engine:r random --deals 100
 *
 * The answers to one read's lines are written together (one write). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LEGAL 4096

static char out[1 << 16];
static size_t out_len;

static void emit(const char *s, size_t n) {
    if (out_len + n > sizeof out) { (void)!write(1, out, out_len); out_len = 0; }
    memcpy(out + out_len, s, n);
    out_len += n;
}

/* Skip a JSON string starting at p (on its opening quote); returns past its closing quote. */
static const char *skip_string(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p + 1;
    }
    return end;
}

/* Skip any JSON value starting at p; returns past it (at the ',' or '}' after a scalar). */
static const char *skip_value(const char *p, const char *end) {
    int depth = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '"') {
            p = skip_string(p, end);
            if (depth == 0) return p;
            p--;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return p;
            if (--depth == 0) return p + 1;
        } else if (depth == 0 && c == ',') {
            return p;
        }
    }
    return end;
}

static void handle(const char *line, const char *end) {
    char id[64] = "null", cmd[32] = "";
    uint64_t seed = 0;
    long legal[MAX_LEGAL];
    int n_legal = 0;
    const char *p = line;
    while (p < end && *p != '{') p++;
    if (p >= end) return;
    p++;
    while (p < end) {                                /* the top-level "key": value pairs */
        while (p < end && (*p == ' ' || *p == ',' || *p == '\t')) p++;
        if (p >= end || *p != '"') break;
        const char *k = p + 1;
        p = skip_string(p, end);
        size_t klen = (size_t)(p - k - 1);
        while (p < end && (*p == ' ' || *p == ':')) p++;
        const char *v = p;
        p = skip_value(p, end);
        size_t vlen = (size_t)(p - v);
        if (klen == 2 && !memcmp(k, "id", 2) && vlen < sizeof id) { memcpy(id, v, vlen); id[vlen] = 0; }
        else if (klen == 3 && !memcmp(k, "cmd", 3) && vlen >= 2 && vlen < sizeof cmd + 2) {
            memcpy(cmd, v + 1, vlen - 2); cmd[vlen - 2] = 0;
        } else if (klen == 4 && !memcmp(k, "seed", 4)) {
            seed = strtoull(v + (*v == '"'), NULL, 10);
        } else if (klen == 5 && !memcmp(k, "legal", 5)) {
            for (const char *q = v; q < p && n_legal < MAX_LEGAL;) {
                if (*q != '"') { q++; continue; }
                if (p - q > 5 && !memcmp(q, "\"id\":", 5)) { legal[n_legal++] = strtol(q + 5, NULL, 10); q += 5; }
                else q = skip_string(q, p);                /* a key or the move's text */
            }
        }
    }
    char buf[256];
    int n;
    if (!strcmp(cmd, "go")) {
        if (n_legal == 0) {
            n = snprintf(buf, sizeof buf, "{\"id\":%s,\"ok\":false,\"cmd\":\"go\",\"error\":{\"code\":\"no_game\","
                         "\"message\":\"no legal moves given\"}}\n", id);
        } else {
            uint64_t x = seed ^ 0x9e3779b97f4a7c15ULL;     /* splitmix64 */
            x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
            x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
            x ^= x >> 31;
            n = snprintf(buf, sizeof buf, "{\"id\":%s,\"ok\":true,\"cmd\":\"go\",\"move\":{\"id\":%ld}}\n", id,
                         legal[x % (uint64_t)n_legal]);
        }
    } else if (!strcmp(cmd, "quit")) {
        n = snprintf(buf, sizeof buf, "{\"id\":%s,\"ok\":true,\"cmd\":\"quit\"}\n", id);
        emit(buf, (size_t)n);
        (void)!write(1, out, out_len);
        exit(0);
    } else {                                          /* ping, isready, new, load, ...: ok */
        n = snprintf(buf, sizeof buf, "{\"id\":%s,\"ok\":true,\"cmd\":\"%s\"}\n", id, cmd);
    }
    emit(buf, (size_t)n);
}

int main(void) {
    static char in[1 << 20];
    size_t have = 0;
    for (;;) {
        ssize_t r = read(0, in + have, sizeof in - have);
        if (r <= 0) break;
        have += (size_t)r;
        char *start = in, *nl;
        while ((nl = memchr(start, '\n', have - (size_t)(start - in))) != NULL) {
            handle(start, nl);
            start = nl + 1;
        }
        have -= (size_t)(start - in);
        memmove(in, start, have);
        if (have == sizeof in) have = 0;             /* a line over 1 MiB: dropped */
        if (out_len) { (void)!write(1, out, out_len); out_len = 0; }
    }
    return 0;
}
