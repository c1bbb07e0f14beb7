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
