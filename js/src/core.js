// The WebAssembly core (csrc/wasm/tbw.c) as JavaScript objects: games from
// the registry, states as byte snapshots, search and perft. Nothing here
// knows a game's rules: every rule runs in C, the same C as the native build.

const MAX_LEGAL = 1024;
const MAX_ENCODED = 1024;
const MSG_LEN = 256;
export const SR = { OK: 0, TERMINAL: 1, PARAM: 2, NOMEM: 3, STATE: 4, ILLEGAL: 5, STOPPED: 6, STUCK: 7, RANGE: 8, NOTATION: 9 };
export const TERMINAL_PLAYER = -4;
const U64 = 1n << 64n;

/** A yield to the event loop that is not clamped (setTimeout nests to 4 ms). */
function makeYield() {
  if (typeof setImmediate === "function") return (wake) => setImmediate(wake);
  if (typeof MessageChannel === "function") {
    const ch = new MessageChannel();
    const queue = [];
    ch.port1.onmessage = () => { const w = queue.shift(); if (w) w(); };
    return (wake) => { queue.push(wake); ch.port2.postMessage(0); };
  }
  return (wake) => setTimeout(wake, 0);
}

export class Core {
  /** @param {object} m the Emscripten module */
  constructor(m) {
    this.m = m;
    const f = (name) => m["_" + name];
    this.f = new Proxy({}, { get: (_, name) => f(name) });
    this.scratch = [this.f.tbw_state_alloc(), this.f.tbw_state_alloc()];
    this.ints = m._malloc(4 * MAX_LEGAL);
    this.doubles = m._malloc(8 * 8);
    this.enc = m._malloc(8 * MAX_ENCODED);
    this.msg = m._malloc(MSG_LEN);
    this.stop = m._malloc(4);
    this.jsonMax = this.f.tbw_json_max();
    this.json = m._malloc(this.jsonMax);
    this.result = this.f.tbw_result_alloc();
    this.games = new Map();   // "name/params" -> CoreGame
    this.names = [];
    for (let gi = 0; gi < this.f.tbw_game_count(); gi++) {
      const params = [];
      for (let k = 0; k < this.f.tbw_param_count(gi); k++) {
        params.push({ name: m.UTF8ToString(this.f.tbw_param_name(gi, k)), min: this.f.tbw_param_min(gi, k),
          max: this.f.tbw_param_max(gi, k), def: this.f.tbw_param_def(gi, k), bool: !!this.f.tbw_param_is_bool(gi, k) });
      }
      const data = [];
      for (let k = 0; k < this.f.tbw_data_count(gi); k++) data.push(m.UTF8ToString(this.f.tbw_data_text(gi, k)));
      const defaults = { c: this.f.tbw_policy_default(gi, 0), shaped: !!this.f.tbw_policy_default(gi, 1),
        prior: !!this.f.tbw_policy_default(gi, 2), horizon: !!this.f.tbw_policy_default(gi, 3),
        controlVariates: !!this.f.tbw_policy_default(gi, 4) };
      const title = this.f.tbw_game_title(gi);
      this.names.push({ gi, name: m.UTF8ToString(this.f.tbw_game_name(gi)), title: title ? m.UTF8ToString(title) : null,
        params, data, defaults });
    }
  }

  get HEAPU8() { return this.m.HEAPU8; }
  get HEAP32() { return this.m.HEAP32; }
  get HEAPF64() { return this.m.HEAPF64; }

  spec(name) { return this.names.find((s) => s.name === name) || null; }

  /** The game instance for integer params (in the registry's order); cached. */
  game(name, values) {
    const key = `${name}/${values.join(",")}`;
    let g = this.games.get(key);
    if (g) return g;
    const spec = this.spec(name);
    const p = this.m._malloc(4 * Math.max(1, values.length));
    values.forEach((v, k) => { this.HEAP32[(p >> 2) + k] = v; });
    const ptr = this.f.tbw_game_make(spec.gi, p, this.msg, MSG_LEN);
    this.m._free(p);
    if (!ptr) throw new Error(this.m.UTF8ToString(this.msg));
    g = new CoreGame(this, spec, ptr);
    this.games.set(key, g);
    return g;
  }

