// The agents of python/tabuleiro/agents.py over the WebAssembly core: the
// same parameter checks and messages, the same seeds (_mix), the same C
// search, and Python's random.Random for the random agent, so that a go
// answers exactly what the native engine answers.
import { JFloat, isInt, isNumber, numberValue, pyRepr } from "./json.js";

export const NAMES = ["random", "greedy", "flatmc", "mcts", "ismcts"];
export const KINDS = { flatmc: 0, mcts: 1, ismcts: 2 };
const MASK = (1n << 64n) - 1n;
const MAX_ITERATIONS = 2n ** 62n;
const MAX_TIME = 86400;
export const MAX_THREADS = 64;
export const MAX_NODES = 2 ** 26;
const NODE_BYTES = 64;
const MAX_TREE_BYTES = 8 * 2 ** 30;
const SEARCH_FIELDS = ["seed", "iterations", "time", "c", "rollout", "threads", "max_nodes", "shaped", "prior", "horizon",
  "control_variates"];

// Level ladders (agents.LEVELS; tests/test_wasm.py checks this copy against it).
// `search`: the parameters a ladder keeps (its presentation's level_search).
const ladder = (search, ...steps) => Object.fromEntries(steps.map((s, i) => [i + 1,
  typeof s === "string" ? [s, {}] : ["ismcts", { iterations: s, ...search }]]));
const CAPIVARIAS_STEPS = ["random", 2, 4, 8, "greedy", 100, 300, 1000, 3000, 10000];
export const LEVELS = {
  capivarias: ladder({ c: new JFloat(1.4), rollout: "random", shaped: false, prior: false, horizon: true,
    control_variates: false },
    ...CAPIVARIAS_STEPS),
  capulana: ladder({ c: new JFloat(0.4), rollout: "random", shaped: true, prior: true, horizon: false,
    control_variates: false },
    "random", "greedy", 8, 30, 100, 1000, 2500, 5000, 10000, 20000),
};
// the featured game's budgets, with the searching game's own defaults
LEVELS.default = ladder({}, ...CAPIVARIAS_STEPS);

export class AgentTypeError extends Error {}
export class AgentValueError extends Error {}

const gfmt = (x) => String(x);
function checkInt(name, v, lo, hi) {
  if (!isInt(v)) throw new AgentTypeError(`${name} must be an integer, not ${pyRepr(v)}`);
  if (!(BigInt(v) >= BigInt(lo) && BigInt(v) <= BigInt(hi))) throw new AgentValueError(`${name} must be in [${lo}, ${hi}], not ${v}`);
}
function checkFloat(name, v, lo, hi, openLo = false) {
  if (!isNumber(v)) throw new AgentTypeError(`${name} must be a number, not ${pyRepr(v)}`);
  const x = numberValue(v);
  if (Number.isNaN(x) || x > hi || x < lo || (openLo && x === lo)) {
    throw new AgentValueError(`${name} must be in ${openLo ? "(" : "["}${gfmt(lo)}, ${gfmt(hi)}], not ${pyRepr(v)}`);
  }
}
function checkOptBool(name, v) {
  if (v !== null && v !== undefined && typeof v !== "boolean") throw new AgentTypeError(`${name} must be True, False or None (the game's default), not ${pyRepr(v)}`);
}

/** The fields an agent takes (besides its kind), as agents.make's dataclasses. */
export function accepted(name) { return name === "random" || name === "greedy" ? ["seed"] : SEARCH_FIELDS; }

