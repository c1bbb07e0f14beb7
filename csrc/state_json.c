/* state_json.c - the generic entry points of state_json.h. */
#include "state_json.h"
#include "pytext.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- the reader's checks ------------------------------------------------------- */

#define SHORT 256                /* bytes of a short() repr (60 code points) */

static void vbad(sr_jread *r, const char *kind, const char *fmt, va_list ap) {
    char body[1024];
    if (r->failed) return;
    r->failed = SR_E_STATE;
    /* sr_msgf's conversions over a va_list: only %s and %d are used by the codecs */
    size_t len = 0;
    for (const char *f = fmt; *f && len < sizeof body - 1; ++f) {
        if (*f != '%' || !f[1]) { body[len++] = *f; continue; }
        ++f;
        if (*f == 's') {
            const char *s = va_arg(ap, const char *);
            size_t k = strlen(s);
            if (k > sizeof body - 1 - len) k = sizeof body - 1 - len;
            memcpy(body + len, s, k);
            len += k;
        } else if (*f == 'd') {
            int k = snprintf(body + len, sizeof body - len, "%d", va_arg(ap, int));
            len += k < 0 ? 0 : (size_t)k;
            if (len > sizeof body - 1) len = sizeof body - 1;
        } else {
            body[len++] = *f;
        }
    }
    body[len] = '\0';
    snprintf(r->msg, r->msg_len, "invalid %s %s: %s", r->title, kind, body);
}

void sr_jr_bad(sr_jread *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vbad(r, "state", fmt, ap);
    va_end(ap);
}

void sr_jr_short(const sr_jread *r, int i, char *buf, size_t n) { sr_json_repr(r->doc, i, 60, buf, n); }

int sr_jr_is(const sr_jread *r, int i, int type) { return i >= 0 && r->doc->nodes[i].type == type; }

void sr_jr_copy(sr_jread *r, int i, sr_jw *w) {
    size_t at = sr_jw_raw(w, r->doc->nodes[i].src, r->doc->nodes[i].len);
    if (r->n_copies < r->cap_copies) {
        r->copy_at[r->n_copies] = at;
        r->copy_node[r->n_copies++] = i;
    }
}

int sr_jr_next_field(const sr_jread *r, sr_jw *w, int obj, int *c, int *i, const char *skip, char *name,
                     size_t name_len, int *value) {
    const sr_jdoc *d = r->doc;
    while (*c < d->nodes[obj].count) {
        int key = *i;
        *i = d->nodes[key + 1].next;
        ++*c;
        if (sr_json_str(&d->nodes[key], name, name_len) >= name_len) continue;
        if (skip && strcmp(name, skip) == 0) continue;
        if (sr_json_get(d, obj, name) != key + 1) continue;          /* a repeated key: the first counts */
        sr_jw_key(w, name);
        *value = key + 1;
        return 1;
    }
    return 0;
}

void sr_jr_end_rebuilt(sr_jw *w) {
    sr_jw_key(w, "seed");
    sr_jw_int(w, 0);
    sr_jw_end_obj(w);
}

int sr_jr_get(sr_jread *r, int obj, const char *key) {
    if (r->failed || obj < 0) return -1;
    int v = sr_json_get(r->doc, obj, key);
    if (v < 0) sr_jr_bad(r, "missing key '%s'", key);
    return v;
}

void sr_jr_game(sr_jread *r, int d, const char *name) {
    char got[SHORT];
    int g = sr_jr_get(r, d, "game");
    if (r->failed || sr_json_str_eq(r->doc, g, name)) return;
    sr_jr_short(r, g, got, sizeof got);
    sr_jr_bad(r, "game must be '%s', not %s", name, got);
}

int64_t sr_jr_int(sr_jread *r, int i, const char *what, int nullable) {
    char got[SHORT];
    int64_t v;
    if (r->failed || i < 0) return 0;
    const sr_jnode *nd = &r->doc->nodes[i];
    if (nd->type == SR_J_NULL && nullable) return -1;
    if (nd->type != SR_J_INT) {
        sr_jr_short(r, i, got, sizeof got);
        sr_jr_bad(r, "%s must be an integer%s, not %s", what, nullable ? " or null" : "", got);
        return 0;
    }
    if (!sr_json_int_in(r->doc, i, -((int64_t)1 << 31), ((int64_t)1 << 31) - 1, &v)) {
        sr_jr_bad(r, "%s is out of range", what);
        return 0;
    }
    return v;
}

