// The engine protocol of docs/protocol.md over the WebAssembly core: a thin
// mirror of python/tabuleiro/engine.py (the same commands, answers, error
// codes, messages and seat secrecy). Rules, search and perft run in C.
import { JFloat, JsonError, MAX_DEPTH, cut, pyRepr, encodeAnswer, has, isInt, isObject, parseStrict, pyDumps, pyType, round4, wellFormed } from "./json.js";
import { AgentTypeError, AgentValueError, KINDS, LEVELS, NAMES, accepted, make, mix, pyChoice } from "./agents.js";
import { SR } from "./core.js";

export const PROTOCOL_VERSION = 2;
export const VERSION = "0.1.0";
export const MAX_LINE = 1 << 20;
export const UNDO_WORLDS = 256;
export const ERROR_CODES = ["bad_json", "bad_request", "unknown_command", "no_game", "invalid_move", "illegal_move",
  "invalid_state", "game_over", "busy", "not_your_seat", "forbidden", "line_too_long", "internal"];
const AGENT_PARAMS = ["iterations", "time", "c", "rollout", "threads", "seed", "max_nodes", "shaped", "prior", "horizon",
  "control_variates"];
const BUSY = new Set(["new", "load", "play", "undo", "go", "perft"]);
const MISSING = Symbol("missing");

class ProtocolError extends Error { constructor(code, message) { super(message); this.code = code; } }
// The Python package's exceptions, with the messages C wrote (csrc/state_json.h)
export class InvalidState extends Error {}
export class InvalidMove extends Error {}
export class IllegalMove extends Error {}
const bad = (m) => new ProtocolError("bad_request", m);
const dumps = (v) => cut(pyDumps(v), 60);

function intField(req, name, lo, hi, dflt = MISSING) {
  const v = has(req, name) ? req[name] : MISSING;
  if (v === MISSING || (v === null && dflt !== MISSING)) {
    if (dflt === MISSING) throw bad(`missing field '${name}' (an integer in [${lo}, ${hi}])`);
    return dflt;
  }
  if (!isInt(v) || !(v >= lo && v <= hi)) throw bad(`field '${name}' must be an integer in [${lo}, ${hi}], not ${dumps(v)}`);
  return Number(v);
}
function boolField(req, name, dflt) {
  const v = has(req, name) ? req[name] : dflt;
  if (typeof v !== "boolean") throw bad(`field '${name}' must be true or false, not ${dumps(v)}`);
  return v;
}
function strField(req, name, dflt = MISSING) {
  const v = has(req, name) ? req[name] : MISSING;
  if (v === MISSING) { if (dflt === MISSING) throw bad(`missing field '${name}' (a string)`); return dflt; }
  if (typeof v !== "string") throw bad(`field '${name}' must be a string, not ${dumps(v)}`);
  return v;
}
function seedValue(v, name) {
  if (typeof v === "string") {
    if (!(v.length > 0 && v.length <= 20 && /^[0-9]+$/.test(v) && (v === "0" || v[0] !== "0"))) {
      throw bad(`field '${name}' must be an integer in [0, 2^64) or its decimal string, not ${dumps(v)}`);
    }
    v = BigInt(v);
  } else if (!isInt(v)) {
    throw bad(`field '${name}' must be an integer in [0, 2^64) or its decimal string, not ${dumps(v)}`);
  }
  if (!(BigInt(v) >= 0n && BigInt(v) < 1n << 64n)) throw bad(`field '${name}' must be in [0, 2^64), not ${dumps(v)}`);
  return BigInt(v);
}
const seedField = (req, name = "seed") => (req[name] === undefined || req[name] === null ? null : seedValue(req[name], name));
const echoable = (v) => v === null || typeof v === "boolean" || isInt(v) || v instanceof JFloat || (typeof v === "string" && wellFormed(v));

