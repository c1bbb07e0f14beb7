/* transport.js: how the page reaches a game. The one module to swap.
 *
 * Every transport exports the same two functions; the page uses nothing else.
 *
 *   startTable({game, params, seats}) -> Promise<Table>
 *       game    a game's registry name ("capivarias", "capulana")
 *       params  the game's parameters ({players: 3}, {expansion: true})
 *       seats   one string per player: "human" (exactly one: the seat this
 *               page plays) or an AI seat ("level:1".."level:10")
 *     Rejects with an Error whose `code` and `message` say why (a server
 *     error code of docs/server.md, or "connection").
 *
 *   loadReference(name) -> Promise<string>
 *       The text of a reference table shipped with the package
 *       ("capulana_fabric_cards.csv"): the card faces are read from these,
 *       never written into the page.
 *
 *   Table:
 *     id                the table's id (not a secret: shown on the page)
 *     seat              the seat this page plays
 *     onView(fn)        fn(message) for every view message: the object
 *                       docs/server.md calls "the view message" (type "view",
 *                       ply, to_move, over, outcome, view, legal, moves, events).
 *                       The page renders only what these hold.
 *     onError(fn)       fn({code, message}) for a refused move (illegal_move,
 *                       stale, ...) and for a lost or restored connection
 *                       ("connection", "reconnected")
 *     move(notation, ply)  play a move for the seat; `ply` is the ply of the
 *                       view the move was chosen in (a late click is refused
 *                       with "stale", never played twice)
 *     close()           stop listening (the table stays on the server)
 *
 * This module is the server transport: POST /tables, then the seat's
 * WebSocket. The seat's token lives only in this closure: not in the
 * address bar, not in storage, not in any log. It travels in the socket's
 * query string because browsers cannot set headers on a WebSocket (docs/
 * server.md says how to keep it out of a proxy's access log). A reload
 * therefore leaves the game: the page cannot get back to the seat.
 * An offline transport (the engine compiled to WebAssembly) exports the same
 * interface and produces the same messages.
 */

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** An error a transport rejects with: `code` as in docs/server.md. Shared by every transport. */
export class TransportError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "TransportError";
    this.code = code;
  }
}

/** `path` resolved against the page's address (the server that served it). */
export function endpoint(path) {
  return new URL(path, document.baseURI);
}

async function readError(response) {
  try {
    const body = await response.json();
    if (body && body.error) return new TransportError(body.error.code, body.error.message);
  } catch (_) { /* not JSON: fall through */ }
  return new TransportError("http", `the server answered HTTP ${response.status}`);
}

export async function loadReference(name) {
  const response = await fetch(endpoint(`data/${encodeURIComponent(name)}`));
  if (!response.ok) throw new TransportError("http", `cannot read ${name}: HTTP ${response.status}`);
  return response.text();
}

export async function startTable({game, params, seats}) {
  let response;
  try {
    response = await fetch(endpoint("tables"), {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({game, params, seats}),
    });
  } catch (e) {
    throw new TransportError("connection", "the server cannot be reached");
  }
  if (response.status !== 201) throw await readError(response);
  const created = await response.json();
  const mine = created.seats.find((s) => s.kind === "human");
  if (!mine) throw new TransportError("bad_request", "the table has no human seat");
  return new ServerTable(created.table, mine.seat, mine.token, created.ws);
}

class ServerTable {
  #token;
  #socket = null;
  #viewHandlers = [];
  #errorHandlers = [];
  #queue = [];
  #closed = false;
  #over = false;
  #retries = 0;
  #nextId = 1;

  constructor(id, seat, token, wsPath) {
    this.id = id;
    this.seat = seat;
    this.#token = token;
    this.wsPath = wsPath;
    this.#connect();
  }

  onView(fn) { this.#viewHandlers.push(fn); }

  onError(fn) { this.#errorHandlers.push(fn); }

  move(notation, ply) {
    this.#send({type: "move", move: notation, ply, id: this.#nextId++});
  }

  close() {
    this.#closed = true;
    if (this.#socket) this.#socket.close(1000);
  }

  #emitError(code, message) {
    for (const fn of this.#errorHandlers) fn({code, message});
  }

  #send(obj) {
    const text = JSON.stringify(obj);
    if (this.#socket && this.#socket.readyState === WebSocket.OPEN) this.#socket.send(text);
    else this.#queue.push(text);
  }

  #connect() {
    const url = endpoint(this.wsPath.replace(/^\//, ""));
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("token", this.#token);
    const socket = new WebSocket(url.href);
    this.#socket = socket;
    socket.onopen = () => {
      if (this.#retries > 0) this.#emitError("reconnected", "connection restored");
      this.#retries = 0;
      for (const text of this.#queue.splice(0)) socket.send(text);
    };
    socket.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (_) {
        this.#emitError("bad_json", "the server sent a message that is not JSON");
        return;
      }
      if (msg.type === "view") {
        this.#over = msg.over;
        for (const fn of this.#viewHandlers) fn(msg);
      } else if (msg.type === "error") {
        this.#emitError(msg.code, msg.message);
      }
      // "ack" and "pong" need nothing: the view message that follows an ack shows the move.
    };
    socket.onclose = (event) => {
      if (this.#closed || socket !== this.#socket) return;
      const fatal = {4401: "no_token", 4403: "bad_token", 4404: "no_table", 4410: "no_table"}[event.code];
      if (fatal) {
        this.#emitError(fatal, event.code === 4410
          ? "the table expired on the server (no move for too long)"
          : `the server closed the table's connection (${fatal})`);
        return;
      }
      if (this.#over && event.code === 1000) return;
      if (this.#retries >= RETRY_DELAYS_MS.length) {
        this.#emitError("connection", "the connection to the server is lost; reload to start a new game");
        return;
      }
      const delay = RETRY_DELAYS_MS[this.#retries++];
      this.#emitError("connection", `the connection to the server is lost; trying again in ${delay / 1000} s`);
      setTimeout(() => { if (!this.#closed) this.#connect(); }, delay);
    };
  }
}
