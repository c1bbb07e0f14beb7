/* app.js: the reference page of `tabuleiro serve` (docs/server.md, "The web page").
 *
 * A person picks a game, the player count, their seat and the AI levels; the
 * page starts a table through transport.js and plays the seat: every view
 * message is drawn by the game's module (capivarias.js, capulana.js), legal
 * moves are buttons carrying their notation in `data-move`, the AI's moves
 * since the seat's last move are listed, and the outcome is shown at the end.
 * The page draws only what the view messages hold.
 *
 * Two transports, one interface: transport.js (tables on the server) and
 * offline.js (the WebAssembly engine in a worker of this page, when the
 * server serves it at wasm/: `tabuleiro serve --wasm-dir DIR`). The form's
 * "Offline (in this browser)" choice is enabled only when it is served.
 */

import * as serverTransport from "./transport.js";
import * as offlineTransport from "./offline.js";
import {h} from "./dom.js";
import * as capivarias from "./capivarias.js";
import * as capulana from "./capulana.js";

const GAMES = {capivarias, capulana};
const TRANSPORTS = {server: serverTransport, offline: offlineTransport};
const PLAYER_RANGE = {capivarias: [2, 2], capulana: [2, 5]};
const LOG_LIMIT = 200;

const $ = (id) => document.getElementById(id);

const session = {
  table: null,      // the transport's Table
  game: null,       // the game's module
  catalog: null,    // its card tables
  seats: [],        // the seat specs, for names
  msg: null,        // the last view message
  busy: false,      // a move was sent, its view has not come back
  ui: {},           // the game module's choices between views (the card picked to weave)
  log: [],          // event texts, oldest first
  recent: [],       // events since the seat's last move
};

/* --- the form ------------------------------------------------------------------------------------- */

function syncForm() {
  const game = $("game").value;
  const [lo, hi] = PLAYER_RANGE[game];
  const players = $("players");
  const keep = Number(players.value) || 3;
  players.replaceChildren(...Array.from({length: hi - lo + 1}, (_, i) => h("option", {value: lo + i}, lo + i)));
  players.value = String(Math.min(Math.max(keep, lo), hi));
  players.disabled = lo === hi;
  $("expansion-row").hidden = game !== "capivarias";
  const n = Number(players.value);
  const seat = $("seat");
  const seatKeep = Math.min(Number(seat.value) || 0, n - 1);
  seat.replaceChildren(...Array.from({length: n}, (_, i) =>
    h("option", {value: i}, i === 0 ? "P0 (moves first)" : `P${i}`)));
  seat.value = String(seatKeep);
  const levels = $("levels");
  const old = [...levels.querySelectorAll("select")].map((s) => s.value);
  levels.replaceChildren(...Array.from({length: n}, (_, i) => {
    if (i === seatKeep) return null;
    const select = h("select", {id: `level-${i}`, name: `level-${i}`},
      Array.from({length: 10}, (_, k) => h("option", {value: k + 1}, `level ${k + 1}`)));
    select.value = old[i] || "3";
    return h("label", {class: "level"}, `P${i} (AI) `, select);
  }));
}

async function onStart(event) {
  event.preventDefault();
  const game = $("game").value;
  const n = Number($("players").value);
  const seat = Number($("seat").value);
  const seats = Array.from({length: n}, (_, i) => (i === seat ? "human" : `level:${$(`level-${i}`).value}`));
  const params = game === "capulana" ? {players: n} : {expansion: $("expansion").checked};
  const mode = $("mode-offline").checked ? "offline" : "server";
  const transport = TRANSPORTS[mode];
  const button = $("start");
  button.disabled = true;
  clearAlerts();
  try {
    const module = GAMES[game];
    const catalog = await module.init(transport.loadReference);
    const table = await transport.startTable({game, params, seats});
    Object.assign(session, {table, game: module, catalog, seats, msg: null, busy: false, ui: {}, log: [], recent: []});
    $("setup").hidden = true;
    $("play").hidden = false;
    $("play").dataset.game = game;
    $("play").dataset.table = table.id;
    $("play").dataset.mode = mode;
    $("table-id").textContent = table.id;
    $("seat-name").textContent = `P${table.seat}`;
    $("game-title").textContent = module.title;
    setStatus("connecting", "Connecting…");
    table.onView(onView);
    table.onError(onError);
  } catch (e) {
    showAlert(e.message || String(e), e.code || "error");
  } finally {
    button.disabled = false;
  }
}