function unicodeProblem(req) {
  for (const key of Object.keys(req)) {
    if (!wellFormed(key)) return "a field name is not valid Unicode (it holds a lone surrogate escape such as \\ud800)";
    const stack = [req[key]];
    while (stack.length) {
      const x = stack.pop();
      const badStr = (typeof x === "string" && !wellFormed(x)) || (isObject(x) && !Object.keys(x).every(wellFormed));
      if (badStr) return `field '${key}' holds a string that is not valid Unicode (a lone surrogate escape such as \\ud800): strings must encode as UTF-8`;
      if (isObject(x)) stack.push(...Object.values(x)); else if (Array.isArray(x)) stack.push(...x);
    }
  }
  return null;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a === "bigint" || typeof b === "bigint") return (typeof a === "bigint" || typeof a === "number") && (typeof b === "bigint" || typeof b === "number") && BigInt(a) === BigInt(b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => has(b, k) && deepEqual(a[k], b[k]));
}
/** A game's parameter types from the registry: {name: "bool" | "int"}, in its order. */
const paramTypes = (spec) => Object.fromEntries(spec.params.map((p) => [p.name, p.bool ? "bool" : "int"]));

/** A JSON value with plain prototypes and JFloat as numbers (for view comparisons). */
const plain = (v) => JSON.parse(JSON.stringify(v, (k, x) => (typeof x === "bigint" ? x.toString() : x)));

/** A loaded game: the C instance and its parameters (everything the game
 * itself knows, its dicts, views, notation and events, is C's). */
class Game {
  constructor(core, name, params) {
    this.spec = core.spec(name);
    this.params = params;
    this.core = core.game(name, this.spec.params.map((p) => Number(params[p.name])));
    this.name = name;
    this.title = this.spec.title;
    this.numPlayers = this.core.numPlayers;
  }
  info() {
    const c = this.core;
    return { name: this.name, num_players: c.numPlayers, num_distinct_actions: c.numActions, min_utility: c.minUtility,
      max_utility: c.maxUtility, max_game_length: c.maxLength, hidden_information: c.hidden, observation_size: c.observationSize,
      utility_sum: c.constantSum ? c.utilitySum : null };
  }
  get determinizeIsExact() { return this.core.exactDeterminize; }
}

/** A position with its move stack (python-chess's push/pop), over byte snapshots. */
class State {
  constructor(game, bytes) { this.game = game; this.bytes = bytes; this.stack = []; }
  clone() { const s = new State(this.game, this.bytes); s.stack = [...this.stack]; return s; }
  get currentPlayer() { return this.game.core.currentPlayer(this.bytes); }
  get isTerminal() { return this.currentPlayer === null; }
  legal() { return this.game.core.legal(this.bytes); }
  notation(a) { return this.game.core.notation[a]; }
  push(a) {
    const next = this.game.core.apply(this.bytes, a);
    if (typeof next === "number") return false;
    this.stack.push([a, this.bytes]);
    this.bytes = next;
    return true;
  }
  pop() { const [a, bytes] = this.stack.pop(); this.bytes = bytes; return a; }
  history() { return this.stack.map((x) => x[0]); }
  toDict() { return parseStrict(this.game.core.toJson(this.bytes)); }
  view(p) { return parseStrict(this.game.core.toJson(this.bytes, p)); }
  outcome() {
    if (!this.isTerminal) return null;
    const r = this.game.core.returns(this.bytes);
    const top = Math.max(...r);
    const winners = Math.min(...r) === top ? [] : r.map((x, p) => [x, p]).filter(([x]) => x === top).map(([, p]) => p);
    return { winners, winner: winners.length === 1 ? winners[0] : null, returns: r, scores: this.game.core.scores(this.bytes) };
  }
  determinize(p, seed) { return new State(this.game, this.game.core.determinize(this.bytes, p, seed)); }
  /** A move of this state: an id or notation; throws InvalidMove / IllegalMove. */
  parseMove(mv) {
    let a;
    if (typeof mv === "string") {
      const r = this.game.core.parseAction(this.bytes, mv);
      if (r.code === SR.ILLEGAL) throw new IllegalMove(r.message);
      if (r.code !== undefined) throw new InvalidMove(r.message);
      a = r.action;
    } else a = Number(mv);
    if (typeof mv !== "string" && !(a >= 0 && a < this.game.core.numActions)) {
      throw new InvalidMove(`action id ${mv} is not an integer in [0, ${this.game.core.numActions})`);
    }
    if (!this.legal().includes(a)) {
      const p = this.currentPlayer;
      const why = p === null ? "the game is over" : `it is not one of player ${p}'s legal moves now`;
      throw new IllegalMove(`illegal move ${pyReprStr(this.notation(a))} (id ${a}): ${why}`);
    }
    return a;
  }
}
const pyReprStr = (s) => (s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s}'`);

