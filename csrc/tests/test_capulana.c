/* test_capulana.c - the Capulana core through the game contract: loads the
 * rules from the CSV texts through the registry (load_game.h), makes the
 * 2..5-player games and plays N random games for each, checking after every
 * action the action lists (sorted, unique, notation), the codec
 * (decode(encode(s)) gives the same fields and the same legal actions),
 * determinization (decodes, keeps the view, has a legal action unless
 * finished), and at samples: mutated encodings (rejected with a message or
 * re-encoding exactly, then playable to the end), weaving options (each
 * one's actions reproduce its row and score), the search policy, refused
 * illegal ids. Also the CSV loader's refusals and decode's messages on
 * hand-made positions (the fragments the Python tests match).
 * Meant to run under -fsanitize=address,undefined.
 * Usage: test_capulana [DATA_DIR [N]]   (exit 0 = clean; DATA_DIR as
 * load_game.h finds it) */
#include "capulana_game.h"
#include "search/policies.h"
#include "rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); ++failures; return 1; } } while (0)

#include "load_game.h"

static tl_game LOADED;             /* through the registry (load_game.h) */
static const cp_rules *R;          /* its rules, which every check uses */
static const char *TEXTS[2];        /* its data texts */

/* ---- the CSV loader ------------------------------------------------------------ */

/* text with line ends "\r\n" (crlf 1) or "\n" (crlf 0) (malloc'd) */
static char *line_ends(const char *t, int crlf) {
    size_t n = strlen(t), k = 0;
    char *o = malloc(2 * n + 1);
    for (size_t i = 0; i < n; ++i) {
        if (t[i] == '\r' && t[i + 1] == '\n') continue;
        if (t[i] == '\n' && crlf) o[k++] = '\r';
        o[k++] = t[i];
    }
    o[k] = 0;
    return o;
}

/* text with the first occurrence of from replaced by to (malloc'd) */
static char *replace(const char *t, const char *from, const char *to) {
    const char *at = strstr(t, from);
    size_t n = strlen(t), a = at ? (size_t)(at - t) : n, lf = at ? strlen(from) : 0, lt = at ? strlen(to) : 0;
    char *o = malloc(n - lf + lt + 1);
    memcpy(o, t, a);
    memcpy(o + a, to, lt);
    strcpy(o + a + lt, t + a + lf);
    return o;
}

static int load_refuses(const char *fabric, const char *objs, const char *fragment) {
    static cp_rules r;
    char msg[SR_MSG_LEN] = "";
    const char *texts[2] = { fabric, objs };
    int rc = cp_load_rules(&r, texts, msg, sizeof msg);
    CHECK(rc == SR_E_STATE && strstr(msg, fragment), "cp_load_rules: rc %d, message '%s', expected '%s'", rc, msg, fragment);
    return 0;
}

static int test_loader(void) {
    static cp_rules r2;
    char msg[SR_MSG_LEN];
    for (int crlf = 0; crlf < 2; ++crlf) {
        char *a = line_ends(TEXTS[0], crlf), *b = line_ends(TEXTS[1], crlf);
        const char *t2[2] = { a, b };
        CHECK(cp_load_rules(&r2, t2, msg, sizeof msg) == SR_OK, "texts with %s line ends refused: %s", crlf ? "CRLF" : "LF", msg);
        CHECK(!memcmp(&r2, R, sizeof r2), "texts with %s line ends load different rules", crlf ? "CRLF" : "LF");
        free(a);
        free(b);
    }
    size_t la = strlen(TEXTS[0]);
    char *c = malloc(la + 1);
    memcpy(c, TEXTS[0], la + 1);
    while (la && (c[la - 1] == '\n' || c[la - 1] == '\r')) c[--la] = 0;
    const char *t3[2] = { c, TEXTS[1] };
    CHECK(cp_load_rules(&r2, t3, msg, sizeof msg) == SR_OK && !memcmp(&r2, R, sizeof r2), "no final newline: %s", msg);
    free(c);
    int bad = 0;
    bad |= load_refuses("", TEXTS[1], "empty");
    bad |= load_refuses("id,kind,stripe,value,strips\n", TEXTS[1], "has 0 cards");
    char *x;
    x = replace(TEXTS[0], "F01,fabric,black,5,-- YD YT GT", "F01,fabric,black,5");
    bad |= load_refuses(x, TEXTS[1], "fields"); free(x);
    x = replace(TEXTS[0], "-- YD YT GT", "-- YD YX GT");
    bad |= load_refuses(x, TEXTS[1], "not a strip"); free(x);
    x = replace(TEXTS[0], "-- YD YT GT", "-- YD YT");
    bad |= load_refuses(x, TEXTS[1], "3 strips"); free(x);
    x = replace(TEXTS[0], "F01,fabric,black,5", "F01,fabric,black,x5");
    bad |= load_refuses(x, TEXTS[1], "value"); free(x);
    x = replace(TEXTS[0], "F01,fabric", "F01,initial");
    bad |= load_refuses(x, TEXTS[1], "kind"); free(x);
    x = replace(TEXTS[0], "F02,", "F01,");
    bad |= load_refuses(x, TEXTS[1], "used twice"); free(x);
    x = replace(TEXTS[0], "id,kind", "name,kind");
    bad |= load_refuses(x, TEXTS[1], "no column 'id'"); free(x);
    x = replace(TEXTS[1], "long-color", "long-colour");
    bad |= load_refuses(TEXTS[0], x, "unknown key"); free(x);
    x = replace(TEXTS[1], "OBJ6,5,no-loose-strip,\"at least", "OBJ6,5,no-loose-strip,\"at least\"x");
    bad |= load_refuses(TEXTS[0], x, "closing quote"); free(x);
    x = replace(TEXTS[1], "OBJ10,4,perfect-match,3 or more", "OBJ10,4,perfect-match,\"3 or more");
    bad |= load_refuses(TEXTS[0], x, "not closed"); free(x);
    return bad;
}

