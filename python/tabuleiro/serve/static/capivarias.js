/* capivarias.js: Capivárias on the page (RULES.md part 2).
 *
 * Draws a seat's view message: the three river segments in flow order, each
 * with its river modifier, its capionça and both sides' capybaras; the
 * available row, the pile (count and top modifier only) and the discard; and
 * the legal moves grouped by the card they take. The card faces come from
 * capivarias_cards.csv. Nothing is drawn that the view does not hold.
 */

import {h, parseCsv, playerName, signed} from "./dom.js";

export const title = "Capivárias";

const HERD_NAMES = {capicria: "capicria", capiox: "capiôx", capitche: "capitchê", capiolin: "capiolin"};
const KIND_NAMES = {
  "capionca:push": "capionça: push",
  "capionca:switch-one": "capionça: switch one",
  "capionca:switch-all": "capionça: switch all",
  capitico: "capitico",
  capissor: "capissor",
};

/** The card table: name -> {kind, herd, number, modifier}. */
export async function init(loadReference) {
  const rows = parseCsv(await loadReference("capivarias_cards.csv"));
  const cards = {};
  for (const r of rows) {
    cards[r.name] = {name: r.name, kind: r.kind, herd: r.herd, number: Number(r.number),
                     modifier: Number(r.river_modifier)};
  }
  return {cards};
}

function cardLabel(card) {
  if (!card) return "";
  if (card.kind === "herd" || card.kind === "capiolin") return `${HERD_NAMES[card.herd]} ${card.number}`;
  if (card.kind === "capitico") return `capitico of the ${HERD_NAMES[card.herd]}s`;
  return KIND_NAMES[card.kind] || card.kind;
}

function cardClass(card) {
  if (!card) return "cv-card";
  if (card.kind.startsWith("capionca")) return "cv-card cv-capionca";
  if (card.kind === "capissor") return "cv-card cv-capissor";
  return `cv-card cv-${card.herd}${card.kind === "capitico" ? " cv-capitico" : ""}`;
}

/** One card, face up: its name and what it is. */
function cardChip(name, cat, {small = false} = {}) {
  const card = cat.cards[name];
  return h("span", {class: cardClass(card) + (small ? " cv-small" : ""), dataset: {card: name},
                    title: cardLabel(card)},
           h("b", {}, name), small ? null : h("small", {}, cardLabel(card)));
}

/** A side's round score now (R28): number + segment modifier per capybara, +1 per capitico. */
export function sideScores(view, cat) {
  const scores = [0, 0];
  for (const seg of view.segments) {
    const modifier = seg.river && typeof seg.river === "object" ? seg.river.modifier : 0;
    seg.sides.forEach((side, p) => {
      for (const name of side) {
        const card = cat.cards[name];
        if (!card) continue;
        if (card.kind === "herd" || card.kind === "capiolin") scores[p] += card.number + modifier;
        else if (card.kind === "capitico") scores[p] += 1;
      }
    });
  }
  return scores;
}

function sideBox(cards, player, ctx, cat) {
  return h("div", {class: `cv-side${player === ctx.seat ? " cv-mine" : ""}`,
                   "aria-label": `${playerName(player, ctx.seat)}'s side`},
           h("span", {class: "cv-side-name"}, playerName(player, ctx.seat)),
           cards.length ? cards.map((c) => cardChip(c, cat)) : h("span", {class: "cv-empty"}, "empty"));
}

export function board(msg, cat, ctx) {
  const v = msg.view;
  const other = 1 - ctx.seat;
  const scores = sideScores(v, cat);
  const head = h("div", {class: "cv-head"},
    h("span", {class: "pill"}, `Round ${v.round}`),
    h("span", {class: "pill"}, `Rounds won: you ${v.round_wins[ctx.seat]}, P${other} ${v.round_wins[other]}`),
    h("span", {class: "pill", dataset: {scores: JSON.stringify(scores)}},
      `Score now: you ${scores[ctx.seat]}, P${other} ${scores[other]}`));
  const river = h("div", {class: "cv-river", "aria-label": "the river"},
    v.segments.map((seg, i) => h("section", {class: "cv-segment", dataset: {segment: i}},
      sideBox(seg.sides[other], other, ctx, cat),
      h("div", {class: "cv-water"},
        h("span", {class: "cv-seg-name"}, i === 0 ? "segment 0 · entry" : `segment ${i}`),
        h("span", {class: "cv-modifier", title: "river modifier: added to each capybara here"},
          `river ${signed(seg.river.modifier)}`),
        seg.capionca ? h("span", {class: "cv-under"}, "under it: ", cardChip(seg.capionca, cat, {small: true}))
          : null),
      sideBox(seg.sides[ctx.seat], ctx.seat, ctx, cat))),
    h("div", {class: "cv-out", "aria-hidden": "true"}, "→ out"));
  const pile = v.pile;
  const supply = h("div", {class: "cv-supply"},
    h("div", {class: "cv-available"}, h("h3", {}, "Available"),
      h("div", {class: "row"}, v.available.map((c) => cardChip(c, cat)))),
    h("div", {class: "cv-pile"}, h("h3", {}, "Pile"),
      h("span", {class: "cv-back"}, `${pile.count} face down`),
      pile.top_modifier === null ? null : h("span", {class: "cv-modifier"}, `top: river ${signed(pile.top_modifier)}`)),
    h("div", {class: "cv-discard"}, h("h3", {}, "Discard"),
      h("div", {class: "row"}, v.discard.length ? v.discard.map((c) => cardChip(c, cat, {small: true}))
        : h("span", {class: "cv-empty"}, "none"))));
  return h("div", {class: "cv-board"}, head, river, supply);
}

/** The card a move takes from the available row. */
function takenCard(notation) {
  if (notation.startsWith("discard ")) return notation.slice(8);
  return notation.split(/[@/]/)[0];
}

/** What a move does, in words. */
export function describe(notation, cat) {
  if (notation.startsWith("discard ")) return "no place for it: discard it";
  const name = takenCard(notation);
  const card = cat.cards[name] || {kind: ""};
  const at = notation.match(/@(\d)/);
  const target = notation.includes("/") ? notation.split("/")[1] : null;
  if (card.kind === "herd") return "enter segment 0";
  if (card.kind === "capiolin") return "enter the first segment free on your side";
  if (card.kind === "capitico") return `guard ${target}`;
  if (card.kind === "capissor") return `send ${target} and its guardian to segment 0`;
  if (card.kind.startsWith("capionca")) {
    const seg = at ? `segment ${at[1]}` : "a segment";
    if (card.kind === "capionca:switch-all") return `under ${seg}: switch every card`;
    if (!target) return `under ${seg} (nothing to act on)`;
    return `under ${seg}: ${card.kind === "capionca:push" ? "push" : "switch"} ${target}`;
  }
  return notation;
}

export function controls(msg, cat, ctx) {
  const groups = new Map();
  for (const m of msg.legal) {
    const name = takenCard(m.move);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(m.move);
  }
  return h("div", {class: "cv-moves"},
    [...groups].map(([name, moves]) => h("div", {class: "move-group"},
      h("div", {class: "move-group-head"}, "Take ", cardChip(name, cat)),
      h("div", {class: "row"}, moves.map((move) => ctx.moveButton(move, describe(move, cat)))))));
}

/** Capivárias shows nothing more at the end than the outcome table. */
export function outcomeExtra() {
  return null;
}
