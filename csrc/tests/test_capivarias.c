/* test_capivarias.c - the C core's own test of Capivárias through the game
 * contract: loads the rules from the CSV text through the registry
 * (load_game.h; cv_load_rules rejects broken variants of it), makes the four
 * instances (expansion x first player) and plays N random games. After every action it
 * checks the legal ids (sorted, unique, in range, with notation), the codec
 * (decode(encode(s)) succeeds, re-encodes to the same fields and behaves
 * like s), illegal ids, determinize, the policy; at a sample of states it
 * mutates the encoding (decode must fail with a message or accept a state
 * that re-encodes to exactly the mutated fields and plays to the end with
 * every state accepted), and pushes round_wins to the accepted bound and
 * plays on from there (the accepted set is closed under play).
 * Meant to run under -fsanitize=address,undefined.
 * Usage: test_capivarias [DATA_DIR [N]]   (exit 0 = clean; DATA_DIR as
 * load_game.h finds it) */
#include "capivarias_game.h"
#include "search/policies.h"
#include "rng.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); return 1; } } while (0)

/* encoding field indices */
enum { F_EXPANSION, F_ROUND, F_WINS0, F_WINS1, F_TO_MOVE, F_LAST_TAKER, F_WINNER, F_SEED };

static const cv_rules *rules;   /* loaded through the registry (load_game.h) */
static cv_rules other;
static long decoded_ok, decoded_bad, closure_games;

#include "load_game.h"

/* text with the first `from` replaced by `to` (malloc'd), or NULL. */
static char *replaced(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    if (!at) return NULL;
    size_t a = (size_t)(at - text), lf = strlen(from), lt = strlen(to), rest = strlen(at + lf);
    char *out = malloc(a + lt + rest + 1);
    if (!out) return NULL;
    memcpy(out, text, a);
    memcpy(out + a, to, lt);
    memcpy(out + a + lt, at + lf, rest + 1);
    return out;
}

static int load_text(const char *text, cv_rules *r, char *msg, size_t n) {
    const char *texts[1] = {text};
    return cv_load_rules(r, texts, msg, n);
}

/* The CSV reader: line endings, blank lines and a BOM do not matter; broken
 * tables are refused with a message. */
