/* capulana.js: Capulana on the page (RULES.md part 1).
 *
 * Draws a seat's view message: the round and phase, the revealed objectives,
 * the announced cards in their slots with the offers on them (the seat's own
 * face up, the others' as face-down backs with their count), every player's
 * hand (the seat's cards; the others' counts and publicly known cards) and
 * capulana (its visible strips, R8, and their set points now, R10). Fabric
 * cards are coloured tiles, one per strip, with the pattern drawn and named.
 * Moves: bids on slots, cards to offer, `done`; while weaving, the seat picks
 * a card of its hand and then one of that card's placements, each shown with
 * the strips and set points it would leave. Card faces come from
 * capulana_fabric_cards.csv, objectives from capulana_objectives.csv.
 */

import {h, parseCsv, playerName} from "./dom.js";

export const title = "Capulana";

const COLOURS = {Y: "yellow", G: "green", R: "red", B: "blue", O: "orange", "*": "any colour"};
const PATTERNS = {D: "diamonds", T: "triangles", C: "circles", Z: "zigzags", L: "leaves", "*": "any pattern"};
const GLYPHS = {D: "◆", T: "▲", C: "●", Z: "≋", L: "♣", "*": "✱"};
const PLACEMENTS = {"+": "touching", ">1": "over 1", ">2": "over 2", ">3": "over 3",
                    "<1": "under 1", "<2": "under 2", "<3": "under 3"};

export async function init(loadReference) {
  const [cardText, objectiveText] = await Promise.all([
    loadReference("capulana_fabric_cards.csv"), loadReference("capulana_objectives.csv")]);
  const cards = {};
  for (const r of parseCsv(cardText)) {
    cards[r.id] = {name: r.id, kind: r.kind, stripe: r.stripe, value: Number(r.value), strips: r.strips.split(" ")};
  }
  const objectives = {};
  for (const r of parseCsv(objectiveText)) objectives[r.id] = {points: Number(r.points), condition: r.condition};
  return {cards, objectives};
}

/** A placement "F13 r>2" as {card, orientation, kind, k}. */
function parsePlacement(text) {
  const m = /^(\S+) ([nr])(\+|[<>][123])$/.exec(text);
  if (!m) return null;
  return {card: m[1], orientation: m[2], mode: m[3]};
}

/** Appends one placement to a visible row {strips, v} (R8), returning the new row. */
function place(row, placement, cat) {
  const card = cat.cards[placement.card];
  if (!card) return row;
  const strips = placement.orientation === "r" ? [...card.strips].reverse() : [...card.strips];
  const k = placement.mode === "+" ? 0 : Number(placement.mode.slice(1));
  if (placement.mode === "+") return {strips: [...row.strips, ...strips], v: strips.length};
  if (placement.mode[0] === ">") return {strips: [...row.strips.slice(0, row.strips.length - k), ...strips], v: strips.length};
  return {strips: [...row.strips, ...strips.slice(k)], v: strips.length - k};
}

/** The visible strips of a capulana row (its placements in order). */
export function visibleStrips(placements, cat) {
  let row = {strips: [], v: 0};
  for (const text of placements) {
    const p = parsePlacement(text);
    if (p) row = place(row, p, cat);
  }
  return row;
}

/** Set points of a strip sequence (R10): each maximal run of 3+ of one colour (or pattern), wilds in every run. */
export function scoreStrips(strips) {
  let total = 0;
  for (const [index, letters] of [[0, "YGRBO"], [1, "DTCZL"]]) {
    for (const x of letters) {
      let run = 0, exact = false;
      for (const s of [...strips, "--"]) {
        const c = s[index];
        if (s !== "--" && (c === x || c === "*")) {
          run += 1;
          exact = exact || c === x;
        } else {
          if (run >= 3 && exact) total += run;
          run = 0;
          exact = false;
        }
      }
    }
  }
  return total;
}

function stripName(s) {
  return s === "--" ? "raw strip" : `${COLOURS[s[0]]} ${PATTERNS[s[1]]}`;
}

/** One strip: its colour as the tile's colour and as a letter, its pattern drawn. */
function stripTile(s) {
  const raw = s === "--";
  return h("span", {class: `strip ${raw ? "raw" : `c-${s[0] === "*" ? "wild" : s[0]}`}`, role: "img",
                    "aria-label": stripName(s), title: stripName(s)},
           raw ? "" : h("span", {class: "glyph"}, GLYPHS[s[1]]), raw ? "raw" : h("span", {class: "letter"}, s[0]));
}

function stripRow(strips, {cls = ""} = {}) {
  return h("span", {class: `strips ${cls}`}, strips.map(stripTile));
}