/* ---- hand-made positions (tests/capulana_positions.py in C) ----------------------- */

typedef struct {
    int players, round, start, phase, to_move;
    const char *slots;          /* names; NULL: F41.. in the offer phase */
    const char *offers[10];     /* "player slot CARD CARD ..." */
    const char *open;           /* NULL or like an offer */
    const char *hands[5];       /* "F01 F02" */
    const char *rows[5];        /* "I1 n+,F13 n>2"; NULL: "I<p+1> n+" */
    int woven[5], done[5];
    const char *known;          /* "F01:0 F02:1" */
} position;

static int card_id(const char *name) {
    for (int c = 0; c < CP_NCARDS; ++c) if (!strcmp(R->card[c].name, name)) return c;
    return -1;
}

/* next space-separated token of *p into tok (false at the end) */
static int token(const char **p, char *tok, size_t n, const char *seps) {
    *p += strspn(*p, seps);
    size_t len = strcspn(*p, seps);
    if (!len) return 0;
    snprintf(tok, n, "%.*s", (int)len, *p);
    *p += len;
    return 1;
}

static uint64_t names_mask(const char *s, uint64_t *used) {
    char tok[16];
    uint64_t m = 0;
    while (s && token(&s, tok, sizeof tok, " ")) { m |= 1ULL << card_id(tok); *used |= 1ULL << card_id(tok); }
    return m;
}

static void put_mask(int64_t *out, int *k, uint64_t m) {
    out[(*k)++] = __builtin_popcountll(m);
    for (; m; m &= m - 1) out[(*k)++] = __builtin_ctzll(m);
}