/** Load a state dict (Game.from_dict): read and checked in C (csrc/state_json.h). */
function fromDict(game, d) {
  const r = game.core.fromJson(pyDumps(d));
  if (r.error !== undefined) throw new InvalidState(r.error);
  return new State(game, r.bytes);
}
/** Game.from_view: a state whose view(player) is view (built and checked in C). */
function fromView(game, view, player) {
  const r = game.core.fromJson(pyDumps(view), player);
  if (r.error !== undefined) throw new InvalidState(r.error);
  return new State(game, r.bytes);
}

export class Engine {
  /** @param {import("./core.js").Core} core @param {{onAnswer?: (a: object) => void}} [options] */
  constructor(core, { onAnswer = null } = {}) {
    this.core = core;
    this.onAnswer = onAnswer;
    this.state = null;
    this.seat = null;
    this.job = null;
    this.closed = false;
    this.games = new Map();
  }

  gameNames() { return this.core.names.filter((s) => s.title !== null).map((s) => s.name).sort(); }

  loadGame(name, params) {
    const spec = this.core.spec(name);
    const types = paramTypes(spec);
    const values = {};
    const unknown = Object.keys(params).filter((k) => !spec.params.some((p) => p.name === k));
    if (unknown.length) throw new AgentTypeError(`${name} takes the parameters ${spec.params.map((p) => p.name).join(", ") || "(none)"}, not ${unknown.sort().join(", ")}`);
    for (const p of spec.params) {
      const v = has(params, p.name) ? params[p.name] : (types[p.name] === "bool" ? !!p.def : p.def);
      if (types[p.name] === "bool") {
        if (typeof v !== "boolean") throw new AgentTypeError(`${name}: ${p.name} must be True or False, not ${reprOf(v)}`);
      } else if (!isInt(v)) {
        throw new AgentTypeError(`${name}: ${p.name} must be an integer, not ${reprOf(v)}`);
      } else if (!(v >= p.min && v <= p.max)) {
        throw new AgentValueError(`${name}: ${p.name} must be in [${p.min}, ${p.max}], not ${reprOf(v)}`);
      }
      values[p.name] = typeof v === "boolean" ? v : Number(v);
    }
    const key = `${name}/${JSON.stringify(values)}`;
    if (!this.games.has(key)) this.games.set(key, new Game(this.core, name, values));
    return this.games.get(key);
  }

  // --- output ---------------------------------------------------------------------------------------
  emit(obj) {
    let line;
    try {
      line = encodeAnswer(obj);
    } catch {
      const rid = obj.id, cmd = obj.cmd;
      line = encodeAnswer({ id: echoable(rid) ? rid : null, ok: false, cmd: typeof cmd === "string" && wellFormed(cmd) ? cmd : null,
        error: { code: "internal", message: "the answer could not be encoded as strict JSON; please report it" } });
    }
    const answer = JSON.parse(line);
    if (this.onAnswer) this.onAnswer(answer, line);
    return answer;
  }
  ok(rid, cmd, fields) { return this.emit({ id: rid, ok: true, cmd, ...fields }); }
  error(rid, cmd, code, message) { return this.emit({ id: rid, ok: false, cmd, error: { code, message: cut(message) } }); }

  /** Answer one request: an object, or a line of JSON text (a string or UTF-8 bytes). */
  async request(req) {
    if (this.closed) throw new Error("the session has ended (quit)");
    if (typeof req === "string" || req instanceof Uint8Array) return this.handleLine(req);
    return this.handleLine(JSON.stringify(req, (k, v) => (typeof v === "bigint" ? v.toString() : v)));
  }

  async handleLine(raw) {
    try {
      return await this._handleLine(raw);
    } catch (e) {
      return this.internal(null, null, e);
    }
  }

