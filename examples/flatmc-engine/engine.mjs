#!/usr/bin/env node
// A sample external engine for `tabuleiro arena`, in JavaScript (Node 18+),
// with no game rules of its own: it speaks the engine protocol
// (docs/protocol.md) on stdin/stdout and plays a flat Monte Carlo move.
//
//   node examples/flatmc-engine/engine.mjs [--oracle "tabuleiro engine"]
//
// The arena sends, before each of its decisions, the seat's view and a go:
//   {"id":7,"cmd":"load","view":{...},"player":1,"seat":1}
//   {"id":8,"cmd":"go","player":1,"legal":[{"move":"X5","id":1072},...],"seed":"...",
//    "remaining":4.93,"increment":0.05, ...options}
// and this engine answers {"id":8,"ok":true,"cmd":"go","move":{"move":"X5","id":1072}}.
//
// How it chooses (the go's options, set with --engine-option NAME:key=value):
//   mode=random       a uniform pick from `legal` (no oracle is started)
//   mode=flatmc       (default) for each legal move, random playouts to the
//                     end of the game, round robin until its thinking time is
//                     spent or `playouts` per move are done; the best mean wins.
//   playouts=N        the most playouts per legal move (default 50)
// Thinking time: 80% of `movetime`; else remaining/20 + 3/4 of the increment
// (at most half the time left); else `time` seconds; else no limit but
// `playouts`.
//
// The playouts need the rules, which this engine does not know: it asks an
// oracle, a `tabuleiro engine` child process in an unbound session, loading
// the view it was sent (a world consistent with it: hidden cards placed
// where they may lie) and walking it with `legal`, `play` and `load`. The
// engine never sees more than the arena sent it.
import { spawn } from "node:child_process";
import readline from "node:readline";

const argv = process.argv.slice(2);
let oracleCmd = process.env.TABULEIRO_ORACLE || "tabuleiro engine";
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--oracle" && i + 1 < argv.length) oracleCmd = argv[++i];
}

// --- a seeded PRNG (xorshift64*), from the go's seed (a decimal string) ----
const MASK = (1n << 64n) - 1n;
function makeRng(seedText) {
  let x = (BigInt(seedText || "0") ^ 0x9e3779b97f4a7c15n) & MASK;
  if (x === 0n) x = 1n;
  return (n) => {            // an integer in [0, n)
    x ^= x >> 12n; x ^= (x << 25n) & MASK; x ^= x >> 27n;
    const r = (x * 0x2545f4914f6cdd1dn) & MASK;
    return Number((r >> 11n) % BigInt(n));
  };
}

// --- the oracle: one child `tabuleiro engine`, requests matched by id -------
let oracle = null;
function startOracle() {
  const words = oracleCmd.split(/\s+/).filter(Boolean);
  const child = spawn(words[0], words.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  let nextId = 1;
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    let ans;
    try { ans = JSON.parse(line); } catch { return; }
    const done = waiting.get(ans.id);
    if (done) { waiting.delete(ans.id); done(ans); }
  });
  child.on("exit", () => { for (const done of waiting.values()) done({ ok: false, error: { code: "oracle_exit" } }); });
  oracle = {
    ask(req) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(JSON.stringify({ ...req, id }) + "\n");
      });
    },
    close() { child.stdin.end(); },
  };
  return oracle;
}

// --- the protocol -----------------------------------------------------------
let view = null;
let player = null;

// Answers are gathered while a chunk of input is handled and written in one
// write at its end (a load and its go answered together: one wake-up of the
// arena instead of two); an answer that comes later (a Monte Carlo go) is
// written at once.
let out = [];
let gathering = false;
function flush() { if (out.length) { process.stdout.write(out.join("")); out = []; } }
function reply(obj) {
  out.push(JSON.stringify(obj) + "\n");
  if (!gathering) flush();
}

function thinkingTime(req) {
  if (typeof req.movetime === "number") return 0.8 * req.movetime;
  if (typeof req.remaining === "number") {
    const inc = typeof req.increment === "number" ? req.increment : 0;
    return Math.min(req.remaining / 20 + 0.75 * inc, req.remaining / 2);
  }
  if (typeof req.time === "number") return req.time;
  return Infinity;
}