/* the encoding of a position: every fabric card not named goes to the deck in id order */
static int encode_position(const position *ps, int64_t *out) {
    static const char *PL[7] = { "+", ">1", ">2", ">3", "<1", "<2", "<3" };
    int n = ps->players < 5 ? ps->players : 5, k = 0;     /* the lists of at most 5 players */
    uint64_t used = 0;
    static const char *const DEFAULT_SLOTS[6] = { "", "F41", "F41 F42", "F41 F42 F43", "F41 F42 F43 F44", "F41 F42 F43 F44 F45" };
    char tok[16];
    const char *slots = ps->slots;
    if (!slots && ps->phase == CP_PHASE_OFFER) slots = DEFAULT_SLOTS[n];
    int slot_ids[5], ns = 0;
    for (const char *s = slots; s && token(&s, tok, sizeof tok, " ");) { slot_ids[ns++] = card_id(tok); used |= 1ULL << card_id(tok); }
    int no = 0;
    while (no < 10 && ps->offers[no]) ++no;
    int oplayer[11], oslot[11];
    uint64_t ocards[11];
    for (int i = 0; i <= no; ++i) {
        const char *s = i < no ? ps->offers[i] : ps->open;
        if (!s) break;
        token(&s, tok, sizeof tok, " "); oplayer[i] = atoi(tok);
        token(&s, tok, sizeof tok, " "); oslot[i] = atoi(tok);
        ocards[i] = names_mask(s, &used);
    }
    uint64_t hands[5];
    for (int q = 0; q < n; ++q) hands[q] = names_mask(ps->hands[q], &used);
    int rc[5][16], rq[5][16], rl[5];
    for (int q = 0; q < n; ++q) {
        char def[16];
        snprintf(def, sizeof def, "I%d n+", q + 1);
        const char *s = ps->rows[q] ? ps->rows[q] : def;
        char entry[32];
        rl[q] = 0;
        while (token(&s, entry, sizeof entry, ",")) {
            char name[16], pl[8];
            sscanf(entry, "%15s %7s", name, pl);
            int c = card_id(name), m = 0;
            while (m < 7 && strcmp(pl + 1, PL[m])) ++m;
            rc[q][rl[q]] = c;
            rq[q][rl[q]] = 7 * (pl[0] == 'r') + m;
            ++rl[q];
            used |= 1ULL << c;
        }
    }
    out[k++] = ps->players; out[k++] = ps->round; out[k++] = ps->start; out[k++] = ps->phase;
    out[k++] = ps->phase == CP_PHASE_OVER ? -1 : ps->to_move;
    out[k++] = 12345;
    out[k++] = 3; out[k++] = 0; out[k++] = 4; out[k++] = 8;          /* OBJ1 OBJ5 OBJ9 */
    put_mask(out, &k, ((1ULL << CP_NFABRIC) - 1) & ~used);
    out[k++] = ns;
    for (int j = 0; j < ns; ++j) out[k++] = slot_ids[j];
    out[k++] = no;
    for (int i = 0; i < no; ++i) { out[k++] = oplayer[i]; out[k++] = oslot[i]; put_mask(out, &k, ocards[i]); }
    out[k++] = ps->open != NULL;
    if (ps->open) { out[k++] = oplayer[no]; out[k++] = oslot[no]; put_mask(out, &k, ocards[no]); }
    for (int q = 0; q < n; ++q) put_mask(out, &k, hands[q]);
    for (int q = 0; q < n; ++q) {
        out[k++] = rl[q];
        for (int i = 0; i < rl[q]; ++i) { out[k++] = rc[q][i]; out[k++] = rq[q][i]; }
    }
    for (int q = 0; q < n; ++q) out[k++] = ps->woven[q];
    for (int q = 0; q < n; ++q) out[k++] = ps->done[q] || ps->phase == CP_PHASE_OVER;
    int64_t kc[CP_NFABRIC];
    int nk = 0;
    uint64_t km = 0;
    for (const char *s = ps->known; s && token(&s, tok, sizeof tok, " ");) {
        char *colon = strchr(tok, ':');
        *colon = 0;
        kc[card_id(tok)] = atoi(colon + 1);
        km |= 1ULL << card_id(tok);
        ++nk;
    }
    out[k++] = nk;
    for (; km; km &= km - 1) { int c = __builtin_ctzll(km); out[k++] = c; out[k++] = kc[c]; }
    return k;
}

/* decode the position: fragment NULL = must load (and re-encode exactly), else must fail naming it.
 * These positions name only the cards that matter (the rest in the deck), so
 * they load without the counts the rules imply (decode_loose, issue 26);
 * expect_strict checks that the strict decoder names the count. */
static int expect(const sr_game *g, const position *ps, const char *fragment, const char *what) {
    int64_t enc[SR_MAX_ENCODED], again[SR_MAX_ENCODED];
    sr_state_buf s;
    char msg[SR_MSG_LEN] = "";
    int k = encode_position(ps, enc);
    int rc = g->decode_loose(g->rules, enc, k, s.b, msg, sizeof msg);
    if (!fragment) {
        CHECK(rc == SR_OK, "%s: refused: %s", what, msg);
        int k2 = g->encode(g->rules, s.b, again, SR_MAX_ENCODED);
        CHECK(k2 == k && !memcmp(enc, again, sizeof enc[0] * (size_t)k), "%s: does not re-encode", what);
        return 0;
    }
    CHECK(rc == SR_E_STATE && strstr(msg, fragment), "%s: rc %d, message '%s', expected '%s'", what, rc, msg, fragment);
    return 0;
}

