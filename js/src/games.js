// What python/tabuleiro/<game>.py adds to the C core, for the protocol only:
// the state dict <-> C encoding mapping (RULES.md part 4), a seat's view,
// a state from a view, notation reading, and what a seat sees of a move
// (events). The minimal copy the protocol needs: the rules stay in C (the
// decoder checks every loaded state) and tests/test_wasm_differential.py
// compares every dict, view and answer with the Python engine's.
import { has, isInt, isObject, short } from "./json.js";

export class InvalidState extends Error {}
export class InvalidMove extends Error {}
export class IllegalMove extends Error {}

const U64 = 1n << 64n;

/** _fields.Fields: shape and type checks of one game's dicts. */
class Fields {
  constructor(title) { this.title = title; }
  bad(msg) { return new InvalidState(`invalid ${this.title} state: ${msg}`); }
  get(d, key) { if (!has(d, key)) throw this.bad(`missing key ${short(key)}`); return d[key]; }
  game(d, name) { const g = this.get(d, "game"); if (g !== name) throw this.bad(`game must be ${short(name)}, not ${short(g)}`); }
  int(v, what, nullable = false) {
    if (v === null && nullable) return -1;
    if (!isInt(v)) throw this.bad(`${what} must be an integer${nullable ? " or null" : ""}, not ${short(v)}`);
    if (!(v >= -(2 ** 31) && v < 2 ** 31)) throw this.bad(`${what} is out of range`);
    return Number(v);
  }
  bool(v, what) { if (typeof v !== "boolean") throw this.bad(`${what} must be true or false, not ${short(v)}`); return v; }
  list(v, what, length) {
    if (!Array.isArray(v)) throw this.bad(`${what} must be a list, not ${pyType(v)}`);
    if (length !== undefined && v.length !== length) throw this.bad(`${what} must have ${length} entries, not ${v.length}`);
    return v;
  }
  seed(v) {
    if (!isInt(v) || BigInt(v) < 0n || BigInt(v) >= U64) throw this.bad("seed must be an integer in [0, 2**64)");
    return BigInt.asIntN(64, BigInt(v));
  }
  card(name, where, byName) {
    if (typeof name !== "string") throw this.bad(`${where}: a card is a name string, not ${short(name)}`);
    if (!byName.has(name)) throw this.bad(`${where}: unknown card ${short(name)}`);
    return byName.get(name);
  }
  ids(names, where, indexOf, isSet = false) {
    const ids = this.list(names, where).map((x) => indexOf(x, where));
    return [ids.length, ...(isSet ? [...ids].sort((a, b) => a - b) : ids)];
  }
}

export function pyType(v) {
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "str";
  if (isInt(v)) return "int";
  if (Array.isArray(v)) return "list";
  if (isObject(v)) return "dict";
  return "float";
}

const unsigned = (x) => BigInt.asUintN(64, BigInt(x));
const num = (x) => Number(x);
const opt = (x) => (x < 0 ? null : x);
const deep = (v) => JSON.parse(JSON.stringify(v, (k, x) => (typeof x === "bigint" ? x.toString() : x)));
const csvRows = (text) => {
  const lines = text.split(/\r?\n/).filter((l) => l.length);
  const head = lines[0].split(",");
  return lines.slice(1).map((l) => { const c = l.split(","); return Object.fromEntries(head.map((h, i) => [h, c[i] ?? ""])); });
};
const sortedStrings = (xs) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The default event text of a move: a player sees only their own moves. */
function publicMove(state, move, player) { return [move, `P${state.to_move}: ${move}`]; }

// --- Capivárias ------------------------------------------------------------------------------------------