int sr_jr_bool(sr_jread *r, int i, const char *what) {
    char got[SHORT];
    if (r->failed || i < 0) return 0;
    int t = r->doc->nodes[i].type;
    if (t == SR_J_TRUE || t == SR_J_FALSE) return t == SR_J_TRUE;
    sr_jr_short(r, i, got, sizeof got);
    sr_jr_bad(r, "%s must be true or false, not %s", what, got);
    return 0;
}

int sr_jr_list(sr_jread *r, int i, const char *what, int length) {
    if (r->failed || i < 0) return -1;
    const sr_jnode *nd = &r->doc->nodes[i];
    if (nd->type != SR_J_ARR || nd->tuple) {
        sr_jr_bad(r, "%s must be a list, not %s", what, sr_json_type_name(r->doc, i));
        return -1;
    }
    if (length >= 0 && nd->count != length) {
        sr_jr_bad(r, "%s must have %d entries, not %d", what, length, nd->count);
        return -1;
    }
    return nd->count;
}

int64_t sr_jr_seed(sr_jread *r, int i) {
    if (r->failed || i < 0) return 0;
    const sr_jnode *nd = &r->doc->nodes[i];
    if (nd->type != SR_J_INT || nd->big || nd->neg) {
        sr_jr_bad(r, "seed must be an integer in [0, 2**64)");
        return 0;
    }
    return (int64_t)nd->u;
}

void sr_jr_push(sr_jread *r, int64_t v) {
    if (r->failed) return;
    if (r->n < SR_MAX_ENCODED) r->out[r->n] = v;
    r->n++;                      /* counted past the end: the caller reports it as the binding did */
}

void sr_jr_repr(const sr_jread *r, int i, char *buf, size_t n) { sr_json_repr(r->doc, i, 0x3fffffff, buf, n); }

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void sr_jr_ids(sr_jread *r, const sr_game *g, int list, const char *where, sr_jr_card_fn card, int is_set) {
    int n = sr_jr_list(r, list, where, -1);
    if (n < 0) return;
    int at = r->n + 1;
    sr_jr_push(r, n);
    for (int k = 0, i = list + 1; k < n && !r->failed; ++k, i = r->doc->nodes[i].next) sr_jr_push(r, card(g, r, i, where));
    if (is_set && !r->failed && r->n <= SR_MAX_ENCODED)
        qsort(r->out + at, (size_t)(r->n - at), sizeof(int64_t), cmp_i64);
}

int sr_jr_card_named(sr_jread *r, int i, const char *where, const char *const *names, int n) {
    char got[SHORT], name[64];
    if (r->failed || i < 0) return -1;
    if (r->doc->nodes[i].type != SR_J_STR) {
        sr_jr_short(r, i, got, sizeof got);
        sr_jr_bad(r, "%s: a card is a name string, not %s", where, got);
        return -1;
    }
    size_t len = sr_json_str(&r->doc->nodes[i], name, sizeof name);
    for (int c = 0; c < n && len < sizeof name; ++c)
        if (names[c] && strlen(names[c]) == len && memcmp(names[c], name, len) == 0) return c;
    sr_jr_short(r, i, got, sizeof got);
    sr_jr_bad(r, "%s: unknown card %s", where, got);
    return -1;
}

/* ---- reading ------------------------------------------------------------------- */

/* Parse text into a heap pool of nodes (at most SR_JSON_MAX_VALUES + 1). */
static int parse_doc(const char *text, size_t len, sr_jdoc *doc, char *msg, size_t msg_len) {
    size_t cap = len + 1 < SR_JSON_MAX_VALUES ? len + 1 : SR_JSON_MAX_VALUES;
    doc->nodes = malloc(sizeof(sr_jnode) * cap);
    doc->cap = (int)cap;
    doc->n = 0;
    if (!doc->nodes) { snprintf(msg, msg_len, "out of memory"); return SR_E_NOMEM; }
    return sr_json_parse(text, len, doc, msg, msg_len);
}

