/* state_json.c - the generic entry points of state_json.h. */
#include "state_json.h"
#include "pytext.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sr_fields_to_json(const sr_game_def *d, const sr_game *g, const int64_t *enc, int n, int viewer, char *buf,
                      size_t len) {
    sr_jw w;
    if (!d->json) return -SR_E_STATE;
    if (viewer < -1 || viewer >= g->info.num_players) return -SR_E_PARAM;
    if (n < 0 || n > SR_MAX_ENCODED) return -SR_E_STATE;
    sr_jw_init(&w, buf, len);
    int rc = d->json->write(g, enc, n, viewer, &w);
    if (rc != SR_OK) {
        if (len) buf[0] = '\0';
        return -rc;
    }
    return sr_jw_finish(&w);
}

int sr_state_to_json(const sr_game_def *d, const sr_game *g, const void *state, int viewer, char *buf, size_t n) {
    int64_t enc[SR_MAX_ENCODED];
    int k = g->encode(g->rules, state, enc, SR_MAX_ENCODED);
    if (k < 0) return k;
    return sr_fields_to_json(d, g, enc, k, viewer, buf, n);
}

int sr_parse_action(const sr_game_def *d, const sr_game *g, const void *state, const char *text, size_t len,
                    int *action, char *msg, size_t msg_len) {
    if (msg_len) msg[0] = '\0';
    if (!d->json || !d->json->parse_action) return sr_msgf(SR_E_NOTATION, msg, msg_len, "%s has no notation", d->name);
    *action = -1;
    int rc = d->json->parse_action(g, state, text, len, action, msg, msg_len);
    if (rc == SR_OK && (*action < 0 || *action >= g->info.num_distinct_actions)) rc = SR_E_RANGE;
    return rc;
}

int sr_msgf(int code, char *msg, size_t n, const char *fmt, ...) {
    va_list ap;
    size_t len = 0;
    if (!n) return code;
    va_start(ap, fmt);
    for (const char *f = fmt; *f && len < n - 1; ++f) {
        if (*f != '%' || !f[1]) { msg[len++] = *f; continue; }
        ++f;
        if (*f == 's') {
            const char *s = va_arg(ap, const char *);
            size_t k = strlen(s);
            if (k > n - 1 - len) k = n - 1 - len;
            memcpy(msg + len, s, k);
            len += k;
        } else if (*f == 'd') {
            int k = snprintf(msg + len, n - len, "%d", va_arg(ap, int));
            len += k < 0 ? 0 : (size_t)k;
            if (len > n - 1) len = n - 1;
        } else if (*f == 'R') {
            const char *s = va_arg(ap, const char *);
            size_t k = va_arg(ap, size_t);
            len += sr_py_repr(s, k, msg + len, n - len);
            if (len > n - 1) len = n - 1;
        } else {
            msg[len++] = *f;
        }
    }
    va_end(ap);
    msg[len] = '\0';
    return code;
}
