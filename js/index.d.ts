/** One answer of the engine protocol (docs/protocol.md): `ok` and the command's fields, or `error`. */
export interface Answer {
  id: string | number | boolean | null;
  ok: boolean;
  cmd: string | null;
  error?: { code: ErrorCode; message: string };
  [field: string]: unknown;
}

export type ErrorCode = "bad_json" | "bad_request" | "unknown_command" | "no_game" | "invalid_move" | "illegal_move"
  | "invalid_state" | "game_over" | "busy" | "not_your_seat" | "forbidden" | "line_too_long" | "internal";

/** A request: an object with `cmd` (and `id`, and the command's fields), or one JSON line. */
export type Request = { cmd: string; id?: string | number | boolean | null; [field: string]: unknown } | string | Uint8Array;

/** One protocol session over the WebAssembly core. */
export interface Engine {
  /** Answer one request; a `go` or `perft` resolves when its job ends (meanwhile other requests are answered). */
  request(request: Request): Promise<Answer | null>;
  /** True after `quit`. */
  readonly closed: boolean;
}

export interface EngineOptions {
  /** Called with every answer, in the order the protocol writes them (and its JSON line). */
  onAnswer?: (answer: Answer, line: string) => void;
  /** Where the module finds tabuleiro.wasm (Emscripten's locateFile). */
  locateFile?: (name: string) => string;
  /** The .wasm bytes, when the caller has them already. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** Load the WebAssembly core and start one session. */
export function createEngine(options?: EngineOptions): Promise<Engine>;

/** The engine in a Web Worker (worker.js), with the same request(). */
export interface WorkerEngine {
  readonly ready: Promise<void>;
  readonly worker: Worker;
  request(request: Request): Promise<Answer | null>;
  terminate(): void;
}
export function connectWorker(worker?: Worker): WorkerEngine;

export const PROTOCOL_VERSION: number;
export const VERSION: string;
export const ERROR_CODES: readonly ErrorCode[];