  async _handleLine(raw) {
    let text = raw;
    if (raw instanceof Uint8Array) {
      if (raw.length > MAX_LINE) return this.error(null, null, "line_too_long", `request lines are at most ${MAX_LINE} bytes; this one was longer and was discarded`);
      try { text = new TextDecoder("utf-8", { fatal: true }).decode(raw); } catch {
        return this.error(null, null, "bad_json", "not a JSON line: it is not UTF-8");
      }
    } else if (new TextEncoder().encode(text).length > MAX_LINE) {
      return this.error(null, null, "line_too_long", `request lines are at most ${MAX_LINE} bytes; this one was longer and was discarded`);
    }
    if (!text.trim()) return null;
    let req;
    try {
      req = parseStrict(text, MAX_DEPTH);
    } catch (e) {
      if (!(e instanceof JsonError)) throw e;
      return this.error(null, null, "bad_json", `not a JSON line: ${cut(e.message, 120)}`);
    }
    const rid = isObject(req) && has(req, "id") ? req.id : null;
    if (isObject(rid) || Array.isArray(rid)) return this.error(null, null, "bad_request", "field 'id' must be a JSON scalar (string, number, true, false or null)");
    if (!isObject(req)) return this.error(null, null, "bad_request", `a request is a JSON object, not ${pyType(req)}`);
    const problem = unicodeProblem(req);
    if (problem !== null) {
      const cmd = req.cmd;
      return this.error(echoable(rid) ? rid : null, typeof cmd === "string" && wellFormed(cmd) ? cmd : null, "bad_request", problem);
    }
    const cmd = has(req, "cmd") ? req.cmd : null;
    if (typeof cmd !== "string") return this.error(rid, null, "bad_request", cmd === null ? "missing field 'cmd' (a string)" : "field 'cmd' must be a string");
    if (cmd === "quit") {
      await this.finishJob();
      const a = this.ok(rid, cmd, {});
      this.closed = true;
      return a;
    }
    if (cmd === "stop") return this.stop(rid);
    const handler = HANDLERS[cmd];
    if (!handler) {
      return this.error(rid, cmd, "unknown_command", `unknown command ${cut(pyDumps(cmd), 60)}; the commands are ${Object.keys(HANDLERS).sort().join(", ")}, stop, quit`);
    }
    try {
      if (this.job && (cmd === "ping" || cmd === "isready")) { await this.job.done; return this.ok(rid, cmd, {}); }
      if (this.job && BUSY.has(cmd)) throw new ProtocolError("busy", `a ${this.job.kind} is running: send stop, or wait for its answer (ping answers once it is done)`);
      const fields = handler.call(this, req, rid);
      if (fields instanceof Promise) return await fields;
      return this.ok(rid, cmd, fields);
    } catch (e) {
      if (e instanceof ProtocolError) return this.error(rid, cmd, e.code, e.message);
      return this.internal(rid, cmd, e);
    }
  }

  internal(rid, cmd, e) {
    let detail = this.seat === null ? `${e && e.name ? e.name : "Error"}: ${cut(String(e && e.message), 160)}` : (e && e.name) || "Error";
    if (e instanceof RangeError || /memory/i.test(String(e && e.message))) detail = "out of memory (lower max_nodes or threads)";
    return this.error(rid, cmd, "internal", `internal error (${detail}); please report it`);
  }

  // --- jobs -----------------------------------------------------------------------------------------------
  startJob(kind, rid, work) {
    const job = { kind, rid, stopped: false, move: null };
    this.core.setStop(false);
    this.job = job;
    job.done = (async () => {
      let answer;
      try {
        answer = await work(job);
      } catch (e) {
        answer = this.internal(rid, kind, e);
      }
      this.job = null;
      return answer;
    })();
    return job.done;
  }
  async finishJob() {
    const job = this.job;
    if (!job) return null;
    job.stopped = true;
    this.core.setStop(true);
    await job.done;
    return job;
  }
  async stop(rid) {
    const job = await this.finishJob();
    if (!job) return this.ok(rid, "stop", { stopped: false });
    return this.ok(rid, "stop", { stopped: true, job: job.kind, finished: true, move: job.move });
  }