  setStop(v) { this.HEAP32[this.stop >> 2] = v ? 1 : 0; }

  /** The parameters the JSON text of a state dict of game name names (read
   * in C): {values: {param: int}} or {error}. */
  paramsFromJson(name, text) {
    const spec = this.spec(name);
    const m = this.m;
    const utf8 = new TextEncoder().encode(text);
    const p = m._malloc(utf8.length + 1), vals = m._malloc(32), msg = m._malloc(1024);
    try {
      this.HEAPU8.set(utf8, p);
      const rc = this.f.tbw_params_from_json(spec.gi, p, utf8.length, vals, vals + 16, msg, 1024);
      if (rc !== SR.OK) return { error: m.UTF8ToString(msg) };
      const values = {};
      spec.params.forEach((q, k) => { if (this.HEAP32[(vals >> 2) + 4 + k]) values[q.name] = this.HEAP32[(vals >> 2) + k]; });
      return { values };
    } finally {
      m._free(p);
      m._free(vals);
      m._free(msg);
    }
  }
}

const split = (seed) => { const s = BigInt.asUintN(64, BigInt(seed)); return [Number(s & 0xffffffffn), Number(s >> 32n)]; };

export class CoreGame {
  constructor(core, spec, ptr) {
    this.core = core;
    this.spec = spec;
    this.ptr = ptr;
    const f = core.f;
    this.numPlayers = f.tbw_info_int(ptr, 0);
    this.numActions = f.tbw_info_int(ptr, 1);
    this.maxLength = f.tbw_info_int(ptr, 2);
    this.hidden = !!f.tbw_info_int(ptr, 3);
    this.stateSize = f.tbw_info_int(ptr, 4);
    this.observationSize = f.tbw_info_int(ptr, 5);
    this.constantSum = !!f.tbw_info_int(ptr, 6);
    this.exactDeterminize = !!f.tbw_info_int(ptr, 7);
    this.minUtility = f.tbw_info_double(ptr, 0);
    this.maxUtility = f.tbw_info_double(ptr, 1);
    this.utilitySum = f.tbw_info_double(ptr, 2);
    this.notation = [];
    for (let a = 0; a < this.numActions; a++) {
      const n = f.tbw_action_to_string(ptr, a, core.msg, MSG_LEN);
      this.notation.push(n < 0 ? null : core.m.UTF8ToString(core.msg));
    }
  }

  /** Copy a snapshot into scratch buffer k; its address. */
  load(bytes, k = 0) { const p = this.core.scratch[k]; this.core.HEAPU8.set(bytes, p); return p; }
  save(k = 0) { const p = this.core.scratch[k]; return this.core.HEAPU8.slice(p, p + this.stateSize); }

