// Strict JSON in and out, as the Python engine reads and writes it
// (python/tabuleiro/_wire.py): integers stay exact (BigInt past 2^53),
// floats are told from integers (`2.0` is not an integer field), NaN and
// Infinity are refused, nesting is bounded, and messages quote values the
// way Python's repr and json.dumps do, so both engines name a bad field alike.

/** A JSON number written with a fraction or an exponent (Python's float). */
export class JFloat {
  constructor(value) { this.value = value; }
  toJSON() { return this.value; }
}

export class JsonError extends Error {}

export const MAX_DEPTH = 64;
const SAFE = Number.MAX_SAFE_INTEGER;

/** Parse one JSON text; objects have a null prototype. Throws JsonError. */
export function parseStrict(text, maxDepth = MAX_DEPTH) {
  let i = 0;
  const n = text.length;
  const ws = () => { while (i < n) { const c = text.charCodeAt(i); if (c === 32 || c === 9 || c === 10 || c === 13) i++; else break; } };
  const fail = (what) => { throw new JsonError(`${what} at char ${i}`); };
  const value = (depth) => {
    ws();
    if (i >= n) fail("Expecting value");
    const c = text[i];
    if (c === "{" || c === "[") {
      if (depth + 1 > maxDepth) throw new JsonError(`nested deeper than ${maxDepth} levels`);
      i++;
      if (c === "[") {
        const out = [];
        ws();
        if (text[i] === "]") { i++; return out; }
        for (;;) {
          out.push(value(depth + 1));
          ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "]") { i++; return out; }
          fail("Expecting ',' delimiter");
        }
      }
      const out = Object.create(null);
      ws();
      if (text[i] === "}") { i++; return out; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const k = string();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        out[k] = value(depth + 1);
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return out; }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", i)) { i += 4; return true; }
    if (text.startsWith("false", i)) { i += 5; return false; }
    if (text.startsWith("null", i)) { i += 4; return null; }
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 4096));
    if (!m) fail("Expecting value");
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const b = BigInt(m[0]);
      return b >= -SAFE && b <= SAFE ? Number(b) : b;
    }
    const x = Number(m[0]);
    if (!Number.isFinite(x)) throw new JsonError(`the number ${m[0].slice(0, 40)} is out of range (over 1.8e308)`);
    return new JFloat(x);
  };
  const string = () => {
    i++;
    let out = "";
    for (;;) {
      if (i >= n) fail("Unterminated string starting");
      const c = text.charCodeAt(i);
      if (c === 34) { i++; return out; }
      if (c < 32) fail("Invalid control character");
      if (c === 92) {
        const e = text[i + 1];
        const map = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in map) { out += map[e]; i += 2; continue; }
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        fail("Invalid \\escape");
      }
      out += text[i];
      i++;
    }
  };
  const v = value(0);
  ws();
  if (i < n) fail("Extra data");
  return v;
}

/** Python's type name of a JSON value (messages name types as Python does). */
export function pyType(v) {
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "str";
  if (isInt(v)) return "int";
  if (Array.isArray(v)) return "list";
  if (isObject(v)) return "dict";
  return "float";
}

export const isInt = (v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
export const isNumber = (v) => isInt(v) || v instanceof JFloat;
export const numberValue = (v) => (v instanceof JFloat ? v.value : Number(v));
export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JFloat);
export const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

export function wellFormed(s) {
  if (typeof s.isWellFormed === "function") return s.isWellFormed();
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

function pyFloat(x) {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  let s = String(x);
  if (/e/.test(s)) s = s.replace(/e([+-])(\d)$/, "e$10$2");
  return s;
}

// What Python's str.isprintable() refuses, escaped by repr (space aside).
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function pyStr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === q) out += "\\" + q;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      out += c < 0x100 ? "\\x" + c.toString(16).padStart(2, "0")
        : c < 0x10000 ? "\\u" + c.toString(16).padStart(4, "0") : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + q;
}

/** Python's repr of a JSON value. */
export function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (v instanceof JFloat) return pyFloat(v.value);
  if (typeof v === "string") return pyStr(v);
  if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
  return "{" + Object.keys(v).map((k) => pyStr(k) + ": " + pyRepr(v[k])).join(", ") + "}";
}

/** Python's json.dumps (ASCII, ", " and ": " separators). */
export function pyDumps(v) {
  if (v === null || v === undefined) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (v instanceof JFloat) return pyFloat(v.value);
  if (typeof v === "string") {
    let out = '"';
    for (let k = 0; k < v.length; k++) {
      const c = v.charCodeAt(k);
      const ch = v[k];
      if (ch === '"') out += '\\"';
      else if (ch === "\\") out += "\\\\";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch === "\b") out += "\\b";
      else if (ch === "\f") out += "\\f";
      else if (c < 32 || c > 126) out += "\\u" + c.toString(16).padStart(4, "0");
      else out += ch;
    }
    return out + '"';
  }
  if (Array.isArray(v)) return "[" + v.map(pyDumps).join(", ") + "]";
  return "{" + Object.keys(v).map((k) => pyDumps(k) + ": " + pyDumps(v[k])).join(", ") + "}";
}

/** Python's repr cut to limit characters (_fields.short). */
export function short(v, limit = 60) {
  const t = pyRepr(v);
  return t.length <= limit ? t : t.slice(0, limit - 3) + "...";
}

/** A message cut to limit characters (_wire._short). */
export function cut(text, limit = 300) {
  return text.length <= limit ? text : text.slice(0, limit - 3) + "...";
}

/** An answer as one strict JSON line: BigInt as a decimal string when past
 * 2^53 (_wire._safe_ints), JFloat as its number. */
export function encodeAnswer(obj) {
  return JSON.stringify(obj, (k, v) => {
    if (typeof v === "bigint") return v >= -SAFE && v <= SAFE ? Number(v) : v.toString();
    if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError("not finite");
    return v;
  });
}

/** Python's round(x, 4) (ties to even, on the exact binary value). */
export function round4(x) {
  if (!Number.isFinite(x)) return null;
  const s = Math.abs(x).toFixed(100);
  const [ip, fp] = s.split(".");
  const keep = fp.slice(0, 4);
  const rest = fp.slice(4);
  let up = rest[0] > "5" || (rest[0] === "5" && /[1-9]/.test(rest.slice(1)));
  if (rest[0] === "5" && !/[1-9]/.test(rest.slice(1))) up = (Number(keep[3]) % 2) === 1;   // an exact tie
  let v = Number(`${ip}.${keep}`);
  if (up) v = Number(((BigInt(ip + keep) + 1n) / 1n).toString()) / 10000;
  return x < 0 ? -v : v;
}
