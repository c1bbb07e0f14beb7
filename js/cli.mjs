#!/usr/bin/env node
// The WebAssembly engine on stdin/stdout, one JSON request a line, as
// `tabuleiro engine` (docs/protocol.md). Requests are handled as they are
// read (a `stop` during a `go` ends it). With --serial, each request is
// answered before the next line is read: a script can then pipeline a whole
// game (go, play, state...) without meeting `busy` (the differential test).
import { createInterface } from "node:readline";
import { createEngine } from "./index.js";

const serial = process.argv.includes("--serial");
const engine = await createEngine({ onAnswer: (answer, line) => process.stdout.write(line + "\n") });
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
const pending = [];
for await (const line of rl) {
  const p = engine.request(line.endsWith("\r") ? line.slice(0, -1) : line);
  if (serial) await p; else pending.push(p);
  if (engine.closed) break;
}
await engine.finishJob();
await Promise.all(pending);
process.exit(0);