  newState(seed) { const [lo, hi] = split(seed); this.core.f.tbw_new_state(this.ptr, this.core.scratch[0], lo, hi); return this.save(); }
  currentPlayer(bytes) { const p = this.core.f.tbw_current_player(this.ptr, this.load(bytes)); return p === TERMINAL_PLAYER ? null : p; }
  legal(bytes) {
    const n = this.core.f.tbw_legal(this.ptr, this.load(bytes), this.core.ints);
    return Array.from(this.core.HEAP32.subarray(this.core.ints >> 2, (this.core.ints >> 2) + n));
  }
  /** The state after action, or the error code (SR.ILLEGAL...). */
  apply(bytes, action) {
    const rc = this.core.f.tbw_apply(this.ptr, this.load(bytes), action);
    return rc === SR.OK ? this.save() : rc;
  }
  returns(bytes) {
    this.core.f.tbw_returns(this.ptr, this.load(bytes), this.core.doubles);
    return Array.from(this.core.HEAPF64.subarray(this.core.doubles >> 3, (this.core.doubles >> 3) + this.numPlayers));
  }
  scores(bytes) {
    this.core.f.tbw_scores(this.ptr, this.load(bytes), this.core.ints);
    return Array.from(this.core.HEAP32.subarray(this.core.ints >> 2, (this.core.ints >> 2) + this.numPlayers));
  }
  determinize(bytes, player, seed) {
    const [lo, hi] = split(seed);
    this.core.f.tbw_determinize(this.ptr, this.load(bytes, 0), player, lo, hi, this.core.scratch[1]);
    return this.save(1);
  }
  infostateKey(bytes, player) {
    this.core.f.tbw_infostate_key(this.ptr, this.load(bytes), player, this.core.ints);
    const u = this.core.m.HEAPU32;
    return BigInt(u[this.core.ints >> 2]) | (BigInt(u[(this.core.ints >> 2) + 1]) << 32n);
  }
  /** The int64 encoding as BigInts. */
  encode(bytes) {
    const n = this.core.f.tbw_encode(this.ptr, this.load(bytes), this.core.enc, MAX_ENCODED);
    if (n < 0) throw new Error("encoding too long");
    return Array.from(new BigInt64Array(this.core.HEAPU8.buffer, this.core.enc, n));
  }
  /** The state dict (viewer -1) or seat viewer's view as JSON text, written
   * by the games' JSON layer in C (csrc/state_json.h), as the native engine writes it. */
  toJson(bytes, viewer = -1) {
    const n = this.core.f.tbw_state_json(this.ptr, this.spec.gi, this.load(bytes), viewer, this.core.json, this.core.jsonMax);
    if (n < 0) throw new Error(`the state cannot be written as JSON (error ${-n})`);
    return this.core.m.UTF8ToString(this.core.json, n);
  }
  /** The action id notation names (read in C, csrc/<game>_json.c), resolved
   * against the state bytes (null: none): {action} or {code: SR.NOTATION |
   * SR.ILLEGAL, message}. The id is not checked for legality. */
  parseAction(bytes, text) {
    const m = this.core.m;
    const utf8 = new TextEncoder().encode(text);
    const cap = 8 * utf8.length + 512;
    const p = m._malloc(utf8.length + 1), msg = m._malloc(cap);
    try {
      this.core.HEAPU8.set(utf8, p);
      const st = bytes ? this.load(bytes) : 0;
      const rc = this.core.f.tbw_parse_action(this.ptr, this.spec.gi, st, p, utf8.length, this.core.ints, msg, cap);
      if (rc === SR.OK) return { action: this.core.HEAP32[this.core.ints >> 2] };
      return { code: rc, message: m.UTF8ToString(msg) };
    } finally {
      m._free(p);
      m._free(msg);
    }
  }
  /** What seat player sees happen when the player to move plays action
   * (Game.public_events), written in C: the array of event objects. */
  events(bytes, action, player) {
    const n = this.core.f.tbw_events_json(this.ptr, this.spec.gi, this.load(bytes), action, player, this.core.json, this.core.jsonMax);
    if (n < 0) throw new Error(`the events cannot be written (error ${-n})`);
    return this.core.m.UTF8ToString(this.core.json, n);
  }
  /** A state from the JSON text of a state dict (viewer -1) or of seat
   * viewer's view, read and checked in C (csrc/state_json.h): {bytes} or
   * {error} with the Python package's message. */
  fromJson(text, viewer = -1) {
    const m = this.core.m;
    const utf8 = new TextEncoder().encode(text);
    const p = m._malloc(utf8.length + 1), msg = m._malloc(1024);
    try {
      this.core.HEAPU8.set(utf8, p);
      const rc = this.core.f.tbw_state_from_json(this.ptr, this.spec.gi, p, utf8.length, viewer, this.core.scratch[0], msg, 1024);
      if (rc === SR.OK) return { bytes: this.save() };
      if (rc === SR.NOMEM) throw new Error(m.UTF8ToString(msg));
      return { error: m.UTF8ToString(msg) };
    } finally {
      m._free(p);
      m._free(msg);
    }
  }
  /** A state from an encoding (C checks it): bytes, or throws with C's message. */
  decode(fields) {
    if (fields.length > MAX_ENCODED) return { error: `${fields.length} fields is more than a state has` };
    const view = new BigInt64Array(this.core.HEAPU8.buffer, this.core.enc, fields.length);
    fields.forEach((v, i) => { view[i] = BigInt.asIntN(64, BigInt(v)); });
    const rc = this.core.f.tbw_decode(this.ptr, this.core.enc, fields.length, this.core.scratch[0], this.core.msg, MSG_LEN);
    if (rc !== SR.OK) return { error: this.core.m.UTF8ToString(this.core.msg) };
    return { bytes: this.save() };
  }
  greedy(bytes, seed) {
    const [lo, hi] = split(seed);
    const a = this.core.f.tbw_greedy(this.ptr, this.spec.gi, this.load(bytes), lo, hi);
    if (a < 0) throw new Error(`greedy failed (${-a})`);
    return a;
  }