/** agents.make: an agent description, every parameter checked. */
export function make(name, params) {
  const seed = params.seed ?? 0;
  if (name === "level") {
    const extra = Object.keys(params).filter((k) => k !== "level" && k !== "seed").sort();
    if (extra.length) throw new AgentTypeError(`a strength level takes only level and seed, not ${extra.join(", ")}`);
    checkInt("seed", seed, 0, MASK);
    checkInt("level", params.level, 1, 10);
    return { name: "level", level: Number(params.level), seed: BigInt(seed) };
  }
  if (name === "random" || name === "greedy") {
    checkInt("seed", seed, 0, MASK);
    return { name, seed: BigInt(seed) };
  }
  const a = { name, kind: name, seed, iterations: params.iterations ?? 1000, time: params.time ?? null, c: params.c ?? null,
    rollout: params.rollout ?? "random", threads: params.threads ?? 1, max_nodes: params.max_nodes ?? 2 ** 20,
    shaped: params.shaped ?? null, prior: params.prior ?? null, horizon: params.horizon ?? null,
    control_variates: params.control_variates ?? null };
  checkInt("seed", a.seed, 0, MASK);
  if (a.rollout !== "random" && a.rollout !== "heuristic") throw new AgentValueError(`rollout must be 'random' or 'heuristic', not ${pyRepr(a.rollout)}`);
  checkInt("iterations", a.iterations, 0, MAX_ITERATIONS);
  if (a.time !== null) checkFloat("time", a.time, 0, MAX_TIME, true);
  if (Number(a.iterations) === 0 && a.time === null) throw new AgentValueError("give a budget: iterations > 0 or time=");
  checkInt("threads", a.threads, 1, MAX_THREADS);
  if (a.c !== null) checkFloat("c", a.c, 0, 1000);
  checkInt("max_nodes", a.max_nodes, 16, MAX_NODES);
  const it = BigInt(a.iterations), th = BigInt(a.threads), mn = BigInt(a.max_nodes);
  const perThread = it === 0n ? mn : (mn < it / th + 3n ? mn : it / th + 3n);
  if (perThread * th * BigInt(NODE_BYTES) > BigInt(MAX_TREE_BYTES)) {
    throw new AgentValueError(`max_nodes=${a.max_nodes} with threads=${a.threads} could take ${(Number(perThread * th) * NODE_BYTES / 2 ** 30).toFixed(1)} GiB of tree; the limit is 8 GiB (lower max_nodes or threads)`);
  }
  checkOptBool("shaped", a.shaped);
  checkOptBool("prior", a.prior);
  checkOptBool("horizon", a.horizon);
  checkOptBool("control_variates", a.control_variates);
  if (a.control_variates === true && a.rollout !== "random") {
    throw new AgentValueError(`control_variates need rollout='random' (they correct by the uniform rollout's expectation), not rollout=${pyRepr(a.rollout)}`);
  }
  a.seed = BigInt(a.seed);
  return a;
}

/** agents._mix: the seed an agent searches with for one information state. */
export function mix(seed, key) {
  let z = (BigInt(seed) * 0x9E3779B97F4A7C15n + BigInt(key)) & MASK;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
  return z ^ (z >> 31n);
}

/** Python's random.Random(seed).choice(seq) for a non-negative integer seed (MT19937). */
export function pyChoice(seed, seq) {
  const mt = new Uint32Array(624);
  let mti = 625;
  const init = (s) => {
    mt[0] = s >>> 0;
    for (mti = 1; mti < 624; mti++) mt[mti] = (Math.imul(1812433253, mt[mti - 1] ^ (mt[mti - 1] >>> 30)) + mti) >>> 0;
  };
  const key = [];
  let s = BigInt(seed);
  if (s === 0n) key.push(0);
  while (s > 0n) { key.push(Number(s & 0xffffffffn)); s >>= 32n; }
  init(19650218);
  let i = 1, j = 0;
  for (let k = Math.max(624, key.length); k; k--) {
    mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j) >>> 0;
    i++; j++;
    if (i >= 624) { mt[0] = mt[623]; i = 1; }
    if (j >= key.length) j = 0;
  }
  for (let k = 623; k; k--) {
    mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i) >>> 0;
    i++;
    if (i >= 624) { mt[0] = mt[623]; i = 1; }
  }
  mt[0] = 0x80000000;
  mti = 624;
  const next = () => {
    if (mti >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      mti = 0;
    }
    let y = mt[mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  const n = seq.length;
  const k = n.toString(2).length;
  let r;
  do { r = next() >>> (32 - k); } while (r >= n);
  return seq[r];
}

export { JFloat };
