// A JavaScript client of `tabuleiro engine` (issue 28), as a browser or a
// Node server would write one: every answer is read with JSON.parse, so every
// number is a double. It plays one whole game as a table server would:
//
//   table  an unbound session holding the real game (the full state);
//   seat   a session bound to one seat, told every move (its own, and the
//          others' relayed with `play`), whose answers carry its view and
//          events;
//   check  a third session that `load`s every state and view the client
//          received, exactly as received, and must answer `state` with the
//          same object again.
//
// The other seats' moves are chosen by the table's `go` (agent random, a
// fixed seed); the bound seat plays the first of its `legal` moves or a
// seeded pick. At the end it prints one JSON line: the moves played (ids),
// the table's final state and the seat's final view, as received.
//
// usage: node engine_client.mjs '<engine argv as JSON>' GAME '<params JSON>' SEED SEAT

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

class Engine {
  constructor(argv, name) {
    this.name = name;
    this.proc = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.waiting = new Map();
    this.next = 1;
    this.sent = [];
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const answer = JSON.parse(line); // doubles only, as in a browser
      const done = this.waiting.get(answer.id);
      assert.ok(done, `${this.name}: an answer nobody asked for: ${line.slice(0, 200)}`);
      this.waiting.delete(answer.id);
      done(answer);
    });
  }

  ask(request) {
    const id = this.next++;
    const line = JSON.stringify({ id, ...request });
    this.sent.push(line);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.proc.stdin.write(line + "\n");
    });
  }

  async ok(request) {
    const answer = await this.ask(request);
    assert.equal(answer.ok, true, `${this.name}: ${JSON.stringify(request).slice(0, 200)} -> ${JSON.stringify(answer).slice(0, 400)}`);
    return answer;
  }

  async quit() {
    await this.ask({ cmd: "quit" });
    this.proc.stdin.end();
  }
}

// every integer a JavaScript client holds must be exact: none past 2^53 - 1
function assertSafe(value, where) {
  if (typeof value === "number") {
    assert.ok(!Number.isInteger(value) || Number.isSafeInteger(value), `${where}: ${value} is not exact in a double`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertSafe(v, `${where}[${i}]`));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) if (k !== "id") assertSafe(v, `${where}.${k}`);
  }
}

// a small seeded generator (mulberry32), for the bound seat's picks
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const [argvJson, game, paramsJson, seed, seatText] = process.argv.slice(2);
  const argv = JSON.parse(argvJson);
  const params = JSON.parse(paramsJson);
  const seat = Number(seatText);
  const table = new Engine(argv, "table");
  const bound = new Engine(argv, "seat");
  const check = new Engine(argv, "check");
  const pick = rng(seat + 17);
  let reloads = 0;

  async function reloadState(state) {
    await check.ok({ cmd: "load", state });
    const again = await check.ok({ cmd: "state" });
    assert.deepEqual(again.state, state, "a full state changed on its way through load");
    reloads++;
  }
  async function reloadView(view) {
    await check.ok({ cmd: "load", view, player: seat, seat });
    const again = await check.ok({ cmd: "state" });
    assert.deepEqual(again.state, view, "a view changed on its way through load");
    reloads++;
  }

  const made = await table.ok({ cmd: "new", game, seed, ...params });
  assert.equal(made.seed, seed, "the seed came back changed");
  assert.equal(typeof made.seed, "string");
  await bound.ok({ cmd: "new", game, seed, seat, ...params });
  const moves = [];
  let events = 0;
  let over = false;
  while (!over) {
    const full = await table.ok({ cmd: "state" });
    assertSafe(full, "state");
    await reloadState(full.state);
    const mover = full.state.to_move;
    let move;
    if (mover === seat) {
      const legal = await bound.ok({ cmd: "legal" });
      move = legal.moves[Math.floor(pick() * legal.moves.length)].id;
    } else {
      const go = await table.ok({ cmd: "go", agent: "random", seed: String(moves.length) });
      move = go.move.id;
    }
    const played = await table.ok({ cmd: "play", move });
    const told = await bound.ok({ cmd: "play", move });
    assertSafe(told, "play");
    assert.equal(told.move === null, mover !== seat, "only the seat's own moves are named to it");
    assert.ok(Array.isArray(told.events) && told.events[0].kind === "move" && told.events[0].player === mover);
    events += told.events.length;
    await reloadView(told.view);
    moves.push(move);
    over = played.over;
    assert.equal(told.over, over);
  }
  const final = await table.ok({ cmd: "state" });
  await reloadState(final.state);
  const view = await bound.ok({ cmd: "state" });
  await reloadView(view.state);
  for (const e of [table, bound, check]) await e.quit();
  console.log(JSON.stringify({ moves, state: final.state, view: view.state, reloads, events }));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
