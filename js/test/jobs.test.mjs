// A go or perft running while other requests arrive (docs/protocol.md,
// "go, stop and the worker"): reads answered at once from the position as
// it was, changes refused with busy, ping after the job, stop ending it
// with the best move so far, quit stopping it first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../index.js";

test("requests during a 30 s go, then stop", async () => {
  const e = await createEngine();
  const order = [];
  e.onAnswer = (a) => order.push(a.id);
  await e.request({ id: 1, cmd: "new", game: "capulana", players: 3, seed: 2 });
  const before = await e.request({ id: 2, cmd: "state" });
  const go = e.request({ id: 3, cmd: "go", time: 30, apply: true, top: 2 });
  await new Promise((r) => setTimeout(r, 300));
  const ping = e.request({ id: 4, cmd: "ping" });
  assert.equal((await e.request({ id: 5, cmd: "play", move: 0 })).error.code, "busy");
  assert.equal((await e.request({ id: 6, cmd: "perft", depth: 1 })).error.code, "busy");
  assert.deepEqual((await e.request({ id: 7, cmd: "state" })).state, before.state);
  assert.equal((await e.request({ id: 8, cmd: "legal" })).moves.length > 0, true);
  assert.equal((await e.request({ id: 9, cmd: "info" })).running, "go");
  const t0 = performance.now();
  const stop = await e.request({ id: 10, cmd: "stop" });
  const g = await go;
  assert.ok(performance.now() - t0 < 1000);        // one 20 ms time slice in fact; generous for noisy machines
  assert.equal(g.stopped, true);
  assert.equal(g.applied, true);
  assert.ok(g.iterations > 0);
  assert.deepEqual(stop, { id: 10, ok: true, cmd: "stop", stopped: true, job: "go", finished: true, move: g.move });
  assert.deepEqual(await ping, { id: 4, ok: true, cmd: "ping" });
  assert.deepEqual(order.slice(-3), [3, 4, 10]);     // the go, then the waiting ping, then the stop
  assert.equal((await e.request({ id: 11, cmd: "stop" })).stopped, false);
  assert.equal((await e.request({ id: 12, cmd: "info" })).moves, 1);
});

test("stop ends a long perft; quit stops a running go first", async () => {
  const e = await createEngine();
  await e.request({ id: 1, cmd: "new", game: "capulana", players: 5, seed: 1 });
  const perft = e.request({ id: 2, cmd: "perft", depth: 64 });
  await new Promise((r) => setTimeout(r, 200));
  const stop = await e.request({ id: 3, cmd: "stop" });
  assert.deepEqual(await perft, { id: 2, ok: true, cmd: "perft", depth: 64, nodes: null, stopped: true });
  assert.equal(stop.job, "perft");
  const go = e.request({ id: 4, cmd: "go", time: 30 });
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(await e.request({ id: 5, cmd: "quit" }), { id: 5, ok: true, cmd: "quit" });
  assert.equal((await go).stopped, true);
  assert.equal(e.closed, true);
  await assert.rejects(e.request({ id: 6, cmd: "info" }));
});

test("a perft counted in pieces of depth 3 equals the native count", async () => {
  const e = await createEngine();
  await e.request({ id: 1, cmd: "new", game: "capivarias", seed: 7 });
  const a = await e.request({ id: 2, cmd: "perft", depth: 5 });
  assert.equal(a.nodes, 1800);      // the native build's load_game("capivarias").new_initial_state(seed=7).perft(5)
});