function capivarias(spec) {
  const cards = csvRows(spec.data[0]).map((r, i) => ({ index: i, name: r.name, kind: r.kind, herd: r.herd || null,
    modifier: Number(r.river_modifier), expansion: r.expansion === "1" }));
  const byName = new Map(cards.map((c) => [c.name, c.index]));
  const C = cards.length;
  const F = new Fields("Capivárias");
  const card = (x, where) => F.card(x, where, byName);
  const name = (i) => cards[Number(i)].name;
  const enc = (c, seg, t) => ((c * 4) + seg) * (C + 1) + t;
  const cardIndex = (nm, text) => { if (!byName.has(nm)) throw new InvalidMove(`unknown card ${short(nm)} in move ${short(text)}`); return byName.get(nm); };
  return {
    name: "capivarias", title: "Capivárias", paramTypes: { expansion: "bool", first_player: "int" },
    paramsFromDict(d) { return { expansion: F.bool(F.get(d, "expansion"), "expansion") }; },
    toDict(f) {
      let i = 8;
      const segments = [];
      for (let s = 0; s < 3; s++) {
        const river = f[i], cap = f[i + 1];
        i += 2;
        const sides = [];
        for (let k = 0; k < 2; k++) { const n = num(f[i]); sides.push(f.slice(i + 1, i + 1 + n).map(name)); i += 1 + n; }
        segments.push({ river: name(river), capionca: cap < 0n ? null : name(cap), sides });
      }
      const lists = [];
      for (let k = 0; k < 3; k++) { const n = num(f[i]); lists.push(f.slice(i + 1, i + 1 + n).map(name)); i += 1 + n; }
      return { game: "capivarias", expansion: f[0] !== 0n, round: num(f[1]), round_wins: [num(f[2]), num(f[3])],
        to_move: opt(num(f[4])), last_taker: opt(num(f[5])), winner: opt(num(f[6])), seed: unsigned(f[7]),
        segments, available: lists[0], pile: lists[1], discard: lists[2] };
    },
    fromDict(d, params) {
      F.game(d, "capivarias");
      const expansion = F.bool(F.get(d, "expansion"), "expansion");
      if (expansion !== params.expansion) throw F.bad(`this game is played ${params.expansion ? "with" : "without"} the expansion`);
      const wins = F.list(F.get(d, "round_wins"), "round_wins", 2);
      const out = [expansion ? 1 : 0, F.int(F.get(d, "round"), "round"), F.int(wins[0], "round_wins[0]"),
        F.int(wins[1], "round_wins[1]"), F.int(F.get(d, "to_move"), "to_move", true),
        F.int(F.get(d, "last_taker"), "last_taker", true), F.int(F.get(d, "winner"), "winner", true), F.seed(F.get(d, "seed"))];
      F.list(F.get(d, "segments"), "segments", 3).forEach((seg, i) => {
        if (!isObject(seg)) throw F.bad(`segment ${i} must be a dict`);
        const cap = F.get(seg, "capionca");
        out.push(card(F.get(seg, "river"), `segment ${i} river`), cap === null ? -1 : card(cap, `segment ${i} capionca`));
        F.list(F.get(seg, "sides"), `segment ${i} sides`, 2).forEach((side, k) => out.push(...F.ids(side, `segment ${i} side ${k}`, card, true)));
      });
      out.push(...F.ids(F.get(d, "available"), "available", card));
      out.push(...F.ids(F.get(d, "pile"), "pile", card));
      out.push(...F.ids(F.get(d, "discard"), "discard", card, true));
      return out;
    },
    view(d) {
      delete d.seed;
      for (const seg of d.segments) seg.river = { modifier: cards[byName.get(seg.river)].modifier };
      const pile = d.pile;
      d.pile = { count: pile.length, top_modifier: pile.length ? cards[byName.get(pile[0])].modifier : null };
      return d;
    },
    dictFromView(view) {
      F.game(view, "capivarias");
      const d = { ...view };
      const segments = F.list(F.get(d, "segments"), "segments", 3).map((s) => (isObject(s) ? { ...s } : s));
      const pile = F.get(d, "pile");
      if (!isObject(pile)) throw F.bad("a view's pile is {'count': n, 'top_modifier': m}");
      const count = F.int(F.get(pile, "count"), "pile count");
      const top = F.get(pile, "top_modifier");
      const seen = new Set();
      for (const seg of segments) {
        if (!isObject(seg)) throw F.bad("segment must be a dict");
        if (!isObject(F.get(seg, "river"))) throw F.bad("a view's river card is {'modifier': m}");
        if (typeof seg.capionca === "string") seen.add(seg.capionca);
        for (const side of F.list(F.get(seg, "sides"), "sides", 2)) for (const x of F.list(side, "side")) if (typeof x === "string") seen.add(x);
      }
      for (const key of ["available", "discard"]) for (const x of F.list(F.get(d, key), key)) if (typeof x === "string") seen.add(x);
      const expansion = F.bool(F.get(d, "expansion"), "expansion");
      const unseen = cards.filter((c) => (expansion || !c.expansion) && !seen.has(c.name));
      const wants = segments.map((seg) => F.int(F.get(seg.river, "modifier"), "river modifier"));
      if (count) wants.push(F.int(top, "pile top_modifier"));
      const pick = match(wants, unseen);
      if (pick === null || unseen.length !== 3 + count) throw F.bad("the view's river and pile do not fit the cards it does not show");
      segments.forEach((seg, i) => { seg.river = pick[i].name; });
      const rest = unseen.filter((c) => !pick.includes(c)).map((c) => c.name);
      d.segments = segments;
      d.pile = (count ? [pick[3].name] : []).concat(rest);
      d.seed = 0;
      return d;
    },
    parse(text, legal) {
      const t = text.trim();
      if (t.startsWith("discard ")) return enc(cardIndex(t.slice(8).trim(), text), 3, C);
      const [head, slash, target] = partition(t, "/");
      const [nm, at, segText] = partition(head, "@");
      const c = cardIndex(nm, text);
      const tgt = slash ? cardIndex(target, text) : C;
      if (at) {
        if (!["0", "1", "2"].includes(segText)) throw new InvalidMove(`segment in ${short(text)} must be 0, 1 or 2`);
        return enc(c, Number(segText), tgt);
      }
      if (slash) return enc(c, 3, tgt);
      if (cards[c].kind === "capiolin") {
        for (const a of legal()) {
          const ac = Math.floor(Math.floor(a / (C + 1)) / 4), seg = Math.floor(a / (C + 1)) % 4, t2 = a % (C + 1);
          if (ac === c && !(seg === 3 && t2 === C)) return a;
        }
        throw new IllegalMove(`illegal move ${short(text)}: ${nm} cannot be played now`);
      }
      return enc(c, 0, C);
    },
    seenMove: publicMove,
    aftermath(b, a, over) {
      if (a.round === b.round && a.winner === null && a.round_wins[0] === b.round_wins[0] && a.round_wins[1] === b.round_wins[1]) return [];
      const won = [0, 1].filter((p) => a.round_wins[p] > b.round_wins[p]);
      const who = won.map((p) => `P${p}`).join(" and ") || "nobody";
      const out = [{ kind: "round_end", round: b.round, winners: won, round_wins: [...a.round_wins],
        text: `round ${b.round} ends: ${who} ${won.length > 1 ? "win" : "wins"} it (round wins ${a.round_wins[0]}-${a.round_wins[1]})` }];
      if (!over) out.push({ kind: "round", round: a.round, text: `round ${a.round} begins` });
      return out;
    },
  };
}

