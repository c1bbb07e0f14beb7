/* offline.js: the offline transport. The same interface as transport.js
 * (startTable, loadReference, Table: id, seat, onView, onError, move, close;
 * see its header), over the engine compiled to WebAssembly (js/, docs/
 * wasm.md) running in a Web Worker of this page. No server is involved once
 * the files are loaded: no table is created, no WebSocket is opened.
 *
 * The engine files are served by `tabuleiro serve --wasm-dir DIR` at
 * `wasm/` beside this page (docs/server.md, "The web page"); `available()`
 * says whether they are.
 *
 * Seat secrecy, as on the server: the worker's session is bound to the
 * page's seat (`new` with `seat`), so every answer the page receives holds
 * only that seat's view and events (docs/protocol.md, "Seat binding"); the
 * AI seats move with `go` and `level` in that session (the engine searches
 * from the AI's own view and answers `"move": null`). The seed is drawn with
 * crypto.getRandomValues and handed to the worker: it is in no view message,
 * error, log line, URL or storage. The AI seats' seeds are the server's (the
 * table seed mixed with the seat's index, as tables.py's _mix does), so a
 * game here is the game the server deals and plays for the same seed and
 * seats; the mixing can be undone, so they travel to the worker with each AI
 * turn only, and whoever watches the page's messages to its worker can work
 * out the deal (docs/server.md: offline play is not secret from the
 * browser's owner).
 *
 * The view messages are built as python/tabuleiro/serve/tables.py builds
 * them (docs/server.md, "The view message"): `moves` is every move as the
 * seat saw it (the first event of each move's feed), `events` the last
 * move's feed, `legal` the seat's moves on its turn.
 *
 * Debug hook (for tests; holds no hidden card): if, before startTable,
 * `globalThis.tabuleiroOfflineDebug` is an object, every view message this
 * transport emits is also appended (a copy) to its array `views`, and a
 * `seed` given there (a decimal string) replaces the drawn seed, as the
 * server's `seed` field of POST /tables does: whoever chooses the seed can
 * compute every card, so only a test does. The hook never holds a drawn seed.
 */

import {TransportError, endpoint, loadReference} from "./transport.js";

export {loadReference};

const MIX_MASK = (1n << 64n) - 1n;
/** How long the engine may take to load in its worker before the start fails. */
const LOAD_TIMEOUT_MS = 30000;

/** Fields of `new` that are not the game's parameters: a params object may not set them. */
const RESERVED = ["cmd", "id", "game", "seed", "seat", "state", "view", "player"];


/** tables.py's _mix: the agent seed of seat `index` at a table of `seed` (BigInts). */
function mix(a, b) {
  let z = (a * 0x9E3779B97F4A7C15n + b + 1n) & MIX_MASK;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MIX_MASK;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MIX_MASK;
  return z ^ (z >> 31n);
}

function drawSeed() {
  const words = new BigUint64Array(1);
  crypto.getRandomValues(words);
  return words[0];
}

function debugHook() {
  const hook = globalThis.tabuleiroOfflineDebug;
  return hook !== null && typeof hook === "object" ? hook : null;
}

/**
 * Whether the server serves the WebAssembly engine: {available, reason, version}.
 * Reads `wasm/` (a JSON answer, present whether or not the engine is served,
 * so probing never logs a failed request).
 */
export async function available() {
  let response;
  try {
    response = await fetch(endpoint("wasm/"), {cache: "no-store"});
  } catch (_) {
    return {available: false, reason: "the server cannot be reached", version: null};
  }
  if (!response.ok) {
    return {available: false, reason: `the server does not serve the engine (HTTP ${response.status})`, version: null};
  }
  try {
    const body = await response.json();
    return {available: body.available === true, reason: String(body.reason || ""), version: body.version || null};
  } catch (_) {
    return {available: false, reason: "the server's answer at wasm/ is not JSON", version: null};
  }
}

function checkSeats(seats) {
  if (!Array.isArray(seats) || !seats.every((s) => typeof s === "string")) {
    throw new TransportError("bad_request", "field 'seats' must be a list of seat strings");
  }
  const humans = seats.flatMap((s, i) => (s === "human" ? [i] : []));
  if (humans.length !== 1) {
    throw new TransportError("bad_request", `an offline game has exactly one human seat, not ${humans.length}`);
  }
  const levels = seats.map((s, i) => {
    if (s === "human") return null;
    const m = /^level:(10|[1-9])$/.exec(s);
    if (!m) throw new TransportError("bad_request", `seat ${i}: offline AI seats are 'level:1'..'level:10', not ${JSON.stringify(s.slice(0, 60))}`);
    return Number(m[1]);
  });
  return {seat: humans[0], levels};
}