static int expect_strict(const sr_game *g, const position *ps, const char *fragment, const char *what) {
    int64_t enc[SR_MAX_ENCODED];
    sr_state_buf s;
    char msg[SR_MSG_LEN] = "";
    int k = encode_position(ps, enc);
    int rc = g->decode(g->rules, enc, k, s.b, msg, sizeof msg);
    CHECK(rc == SR_E_STATE && strstr(msg, fragment), "%s: rc %d, message '%s', expected '%s'", what, rc, msg, fragment);
    return 0;
}

static int test_positions(const sr_game *g2, const sr_game *g3) {
    int bad = 0;
    position p;
#define POS(...) (memset(&p, 0, sizeof p), p.players = 2, p.round = 1, p.phase = CP_PHASE_OFFER, __VA_ARGS__, &p)
    bad |= expect(g2, POS(p.to_move = 0), NULL, "a plain position");
    bad |= expect_strict(g2, POS(p.to_move = 0), "the deck holds", "a plain position, strictly: its deck");
    bad |= expect(g2, POS(p.players = 6), "players", "six players");
    bad |= expect(g2, POS(p.rows[0] = "I1 r+"), "initial", "R1 placement");
    bad |= expect(g2, POS(p.rows[0] = "F30 n+"), "initial", "R1 fabric first");
    bad |= expect(g2, POS(p.rows[0] = "I1 n+,I3 n+"), "initial", "a second initial card");
    bad |= expect(g2, POS(p.hands[0] = "F13", p.rows[0] = "I1 n+,F13 n+"), "two places", "a card twice");
    bad |= expect(g3, POS(p.players = 3, p.to_move = 0, p.hands[0] = "F05", p.hands[2] = "F07",
                          p.offers[0] = "0 0 F01", p.offers[1] = "1 1 F02", p.offers[2] = "2 2 F03",
                          p.offers[3] = "2 1 F04", p.offers[4] = "1 2 F06"), "R3", "R3 dead end");
    bad |= expect(g2, POS(p.to_move = 1, p.hands[0] = "F01 F02", p.hands[1] = "F03", p.offers[0] = "0 0"), "R4", "R4 empty offer");
    bad |= expect(g2, POS(p.to_move = 1, p.offers[0] = "0 1 F01 F02 F03 F04"), "more than 3", "4-card offer");
    bad |= expect(g2, POS(p.to_move = 1, p.offers[0] = "1 1 F01"), "1.3 offer order", "offer by the wrong player");
    bad |= expect(g2, POS(p.to_move = 1, p.offers[0] = "0 1 F01", p.open = "0 0 F02"), "1.3 offer order", "open offer by the wrong player");
    bad |= expect(g2, POS(p.to_move = 0, p.offers[0] = "0 0 F01", p.offers[1] = "1 0 F02", p.offers[2] = "1 1 F03",
                          p.offers[3] = "0 1 F04"), "auction resolves", "4 closed offers of 2 players");
    bad |= expect(g2, POS(p.phase = CP_PHASE_WEAVE, p.rows[0] = "I1 n+,F13 n<3,F14 n>1"), "R8", "R8 over 1 on v = 1");
    bad |= expect(g2, POS(p.phase = CP_PHASE_WEAVE, p.to_move = 1, p.done[0] = 1, p.rows[0] = "I1 n+,F01 r+"), "raw", "a raw strip left");
    bad |= expect(g2, POS(p.to_move = 0, p.rows[0] = "I1 n+,F13 n+,F15 n+,F17 n+,F19 n+,F21 n+,F23 n+,F25 n+,F27 n+,F28 n+"),
                  "outgrow", "a row too long for the rounds left");
    bad |= expect(g2, POS(p.phase = CP_PHASE_OVER, p.round = 4, p.rows[0] = "I1 n+,F13 n+,F15 n+,F17 n+,F19 n+,F21 n+,F23 n+,F25 n+,F27 n+,F28 n+"),
                  NULL, "a long row once over");
    bad |= expect(g2, POS(p.to_move = 0, p.hands[0] = "F01", p.known = "F01:1"), "known", "known under the wrong player");
    bad |= expect(g2, POS(p.to_move = 0, p.hands[0] = "F01", p.known = "F01:0"), NULL, "known under its holder");
    bad |= expect(g2, POS(p.to_move = 0, p.known = "F01:0"), "known", "known card in the deck");
    bad |= expect(g2, POS(p.to_move = 1), "to_move", "to_move not the one due");
    bad |= expect(g2, POS(p.phase = CP_PHASE_WEAVE, p.to_move = 0, p.slots = "F41 F42"), "slots", "slots while weaving");
    /* issue 8 finding 3: P1's row showed a raw strip when the step began
     * (I1 n+, F11 r>2); determinize would undo F40 and F18 and expose it */
    bad |= expect(g3, POS(p.players = 3, p.phase = CP_PHASE_WEAVE, p.to_move = 2, p.done[0] = 1, p.done[1] = 1,
                          p.woven[0] = 2, p.woven[1] = 2,
                          p.rows[0] = "I5 n+,F27 n<1,F39 n+", p.rows[1] = "I1 n+,F11 r>2,F40 r>1,F18 r<1", p.rows[2] = "I4 n+"),
                  "R9", "raw strip at the step's start");
    bad |= expect(g3, POS(p.players = 3, p.phase = CP_PHASE_WEAVE, p.to_move = 2, p.done[0] = 1, p.done[1] = 1,
                          p.woven[0] = 2, p.woven[1] = 0,
                          p.rows[0] = "I5 n+,F27 n<1,F39 n+", p.rows[2] = "I4 n+"),
                  NULL, "the same step without P1's row");
#undef POS
    {   /* truncation and trailing fields */
        int64_t enc[SR_MAX_ENCODED + 1];
        sr_state_buf s;
        char msg[SR_MSG_LEN];
        position q;
        memset(&q, 0, sizeof q);
        q.players = 2; q.round = 1; q.phase = CP_PHASE_OFFER;
        int k = encode_position(&q, enc);
        for (int cut = 0; cut < k; ++cut) {
            msg[0] = 0;
            CHECK(g2->decode(g2->rules, enc, cut, s.b, msg, sizeof msg) == SR_E_STATE && msg[0], "truncated at %d accepted", cut);
        }
        enc[k] = 0;
        CHECK(g2->decode(g2->rules, enc, k + 1, s.b, msg, sizeof msg) == SR_E_STATE && strstr(msg, "after the end"), "trailing field: %s", msg);
        CHECK(g2->decode(g2->rules, NULL, 0, s.b, NULL, 0) == SR_E_STATE, "NULL input accepted");
    }
    return bad;
}

