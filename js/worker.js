// The engine in a Web Worker (a module worker): post a request (an object
// or a JSON line) as {seq, request}; the worker posts {seq, answer} when it
// is answered. Requests are handled as they arrive, so a `stop` posted while
// a `go` runs is read at the search's next yield (every 20 ms at most) and
// ends it: the go answers first with its best move so far, then the stop.
//   const w = new Worker(new URL("./worker.js", import.meta.url), {type: "module"});
// or use connectWorker() from index.js, which does the bookkeeping.
import { createEngine } from "./index.js";

const ready = createEngine();
self.onmessage = async (event) => {
  const { seq, request } = event.data;
  const engine = await ready;
  try {
    const answer = await engine.request(request);
    self.postMessage({ seq, answer });
  } catch (e) {
    self.postMessage({ seq, answer: null, error: String(e && e.message) });
  }
};
ready.then(() => self.postMessage({ seq: -1, answer: null, ready: true }));