async function flatMonteCarlo(req, legal, rng) {
  const t0 = process.hrtime.bigint();
  const limit = thinkingTime(req) * 1e9;
  const maxPlayouts = Number.isInteger(req.playouts) && req.playouts > 0 ? req.playouts : 50;
  const o = oracle || startOracle();
  const loaded = await o.ask({ cmd: "load", view, player });
  if (!loaded.ok) return legal[rng(legal.length)];
  const n = legal.map(() => 0);
  const sum = legal.map(() => 0);
  let total = 0;
  outer:
  for (let round = 0; round < maxPlayouts; round++) {
    for (let i = 0; i < legal.length; i++) {
      if (total > 0 && Number(process.hrtime.bigint() - t0) > limit) break outer;
      let r = await o.ask({ cmd: "play", move: legal[i].id });
      let depth = 1;
      while (r.ok && !r.over) {
        const lg = await o.ask({ cmd: "legal" });
        if (!lg.ok || lg.moves.length === 0) break;
        r = await o.ask({ cmd: "play", move: lg.moves[rng(lg.moves.length)].id });
        depth++;
      }
      if (r.ok && r.outcome) { sum[i] += r.outcome.returns[player]; n[i]++; total++; }
      await o.ask({ cmd: "undo", count: depth });
    }
  }
  let best = 0;
  for (let i = 1; i < legal.length; i++) {
    const mi = n[i] ? sum[i] / n[i] : -Infinity;
    const mb = n[best] ? sum[best] / n[best] : -Infinity;
    if (mi > mb) best = i;
  }
  return legal[best];
}

// Handle one request: synchronously when it can (every command but a flat
// Monte Carlo go), so that a quick answer costs no promise round trips.
function handle(req) {
  const id = req.id ?? null;
  const cmd = req.cmd;
  switch (cmd) {
    case "ping": case "isready": case "new": case "stop":
      return reply({ id, ok: true, cmd });
    case "info":
      return reply({ id, ok: true, cmd, name: "flatmc-engine.mjs", protocol: 2 });
    case "load":
      if (!req.view || typeof req.view !== "object") {
        return reply({ id, ok: false, cmd, error: { code: "bad_request", message: "this engine loads views only" } });
      }
      view = req.view;
      player = Number.isInteger(req.player) ? req.player : req.seat;
      return reply({ id, ok: true, cmd, seat: req.seat ?? null, to_move: view.to_move ?? null });
    case "go": {
      const legal = Array.isArray(req.legal) ? req.legal : [];
      if (legal.length === 0 || view === null) {
        return reply({ id, ok: false, cmd, error: { code: "no_game", message: "go needs a loaded view and legal" } });
      }
      const rng = makeRng(req.seed);
      if (req.mode === "random" || legal.length === 1) {
        return reply({ id, ok: true, cmd, move: legal[rng(legal.length)], player });
      }
      return flatMonteCarlo(req, legal, rng).then((move) => reply({ id, ok: true, cmd, move, player }));
    }
    case "quit":
      reply({ id, ok: true, cmd });
      flush();
      if (oracle) oracle.close();
      process.exit(0);
    default:
      return reply({ id, ok: false, cmd: cmd ?? null, error: { code: "unknown_command", message: String(cmd) } });
  }
}

// Lines in order: each one waits for the answer before it (a go may be async).
const queue = [];
let running = false;
let ended = false;
function pump() {
  gathering = true;
  while (queue.length && !running) {
    const line = queue.shift();
    let req;
    try { req = JSON.parse(line); } catch (e) {
      reply({ id: null, ok: false, cmd: null, error: { code: "bad_json", message: String(e.message) } });
      continue;
    }
    const r = handle(req);
    if (r && typeof r.then === "function") {
      running = true;
      r.then(() => { running = false; pump(); });
    }
  }
  gathering = false;
  flush();
  if (ended && !running && !queue.length) {
    if (oracle) oracle.close();
    process.exit(0);
  }
}
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    if (line) queue.push(line);
  }
  pump();
});
process.stdin.on("end", () => { ended = true; pump(); });