/* ---- the random games ----------------------------------------------------------------- */

static cp_weave_option OPTS[1 << 14];
static long n_mutants, n_mutants_loaded, n_options, n_determinized;

/* legal lists of two states equal */
static int same_legal(const sr_game *g, const void *a, const void *b) {
    int x[SR_MAX_LEGAL], y[SR_MAX_LEGAL];
    int n = g->legal_actions(g->rules, a, x), m = g->legal_actions(g->rules, b, y);
    return n == m && !memcmp(x, y, sizeof x[0] * (size_t)n);
}

/* encode s, decode it, and check the copy: same encoding, legal actions
 * (legal[0..k) when given), player; with full, also scores, keys and the
 * refusal of a short buffer */
static int roundtrip(const sr_game *g, const void *s, void *out, const int *legal, int k, int full, const char *what) {
    int64_t enc[SR_MAX_ENCODED], again[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    int n = g->encode(g->rules, s, enc, SR_MAX_ENCODED);
    CHECK(n > 0, "%s: encode failed (%d)", what, n);
    CHECK(g->decode(g->rules, enc, n, out, msg, sizeof msg) == SR_OK, "%s: decode(encode(s)) refused: %s", what, msg);
    CHECK(g->encode(g->rules, out, again, SR_MAX_ENCODED) == n && !memcmp(enc, again, sizeof enc[0] * (size_t)n),
          "%s: decode(encode(s)) encodes differently", what);
    if (legal) {
        int buf[SR_MAX_LEGAL];
        CHECK(g->legal_actions(g->rules, out, buf) == k && !memcmp(buf, legal, sizeof buf[0] * (size_t)k),
              "%s: decode(encode(s)) has other legal actions", what);
    } else {
        CHECK(same_legal(g, s, out), "%s: decode(encode(s)) has other legal actions", what);
    }
    CHECK(g->current_player(g->rules, s) == g->current_player(g->rules, out), "%s: other player to move", what);
    if (!full) return 0;
    CHECK(g->encode(g->rules, s, enc, n - 1) == -SR_E_RANGE, "%s: encode into a short buffer", what);
    int a[SR_MAX_PLAYERS], b[SR_MAX_PLAYERS], np = g->info.num_players;
    g->scores(g->rules, s, a);
    g->scores(g->rules, out, b);
    CHECK(!memcmp(a, b, sizeof a[0] * (size_t)np), "%s: other scores", what);
    for (int p = 0; p < np; ++p)
        CHECK(g->infostate_key(g->rules, s, p) == g->infostate_key(g->rules, out, p), "%s: other view for %d", what, p);
    return 0;
}

static sr_game LEGACY[CP_MAX_PLAYERS + 1];     /* legacy_determinize = 1, by player count */

/* determinize in place (out == state) draws the world it draws apart: the
 * draw is made in out; g's and the legacy draw's (which undoes the others'
 * weaving of this step in place) */
static int check_in_place(const sr_game *g, const void *s, int p, uint64_t seed, const char *what) {
    sr_state_buf d, t;
    int64_t e1[SR_MAX_ENCODED], e2[SR_MAX_ENCODED];
    g->determinize(g->rules, s, p, seed, d.b);
    memcpy(t.b, s, g->info.state_size);
    g->determinize(g->rules, t.b, p, seed, t.b);
    int k1 = g->encode(g->rules, d.b, e1, SR_MAX_ENCODED), k2 = g->encode(g->rules, t.b, e2, SR_MAX_ENCODED);
    CHECK(k1 > 0 && k1 == k2 && !memcmp(e1, e2, sizeof e1[0] * (size_t)k1),
          "%s: determinize%s in place drew another world for %d", what, g == &LEGACY[((const cp_state *)s)->players] ? " (legacy)" : "", p);
    return 0;
}

/* a determinization for every player: decodes, keeps the view, can be played to the end */
static int check_determinize(const sr_game *g, const void *s, uint64_t *rng, int playout, const char *what) {
    int np = ((const cp_state *)s)->players;
    for (int p = 0; p < np; ++p) {
        sr_state_buf d, t;
        uint64_t seed = rng_draw(rng);
        g->determinize(g->rules, s, p, seed, d.b);
        if (check_in_place(g, s, p, seed, what) || check_in_place(&LEGACY[np], s, p, seed, what)) return 1;
        CHECK(g->infostate_key(g->rules, d.b, p) == g->infostate_key(g->rules, s, p), "%s: determinize changed the view of %d", what, p);
        if (roundtrip(g, d.b, t.b, NULL, 0, 0, what)) return 1;
        int buf[SR_MAX_LEGAL];
        CHECK((g->current_player(g->rules, d.b) == SR_TERMINAL) == (g->legal_actions(g->rules, d.b, buf) == 0),
              "%s: determinized for %d: no legal action before the end", what, p);
        if (playout) CHECK(sr_playout(g, d.b, NULL, NULL, rng, NULL, NULL) == SR_OK, "%s: determinized for %d: playout stuck", what, p);
        ++n_determinized;
    }
    return 0;
}

/* change one field of the encoding of s (or cut or lengthen it): decode must
 * refuse with a message, or give a state that encodes to the mutant and plays on */
static int mutate(const sr_game *g, const void *s, uint64_t *rng) {
    int64_t enc[SR_MAX_ENCODED + 1], again[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    sr_state_buf t;
    int k = g->encode(g->rules, s, enc, SR_MAX_ENCODED), i = (int)rng_below(rng, (uint32_t)k);
    uint64_t seed = (uint64_t)enc[5];
    switch (rng_below(rng, 8)) {
    case 0: enc[i] += 1; break;
    case 1: enc[i] -= 1; break;
    case 2: enc[i] = (int64_t)rng_below(rng, 64) - 2; break;
    case 3: enc[i] = (int64_t)rng_draw(rng); break;
    case 4: enc[i] = i & 1 ? INT64_MIN : INT64_MAX; break;
    case 5: k = i; break;                                                      /* cut */
    case 6: memmove(enc + i + 1, enc + i, sizeof enc[0] * (size_t)(k - i)); ++k; break;   /* insert */
    default: memmove(enc + i, enc + i + 1, sizeof enc[0] * (size_t)(k - i - 1)); --k; break; /* drop */
    }
    ++n_mutants;
    msg[0] = 0;
    int rc = g->decode(g->rules, enc, k, t.b, msg, sizeof msg);
    if (rc != SR_OK) {
        char sd[32];
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
        CHECK(rc == SR_E_STATE && msg[0], "mutant refused without a message (rc %d)", rc);
        CHECK(strlen(sd) < 6 || !strstr(msg, sd), "a message names the seed: %s", msg);
        return 0;
    }
    ++n_mutants_loaded;
    CHECK(g->encode(g->rules, t.b, again, SR_MAX_ENCODED) == k && !memcmp(enc, again, sizeof enc[0] * (size_t)k),
          "a loaded mutant encodes differently");
    int buf[SR_MAX_LEGAL];
    CHECK((g->current_player(g->rules, t.b) == SR_TERMINAL) == (g->legal_actions(g->rules, t.b, buf) == 0),
          "a loaded mutant has no legal action before the end");
    if (check_determinize(g, t.b, rng, 1, "mutant")) return 1;
    CHECK(sr_playout(g, t.b, NULL, NULL, rng, NULL, NULL) == SR_OK, "a loaded mutant's playout is stuck");
    return 0;
}

static int check_policy(const sr_game *g, const void *s, const int *legal, int k, uint64_t *rng) {
    int i = cp_policy.heuristic_action(g->rules, s, legal, k, rng);
    CHECK(i >= 0 && i < k, "heuristic index %d of %d", i, k);
    i = cp_policy.greedy_index(g->rules, s, legal, k, rng);
    CHECK(i >= 0 && i < k, "greedy index %d of %d", i, k);
    double pr[SR_MAX_LEGAL];
    int has = cp_policy.action_prior(g->rules, s, legal, k, NULL);
    CHECK(has == cp_policy.action_prior(g->rules, s, legal, k, pr), "prior: opinion differs with out");
    return 0;
}

static int play_games(const sr_game *g, long games, uint64_t *rng) {
    const int np = g->info.num_players;
    char text[32];
    int buf[SR_MAX_LEGAL];
    long actions = 0, longest = 0;
    double wins = 0;
    for (long i = 0; i < games; ++i) {
        sr_state_buf s, t;
        g->new_initial_state(g, s.b, rng_draw(rng));
        cp_state *cs = (cp_state *)s.b;
        long steps = 0;
        for (;; ++steps, ++actions) {
            int k = g->legal_actions(g->rules, s.b, buf), cur = g->current_player(g->rules, s.b);
            if ((actions & 3) == 0 && roundtrip(g, s.b, t.b, buf, k, (actions & 31) == 0, "game")) return 1;
            if (cur == SR_TERMINAL) { CHECK(k == 0, "terminal state with actions"); break; }
            CHECK(cur == cs->to_move && k > 0 && k <= CP_NUM_ACTIONS, "game %ld: player %d, %d actions", i, cur, k);
            for (int j = 0; j < k; ++j) {
                CHECK(buf[j] >= 0 && buf[j] < g->info.num_distinct_actions, "id out of range");
                CHECK(j == 0 || buf[j - 1] < buf[j], "actions not sorted and unique");
            }
            for (int j = (actions & 15) ? (int)rng_below(rng, (uint32_t)k) : 0, j1 = (actions & 15) ? j + 1 : k; j < j1; ++j)
                CHECK(g->action_to_string(g->rules, buf[j], text, sizeof text) > 0, "no notation");   /* all at samples */
            if ((actions & 127) == 2 && check_determinize(g, s.b, rng, (actions & 1023) == 2, "game")) return 1;
            if ((actions & 31) == 5 && mutate(g, s.b, rng)) return 1;
            if ((actions & 255) == 7 && check_policy(g, s.b, buf, k, rng)) return 1;
            if (cs->phase == CP_PHASE_WEAVE && (actions & 4095) == 0) {     /* weaving options replay */
                int no = cp_weaving_options(g->rules, cs, OPTS, 1 << 14);
                CHECK(no > 0, "no weaving option (%d)", no);
                for (int j = 0; j < no; ++j) {
                    sr_state_buf w;
                    memcpy(w.b, s.b, g->info.state_size);
                    cp_state *cw = (cp_state *)w.b;
                    int p = cs->to_move;
                    for (int a = 0; a < OPTS[j].n_actions; ++a)
                        CHECK(sr_apply_checked(g, w.b, OPTS[j].actions[a]) == SR_OK, "weaving option %d: action %d illegal", j, OPTS[j].actions[a]);
                    CHECK(cw->to_move != p || cw->phase != CP_PHASE_WEAVE || (cw->weave_done >> p & 1), "option did not end the turn");
                    CHECK(cp_row_score(&OPTS[j].row, OPTS[j].nstrips) == OPTS[j].score, "option score");
                    ++n_options;
                }
            }
            if ((actions & 63) == 0) {     /* an illegal id is refused and leaves the state untouched */
                int bad = -1;
                for (int a = 0, j = 0; a < CP_NUM_ACTIONS; ++a) {
                    if (j < k && buf[j] == a) { ++j; continue; }
                    bad = a; break;
                }
                memcpy(t.b, s.b, g->info.state_size);
                if (bad >= 0) CHECK(sr_apply_checked(g, t.b, bad) == SR_E_ILLEGAL && !memcmp(t.b, s.b, sizeof(cp_state)), "illegal action accepted");
                CHECK(sr_apply_checked(g, t.b, -1) == SR_E_RANGE && sr_apply_checked(g, t.b, CP_NUM_ACTIONS) == SR_E_RANGE, "id out of range accepted");
            }
            g->apply(g->rules, s.b, buf[rng_below(rng, (uint32_t)k)]);
        }
        CHECK(steps <= g->info.max_game_length, "a game of %ld actions (max_game_length %d)", steps, g->info.max_game_length);
        if (steps > longest) longest = steps;
        double ret[SR_MAX_PLAYERS], sum = 0;
        g->returns(g->rules, s.b, ret);
        for (int p = 0; p < np; ++p) { sum += ret[p]; CHECK(ret[p] >= g->info.min_utility && ret[p] <= g->info.max_utility, "return out of range"); }
        CHECK(sum > 0.999 && sum < 1.001, "returns sum to %f", sum);
        CHECK(cs->round == CP_ROUNDS, "game ended in round %d", cs->round);
        double sh[SR_MAX_PLAYERS];
        cp_policy.shaped_returns(g->rules, s.b, sh);
        for (int p = 0; p < np; ++p) CHECK(sh[p] >= 0 && sh[p] <= 1, "shaped return %f", sh[p]);
        wins += ret[0];
    }
    printf("%d players: %ld games clean, %ld actions, longest %ld (bound %d), player 0 won %.1f\n",
           np, games, actions, longest, g->info.max_game_length, wins);
    return 0;
}

int main(int argc, char **argv) {
    long games = argc > 2 ? atol(argv[2]) : 5000;
    char msg[SR_MSG_LEN];
    if (tl_load(&LOADED, "capulana", argc > 1 ? argv[1] : NULL) != 0) return 1;
    R = LOADED.rules;
    TEXTS[0] = LOADED.texts[0];
    TEXTS[1] = LOADED.texts[1];
    if (sizeof(cp_state) > 512) { fprintf(stderr, "cp_state is %zu bytes\n", sizeof(cp_state)); return 1; }
    {   /* figure VI: RC YC YZ YD YD YD Y* *T GT GT GL scores 19 (R10) */
        static const uint8_t col[11] = {3, 1, 1, 1, 1, 1, 1, 7, 2, 2, 2}, pat[11] = {3, 3, 4, 1, 1, 1, 7, 2, 2, 2, 5};
        cp_set sets[16];
        int total = 0, k = cp_score_sets(col, pat, 11, sets, 16, &total);
        if (total != 19 || k != 4) { fprintf(stderr, "figure VI scores %d in %d sets\n", total, k); ++failures; }
    }
    test_loader();
    sr_game g[CP_MAX_PLAYERS + 1];
    for (int players = 2; players <= 5; ++players) {
        int params[SR_MAX_PARAMS] = { players };
        if (tl_make(&LOADED, params, &g[players]) != 0) return 1;
        int legacy[SR_MAX_PARAMS] = { players, 1 };
        if (tl_make(&LOADED, legacy, &LEGACY[players]) != 0) return 1;
        const sr_game_info *in = &g[players].info;
        if (strcmp(in->name, "capulana") || in->num_players != players || in->num_distinct_actions != CP_NUM_ACTIONS
            || in->state_size != sizeof(cp_state) || !in->hidden_information || in->max_game_length != 48 * players) {
            fprintf(stderr, "bad GameInfo for %d players\n", players);
            return 1;
        }
    }
    {
        int params[SR_MAX_PARAMS] = { 6 };
        sr_game bad;
        if (cp_make_game(R, params, &bad, msg, sizeof msg) != SR_E_PARAM) { fprintf(stderr, "6 players accepted\n"); ++failures; }
    }
    test_positions(&g[2], &g[3]);
    uint64_t rng = 12345;
    for (int players = 2; players <= 5 && !failures; ++players) play_games(&g[players], games, &rng);
    printf("%ld mutants (%ld loaded), %ld determinizations, %ld weaving options replayed\n",
           n_mutants, n_mutants_loaded, n_determinized, n_options);
    tl_free(&LOADED);
    printf("test_capulana: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
    return failures ? 1 : 0;
}