/** A card face up: name, value and value stripe, then its strips. */
function cardFace(name, cat, {small = false} = {}) {
  const card = cat.cards[name];
  if (!card) return h("span", {class: "cp-card", dataset: {card: name}}, name);
  const stripe = card.kind === "fabric" ? card.stripe : "initial";
  return h("span", {class: `cp-card stripe-${stripe}${small ? " small" : ""}`, dataset: {card: name}},
           h("span", {class: "cp-card-head"}, h("b", {}, name),
             card.kind === "fabric" ? h("span", {class: "value"}, `$${card.value}`) : h("span", {}, "initial")),
           stripRow(card.strips));
}

/** Face-down cards: how many, never which. */
function cardBacks(count, label = "face down") {
  return h("span", {class: "cp-back", title: `${count} card${count === 1 ? "" : "s"} ${label}`},
           `${count} ${label}`);
}

function offerBox(offer, ctx, cat, open) {
  const mine = Array.isArray(offer.cards);
  const count = mine ? offer.cards.length : offer.cards.count;
  return h("div", {class: `cp-offer${offer.player === ctx.seat ? " mine" : ""}`},
    h("span", {class: "who"}, `${playerName(offer.player, ctx.seat)}${open ? " (still offering)" : ""}`),
    mine ? (count ? offer.cards.map((c) => cardFace(c, cat, {small: true})) : h("span", {class: "muted"}, "empty offer"))
      : cardBacks(count));
}

function slotsBox(v, ctx, cat) {
  if (!v.slots.length) return null;
  return h("section", {class: "cp-slots", "aria-label": "announced cards and offers"},
    h("h3", {}, "Announced cards and offers"),
    h("div", {class: "row"}, v.slots.map((card, i) => {
      const offers = v.offers.filter((o) => o.slot === i).map((o) => offerBox(o, ctx, cat, false));
      if (v.open_offer && v.open_offer.slot === i) offers.push(offerBox(v.open_offer, ctx, cat, true));
      return h("div", {class: "cp-slot", dataset: {slot: i}},
        h("div", {class: "slot-name"}, `slot ${i}`), cardFace(card, cat),
        offers.length ? offers : h("span", {class: "muted"}, "no offer yet"));
    })));
}

function handBox(hand, p, ctx, cat) {
  if (Array.isArray(hand)) {
    return h("div", {class: "cp-hand"}, h("span", {class: "label"}, `hand (${hand.length})`),
      hand.length ? hand.map((c) => cardFace(c, cat, {small: true})) : h("span", {class: "muted"}, "empty"));
  }
  const known = hand.known || [];
  return h("div", {class: "cp-hand"}, h("span", {class: "label"}, `hand (${hand.count})`),
    hand.count > known.length ? cardBacks(hand.count - known.length, "unknown") : null,
    known.length ? [h("span", {class: "label"}, "known:"), known.map((c) => cardFace(c, cat, {small: true}))] : null);
}

function playerBox(v, p, msg, ctx, cat) {
  const row = visibleStrips(v.capulanas[p], cat);
  const points = scoreStrips(row.strips);
  const turn = msg.to_move === p;
  let status = "";
  if (v.phase === "weave") status = v.weave_done[p] ? "done weaving" : (p === ctx.seat && v.woven[p] ? `wove ${v.woven[p]}` : "");
  return h("section", {class: `cp-player${p === ctx.seat ? " mine" : ""}${turn ? " to-move" : ""}`,
                       dataset: {player: p, sets: points}},
    h("div", {class: "cp-player-head"},
      h("b", {}, ctx.name(p)), turn ? h("span", {class: "pill turn"}, "to move") : null,
      status ? h("span", {class: "pill"}, status) : null,
      h("span", {class: "pill", title: "set points of the visible strips now (R10); objectives are added at the end"},
        `sets ${points}`)),
    h("div", {class: "cp-row", "aria-label": `${ctx.name(p)}'s capulana`},
      h("span", {class: "label"}, `capulana: ${v.capulanas[p].join(", ")}`), stripRow(row.strips, {cls: "big"})),
    handBox(v.hands[p], p, ctx, cat));
}