function partition(s, sep) { const i = s.indexOf(sep); return i < 0 ? [s, "", ""] : [s.slice(0, i), sep, s.slice(i + sep.length)]; }

function match(wants, cards) {
  const go = (i, used) => {
    if (i === wants.length) return used;
    for (const c of cards) {
      if (c.modifier === wants[i] && !used.includes(c)) { const got = go(i + 1, [...used, c]); if (got) return got; }
    }
    return null;
  };
  return go(0, []);
}

// --- Capulana --------------------------------------------------------------------------------------------

const PHASES = ["offer", "weave", "over"];
const PLACEMENTS = ["+", ">1", ">2", ">3", "<1", "<2", "<3"];
const ORIENTATIONS = ["n", "r"];

function capulana(spec) {
  const cards = csvRows(spec.data[0]).map((r, i) => ({ index: i, name: r.id, kind: r.kind, stripe: r.stripe }));
  const objectives = csvRows(spec.data[1]).map((r, i) => ({ index: i, name: r.id }));
  const byName = new Map(cards.map((c) => [c.name, c.index]));
  const objByName = new Map(objectives.map((o) => [o.name, o.index]));
  const F = new Fields("Capulana");
  const card = (x, where) => F.card(x, where, byName);
  const names = (ids) => ids.map((i) => cards[Number(i)].name);
  const offer = (o, where) => {
    if (!isObject(o)) throw F.bad(`${where} must be a dict with player, slot, cards`);
    return [F.int(F.get(o, "player"), `${where} player`), F.int(F.get(o, "slot"), `${where} slot`), ...F.ids(F.get(o, "cards"), where, card, true)];
  };
  const fabric = (nm, text) => {
    if (!byName.has(nm) || cards[byName.get(nm)].kind !== "fabric") throw new InvalidMove(`unknown fabric card ${short(nm)} in move ${short(text)}`);
    return byName.get(nm);
  };
  const nj = (xs) => xs.join(" ") || "nothing";
  return {
    name: "capulana", title: "Capulana", paramTypes: { players: "int", legacy_determinize: "bool" },
    paramsFromDict(d) {
      const n = F.get(d, "players");
      if (!isInt(n) || n < 2 || n > 5) throw F.bad(`players must be an integer in [2, 5], not ${short(n)}`);
      return { players: Number(n) };
    },
    determinizeIsExact: (params) => !params.legacy_determinize,
    toDict(f) {
      const n = num(f[0]);
      let i = 6;
      const take = () => { const k = num(f[i]); const out = f.slice(i + 1, i + 1 + k); i += 1 + k; return out; };
      const off = () => { const player = num(f[i]), slot = num(f[i + 1]); i += 2; return { player, slot, cards: names(take()) }; };
      const objs = take().map((o) => objectives[Number(o)].name);
      const deck = names(take());
      const slots = names(take());
      const nOffers = num(f[i++]);
      const offers = [];
      for (let k = 0; k < nOffers; k++) offers.push(off());
      const hasOpen = num(f[i++]);
      const open = hasOpen ? off() : null;
      const hands = [];
      for (let q = 0; q < n; q++) hands.push(names(take()));
      const rows = [];
      for (let q = 0; q < n; q++) {
        const k = num(f[i]);
        const row = [];
        for (let j = 0; j < k; j++) {
          const c = num(f[i + 1 + 2 * j]), pl = num(f[i + 2 + 2 * j]);
          row.push(`${cards[c].name} ${ORIENTATIONS[Math.floor(pl / 7)]}${PLACEMENTS[pl % 7]}`);
        }
        rows.push(row);
        i += 1 + 2 * k;
      }
      const woven = f.slice(i, i + n).map(num);
      const done = f.slice(i + n, i + 2 * n).map((x) => x !== 0n);
      i += 2 * n;
      const k = num(f[i]);
      const known = {};
      for (let j = 0; j < k; j++) known[cards[num(f[i + 1 + 2 * j])].name] = num(f[i + 2 + 2 * j]);
      const to = num(f[4]);
      return { game: "capulana", players: n, round: num(f[1]), start_player: num(f[2]), phase: PHASES[num(f[3])],
        to_move: to < 0 ? null : to, seed: unsigned(f[5]), objectives: objs, deck, slots, offers, open_offer: open,
        hands, capulanas: rows, woven, weave_done: done, known };
    },
    fromDict(d, params) {
      F.game(d, "capulana");
      const n = F.int(F.get(d, "players"), "players");
      if (n !== params.players) throw F.bad(`players must be ${params.players} in this game, not ${n}`);
      const phase = F.get(d, "phase");
      if (!PHASES.includes(phase)) throw F.bad(`phase must be 'offer', 'weave' or 'over', not ${short(phase)}`);
      const out = [n, F.int(F.get(d, "round"), "round"), F.int(F.get(d, "start_player"), "start_player"),
        PHASES.indexOf(phase), F.int(F.get(d, "to_move"), "to_move", true), F.seed(F.get(d, "seed"))];
      const objIds = F.list(F.get(d, "objectives"), "objectives").map((o) => {
        if (typeof o !== "string" || !objByName.has(o)) throw F.bad(`objectives: unknown objective ${short(o)}`);
        return objByName.get(o);
      });
      out.push(objIds.length, ...objIds.sort((a, b) => a - b));
      out.push(...F.ids(F.get(d, "deck"), "deck", card));
      out.push(...F.ids(F.get(d, "slots"), "slots", card));
      const offers = F.list(F.get(d, "offers"), "offers");
      out.push(offers.length);
      offers.forEach((o, k) => out.push(...offer(o, `offer ${k}`)));
      const open = F.get(d, "open_offer");
      if (open === null) out.push(0); else out.push(1, ...offer(open, "open_offer"));
      F.list(F.get(d, "hands"), "hands", n).forEach((h, q) => out.push(...F.ids(h, `hand of player ${q}`, card, true)));
      F.list(F.get(d, "capulanas"), "capulanas", n).forEach((row, q) => {
        const where = `capulana of player ${q}`;
        out.push(F.list(row, where).length);
        for (const e of row) {
          const parts = typeof e === "string" ? e.split(/\s+/).filter(Boolean) : [];
          if (parts.length !== 2 || parts[1].length < 2 || !ORIENTATIONS.includes(parts[1][0]) || !PLACEMENTS.includes(parts[1].slice(1))) {
            throw F.bad(`${where}: entry ${short(e)} is not 'CARD orientation+placement' like 'F30 r>1'`);
          }
          out.push(card(parts[0], where), 7 * ORIENTATIONS.indexOf(parts[1][0]) + PLACEMENTS.indexOf(parts[1].slice(1)));
        }
      });
      F.list(F.get(d, "woven"), "woven", n).forEach((w, q) => out.push(F.int(w, `woven[${q}]`)));
      F.list(F.get(d, "weave_done"), "weave_done", n).forEach((x, q) => {
        if (typeof x !== "boolean") throw F.bad(`weave_done[${q}] must be true or false, not ${short(x)}`);
        out.push(x ? 1 : 0);
      });
      const known = F.get(d, "known");
      if (!isObject(known)) throw F.bad(`known must be a dict of card: player, not ${pyType(known)}`);
      const pairs = Object.keys(known).map((c) => [card(c, "known"), F.int(known[c], `known[${c}]`)]);
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      out.push(pairs.length);
      for (const [c, q] of pairs) out.push(c, q);
      return out;
    },
    view(d, player) {
      delete d.seed;
      const n = d.players;
      const holders = {};
      for (const c of Object.keys(d.known)) (holders[d.known[c]] ||= []).push(c);
      for (let q = 0; q < n; q++) {
        if (q === player) continue;
        const w = d.woven[q];
        d.hands[q] = { count: d.hands[q].length + w, known: sortedStrings(holders[q] || []) };
        if (w) d.capulanas[q] = d.capulanas[q].slice(0, -w);
        d.woven[q] = 0;
      }
      for (const o of d.offers.concat(d.open_offer ? [d.open_offer] : [])) if (o.player !== player) o.cards = { count: o.cards.length };
      d.deck = { count: d.deck.length };
      return d;
    },
    dictFromView(view, player, numPlayers) {
      F.game(view, "capulana");
      const d = deep(view);
      const n = numPlayers;
      const hands = F.list(F.get(d, "hands"), "hands", n);
      const rows = F.list(F.get(d, "capulanas"), "capulanas", n);
      const known = F.get(d, "known");
      if (!isObject(known)) throw F.bad("known must be a dict of card: player");
      const offers = F.list(F.get(d, "offers"), "offers").concat(d.open_offer ? [d.open_offer] : []);
      if (isObject(hands[player])) throw F.bad(`the view shows player ${player}'s hand as a count: it is another seat's view, not player ${player}'s`);
      const seen = new Set(Object.keys(known));
      for (const x of F.list(F.get(d, "slots"), "slots")) if (typeof x === "string") seen.add(x);
      for (const x of F.list(hands[player], `hand of player ${player}`)) if (typeof x === "string") seen.add(x);
      for (const row of rows) for (const e of F.list(row, "capulana")) if (typeof e === "string" && e.trim()) seen.add(e.trim().split(/\s+/)[0]);
      for (const o of offers) {
        if (!isObject(o) || !(Array.isArray(o.cards) || isObject(o.cards))) throw F.bad("an offer is a dict with player, slot, cards");
        if (Array.isArray(o.cards)) for (const x of o.cards) if (typeof x === "string") seen.add(x);
      }
      const fab = cards.filter((c) => c.kind === "fabric");
      const pool = fab.filter((c) => c.stripe === "black").concat(fab.filter((c) => c.stripe !== "black")).map((c) => c.name).filter((x) => !seen.has(x));
      for (let q = 0; q < n; q++) {
        if (q === player) continue;
        const h = hands[q];
        if (!isObject(h)) throw F.bad(`a view shows player ${q}'s hand as {'count': n}`);
        const mine = sortedStrings(Object.keys(known).filter((c) => known[c] === q));
        const count = F.int(F.get(h, "count"), `hand count of player ${q}`);
        const hidden = offers.filter((o) => o.player === q && isObject(o.cards));
        const hand = mine.slice(0, count);
        let spill = mine.slice(count);
        for (const o of hidden) {
          const k = F.int(F.get(o.cards, "count"), "offer count");
          const take = spill.slice(0, k);
          spill = spill.slice(k);
          while (take.length < k && pool.length) take.push(pool.shift());
          o.cards = sortedStrings(take);
        }
        if (spill.length) throw F.bad(`player ${q} has more known cards than their hand and offers hold`);
        while (hand.length < count && pool.length) hand.push(pool.shift());
        hands[q] = sortedStrings(hand);
      }
      if (!isObject(F.get(d, "deck"))) throw F.bad("a view shows the deck as {'count': n}");
      d.deck = pool;
      d.seed = 0;
      return d;
    },
    parse(text) {
      const parts = text.split(/\s+/).filter(Boolean);
      if (parts.length === 1 && parts[0] === "done") return 61;
      if (parts.length === 1 && parts[0] === "stop") return 62;
      if (parts.length === 2 && parts[0] === "bid") {
        if (["0", "1", "2", "3", "4"].includes(parts[1])) return Number(parts[1]);
        throw new InvalidMove(`slot in ${short(text)} must be 0..4`);
      }
      if (parts.length === 2 && parts[0] === "offer") return 5 + fabric(parts[1], text);
      if (parts.length === 2) {
        const c = fabric(parts[0], text);
        const p = parts[1];
        if (p.length < 2 || !ORIENTATIONS.includes(p[0]) || !PLACEMENTS.includes(p.slice(1))) {
          throw new InvalidMove(`placement in ${short(text)} must be n or r followed by + >1 >2 >3 <1 <2 <3`);
        }
        return 63 + 14 * c + 7 * ORIENTATIONS.indexOf(p[0]) + PLACEMENTS.indexOf(p.slice(1));
      }
      throw new InvalidMove(`not a Capulana move: ${short(text)}`);
    },
    seenMove(d, move, player, action) {
      const q = d.to_move;
      if (action < 5) return [move, `P${q} bids on slot ${action} (${d.slots[action]})`];
      if (action === 61) { const o = d.open_offer; const k = o.cards.length; return [move, `P${q} closes an offer of ${k} card${k !== 1 ? "s" : ""} on slot ${o.slot}`]; }
      if (q === player) return [move, `P${q}: ${move}`];
      if (action < 61) return [null, `P${q} adds a card to the offer on slot ${d.open_offer.slot}, face down`];
      return [null, `P${q} weaves (shown when the step ends)`];
    },
    aftermath(b, a, over) {
      const out = [];
      if (b.phase === "offer" && a.phase !== "offer") {
        const offers = b.offers.concat([b.open_offer]);
        b.slots.forEach((c, k) => {
          const pair = offers.filter((o) => o.slot === k);
          const winner = a.known[c];
          const won = pair.find((o) => o.player === winner);
          const lost = pair.find((o) => o !== won);
          out.push({ kind: "auction", slot: k, card: c, winner, loser: lost.player,
            revealed: { offers: pair.map((o) => ({ player: o.player, cards: [...o.cards] })) },
            text: `slot ${k} (${c}): P${winner} (${nj(won.cards)}) beats P${lost.player} (${nj(lost.cards)}); P${winner} takes ${c}`
              + (lost.cards.length ? ` and ${nj(lost.cards)}` : "") + (won.cards.length ? `, P${lost.player} takes ${nj(won.cards)}` : "") });
        });
      }
      if (b.phase === "weave" && a.phase !== "weave") {
        for (let q = 0; q < b.players; q++) {
          const start = b.capulanas[q].length - b.woven[q];
          const woven = a.capulanas[q].slice(start);
          out.push({ kind: "woven", player: q, cards: woven, text: `P${q} wove ${woven.join(", ") || "nothing"}` });
        }
      }
      if (a.round > b.round && !over) out.push({ kind: "round", round: a.round, slots: [...a.slots], text: `round ${a.round} begins: slots ${a.slots.join(" ")}` });
      return out;
    },
  };
}

