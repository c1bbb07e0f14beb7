// tabuleiro's engine as WebAssembly: `const engine = await createEngine()`,
// then `await engine.request({cmd: ...})` answers the JSON protocol of
// docs/protocol.md. See js/README.md and docs/wasm.md.
import createCore from "./dist/tabuleiro_core.mjs";
import { Core } from "./src/core.js";
import { Engine } from "./src/engine.js";

export { Engine } from "./src/engine.js";
export { PROTOCOL_VERSION, ERROR_CODES, VERSION } from "./src/engine.js";

/**
 * Load the WebAssembly core and start one protocol session.
 * @param {{onAnswer?: (answer: object, line: string) => void, locateFile?: (name: string) => string, wasmBinary?: ArrayBuffer}} [options]
 */
export async function createEngine(options = {}) {
  const moduleOptions = {};
  if (options.locateFile) moduleOptions.locateFile = options.locateFile;
  if (options.wasmBinary) moduleOptions.wasmBinary = options.wasmBinary;
  else if (typeof process === "object" && process.versions && process.versions.node && typeof window === "undefined") {
    // Node: the module is built for the web (no require, no process hooks); hand it the bytes
    const { readFile } = await import("node:fs/promises");
    moduleOptions.wasmBinary = await readFile(new URL("./dist/tabuleiro.wasm", import.meta.url));
  }
  const m = await createCore(moduleOptions);
  return new Engine(new Core(m), { onAnswer: options.onAnswer || null });
}

/**
 * Talk to the engine in a Web Worker (worker.js) with the same
 * `request()` as createEngine's: a Promise per request, answered in
 * whatever order the protocol answers (a go when its search ends).
 * @param {Worker} [worker] a module worker running worker.js (default: a new one)
 */
export function connectWorker(worker) {
  const w = worker || new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let seq = 0;
  let readyResolve, readyReject;
  const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
  const fail = (why) => {
    const e = new Error(`the engine did not load (${why})`);
    readyReject(e);
    for (const p of waiting.values()) p.reject(e);
    waiting.clear();
  };
  // a worker script that does not load, or a message that cannot be read,
  // rejects `ready` (and every pending request) instead of leaving them waiting
  ready.catch(() => {});     // awaited by the caller; never an unhandled rejection of its own
  w.addEventListener("error", (event) => { event.preventDefault(); fail("worker error"); });
  w.addEventListener("messageerror", () => fail("unreadable message"));
  w.onmessage = (event) => {
    const { seq: s, answer, error, failed } = event.data;
    if (s === -1) {
      if (failed) fail(failed); else readyResolve();
      return;
    }
    const p = waiting.get(s);
    if (!p) return;
    waiting.delete(s);
    if (error) p.reject(new Error(error)); else p.resolve(answer);
  };
  return {
    ready,
    worker: w,
    request(request) {
      seq += 1;
      const s = seq;
      return new Promise((resolve, reject) => { waiting.set(s, { resolve, reject }); w.postMessage({ seq: s, request }); });
    },
    terminate() { w.terminate(); },
  };
}