  // --- helpers ----------------------------------------------------------------------------------------------
  needState() { if (!this.state) throw new ProtocolError("no_game", "no game yet: send new or load first"); return this.state; }
  seatField(req, game) {
    const v = has(req, "seat") ? req.seat : null;
    if (v === null) return null;
    if (!isInt(v) || !(v >= 0 && v < game.numPlayers)) throw bad(`field 'seat' must be a player in [0, ${game.numPlayers - 1}] or null, not ${dumps(v)}`);
    return Number(v);
  }
  visible(p) { return this.seat === null || p === this.seat; }
  facts() {
    const st = this.state;
    if (!st) return { game: null };
    const g = st.game;
    return { game: g.name, params: { ...g.params }, info: g.info(), seat: this.seat, to_move: st.currentPlayer, over: st.isTerminal, moves: st.stack.length };
  }
  after(st) {
    const out = { to_move: st.currentPlayer, over: st.isTerminal, outcome: st.outcome() };
    if (this.seat !== null) out.view = st.view(this.seat);
    return out;
  }
  /** Play an action; in a seat-bound session, the events the seat saw (Game.public_events). */
  pushMove(st, a) {
    let events = null;
    if (this.seat !== null) events = publicEvents(st, a, this.seat);
    st.push(a);
    return events === null ? {} : { events };
  }