function onNewGame() {
  if (session.table) session.table.close();
  session.table = null;
  $("play").hidden = true;
  $("setup").hidden = false;
  $("outcome").hidden = true;
  clearAlerts();
}

/* --- messages --------------------------------------------------------------------------------------- */

function name(p) {
  if (p === session.table.seat) return "You";
  const spec = session.seats[p] || "";
  return spec.startsWith("level:") ? `P${p} (AI level ${spec.slice(6)})` : `P${p}`;
}

function onView(msg) {
  const prev = session.msg;
  const seat = session.table.seat;
  if (prev && msg.ply === prev.ply + 1) {
    if (msg.events.length && msg.events[0].kind === "move" && msg.events[0].player === seat) {
      session.recent = msg.events.slice(1);
    } else {
      session.recent.push(...msg.events);
    }
    session.log.push(...msg.events.map((e) => e.text));
  } else if (!prev || msg.ply !== prev.ply) {
    // the first view, or a reconnect that skipped views: the move list says what happened
    session.log = msg.moves.map((m) => m.text);
    const mine = msg.moves.map((m) => m.player).lastIndexOf(seat);
    session.recent = msg.moves.slice(mine + 1).map((m) => ({kind: "move", player: m.player, text: m.text}));
    if (msg.events.length && msg.moves.length && msg.moves[msg.moves.length - 1].player !== seat) {
      session.recent.push(...msg.events.filter((e) => e.kind !== "move"));
    }
  }
  session.log = session.log.slice(-LOG_LIMIT);
  session.msg = msg;
  session.busy = false;
  render();
}

function onError({code, message}) {
  if (code === "reconnected") {
    clearAlerts();
    showAlert(message, code, "info");
    return;
  }
  session.busy = false;
  showAlert(message, code);
  if (session.msg) render();
}

function showAlert(message, code, kind = "error") {
  const box = $("alerts");
  if (box.children.length >= 3) box.firstElementChild.remove();
  box.append(h("div", {class: `alert ${kind}`, dataset: {code}},
    h("span", {}, `${kind === "error" ? "Error" : "Note"} (${code}): ${message}`),
    h("button", {type: "button", class: "dismiss", onclick: (e) => e.target.parentElement.remove()}, "Dismiss")));
}

function clearAlerts() {
  $("alerts").replaceChildren();
}

function setStatus(state, text) {
  const status = $("status");
  status.dataset.state = state;
  status.textContent = text;
}

/* --- drawing -------------------------------------------------------------------------------------- */

function moveButton(move, content, {label = null, cls = ""} = {}) {
  return h("button", {
    type: "button", class: `move ${cls}`, dataset: {move}, disabled: session.busy,
    title: `play ${move}`, "aria-label": label ? `${label}` : null,
    onclick: (event) => play(event.currentTarget.dataset.move)},
  content, h("code", {class: "notation"}, move));
}

function play(move) {
  if (session.busy || !session.msg || !session.msg.legal.length) return;
  session.busy = true;
  clearAlerts();
  session.table.move(move, session.msg.ply);
  for (const b of document.querySelectorAll("button.move")) b.disabled = true;
  setStatus("sent", `Playing ${move}…`);
}