/**
 * Start an offline table: load the engine in a worker, deal, and play the
 * AI seats until the page's seat is to move. Rejects with an Error whose
 * `code` and `message` say why (bad_request, offline_unavailable, or the
 * engine's error code for a bad game or parameter).
 */
export async function startTable({game, params, seats}) {
  const {seat, levels} = checkSeats(seats);
  if (typeof game !== "string") throw new TransportError("bad_request", "field 'game' must be a game's name");
  const given = params === undefined || params === null ? {} : params;
  if (typeof given !== "object" || Array.isArray(given)
      || !Object.values(given).every((v) => typeof v === "boolean" || Number.isSafeInteger(v))) {
    throw new TransportError("bad_request", "field 'params' must be an object of the game's parameters "
      + "(integers and booleans)");
  }
  const reserved = Object.keys(given).filter((k) => RESERVED.includes(k));
  if (reserved.length) throw new TransportError("bad_request", `'${reserved[0]}' is not a game parameter`);
  const state = await available();
  if (!state.available) throw new TransportError("offline_unavailable", `offline play is not available: ${state.reason}`);
  let engine;
  try {
    const module = await import(endpoint("wasm/index.js").href);
    engine = module.connectWorker();
    // the worker rejects `ready` when the engine cannot load; the timeout
    // covers a worker that never answers at all
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), LOAD_TIMEOUT_MS);
    });
    try {
      await Promise.race([engine.ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch (e) {
    if (engine) engine.terminate();
    throw new TransportError("offline_unavailable", `the WebAssembly engine did not load (${(e && e.name) || "Error"})`);
  }
  try {
    const info = await engine.request({cmd: "info"});
    if (state.version && info.version !== state.version) {
      throw new TransportError("offline_unavailable", `the WebAssembly engine is version ${info.version}, this page is `
        + `version ${state.version}: rebuild js/ (scripts/build_wasm.sh) from the same release`);
    }
    const hook = debugHook();
    const seed = hook && typeof hook.seed === "string" && /^(0|[1-9][0-9]{0,19})$/.test(hook.seed)
      ? BigInt(hook.seed) & MIX_MASK : drawSeed();
    const created = await engine.request({...given, cmd: "new", game, seed: seed.toString(), seat});
    if (!created.ok) throw new TransportError(created.error.code, created.error.message);
    const n = created.info.num_players;
    if (seats.length !== n) {
      throw new TransportError("bad_request", `${game} is played by ${n} players: give ${n} seats, not ${seats.length}`);
    }
    const agentSeeds = levels.map((level, i) => (level === null ? null : mix(seed, BigInt(i + 1)).toString()));
    return new OfflineTable(engine, created.game, seat, levels, agentSeeds, hook);
  } catch (e) {
    engine.terminate();
    if (e instanceof TransportError) throw e;
    throw new TransportError("internal", `the WebAssembly engine failed (${(e && e.name) || "Error"})`);
  }
}

function tableId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return "offline-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function isInt(x) {
  return typeof x === "number" && Number.isInteger(x);
}

class OfflineTable {
  #engine;
  #levels;
  #agentSeeds;      // secret: derived from the seed
  #hook;
  #viewHandlers = [];
  #errorHandlers = [];
  #chain = Promise.resolve();   // every engine exchange, one after another
  #closed = false;
  #ply = 0;
  #toMove = null;
  #over = false;
  #outcome = null;
  #view = null;
  #seen = [];
  #lastEvents = [];

  constructor(engine, game, seat, levels, agentSeeds, hook) {
    this.id = tableId();
    this.seat = seat;
    this.game = game;
    this.#engine = engine;
    this.#levels = levels;
    this.#agentSeeds = agentSeeds;
    this.#hook = hook;
    engine.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.#fail("the WebAssembly engine stopped");
    });
    this.#enqueue(async () => {
      const answer = await this.#ask({cmd: "view", player: seat});
      this.#view = answer.view;
      const info = await this.#ask({cmd: "info"});
      this.#toMove = info.over ? null : info.to_move;
      this.#over = info.over;
      await this.#settle();
    });
  }

  onView(fn) { this.#viewHandlers.push(fn); }

  onError(fn) { this.#errorHandlers.push(fn); }

  /** Play a move for the seat, checked as the server checks it (same codes, same order). */
  move(notation, ply) {
    if (this.#closed) return;
    if (typeof notation !== "string" && !isInt(notation)) {
      this.#emitError("bad_request", "field 'move' must be a notation string or an action id");
      return;
    }
    if (typeof notation === "string" && notation.length > 200) {
      this.#emitError("invalid_move", "not a move of this game (over 200 characters)");
      return;
    }
    if (ply !== undefined && ply !== null && !isInt(ply)) {
      this.#emitError("bad_request", "field 'ply' must be an integer (the ply of the view you answer)");
      return;
    }
    this.#enqueue(async () => {
      if (this.#over) return this.#emitError("game_over", "the game is over");
      if (ply !== undefined && ply !== null && ply !== this.#ply) {
        return this.#emitError("stale", `this move answers ply ${ply}, the table is at ply ${this.#ply}: nothing `
          + "was played (a replayed message, or the view moved on)");
      }
      if (this.#toMove !== this.seat) {
        return this.#emitError("not_your_turn", `player ${this.#toMove} is to move, not seat ${this.seat}`);
      }
      const answer = await this.#engine.request({cmd: "play", move: notation});
      if (!answer.ok) return this.#emitError(answer.error.code, answer.error.message);
      this.#record(answer);
      await this.#settle();
    });
  }

  /** End the game here: stop a running search and the worker (nothing is kept). */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    const engine = this.#engine;
    engine.request({cmd: "stop"}).catch(() => {});
    setTimeout(() => engine.terminate(), 0);
  }

  #enqueue(job) {
    this.#chain = this.#chain.then(() => (this.#closed ? null : job())).catch((e) => {
      if (!this.#closed) this.#fail(`the WebAssembly engine failed (${(e && e.name) || "Error"})`);
    });
  }

  async #ask(request) {
    const answer = await this.#engine.request(request);
    if (!answer || !answer.ok) {
      const code = answer && answer.error ? answer.error.code : "internal";
      throw new TransportError(code, `the engine refused '${request.cmd}' (${code})`);
    }
    return answer;
  }

  #fail(message) {
    if (this.#closed) return;
    this.#closed = true;
    this.#emitError("engine", `${message}; start a new game`);
    this.#engine.terminate();
  }

  /** One move applied (a play or an applied go): what the seat saw of it. */
  #record(answer) {
    const events = answer.events || [];
    const first = events[0] || {};
    this.#seen.push({ply: this.#ply, player: answer.player, move: first.move ?? null, text: first.text ?? null});
    this.#lastEvents = events;
    this.#ply += 1;
    this.#view = answer.view;
    this.#over = answer.over;
    this.#outcome = answer.outcome ?? null;
    this.#toMove = answer.over ? null : answer.to_move;
  }

  /** Send the current view; then let the AI seats move until the page's seat is to move or the game ends. */
  async #settle() {
    for (;;) {
      if (this.#closed) return;
      const legal = !this.#over && this.#toMove === this.seat ? (await this.#ask({cmd: "legal"})).moves : [];
      if (this.#closed) return;
      this.#emitView(legal);
      if (this.#over || this.#toMove === this.seat) return;
      const p = this.#toMove;
      const answer = await this.#ask({cmd: "go", level: this.#levels[p], seed: this.#agentSeeds[p], apply: true});
      if (this.#closed) return;
      this.#record(answer);
    }
  }

  #emitView(legal) {
    const msg = {type: "view", table: this.id, game: this.game, seat: this.seat, ply: this.#ply,
      to_move: this.#toMove, over: this.#over, outcome: this.#outcome, view: this.#view, legal,
      moves: this.#seen.slice(), events: this.#lastEvents};
    if (this.#hook) {
      if (!Array.isArray(this.#hook.views)) this.#hook.views = [];
      this.#hook.views.push(structuredClone(msg));
    }
    for (const fn of this.#viewHandlers) fn(msg);
  }

  #emitError(code, message) {
    for (const fn of this.#errorHandlers) fn({code, message});
  }
}