  // --- commands -------------------------------------------------------------------------------------------------
  cmd_ping() { return {}; }
  cmd_info() {
    return { protocol: PROTOCOL_VERSION, version: VERSION, games: this.gameNames(), agents: [...NAMES], level: true,
      running: this.job ? this.job.kind : null, ...this.facts() };
  }
  cmd_new(req) {
    const name = strField(req, "game");
    const games = this.gameNames();
    if (!games.includes(name)) throw bad(`field 'game' must be one of ${games.join(", ")}, not ${dumps(name)}`);
    const types = paramTypes(this.core.spec(name));
    const known = [...new Set(games.flatMap((g) => Object.keys(paramTypes(this.core.spec(g)))))].sort();
    const params = {};
    for (const k of known) if (has(req, k) && req[k] !== null) params[k] = req[k];
    const others = Object.keys(params).filter((k) => !has(types, k)).sort();
    if (others.length) throw bad(`${name} does not take ${others.join(", ")}; its parameters are ${Object.keys(types).join(", ") || "(none)"}`);
    let game;
    try { game = this.loadGame(name, params); } catch (e) {
      if (e instanceof AgentTypeError || e instanceof AgentValueError) throw bad(e.message);
      throw e;
    }
    let seed = seedField(req);
    if (seed === null) seed = randomSeed();
    const seat = this.seatField(req, game);
    this.state = new State(game, game.core.newState(seed));
    this.seat = seat;
    const out = this.facts();
    if (seat === null) out.seed = seed.toString();
    return out;
  }
  cmd_load(req) {
    const hasState = req.state !== undefined && req.state !== null, hasView = req.view !== undefined && req.view !== null;
    if (hasState === hasView) throw bad("give either 'state' (a full state dict) or 'view' and 'player' (a seat's view)");
    let d = hasState ? req.state : req.view;
    const what = hasState ? "state" : "view";
    if (!isObject(d)) throw bad(`field '${what}' must be a JSON object (a ${what} dict), not ${pyType(d)}`);
    const secret = hasState && (this.seat !== null || (req.seat !== undefined && req.seat !== null));
    if (hasState && typeof d.seed === "string") {
      try { d = Object.assign(Object.create(null), d, { seed: seedValue(d.seed, "seed") }); } catch {
        throw new ProtocolError("invalid_state", "the state's 'seed' must be an integer in [0, 2^64) or its decimal string");
      }
    }
    const message = (m) => (secret ? `the ${what} cannot be loaded (the reason is not shown in a seat-bound session, since it may name hidden cards: load it unbound to read it)` : m);
    let game;
    try { game = this.gameOf(d, what); } catch (e) {
      if (e instanceof InvalidState || e instanceof AgentTypeError || e instanceof AgentValueError) throw new ProtocolError("invalid_state", message(e.message));
      throw e;
    }
    const seat = this.seatField(req, game);
    let state;
    if (hasState) {
      try { state = fromDict(game, d); } catch (e) {
        if (e instanceof InvalidState) throw new ProtocolError("invalid_state", message(e.message));
        throw e;
      }
    } else {
      const player = has(req, "player") ? req.player : seat;
      if (player === null) throw bad("missing field 'player' (whose view this is)");
      if (!isInt(player) || !(player >= 0 && player < game.numPlayers)) throw bad(`field 'player' must be a player in [0, ${game.numPlayers - 1}], not ${dumps(player)}`);
      if (seat !== null && seat !== Number(player)) throw bad(`a view is player ${player}'s: the session can be bound to seat ${player} only, not ${seat}`);
      try { state = fromView(game, d, Number(player)); } catch (e) {
        if (e instanceof InvalidState) throw new ProtocolError("invalid_state", cut(e.message));
        if (e instanceof TypeError) throw new ProtocolError("invalid_state", `invalid ${game.title} view: a field has the wrong type or shape for a view`);
        throw e;
      }
    }
    this.state = state;
    this.seat = seat;
    return this.facts();
  }
  gameOf(d, what) {
    const name = d.game;
    const games = this.gameNames();
    if (typeof name !== "string" || !games.includes(name)) throw new InvalidState(`unknown game ${reprOf(name)} in the ${what}; registered: ${games.join(", ")}`);
    const r = this.core.paramsFromJson(name, pyDumps(d));
    if (r.error !== undefined) throw new InvalidState(r.error);
    const types = paramTypes(this.core.spec(name));
    const params = {};
    for (const [k, v] of Object.entries(r.values)) params[k] = types[k] === "bool" ? v !== 0 : v;
    return this.loadGame(name, params);
  }
  cmd_state() {
    const st = this.needState();
    if (this.seat !== null) return { state: st.view(this.seat), seat: this.seat };
    const d = st.toDict();
    d.seed = d.seed.toString();
    return { state: d, seat: null };
  }
  cmd_view(req) {
    const st = this.needState();
    const n = st.game.numPlayers;
    const player = intField(req, "player", 0, n - 1, this.seat !== null ? this.seat : MISSING);
    if (!this.visible(player)) throw new ProtocolError("not_your_seat", `this session is bound to seat ${this.seat}: only its view is shown`);
    return { player, view: st.view(player) };
  }
  cmd_legal() {
    const st = this.needState();
    const p = st.currentPlayer;
    if (p !== null && !this.visible(p)) throw new ProtocolError("not_your_seat", `player ${p} is to move: a session bound to seat ${this.seat} lists legal moves only on its own turn (others' moves would show their cards)`);
    return { player: p, moves: st.legal().map((a) => ({ move: st.notation(a), id: a })) };
  }
  cmd_play(req) {
    const st = this.needState();
    if (!has(req, "move")) throw bad("missing field 'move' (notation or action id)");
    const mv = req.move;
    if (typeof mv !== "string" && !isInt(mv)) throw bad(`field 'move' must be a notation string or an action id, not ${dumps(mv)}`);
    if (st.isTerminal) throw new ProtocolError("game_over", "the game is over: there is no move to play (undo, new or load)");
    const p = st.currentPlayer;
    const own = this.visible(p);
    let a;
    try { a = st.parseMove(mv); } catch (e) {
      if (e instanceof InvalidMove) throw new ProtocolError("invalid_move", own ? e.message : `not a move of this game (the text is not repeated to seat ${this.seat})`);
      if (e instanceof IllegalMove) throw new ProtocolError("illegal_move", own ? e.message : `not a legal move for player ${p} now (the move is not repeated to seat ${this.seat})`);
      throw e;
    }
    const seen = this.pushMove(st, a);
    return { move: own ? { move: st.notation(a), id: a } : null, player: p, ...this.after(st), ...seen };
  }
  cmd_undo(req) {
    const st = this.needState();
    const count = intField(req, "count", 1, 2 ** 31, 1);
    const n = st.stack.length;
    if (count > n) throw new ProtocolError("illegal_move", `cannot take back ${count} move(s): ${n} played since the game was started or loaded`);
    if (this.seat !== null) {
      const refusal = undoRefusal(st, this.seat, count);
      if (refusal !== null) throw new ProtocolError("forbidden", refusal);
    }
    const undone = [];
    for (let k = 0; k < count; k++) {
      const a = st.pop();
      undone.push(this.visible(st.currentPlayer) ? { move: st.notation(a), id: a } : null);
    }
    return { moves: undone, ...this.after(st) };
  }
  cmd_perft(req, rid) {
    const st = this.needState();
    const depth = intField(req, "depth", 0, 64);
    if (this.seat !== null) throw new ProtocolError("forbidden", "perft counts depend on hidden cards: not in a seat-bound session");
    const root = st.bytes;
    return this.startJob("perft", rid, async (job) => {
      const nodes = await st.game.core.perft(root, depth, () => job.stopped);
      return this.ok(rid, "perft", { depth, nodes, stopped: nodes === null });
    });
  }
  cmd_go(req, rid) {
    const st = this.needState();
    const apply = boolField(req, "apply", false);
    const top = intField(req, "top", 0, 2 ** 31, null);
    const [agent, name] = makeAgent(req);
    if (st.isTerminal) throw new ProtocolError("game_over", "the game is over: there is nothing to search");
    const p = st.currentPlayer;
    const own = this.visible(p);
    if (!own && !apply) throw new ProtocolError("forbidden", `a go for player ${p} in a session bound to seat ${this.seat} must apply its move ("apply": true): the move is not shown to the seat`);
    // the agent sees the mover's view only in a bound session (as the Python engine: Game.from_view)
    const source = this.seat !== null ? fromView(st.game, plain(st.view(p)), p) : st.clone();
    return this.startJob("go", rid, async (job) => {
      const res = await search(agent, source, this.core);
      const out = { move: own ? { move: st.notation(res.move), id: res.move } : null, player: p, agent: name };
      if (own) {
        const analysis = res.analysis.map((x) => ({ move: st.notation(x.action), id: x.action, visits: x.visits, mean: round4(x.mean) }));
        out.analysis = top !== null ? analysis.slice(0, top) : analysis;
        out.iterations = res.iterations;
        out.nodes = res.nodes;
        job.move = out.move;
      }
      out.stopped = !!res.stopped;
      out.applied = apply;
      if (apply) Object.assign(out, this.pushMove(this.state, res.move), this.after(this.state));
      // the Python engine writes the fields in this order: after() before events
      if (apply && out.events) { const ev = out.events; delete out.events; out.events = ev; }
      return this.ok(rid, "go", out);
    });
  }
}