function render() {
  const msg = session.msg;
  const seat = session.table.seat;
  const ctx = {seat, name, ui: session.ui, moveButton, rerender: render};
  const root = $("play");
  root.dataset.ply = msg.ply;
  root.dataset.toMove = msg.to_move === null ? "" : msg.to_move;
  $("board").replaceChildren(session.game.board(msg, session.catalog, ctx));
  const moves = $("moves");
  moves.hidden = false;
  if (msg.over) {
    setStatus("over", "The game is over");
    moves.replaceChildren();
    moves.hidden = true;
  } else if (msg.legal.length) {
    setStatus(session.busy ? "sent" : "your-turn", "Your turn: choose a move");
    moves.replaceChildren(h("h2", {}, "Your move"), session.game.controls(msg, session.catalog, ctx));
  } else {
    setStatus("waiting", `${name(msg.to_move)} is thinking…`);
    moves.replaceChildren(h("h2", {}, "Waiting"), h("p", {class: "muted"}, `${name(msg.to_move)} is to move.`));
  }
  const recent = session.recent.filter((e) => e.text);
  $("recent").replaceChildren(h("h2", {}, "Since your last move"),
    recent.length ? h("ol", {}, recent.map((e) => h("li", {class: `event ${e.kind}`}, e.text)))
      : h("p", {class: "muted"}, "nothing yet"));
  const log = h("ol", {}, session.log.map((t) => h("li", {}, t)));
  $("log").replaceChildren(h("summary", {}, `Game log (${session.log.length})`), log);
  renderOutcome(msg);
}

function renderOutcome(msg) {
  const box = $("outcome");
  if (!msg.over || !msg.outcome) {
    box.hidden = true;
    return;
  }
  const o = msg.outcome;
  const seat = session.table.seat;
  let headline;
  if (!o.winners.length) headline = "A draw";
  else if (o.winners.includes(seat)) headline = o.winners.length === 1 ? "You win!" : `You share the win with ${o.winners.filter((p) => p !== seat).map(name).join(", ")}`;
  else headline = `${o.winners.map(name).join(" and ")} ${o.winners.length === 1 ? "wins" : "share the win"}`;
  box.hidden = false;
  box.dataset.outcome = JSON.stringify({winners: o.winners, returns: o.returns, scores: o.scores});
  box.replaceChildren(
    h("h2", {}, headline),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "player"), h("th", {}, "score"), h("th", {}, "return"), h("th", {}, ""))),
      h("tbody", {}, o.returns.map((r, p) => h("tr", {class: o.winners.includes(p) ? "winner" : "", dataset: {player: p}},
        h("td", {}, name(p)), h("td", {class: "num"}, o.scores[p]), h("td", {class: "num"}, formatReturn(r)),
        h("td", {}, o.winners.includes(p) ? "winner" : ""))))),
    h("button", {type: "button", onclick: onNewGame}, "New game"));
}

function formatReturn(r) {
  return Number.isInteger(r) ? (r > 0 ? `+${r}` : String(r)) : r.toFixed(3).replace(/0+$/, "");
}

/* --- offline play: offered only when the server serves the engine ------------------------------- */

async function probeOffline() {
  const row = $("mode-row");
  const choice = $("mode-offline");
  const note = $("offline-note");
  const state = await offlineTransport.available();
  choice.disabled = !state.available;
  if (state.available) {
    row.dataset.offline = "available";
    note.textContent = "Offline: the AI runs in this browser (the engine as WebAssembly); "
      + "no table is created on the server, and reloading the page ends the game.";
  } else {
    if (choice.checked) $("mode-server").checked = true;
    row.dataset.offline = "unavailable";
    note.textContent = `Offline (in this browser) is not available: ${state.reason}.`;
  }
}

/* --- start ---------------------------------------------------------------------------------------- */

$("game").addEventListener("change", syncForm);
$("players").addEventListener("change", syncForm);
$("seat").addEventListener("change", syncForm);
$("setup-form").addEventListener("submit", onStart);
$("new-game").addEventListener("click", onNewGame);
syncForm();
probeOffline().finally(() => { document.body.dataset.ready = "true"; });