export function board(msg, cat, ctx) {
  const v = msg.view;
  const phases = {offer: "offers", weave: "weaving", over: "game over"};
  const head = h("div", {class: "cp-head"},
    h("span", {class: "pill"}, `Round ${v.round} of 4`),
    h("span", {class: "pill"}, `Phase: ${phases[v.phase] || v.phase}`),
    h("span", {class: "pill"}, `Start player: ${playerName(v.start_player, ctx.seat)}`),
    h("span", {class: "pill"}, `Deck: ${v.deck.count} face down`));
  const objectives = h("section", {class: "cp-objectives"}, h("h3", {}, "Objectives"),
    h("ul", {}, v.objectives.map((id) => {
      const o = cat.objectives[id] || {points: "?", condition: ""};
      return h("li", {}, h("b", {}, `${id} · ${o.points} pts`), ` ${o.condition}`);
    })));
  const order = [...Array(v.players).keys()].sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  return h("div", {class: "cp-board"}, head, h("div", {class: "cp-top"}, slotsBox(v, ctx, cat), objectives),
    h("div", {class: "cp-players"}, order.map((p) => playerBox(v, p, msg, ctx, cat))));
}

function placementLabel(mode, orientation) {
  return `${orientation === "r" ? "rotated" : "as printed"}, ${PLACEMENTS[mode]}`;
}

export function controls(msg, cat, ctx) {
  const v = msg.view;
  const bids = [], offers = [], weaves = new Map(), other = [];
  for (const {move} of msg.legal) {
    if (move.startsWith("bid ")) bids.push(move);
    else if (move.startsWith("offer ")) offers.push(move);
    else {
      const p = parsePlacement(move);
      if (p) {
        if (!weaves.has(p.card)) weaves.set(p.card, []);
        weaves.get(p.card).push(p);
      } else other.push(move);
    }
  }
  const parts = [];
  if (bids.length) {
    parts.push(h("div", {class: "move-group"}, h("div", {class: "move-group-head"}, "Make an offer on a slot"),
      h("div", {class: "row"}, bids.map((move) => {
        const slot = Number(move.slice(4));
        return ctx.moveButton(move, `slot ${slot}: ${v.slots[slot]}`);
      }))));
  }
  if (offers.length) {
    const open = v.open_offer && Array.isArray(v.open_offer.cards) ? v.open_offer.cards : [];
    const total = open.reduce((s, c) => s + (cat.cards[c] ? cat.cards[c].value : 0), 0);
    parts.push(h("div", {class: "move-group"}, h("div", {class: "move-group-head"},
      `Add a card to your offer on slot ${v.open_offer ? v.open_offer.slot : "?"} (${open.length} of 3, $${total} so far)`),
      h("div", {class: "row"}, offers.map((move) => ctx.moveButton(move, cardFace(move.slice(6), cat, {small: true}),
                                                                   {label: move})))));
  }
  if (weaves.size) {
    if (!weaves.has(ctx.ui.weaveCard)) ctx.ui.weaveCard = weaves.keys().next().value;
    const chosen = ctx.ui.weaveCard;
    const before = visibleStrips(v.capulanas[ctx.seat], cat);
    const now = scoreStrips(before.strips);
    parts.push(h("div", {class: "move-group"},
      h("div", {class: "move-group-head"}, `Weave a card (${v.woven[ctx.seat]} of 2 this round): pick a card, then where it goes`),
      h("div", {class: "row", role: "group", "aria-label": "cards you can weave"},
        [...weaves.keys()].map((name) => h("button", {
          type: "button", class: `choose${name === chosen ? " chosen" : ""}`, "aria-pressed": String(name === chosen),
          dataset: {card: name}, onclick: () => { ctx.ui.weaveCard = name; ctx.rerender(); }},
          cardFace(name, cat, {small: true})))),
      h("div", {class: "placements"}, weaves.get(chosen).map((p) => {
        const after = place(before, p, cat);
        const points = scoreStrips(after.strips);
        const added = after.strips.slice(Math.max(0, after.strips.length - 7));
        const move = `${p.card} ${p.orientation}${p.mode}`;
        return ctx.moveButton(move, h("span", {class: "placement"},
          h("span", {}, placementLabel(p.mode, p.orientation)),
          h("span", {class: "muted"}, `sets ${now} → ${points}`),
          stripRow(added)));
      }))));
  }
  const open = v.open_offer && Array.isArray(v.open_offer.cards) ? v.open_offer.cards : [];
  const value = open.reduce((s, c) => s + (cat.cards[c] ? cat.cards[c].value : 0), 0);
  const closing = open.length ? `Close the offer: ${open.length} card${open.length === 1 ? "" : "s"}, $${value}`
    : "Close the offer empty";
  for (const move of other) {
    const text = move === "done" ? closing : move === "stop" ? "Stop weaving this round" : move;
    parts.push(ctx.moveButton(move, text, {cls: "primary"}));
  }
  return h("div", {class: "cp-moves"}, parts);
}

export function outcomeExtra() {
  return null;
}