const HANDLERS = { ping: Engine.prototype.cmd_ping, isready: Engine.prototype.cmd_ping, info: Engine.prototype.cmd_info,
  new: Engine.prototype.cmd_new, load: Engine.prototype.cmd_load, state: Engine.prototype.cmd_state, view: Engine.prototype.cmd_view,
  legal: Engine.prototype.cmd_legal, play: Engine.prototype.cmd_play, undo: Engine.prototype.cmd_undo, go: Engine.prototype.cmd_go,
  perft: Engine.prototype.cmd_perft };

const reprOf = (v) => pyRepr(v);

function randomSeed() {
  const b = new Uint32Array(2);
  globalThis.crypto.getRandomValues(b);
  return (BigInt(b[1]) << 32n) | BigInt(b[0]);
}

function makeAgent(req) {
  const name0 = strField(req, "agent", null);
  const params = {};
  for (const k of AGENT_PARAMS) if (has(req, k) && req[k] !== null) params[k] = req[k];
  if (has(params, "seed")) params.seed = seedField(req);
  const wrap = (f) => { try { return f(); } catch (e) { if (e instanceof AgentTypeError || e instanceof AgentValueError) throw bad(e.message); throw e; } };
  if ((req.level !== undefined && req.level !== null) || name0 === "level") {
    if (name0 !== null && name0 !== "level") throw bad("give either 'agent' (with its parameters) or 'level', not both");
    const level = intField(req, "level", -(2n ** 62n), 2n ** 62n);   // BigInt: the message prints them exactly
    return [wrap(() => make("level", { level, ...params })), "level"];
  }
  const name = name0 === null ? "ismcts" : name0;
  if (!NAMES.includes(name)) throw bad(`field 'agent' must be one of ${NAMES.join(", ")} (or give 'level'), not ${dumps(name)}`);
  const acc = accepted(name);
  const unknown = Object.keys(params).filter((k) => !acc.includes(k)).sort();
  if (unknown.length) throw bad(`agent '${name}' does not take ${unknown.join(", ")}; it takes ${[...acc].sort().join(", ")}`);
  if (has(params, "time") && !has(params, "iterations") && acc.includes("iterations")) params.iterations = 0;
  return [wrap(() => make(name, params)), name];
}