  /** sr_search (async: it yields to the event loop every 20 ms, when
   * core.setStop(true) may end it). Resolves to {rc, best, stats, iterations, nodes, stopped}. */
  async search(bytes, o) {
    const core = this.core;
    const m = core.m;
    if (!m.tbwYield) m.tbwYield = makeYield();
    const [lo, hi] = split(o.seed);
    const root = m._malloc(this.stateSize);      // the job's own copy: other requests use the scratch buffers
    m.HEAPU8.set(bytes, root);
    try {
      const rc = await m.ccall("tbw_search_async", "number",
        ["number", "number", "number", "number", "number", "number", "number", "number", "number", "number",
          "number", "number", "number", "number", "number", "number", "number", "number"],
        [this.ptr, this.spec.gi, root, o.kind, lo, hi, o.iterations, o.time, o.c, o.heuristic ? 1 : 0,
          o.shaped ? 1 : 0, o.prior ? 1 : 0, o.horizon ? 1 : 0, o.controlVariates ? 1 : 0, o.threads, o.maxNodes,
          core.stop, core.result],
        { async: true });
      const r = core.result;
      const F = core.f;
      const n = F.tbw_result_field(r, 0);
      const stats = [];
      for (let i = 0; i < n; i++) stats.push({ action: F.tbw_result_stat(r, i, 0), visits: F.tbw_result_stat(r, i, 1), mean: F.tbw_result_stat(r, i, 2) });
      return { rc, best: F.tbw_result_field(r, 1), stats, iterations: F.tbw_result_field(r, 2),
        nodes: F.tbw_result_field(r, 3), stopped: !!F.tbw_result_field(r, 4) };
    } finally {
      m._free(root);
    }
  }

  /** perft in C pieces of depth <= 3, yielding between pieces; null when stopped. */
  async perft(bytes, depth, isStopped) {
    const core = this.core;
    const rcp = core.ints;
    let last = Date.now();
    let stopped = false;
    const count = async (st, d) => {
      if (stopped) return 0;
      if (Date.now() - last > 20) { await new Promise((r) => (core.m.tbwYield || makeYield())(r)); last = Date.now(); }
      if (isStopped()) { stopped = true; return 0; }
      if (d <= 3) {
        core.setStop(false);
        const n = core.f.tbw_perft(this.ptr, this.load(st), d, core.stop, rcp);
        return n;
      }
      let total = 0;
      for (const a of this.legal(st)) {
        const next = this.apply(st, a);
        total += await count(next, d - 1);
        if (stopped) return 0;
      }
      return total;
    };
    const n = await count(bytes, depth);
    return stopped ? null : n;
  }
}

export { U64 };