static int test_load_rules(const char *text) {
    char msg[SR_MSG_LEN];
    /* LF only, no trailing newline, blank lines, a BOM: the same table */
    size_t len = strlen(text);
    char *lf = malloc(len + 8), *q = lf;
    CHECK(lf, "no memory");
    memcpy(q, "\xEF\xBB\xBF", 3);
    q += 3;
    for (const char *p = text; *p; ++p)
        if (*p != '\r') *q++ = *p;
    while (q > lf + 3 && q[-1] == '\n') --q;
    *q = 0;
    char *blank = replaced(lf, "\nC2,", "\n\n\nC2,");
    CHECK(blank, "no row C2 in the CSV");
    CHECK(load_text(blank, &other, msg, sizeof msg) == SR_OK, "LF variant refused: %s", msg);
    CHECK(memcmp(rules, &other, sizeof other) == 0, "LF variant reads differently");
    free(blank);
    free(lf);

    static const struct { const char *from, *to, *words; } bad[] = {
        {"C1,herd,capicria,1,2,0", "C1,heard,capicria,1,2,0", "unknown kind"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicrio,1,2,0", "unknown herd"},
        {"C1,herd,capicria,1,2,0", "C1,herd,,1,2,0", "belongs to herd"},
        {"OP1,capionca:push,,0,0,0", "OP1,capionca:push,capiox,0,0,0", "has no herd"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicria,one,2,0", "number"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicria,1,2.5,0", "river_modifier"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicria,1,,0", "river_modifier"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicria,1,2,2", "expansion"},
        {"C1,herd,capicria,1,2,0", "CAPYBARA,herd,capicria,1,2,0", "1 to 7 bytes"},
        {"C1,herd,capicria,1,2,0", ",herd,capicria,1,2,0", "1 to 7 bytes"},
        {"C1,herd,capicria,1,2,0", "C/1,herd,capicria,1,2,0", "must not contain"},
        {"C2,herd,capicria,2,1,0", "C1,herd,capicria,2,1,0", "appears twice"},
        {"C1,herd,capicria,1,2,0", "C1,herd,capicria,1,2", "fields"},
        {"KX,capitico,capiox", "KX,capitico,capicria", "second capitico"},
        {"river_modifier", "modifier", "no column 'river_modifier'"},
        {"C1,herd,capicria,1,2,0", "\"C1\",herd,capicria,1,2,0", "quoted"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *t = replaced(text, bad[i].from, bad[i].to);
        CHECK(t, "no '%s' in the CSV", bad[i].from);
        msg[0] = 0;
        int rc = load_text(t, &other, msg, sizeof msg);
        free(t);
        CHECK(rc == SR_E_STATE && strstr(msg, bad[i].words), "'%s' gave %d '%s', not '%s'", bad[i].to, rc, msg, bad[i].words);
    }
    /* more than 32 cards */
    size_t big_len = len + 8 * 40;
    char *big = malloc(big_len);
    CHECK(big, "no memory");
    strcpy(big, text);
    for (int i = 0; i < 8; ++i) {
        char row[40];
        snprintf(row, sizeof row, "Z%d,herd,capiox,3,0,1\r\n", i);
        strcat(big, row);
    }
    CHECK(load_text(big, &other, msg, sizeof msg) == SR_E_STATE && strstr(msg, "more than 32"), "33 cards: %s", msg);
    free(big);
    CHECK(load_text("", &other, msg, sizeof msg) == SR_E_STATE && strstr(msg, "empty"), "empty text: %s", msg);
    CHECK(load_text("name,kind,herd,number,river_modifier,expansion\r\n", &other, msg, sizeof msg) == SR_E_STATE &&
          strstr(msg, "no cards"), "header only: %s", msg);
    CHECK(cv_load_rules(&other, NULL, msg, sizeof msg) == SR_E_STATE, "no texts accepted");
    return 0;
}

static int encodings_equal(const int64_t *a, int na, const int64_t *b, int nb) {
    return na == nb && memcmp(a, b, (size_t)na * sizeof *a) == 0;
}

static int contains_seed(const char *msg, int64_t seed) {
    if (seed >= -1000000 && seed <= 1000000) return 0;   /* small seeds look like any number */
    char t[32];
    snprintf(t, sizeof t, "%" PRId64, seed);
    if (strstr(msg, t)) return 1;
    snprintf(t, sizeof t, "%" PRIu64, (uint64_t)seed);
    return strstr(msg, t) != NULL;
}

/* R28 as the rules word it, card by card: a capybara scores its number plus
 * its segment's river modifier, and one more as a guardian (R22: its herd's
 * capitico on its side). cv_scores computes it with masks. */
static void ref_scores(const cv_rules *r, const cv_state *s, int out[2]) {
    for (int k = 0; k < 2; ++k) {
        out[k] = 0;
        for (int i = 0; i < CV_SEGMENTS; ++i)
            for (int c = 0; c < r->ncards; ++c) {
                if (!(s->side[i][k] & r->capybara_mask & (1u << c))) continue;
                out[k] += r->card[c].number + r->card[s->river[i]].modifier;
                int h = r->card[c].herd;
                if (h < CV_HERD_CAPIOLIN && r->capitico_of[h] != CV_NONE && (s->side[i][k] & (1u << r->capitico_of[h])))
                    out[k] += 1;
            }
    }
}

/* Every legal action of s: cv_apply_scored does what cv_apply_round_end
 * does, short of dealing the next round (the same scores, the same match
 * fields; the same state when the round goes on). */
static int check_apply_scored(const cv_state *s, const int *buf, int k) {
    for (int j = 0; j < k; ++j) {
        cv_state x = *s, y = *s, river;
        int sc[2] = {-99, -99}, rs[2];
        int ended = cv_apply_round_end(rules, &x, buf[j], &river);
        CHECK(cv_apply_scored(rules, &y, buf[j], sc) == ended, "cv_apply_scored: another round end");
        if (!ended) {
            CHECK(memcmp(&x, &y, sizeof x) == 0 && sc[0] == -99, "cv_apply_scored: another state mid-round");
            continue;
        }
        cv_scores(rules, &river, rs);
        CHECK(sc[0] == rs[0] && sc[1] == rs[1], "cv_apply_scored: other round scores");
        ref_scores(rules, &river, rs);
        CHECK(sc[0] == rs[0] && sc[1] == rs[1], "cv_apply_scored: round scores %d,%d, R28 card by card %d,%d", sc[0], sc[1],
              rs[0], rs[1]);
        int none[CV_MAX_ACTIONS];
        CHECK(cv_is_terminal(&y) || cv_legal_actions(rules, &y, none) == 0, "cv_apply_scored: an undealt round is playable");
        CHECK(memcmp(x.wins, y.wins, sizeof x.wins) == 0 && x.winner == y.winner && x.round == y.round &&
              x.to_move == y.to_move && x.last_taker == y.last_taker, "cv_apply_scored: another match");
    }
    return 0;
}

/* determinize depends on the view alone (R20): another world of the same
 * view (two pile cards below the top swapped, or a river card swapped with
 * a pile card of its modifier below the top) determinizes to the same
 * state, byte for byte. A determinization that kept a hidden card would
 * differ. */
static int same_view_same_worlds(const sr_game *g, const cv_state *s, int player, uint64_t seed) {
    const int lo = s->pile_top + 1;   /* below the top, whose modifier is public */
    for (int form = 0; form < 2; ++form) {
        cv_state w = *s, d1, d2;
        int swapped = 0;
        if (form == 0 && s->n_pile - lo >= 2) {
            uint8_t t = w.pile[lo]; w.pile[lo] = w.pile[s->n_pile - 1]; w.pile[s->n_pile - 1] = t;
            swapped = w.pile[lo] != s->pile[lo];
        }
        for (int j = lo; form == 1 && j < s->n_pile && !swapped; ++j)
            if (rules->card[s->pile[j]].modifier == rules->card[s->river[0]].modifier) {
                w.river[0] = s->pile[j]; w.pile[j] = s->river[0];
                swapped = 1;
            }
        if (!swapped) continue;
        CHECK(g->infostate_key(g->rules, &w, player) == g->infostate_key(g->rules, s, player), "the swap changed the view");
        g->determinize(g->rules, s, player, seed, &d1);
        g->determinize(g->rules, &w, player, seed, &d2);
        CHECK(memcmp(&d1, &d2, sizeof d1) == 0, "determinize (form %d) tells two worlds of one view apart", form);
    }
    return 0;
}

/* Play s to the end with random actions; every state on the way must
 * round-trip through the codec (closure of the accepted set under play). */
static int play_checked(const sr_game *g, cv_state *s, uint64_t *rng) {
    int64_t e[SR_MAX_ENCODED], e2[SR_MAX_ENCODED];
    int buf[SR_MAX_LEGAL], steps = 0;
    char msg[SR_MSG_LEN];
    cv_state d;
    ++closure_games;
    for (;;) {
        int ne = g->encode(g->rules, s, e, SR_MAX_ENCODED);
        CHECK(ne > 0, "encode failed");
        CHECK(g->decode(g->rules, e, ne, &d, msg, sizeof msg) == SR_OK, "closure: a state reached by play is refused: %s", msg);
        CHECK(encodings_equal(e, ne, e2, g->encode(g->rules, &d, e2, SR_MAX_ENCODED)), "closure: re-encodes differently");
        int k = g->legal_actions(g->rules, s, buf);
        if (g->current_player(g->rules, s) == SR_TERMINAL) { CHECK(k == 0, "terminal with actions"); return 0; }
        CHECK(k > 0, "closure: an unfinished state with no legal action");
        g->apply(g->rules, s, buf[rng_below(rng, (uint32_t)k)]);
        CHECK(++steps <= g->info.max_game_length, "closure: longer than max_game_length %d", g->info.max_game_length);
    }
}

/* Mutate one field (or the length) of e and decode: refused with a message
 * (never the seed), or accepted as a state that re-encodes to exactly the
 * mutated fields and plays on cleanly. */
static int fuzz_once(const sr_game *g, const int64_t *e, int ne, uint64_t *rng) {
    int64_t m[SR_MAX_ENCODED + 1], back[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    static const int64_t POOL[] = {-2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 19, 20, 27, 28, 31, 32, 33, 200,
                                   INT64_MIN, INT64_MAX};
    int n = ne;
    memcpy(m, e, (size_t)ne * sizeof *e);
    int j = (int)rng_below(rng, (uint32_t)ne);
    switch (rng_below(rng, 8)) {
    case 0: case 1: case 2:   /* a value from the pool */
        m[j] = POOL[rng_below(rng, sizeof POOL / sizeof POOL[0])];
        break;
    case 3:                   /* off by one */
        m[j] += rng_below(rng, 2) ? 1 : -1;
        break;
    case 4: {                 /* swap two fields */
        int i = (int)rng_below(rng, (uint32_t)ne);
        int64_t t = m[i]; m[i] = m[j]; m[j] = t;
        break;
    }
    case 5:                   /* truncated */
        n = j;
        break;
    case 6:                   /* a trailing field */
        m[n++] = POOL[rng_below(rng, sizeof POOL / sizeof POOL[0])];
        break;
    default:                  /* a field dropped */
        memmove(m + j, m + j + 1, (size_t)(ne - j - 1) * sizeof *m);
        --n;
        break;
    }
    cv_state d;
    memset(&d, 0xA5, sizeof d);
    msg[0] = 0;
    int rc = g->decode(g->rules, m, n, &d, msg, sizeof msg);
    if (rc != SR_OK) {
        CHECK(rc == SR_E_STATE && msg[0], "decode refused without a message (rc %d)", rc);
        CHECK(!contains_seed(msg, e[F_SEED]), "a message shows the seed: %s", msg);
        ++decoded_bad;
        return 0;
    }
    ++decoded_ok;
    CHECK(encodings_equal(m, n, back, g->encode(g->rules, &d, back, SR_MAX_ENCODED)), "an accepted mutation re-encodes differently");
    return rng_below(rng, 16) ? 0 : play_checked(g, &d, rng);   /* a sample plays on */
}

/* Round wins at the accepted bound (round - 1 unfinished, round once over)
 * are accepted and play on cleanly; one more is refused. At the bound the
 * counts R29 implies (issue 26) allow only equal wins while unfinished or
 * drawn, and the winner one ahead once won; the loose decoder (no counts)
 * takes any pair within the bound. */
static int test_wins_bound(const sr_game *g, const int64_t *e, int ne, uint64_t *rng) {
    int64_t m[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    cv_state d;
    memcpy(m, e, (size_t)ne * sizeof *e);
    int over = m[F_TO_MOVE] < 0;
    int64_t most = m[F_ROUND] - (over ? 0 : 1);
    m[F_WINS0] = m[F_WINS1] = most;
    if (over && m[F_WINNER] >= 0) m[F_WINS0 + (1 - m[F_WINNER])] = most - 1;
    CHECK(g->decode(g->rules, m, ne, &d, msg, sizeof msg) == SR_OK, "round_wins at the bound refused: %s", msg);
    if (play_checked(g, &d, rng)) return 1;
    memcpy(m, e, (size_t)ne * sizeof *e);
    m[F_WINS0] = most;
    m[F_WINS1] = (int64_t)rng_below(rng, (uint32_t)most + 1);
    if (rng_below(rng, 2)) { int64_t t = m[F_WINS0]; m[F_WINS0] = m[F_WINS1]; m[F_WINS1] = t; }
    CHECK(g->decode_loose(g->rules, m, ne, &d, msg, sizeof msg) == SR_OK, "round_wins at the bound refused (loose): %s", msg);
    m[rng_below(rng, 2) ? F_WINS0 : F_WINS1] = most + 1;
    CHECK(g->decode(g->rules, m, ne, &d, msg, sizeof msg) == SR_E_STATE && strstr(msg, "round_wins"),
          "round_wins above the bound: %s", msg);
    /* issue 8 finding 6: round 8 with [9, 9] used to load, then play reached [9, 10] */
    memcpy(m, e, (size_t)ne * sizeof *e);
    m[F_ROUND] = 8;
    m[F_WINS0] = m[F_WINS1] = 9;
    if (m[F_LAST_TAKER] < 0) m[F_LAST_TAKER] = 0;
    if (over && m[F_WINNER] < 0) m[F_WINNER] = 1;
    CHECK(g->decode(g->rules, m, ne, &d, msg, sizeof msg) == SR_E_STATE && strstr(msg, "round_wins"),
          "round 8 with [9, 9]: %s", msg);
    return 0;
}

static int test_codec_messages(const sr_game *g, const int64_t *e, int ne) {
    static const struct { int field; int64_t value; const char *words; } bad[] = {
        {F_EXPANSION, 2, "expansion must be true or false"},
        {F_ROUND, 10, "round must be an integer in [1, 9]"},
        {F_ROUND, 0, "round must be an integer in [1, 9]"},
        {F_WINS1, 10, "round_wins[1] must be an integer in [0, 9]"},
        {F_WINS0, 1, "round_wins[0] must be an integer in [0, 0] in round 1"},
        {F_TO_MOVE, 2, "to_move must be an integer in [0, 1] or null"},
        {F_LAST_TAKER, 0, "last_taker must be null in round 1"},
        {F_WINNER, 1, "a winner is set but to_move is not null"},
        {F_TO_MOVE, -1, "the game is over without a winner"},
        {F_SEED + 1, 40, "segment 0 river: unknown card id 40"},
    };
    int64_t m[SR_MAX_ENCODED];
    char msg[SR_MSG_LEN];
    cv_state d;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        memcpy(m, e, (size_t)ne * sizeof *e);
        m[bad[i].field] = bad[i].value;
        msg[0] = 0;
        CHECK(g->decode(g->rules, m, ne, &d, msg, sizeof msg) == SR_E_STATE && strstr(msg, bad[i].words),
              "field %d = %lld: '%s', expected '%s'", bad[i].field, (long long)bad[i].value, msg, bad[i].words);
    }
    CHECK(g->decode(g->rules, e, ne - 1, &d, msg, sizeof msg) == SR_E_STATE && strstr(msg, "ends early"), "truncated: %s", msg);
    memcpy(m, e, (size_t)ne * sizeof *e);
    m[ne] = 0;
    CHECK(g->decode(g->rules, m, ne + 1, &d, msg, sizeof msg) == SR_E_STATE && strstr(msg, "after the state"), "trailing: %s", msg);
    CHECK(g->decode(g->rules, NULL, 0, &d, msg, sizeof msg) == SR_E_STATE, "empty input accepted");
    CHECK(g->decode(g->rules, e, ne, &d, NULL, 0) == SR_OK, "no message buffer");
    memcpy(m, e, (size_t)ne * sizeof *e);
    m[F_ROUND] = 11;
    CHECK(g->decode(g->rules, m, ne, &d, NULL, 0) == SR_E_STATE, "no message buffer, bad state");
    CHECK(g->encode(g->rules, &d, m, ne - 1) == -SR_E_RANGE, "encode into too small a buffer");
    return 0;
}

int main(int argc, char **argv) {
    long games = argc > 2 ? atol(argv[2]) : 10000;
    char msg[SR_MSG_LEN], text[32];
    tl_game loaded;
    CHECK(tl_load(&loaded, "capivarias", argc > 1 ? argv[1] : NULL) == 0, "cannot load capivarias");
    rules = loaded.rules;
    const char *csv = loaded.texts[0];
    CHECK(rules->num_actions == 3248, "expected 3248 action ids, got %d", rules->num_actions);
    CHECK(sizeof(cv_state) <= 128, "cv_state is %zu bytes", sizeof(cv_state));
    if (test_load_rules(csv)) return 1;

    sr_game inst[4];
    for (int i = 0; i < 4; ++i) {
        int params[SR_MAX_PARAMS] = {i & 1, i >> 1};
        sr_game *g = &inst[i];
        CHECK(tl_make(&loaded, params, g) == 0, "make");
        CHECK(strcmp(g->info.name, "capivarias") == 0 && g->info.num_players == 2 && g->info.hidden_information == 1,
              "game info");
        CHECK(g->info.num_distinct_actions == 3248 && g->info.min_utility == -1.0 && g->info.max_utility == 1.0, "game info");
        CHECK(g->info.max_game_length == ((i & 1) ? 216 : 144), "max_game_length %d", g->info.max_game_length);
        CHECK(g->info.state_size == sizeof(cv_state) && g->rules == rules, "game info");
        CHECK(g->params[0] == (i & 1) && g->params[1] == (i >> 1), "params");
        CHECK(g->new_initial_state && g->current_player && g->legal_actions && g->apply && g->returns && g->scores &&
              g->determinize && g->infostate_key && g->action_to_string && g->encode && g->decode, "a missing function");
        CHECK(g->action_to_string(g->rules, -1, text, sizeof text) == -SR_E_RANGE &&
              g->action_to_string(g->rules, 3248, text, sizeof text) == -SR_E_RANGE, "action_to_string out of range");
    }
    {
        int bad_params[SR_MAX_PARAMS] = {2, 0};
        sr_game g;
        CHECK(cv_make_game(rules, bad_params, &g, msg, sizeof msg) == SR_E_PARAM && strstr(msg, "expansion"), "bad expansion");
    }

    uint64_t rng = 12345;
    long actions = 0, draws = 0;
    int buf[SR_MAX_LEGAL], buf2[SR_MAX_LEGAL];
    int64_t e[SR_MAX_ENCODED + 1], e2[SR_MAX_ENCODED];
    for (long i = 0; i < games; ++i) {
        const sr_game *g = &inst[i & 3];
        const void *r = g->rules;
        cv_state s, d;
        int steps = 0;
        g->new_initial_state(g, &s, rng_draw(&rng));
        CHECK(s.expansion == (i & 1) && s.to_move == ((i >> 1) & 1) && s.round == 1, "new_initial_state ignores params");
        int ne = g->encode(r, &s, e, SR_MAX_ENCODED);
        for (;;) {
            /* s is checked by decode, which ends with cv_check */
            int cur = g->current_player(r, &s);
            int k = g->legal_actions(r, &s, buf);
            /* the codec: decode(encode(s)) is accepted, re-encodes the same, behaves alike */
            CHECK(ne > 0, "encode failed");
            CHECK(g->decode(r, e, ne, &d, msg, sizeof msg) == SR_OK, "game %ld: decode(encode(s)) refused: %s", i, msg);
            CHECK(encodings_equal(e, ne, e2, g->encode(r, &d, e2, SR_MAX_ENCODED)), "game %ld: re-encodes differently", i);
            CHECK(g->current_player(r, &d) == cur, "decoded: another player to move");
            CHECK(g->legal_actions(r, &d, buf2) == k && memcmp(buf, buf2, (size_t)k * sizeof *buf) == 0,
                  "decoded: other legal actions");
            if ((actions & 3) == 0) {
                int sa[2], sb[2];
                double ra[2], rb[2];
                g->scores(r, &s, sa); g->scores(r, &d, sb);
                g->returns(r, &s, ra); g->returns(r, &d, rb);
                CHECK(sa[0] == sb[0] && sa[1] == sb[1] && ra[0] == rb[0] && ra[1] == rb[1], "decoded: other scores or returns");
                for (int p = 0; p < 2; ++p)
                    CHECK(g->infostate_key(r, &s, p) == g->infostate_key(r, &d, p), "decoded: another view");
            }
            if (i < 4 && steps == 0 && test_codec_messages(g, e, ne)) return 1;
            if ((actions & 7) == 0)
                for (int t = 0; t < 2; ++t)
                    if (fuzz_once(g, e, ne, &rng)) return 1;
            if (actions % 499 == 0 || (cur == SR_TERMINAL && (i & 127) == 0))
                if (test_wins_bound(g, e, ne, &rng)) return 1;
            if (cur == SR_TERMINAL) {
                double ret[2];
                g->returns(r, &s, ret);
                CHECK(k == 0, "terminal state with actions");
                CHECK((ret[0] == 0 && ret[1] == 0) || (ret[0] == -ret[1] && (ret[0] == 1 || ret[0] == -1)), "returns");
                break;
            }
            CHECK(cur == s.to_move && k > 0 && k <= CV_MAX_ACTIONS, "game %ld: %d actions", i, k);
            for (int j = 0; j < k; ++j) {
                CHECK(buf[j] >= 0 && buf[j] < g->info.num_distinct_actions, "id out of range");
                CHECK(j == 0 || buf[j - 1] < buf[j], "actions not sorted and unique");
                CHECK(g->action_to_string(r, buf[j], text, sizeof text) > 0, "no notation");
            }
            {   /* at every position, not a sample: a round's last take falls at a fixed parity of `actions` */
                int sa[2], sb[2];
                cv_scores(rules, &s, sa);
                ref_scores(rules, &s, sb);
                CHECK(sa[0] == sb[0] && sa[1] == sb[1], "game %ld: cv_scores %d,%d, R28 card by card %d,%d", i, sa[0], sa[1],
                      sb[0], sb[1]);
                for (int p = 0; p < 2; ++p) {   /* segment by segment, the same total (the search's baseline reads it) */
                    int seg[CV_SEGMENTS], cap[CV_SEGMENTS], total = 0;
                    cv_segment_scores(rules, &s, p, seg, cap);
                    for (int q = 0; q < CV_SEGMENTS; ++q) {
                        total += seg[q];
                        CHECK(cap[q] == tb_popcount32(s.side[q][p] & rules->capybara_mask), "capybaras counted wrong");
                    }
                    CHECK(total == sa[p], "game %ld: segment scores sum to %d, cv_scores %d", i, total, sa[p]);
                }
                if (check_apply_scored(&s, buf, k)) return 1;
            }
            if ((actions & 63) == 0) {              /* determinize keeps the public part */
                cv_state dt;
                g->determinize(r, &s, cur, rng_draw(&rng), &dt);
                CHECK(cv_check(rules, &dt, msg, sizeof msg) == 0, "determinized: %s", msg);
                CHECK(memcmp(dt.side, s.side, sizeof s.side) == 0 && dt.discard == s.discard, "determinize moved public cards");
                for (int q = 0; q < 3; ++q)
                    CHECK(rules->card[dt.river[q]].modifier == rules->card[s.river[q]].modifier, "river modifier changed");
                CHECK(g->infostate_key(r, &dt, cur) == g->infostate_key(r, &s, cur), "determinize changed the view");
                if (same_view_same_worlds(g, &s, cur, rng_draw(&rng))) return 1;
                int ne2 = g->encode(r, &dt, e2, SR_MAX_ENCODED);
                CHECK(g->decode(r, e2, ne2, &dt, msg, sizeof msg) == SR_OK, "determinized state refused: %s", msg);
                /* the policy: indices in range */
                uint64_t pr = rng_draw(&rng);
                int gi = cv_policy.greedy_index(r, &s, buf, k, &pr);
                int hi = cv_policy.heuristic_action(r, &s, buf, k, &pr);
                CHECK(gi >= 0 && gi < k && hi >= 0 && hi < k, "policy index out of range");
            }
            {   /* an illegal id is refused and leaves the state untouched */
                int bad = (int)rng_below(&rng, (uint32_t)g->info.num_distinct_actions), legal = 0;
                for (int j = 0; j < k; ++j) legal |= buf[j] == bad;
                if (!legal) {
                    cv_state before = s;
                    CHECK(cv_apply_checked(rules, &s, bad) == -1, "illegal id %d accepted", bad);
                    CHECK(memcmp(&before, &s, sizeof s) == 0, "refused apply changed the state");
                }
            }
            int a = buf[rng_below(&rng, (uint32_t)k)];
            g->apply(r, &s, a);
            ne = g->encode(r, &s, e, SR_MAX_ENCODED);
            if ((actions & 3) == 0) {   /* the decoded state plays on alike */
                g->apply(r, &d, a);
                CHECK(encodings_equal(e, ne, e2, g->encode(r, &d, e2, SR_MAX_ENCODED)), "game %ld: the decoded state played differently", i);
            }
            ++actions;
            CHECK(++steps <= g->info.max_game_length, "game %ld: longer than max_game_length", i);
        }
        if (s.winner == CV_NONE) ++draws;
    }
    printf("%ld games, %ld actions, %ld draws, %ld mutated encodings refused, %ld accepted, %ld closure games: 1 passed, 0 failed\n",
           games, actions, draws, decoded_bad, decoded_ok, closure_games);
    tl_free(&loaded);
    return 0;
}