/** Agent.search over the core: {move, analysis, iterations, nodes, stopped}. */
async function search(agent, st, core) {
  if (agent.name === "level") {
    const [name, params] = (LEVELS[st.game.name] || LEVELS.default)[agent.level];
    return search(make(name, { seed: agent.seed, ...params }), st, core);
  }
  const player = st.currentPlayer;
  const seed = mix(agent.seed, st.game.core.infostateKey(st.bytes, player));
  if (agent.name === "random" || agent.name === "greedy") {
    const move = agent.name === "random" ? pyChoice(seed, st.legal()) : st.game.core.greedy(st.bytes, seed);
    return { move, analysis: [{ action: move, visits: 1, mean: 0 }], iterations: 0, nodes: 0, stopped: false };
  }
  const world = st.determinize(player, seed);
  const d = st.game.spec.defaults;
  const r = await st.game.core.search(world.bytes, { kind: KINDS[agent.kind], seed, iterations: Number(agent.iterations),
    time: agent.time === null ? 0 : Number(agent.time.value ?? agent.time), c: agent.c === null ? d.c : Number(agent.c.value ?? agent.c),
    heuristic: agent.rollout === "heuristic", shaped: agent.shaped ?? d.shaped, prior: agent.prior ?? d.prior,
    horizon: agent.horizon ?? d.horizon,
    // agents.SearchAgent._control_variates: the game's default for ismcts with uniform rollouts to the horizon
    // and an iteration budget alone
    controlVariates: agent.control_variates ?? (d.controlVariates && agent.kind === "ismcts" && agent.rollout === "random"
      && (agent.horizon ?? d.horizon) && agent.time === null),
    threads: Number(agent.threads), maxNodes: Number(agent.max_nodes) });
  if (r.rc === SR.NOMEM) throw new RangeError("out of memory");
  if (r.rc !== SR.OK) throw new Error(`search failed (code ${r.rc})`);
  const analysis = r.stats.map((s) => ({ action: s.action, visits: s.visits, mean: s.mean }));
  analysis.sort((a, b) => b.visits - a.visits || b.mean - a.mean || a.action - b.action);
  return { move: r.best, analysis, iterations: r.iterations, nodes: r.nodes, stopped: r.stopped };
}

/** Game.public_events: what player sees when the mover plays a in st (written in C). */
function publicEvents(st, a, player) { return parseStrict(st.game.core.events(st.bytes, a, player)); }

/** _undo_rule.undo_shows: would taking back the last move show the seat something? */
function undoShows(after, seat) {
  const before = after.clone();
  const m = before.pop();
  if (before.currentPlayer !== seat) return true;
  const want = plain(after.view(seat));
  const view = plain(before.view(seat));
  const worlds = [before.clone()];
  try { worlds.push(fromView(before.game, view, seat)); } catch { /* the others suffice */ }
  for (let k = 0; k < UNDO_WORLDS + worlds.length; k++) {
    const world = k < worlds.length ? worlds[k] : before.determinize(seat, BigInt(k - worlds.length));
    if (k - worlds.length >= UNDO_WORLDS) break;
    if (!world.push(m)) continue;
    if (!deepEqual(plain(world.view(seat)), want)) return true;
  }
  return false;
}

function undoRefusal(st, seat, count) {
  if (!st.game.determinizeIsExact) {
    return "this game's determinization is not exact (legacy_determinize), so the undo rule cannot sample the worlds a seat's view allows: a seat-bound session cannot take moves back";
  }
  const probe = st.clone();
  for (let k = 0; k < count; k++) {
    if (undoShows(probe, seat)) {
      return `${k === 0 ? "the last move" : `move ${k + 1} from the end`} showed seat ${seat} something its view before it did not determine (a card, a deal, an auction, a weaving step) or was another player's: a seat-bound session cannot take it back`;
    }
    probe.pop();
  }
  return null;
}