/* Read state dict node root of doc into an encoding (enc SR_MAX_ENCODED long). */
static int read_fields(const sr_game_def *d, const sr_game *g, const sr_jdoc *doc, int root, int64_t *enc, int *n,
                       char *msg, size_t msg_len) {
    sr_jread r = {doc, d->json->title, msg, msg_len, SR_OK, enc, 0, NULL, NULL, 0, 0};
    if (doc->nodes[root].type != SR_J_OBJ) {
        snprintf(msg, msg_len, "invalid %s state: expected a dict, got %s", r.title, sr_json_type_name(doc, root));
        return SR_E_STATE;
    }
    d->json->read(g, &r, root);
    if (r.failed) return r.failed;
    if (r.n > SR_MAX_ENCODED) {
        snprintf(msg, msg_len, "invalid %s state: %d fields is more than a state has", r.title, r.n);
        return SR_E_STATE;
    }
    *n = r.n;
    return SR_OK;
}

/* Read state dict node root of doc into a state: the codec's checks, then decode's. */
static int read_state(const sr_game_def *d, const sr_game *g, const sr_jdoc *doc, int root, void *state, char *msg,
                      size_t msg_len) {
    int64_t enc[SR_MAX_ENCODED];
    char why[SR_MSG_LEN];
    int n = 0, rc = read_fields(d, g, doc, root, enc, &n, msg, msg_len);
    if (rc != SR_OK) return rc;
    why[0] = '\0';
    if (g->decode(g->rules, enc, n, state, why, sizeof why) != SR_OK) {
        snprintf(msg, msg_len, "invalid %s state: %s", d->json->title, why);
        return SR_E_STATE;
    }
    return SR_OK;
}

int sr_fields_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, const int *tuples,
                        int n_tuples, int64_t *out, int *n_out, char *msg, size_t msg_len) {
    sr_jdoc doc;
    char why[512];
    *n_out = 0;
    if (!d->json || !d->json->read) return sr_msgf(SR_E_STATE, msg, msg_len, "%s has no JSON reader", d->name);
    int rc = parse_doc(text, len, &doc, why, sizeof why);
    if (rc != SR_OK) {
        snprintf(msg, msg_len, "invalid %s state: %s", d->json->title, why);
    } else {
        for (int k = 0; k < n_tuples && tuples; ++k) sr_json_mark_tuple(&doc, tuples[k]);
        rc = read_fields(d, g, &doc, 0, out, n_out, msg, msg_len);
    }
    free(doc.nodes);
    return rc;
}