// --- Toy -------------------------------------------------------------------------------------------------

function toy() {
  const F = new Fields("Toy");
  const card = (c, where) => {
    if (!isInt(c) || c < 1 || c > 6) throw F.bad(`${where}: unknown card ${short(c)} (cards are 1..6)`);
    return Number(c) - 1;
  };
  return {
    name: "toy", title: "Toy", paramTypes: {},
    paramsFromDict() { return {}; },
    toDict(f) {
      const lists = [];
      let i = 2;
      for (let k = 0; k < 5; k++) { const n = num(f[i]); lists.push(f.slice(i + 1, i + 1 + n).map((c) => num(c) + 1)); i += 1 + n; }
      return { game: "toy", to_move: f[0] < 0n ? null : num(f[0]), seed: unsigned(f[1]), hands: [lists[0], lists[1]], stock: lists[2], piles: [lists[3], lists[4]] };
    },
    fromDict(d) {
      F.game(d, "toy");
      const out = [F.int(F.get(d, "to_move"), "to_move", true), F.seed(F.get(d, "seed"))];
      const hands = F.list(F.get(d, "hands"), "hands", 2);
      const piles = F.list(F.get(d, "piles"), "piles", 2);
      for (const [cs, where, isSet] of [[hands[0], "hands[0]", true], [hands[1], "hands[1]", true], [F.get(d, "stock"), "stock", true],
        [piles[0], "piles[0]", false], [piles[1], "piles[1]", false]]) out.push(...F.ids(cs, where, card, isSet));
      return out;
    },
    view(d, player) {
      delete d.seed;
      d.hands[1 - player] = { count: d.hands[1 - player].length };
      d.stock = { count: d.stock.length };
      return d;
    },
    dictFromView(view, player) {
      F.game(view, "toy");
      const d = { ...view };
      const hands = [...F.list(F.get(d, "hands"), "hands", 2)];
      if (isObject(hands[player])) throw F.bad(`the view shows player ${player}'s hand as a count: it is another seat's view, not player ${player}'s`);
      const other = hands[1 - player];
      const stock = F.get(d, "stock");
      if (!isObject(other) || !isObject(stock)) throw F.bad("a view shows the other hand and the stock as {'count': n}");
      const seen = new Set(F.list(hands[player], "hand").filter(isInt).map(Number));
      for (const pile of F.list(F.get(d, "piles"), "piles", 2)) for (const x of F.list(pile, "pile")) if (isInt(x)) seen.add(Number(x));
      const unseen = [1, 2, 3, 4, 5, 6].filter((c) => !seen.has(c));
      const k = F.int(F.get(other, "count"), "hand count");
      if (!(k >= 0 && k <= unseen.length)) throw F.bad("the view's hand count does not fit the cards it does not show");
      hands[1 - player] = unseen.slice(0, k);
      d.hands = hands;
      d.stock = unseen.slice(k);
      d.seed = 0;
      return d;
    },
    parse(text) {
      const parts = text.split(/\s+/).filter(Boolean);
      if (parts.length === 2 && parts[0] === "play" && ["1", "2", "3", "4", "5", "6"].includes(parts[1])) return Number(parts[1]) - 1;
      throw new InvalidMove(`a Toy move is 'play N' with N in 1..6, not ${short(text)}`);
    },
    seenMove: publicMove,
    aftermath() { return []; },
  };
}

const MAKERS = { capivarias, capulana, toy };

/** The adapter of a registered game (null for a game this file does not know). */
export function adapter(spec) { const make = MAKERS[spec.name]; return make ? make(spec) : null; }
