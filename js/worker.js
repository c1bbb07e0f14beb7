// The engine in a Web Worker (a module worker): post a request (an object
// or a JSON line) as {seq, request}; the worker posts {seq, answer} when it
// is answered. Requests are handled as they arrive, so a `stop` posted while
// a `go` runs is read at the search's next yield (every 20 ms at most) and
// ends it: the go answers first with its best move so far, then the stop.
//   const w = new Worker(new URL("./worker.js", import.meta.url), {type: "module"});
// or use connectWorker() from index.js, which does the bookkeeping.
import { createEngine } from "./index.js";

// If the engine cannot load (a missing or damaged .wasm), the worker says so
// once ({seq: -1, failed: name}) and answers every request with that error,
// so that nothing waits on it for ever.
const ready = createEngine();
ready.then(
  () => self.postMessage({ seq: -1, answer: null, ready: true }),
  (e) => self.postMessage({ seq: -1, answer: null, failed: String((e && e.name) || "Error") }),
);
self.onmessage = async (event) => {
  const { seq, request } = event.data;
  try {
    const engine = await ready;
    const answer = await engine.request(request);
    self.postMessage({ seq, answer });
  } catch (e) {
    self.postMessage({ seq, answer: null, error: String(e && e.message) });
  }
};