int sr_state_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, int as_view_of,
                       const int *tuples, int n_tuples, void *state, char *msg, size_t msg_len) {
    sr_jdoc doc, full = {0}, mine = {0};
    char *built = NULL, *again = NULL;
    size_t *copy_at = NULL;
    int *copy_node = NULL;
    char dummy[1];
    if (!msg || !msg_len) { msg = dummy; msg_len = sizeof dummy; }
    msg[0] = '\0';
    if (!d->json || !d->json->read) return sr_msgf(SR_E_STATE, msg, msg_len, "%s has no JSON reader", d->name);
    const char *title = d->json->title;
    const char *kind = as_view_of >= 0 ? "view" : "state";
    if (as_view_of >= g->info.num_players || as_view_of < -1)
        return sr_msgf(SR_E_PARAM, msg, msg_len, "player must be an integer in [0, %d], not %d", g->info.num_players - 1,
                       as_view_of);
    char why[512];
    int rc = parse_doc(text, len, &doc, why, sizeof why);
    if (rc != SR_OK) {
        snprintf(msg, msg_len, "invalid %s %s: %s", title, kind, why);
        free(doc.nodes);
        return rc;
    }
    for (int k = 0; k < n_tuples && tuples; ++k) sr_json_mark_tuple(&doc, tuples[k]);
    if (as_view_of < 0) {
        rc = read_state(d, g, &doc, 0, state, msg, msg_len);
        free(doc.nodes);
        return rc;
    }
    /* a view: the full dict it implies, read as a state, whose view must be the input */
    if (doc.nodes[0].type != SR_J_OBJ) {
        rc = sr_msgf(SR_E_STATE, msg, msg_len, "invalid %s view: expected a dict, got %s", title,
                     sr_json_type_name(&doc, 0));
        goto done;
    }
    if (!d->json->dict_from_view) { rc = sr_msgf(SR_E_STATE, msg, msg_len, "%s does not build states from views", d->name); goto done; }
    if (d->json->view_is_json_copy) {
        /* capulana.py checked the view's game first, then read a JSON copy of it (tuples as lists) */
        int64_t none[1];
        sr_jread first = {&doc, title, msg, msg_len, SR_OK, none, 0, NULL, NULL, 0, 0};
        sr_jr_game(&first, 0, d->name);
        if (first.failed) { rc = first.failed; goto done; }
        for (int k = 0; k < doc.n; ++k) doc.nodes[k].tuple = 0;
    }
    size_t cap = 2 * len + 4 * SR_MAX_JSON;     /* the view's fields copied, hidden cards written out */
    built = malloc(cap);
    if (!built) { rc = sr_msgf(SR_E_NOMEM, msg, msg_len, "out of memory"); goto done; }
    sr_jw w;
    sr_jw_init(&w, built, cap);
    int64_t unused[1];
    sr_jread r = {&doc, title, msg, msg_len, SR_OK, unused, 0, NULL, NULL, 0, 0};
    if (n_tuples > 0) {
        copy_at = malloc(sizeof(size_t) * (size_t)doc.n);
        copy_node = malloc(sizeof(int) * (size_t)doc.n);
        if (!copy_at || !copy_node) { rc = sr_msgf(SR_E_NOMEM, msg, msg_len, "out of memory"); goto done; }
        r.copy_at = copy_at;
        r.copy_node = copy_node;
        r.cap_copies = doc.n;
    }
    d->json->dict_from_view(g, &r, 0, as_view_of, &w);
    if (r.failed) { rc = r.failed; goto done; }
    int n = sr_jw_finish(&w);
    if (n < 0 || (rc = parse_doc(built, (size_t)n, &full, why, sizeof why)) != SR_OK) {
        rc = sr_msgf(SR_E_STATE, msg, msg_len, "invalid %s view: a field has the wrong type or shape for a view", title);
        goto done;
    }
    /* the view's tuples stay tuples where they were copied (nodes in preorder: sources ascend) */
    for (int c = 0; c < r.n_copies; ++c) {
        const char *at = built + copy_at[c];
        int lo = 0, hi = full.n - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (full.nodes[mid].src < at) lo = mid + 1; else hi = mid;
        }
        int i = copy_node[c], size = doc.nodes[i].next - i;
        for (int k = 0; full.nodes[lo].src == at && k < size && lo + k < full.n; ++k)
            full.nodes[lo + k].tuple = doc.nodes[i + k].tuple;
    }
    if ((rc = read_state(d, g, &full, 0, state, msg, msg_len)) != SR_OK) goto done;
    again = malloc(SR_MAX_JSON);
    if (!again) { rc = sr_msgf(SR_E_NOMEM, msg, msg_len, "out of memory"); goto done; }
    n = sr_state_to_json(d, g, state, as_view_of, again, SR_MAX_JSON);
    if (n < 0 || parse_doc(again, (size_t)n, &mine, why, sizeof why) != SR_OK || !sr_json_equal(&mine, 0, &doc, 0)) {
        rc = sr_msgf(SR_E_STATE, msg, msg_len,
                     "invalid %s view: it is not what player %d would see of any state (a field is inconsistent with "
                     "the others)", title, as_view_of);
        goto done;
    }
    rc = SR_OK;
done:
    free(doc.nodes);
    free(full.nodes);
    free(mine.nodes);
    free(built);
    free(again);
    free(copy_at);
    free(copy_node);
    return rc;
}

int sr_params_from_json(const sr_game_def *d, const char *text, size_t len, const int *tuples, int n_tuples,
                        int *values, int *given, char *msg, size_t msg_len) {
    sr_jdoc doc;
    char why[512];
    for (int k = 0; k < SR_MAX_PARAMS; ++k) values[k] = given[k] = 0;
    if (!d->json || !d->json->params_from_dict) return sr_msgf(SR_E_STATE, msg, msg_len, "%s has no JSON reader", d->name);
    int rc = parse_doc(text, len, &doc, why, sizeof why);
    if (rc != SR_OK) {
        snprintf(msg, msg_len, "invalid %s state: %s", d->json->title, why);
    } else if (doc.nodes[0].type != SR_J_OBJ) {
        rc = sr_msgf(SR_E_STATE, msg, msg_len, "invalid %s state: expected a dict, got %s", d->json->title,
                     sr_json_type_name(&doc, 0));
    } else {
        for (int k = 0; k < n_tuples && tuples; ++k) sr_json_mark_tuple(&doc, tuples[k]);
        int64_t unused[1];
        sr_jread r = {&doc, d->json->title, msg, msg_len, SR_OK, unused, 0, NULL, NULL, 0, 0};
        d->json->params_from_dict(&r, 0, values, given);
        rc = r.failed;
    }
    free(doc.nodes);
    return rc;
}

/* ---- events ---------------------------------------------------------------------- */

int sr_events_json(const sr_game_def *d, const sr_game *g, const void *state, int action, int player, char *buf,
                   size_t n) {
    sr_state_buf after;
    int64_t eb[SR_MAX_ENCODED], ea[SR_MAX_ENCODED];
    char notation[64];
    sr_jw w;
    if (!d->json) return -SR_E_STATE;
    if (player < 0 || player >= g->info.num_players) return -SR_E_PARAM;
    int mover = g->current_player(g->rules, state);
    memcpy(after.b, state, g->info.state_size);
    int rc = sr_apply_checked(g, after.b, action);
    if (rc != SR_OK) return -rc;
    int nb = g->encode(g->rules, state, eb, SR_MAX_ENCODED), na = g->encode(g->rules, after.b, ea, SR_MAX_ENCODED);
    if (nb < 0 || na < 0) return -SR_E_RANGE;
    if (g->action_to_string(g->rules, action, notation, sizeof notation) < 0) return -SR_E_RANGE;
    int over = g->current_player(g->rules, after.b) == SR_TERMINAL;
    sr_jw_init(&w, buf, n);
    sr_jw_arr(&w);
    sr_jw_obj(&w);
    sr_jw_key(&w, "kind"); sr_jw_str(&w, "move");
    sr_jw_key(&w, "player"); sr_jw_int(&w, mover);
    if (d->json->seen_move) {
        d->json->seen_move(g, eb, nb, action, mover, player, notation, &w);
    } else {                                       /* by default a player sees only their own moves */
        sr_jw_key(&w, "move");
        if (mover == player) sr_jw_str(&w, notation); else sr_jw_null(&w);
        sr_jw_key(&w, "text");
        if (mover == player) sr_jw_strf(&w, "P%d: %s", mover, notation); else sr_jw_strf(&w, "P%d moved", mover);
    }
    sr_jw_end_obj(&w);
    if (d->json->aftermath) d->json->aftermath(g, eb, nb, ea, na, over, &w);
    if (over) {
        double r[SR_MAX_PLAYERS];
        int sc[SR_MAX_PLAYERS], win[SR_MAX_PLAYERS], nw = 0;
        const int np = g->info.num_players;
        g->returns(g->rules, after.b, r);
        g->scores(g->rules, after.b, sc);
        double top = r[0], low = r[0];
        for (int p = 1; p < np; ++p) { if (r[p] > top) top = r[p]; if (r[p] < low) low = r[p]; }
        for (int p = 0; p < np && low != top; ++p)
            if (r[p] == top) win[nw++] = p;
        char who[64] = "";
        size_t at = 0;
        for (int k = 0; k < nw; ++k) at += (size_t)snprintf(who + at, sizeof who - at, "%sP%d", k ? ", " : "", win[k]);
        sr_jw_obj(&w);
        sr_jw_key(&w, "kind"); sr_jw_str(&w, "over");
        sr_jw_key(&w, "winners"); sr_jw_arr(&w); for (int k = 0; k < nw; ++k) sr_jw_int(&w, win[k]); sr_jw_end_arr(&w);
        sr_jw_key(&w, "scores"); sr_jw_arr(&w); for (int p = 0; p < np; ++p) sr_jw_int(&w, sc[p]); sr_jw_end_arr(&w);
        sr_jw_key(&w, "text");
        sr_jw_strf(&w, "the game is over: %s %s", nw ? who : "nobody", nw == 1 ? "wins" : "win");
        sr_jw_end_obj(&w);
    }
    sr_jw_end_arr(&w);
    return sr_jw_finish(&w);
}
