// DynamoDB JSON and plain JSON, both ways, and the short forms of values
// the tables show.
//
// DynamoDB numbers have 38 significant digits; a JavaScript number has
// about 16. So plain JSON is never read with JSON.parse: parse keeps every
// number literal as its text (a Num), stringify writes it back as it was,
// and the conversions carry that text into and out of {"N": "..."}.

/** Num is a JSON number kept as its text. */
export class Num {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

/** ParseError is a JSON syntax error with its line and column (from 1). */
export class ParseError extends Error {
  constructor(message, text, pos) {
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const col = pos - before.lastIndexOf("\n");
    super(`line ${line}, column ${col}: ${message}`);
    this.line = line;
    this.column = col;
    this.pos = pos;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * parse reads JSON text like JSON.parse, but numbers become Nums, and a
 * duplicate member name is an error (DynamoDB JSON would lose one).
 */
export function parse(text) {
  let i = 0;
  const ws = () => { while (i < text.length && " \t\r\n".includes(text[i])) i++; };
  const fail = (msg) => { throw new ParseError(msg, text, i); };
  const value = (depth) => {
    if (depth > 64) fail("nested too deeply");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj = {};
      ws();
      if (text[i] === "}") { i++; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a member name in double quotes");
        const at = i;
        const key = str();
        if (Object.prototype.hasOwnProperty.call(obj, key)) { i = at; fail(`duplicate member ${JSON.stringify(key)}`); }
        ws();
        if (text[i] !== ":") fail('expected ":" after a member name');
        i++;
        obj[key] = value(depth + 1);
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return obj; }
        fail('expected "," or "}"');
      }
    }
    if (c === "[") {
      i++;
      const arr = [];
      ws();
      if (text[i] === "]") { i++; return arr; }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return arr; }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    for (const [lit, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(lit, i)) { i += lit.length; return v; }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) { i += m[0].length; return new Num(m[0]); }
    fail(i >= text.length ? "unexpected end of text" : `unexpected ${JSON.stringify(text[i])}`);
  };
  const str = () => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail("bad string (unterminated, or a control character or bad escape in it)");
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const v = value(0);
  ws();
  if (i < text.length) fail("unexpected text after the value");
  return v;
}

/** stringify writes a value of parse (or of JSON.parse) as indented JSON. */
export function stringify(v, indent = 2) {
  const pad = (d) => "\n" + " ".repeat(indent * d);
  const out = (v, d) => {
    if (v instanceof Num) return v.text;
    if (v === null || v === undefined) return "null";
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      if (indent === 0) return "[" + v.map((x) => out(x, d + 1)).join(",") + "]";
      return "[" + v.map((x) => pad(d + 1) + out(x, d + 1)).join(",") + pad(d) + "]";
    }
    if (typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length === 0) return "{}";
      const sep = indent === 0 ? ":" : ": ";
      if (indent === 0) return "{" + keys.map((k) => JSON.stringify(k) + sep + out(v[k], d + 1)).join(",") + "}";
      return "{" + keys.map((k) => pad(d + 1) + JSON.stringify(k) + sep + out(v[k], d + 1)).join(",") + pad(d) + "}";
    }
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
    return JSON.stringify(v);
  };
  return out(v, 0);
}

/**
 * jsonNumber returns DynamoDB number text as a JSON number literal: the
 * same digits, with the few forms DynamoDB takes and JSON does not
 * (".5", "5.", "+5") written as JSON writes them.
 */
export function jsonNumber(n) {
  let s = String(n).trim();
  let sign = "";
  if (s[0] === "+" || s[0] === "-") { sign = s[0] === "-" ? "-" : ""; s = s.slice(1); }
  s = s.replace(/^\./, "0.").replace(/\.(?=[eE]|$)/, "");
  s = s.replace(/^0+(?=\d)/, "");
  return sign + s;
}

/** TYPES are DynamoDB's attribute value types. */
export const TYPES = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];

/** typeOf returns an attribute value's type ("S"), or "" for something else. */
export function typeOf(av) {
  if (!av || typeof av !== "object" || Array.isArray(av)) return "";
  const keys = Object.keys(av);
  return keys.length === 1 && TYPES.includes(keys[0]) ? keys[0] : "";
}

/**
 * toPlain turns an attribute value into plain JSON (of parse's kind).
 * What plain JSON cannot say is written as the nearest JSON and its path
 * added to lossy: sets become arrays, binary base64 strings.
 */
export function toPlain(av, lossy = [], path = "") {
  const t = typeOf(av);
  const v = av?.[t];
  switch (t) {
    case "S": return v;
    case "N": return new Num(jsonNumber(v));
    case "BOOL": return v;
    case "NULL": return null;
    case "B": lossy.push(`${path} (binary)`); return v;
    case "SS": lossy.push(`${path} (string set)`); return [...v];
    case "NS": lossy.push(`${path} (number set)`); return v.map((n) => new Num(jsonNumber(n)));
    case "BS": lossy.push(`${path} (binary set)`); return [...v];
    case "L": return v.map((x, i) => toPlain(x, lossy, `${path}[${i}]`));
    case "M": return itemToPlain(v, lossy, path);
  }
  throw new Error(`${path || "value"} is not a DynamoDB attribute value`);
}

/** itemToPlain turns an item (a map of attribute values) into a plain object. */
export function itemToPlain(item, lossy = [], path = "") {
  const out = {};
  for (const [k, av] of Object.entries(item || {})) out[k] = toPlain(av, lossy, path ? `${path}.${k}` : k);
  return out;
}

/** fromPlain turns a plain JSON value (of parse's kind) into an attribute value. */
export function fromPlain(v, path = "value") {
  if (v instanceof Num) return { N: v.text };
  if (v === null) return { NULL: true };
  if (typeof v === "string") return { S: v };
  if (typeof v === "boolean") return { BOOL: v };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`${path}: ${v} is not a DynamoDB number`);
    return { N: String(v) };
  }
  if (Array.isArray(v)) return { L: v.map((x, i) => fromPlain(x, `${path}[${i}]`)) };
  if (typeof v === "object") return { M: itemFromPlain(v, path) };
  throw new Error(`${path}: cannot be a DynamoDB value`);
}

/** itemFromPlain turns a plain JSON object into an item. */
export function itemFromPlain(obj, path = "") {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj) || obj instanceof Num) {
    throw new Error("an item is a JSON object: {\"name\": value, ...}");
  }
  const out = {};
  for (const [k, v] of Object.entries(obj)) out[k] = fromPlain(v, path ? `${path}.${k}` : k);
  return out;
}

/**
 * checkItem checks that obj (of parse's kind) is an item in DynamoDB JSON
 * and returns it with its Nums turned back into text, ready for
 * JSON.stringify. It says which attribute is wrong.
 */
export function checkItem(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj) || obj instanceof Num) {
    throw new Error('an item is a JSON object: {"name": {"S": "value"}, ...}');
  }
  const av = (v, path) => {
    const t = typeOf(v);
    if (!t) throw new Error(`${path}: an attribute value is an object with one of ${TYPES.join(", ")}: {"S": "text"}`);
    const x = v[t];
    switch (t) {
      case "S": case "B":
        if (typeof x !== "string") throw new Error(`${path}: ${t} takes a string`);
        return { [t]: x };
      case "N":
        if (x instanceof Num) throw new Error(`${path}: N takes the number as a string, {"N": "${x.text}"}`);
        if (typeof x !== "string") throw new Error(`${path}: N takes a string`);
        return { N: x };
      case "BOOL":
        if (typeof x !== "boolean") throw new Error(`${path}: BOOL takes true or false`);
        return { BOOL: x };
      case "NULL":
        if (x !== true) throw new Error(`${path}: NULL takes true`);
        return { NULL: true };
      case "SS": case "NS": case "BS":
        if (!Array.isArray(x) || x.some((e) => typeof e !== "string")) throw new Error(`${path}: ${t} takes an array of strings`);
        return { [t]: x };
      case "L":
        if (!Array.isArray(x)) throw new Error(`${path}: L takes an array of attribute values`);
        return { L: x.map((e, i) => av(e, `${path}[${i}]`)) };
      case "M":
        if (x === null || typeof x !== "object" || Array.isArray(x) || x instanceof Num) throw new Error(`${path}: M takes an object of attribute values`);
        return { M: Object.fromEntries(Object.entries(x).map(([k, e]) => [k, av(e, `${path}.${k}`)])) };
    }
  };
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, av(v, k)]));
}

/**
 * parseItem reads an item in format "ddb" (DynamoDB JSON) or "plain" and
 * returns it in DynamoDB JSON. Errors say where.
 */
export function parseItem(text, format) {
  const v = parse(text);
  return format === "plain" ? itemFromPlain(v) : checkItem(v);
}

/** formatItem writes an item (DynamoDB JSON) in format "ddb" or "plain"; lossy collects what plain JSON cannot say. */
export function formatItem(item, format, lossy = []) {
  return format === "plain" ? stringify(itemToPlain(item, lossy)) : stringify(item);
}

/** keyOf returns the key attributes of item under keySchema. */
export function keyOf(item, keySchema) {
  const key = {};
  for (const k of keySchema) if (item[k.AttributeName] !== undefined) key[k.AttributeName] = item[k.AttributeName];
  return key;
}

/** sameValue reports whether two attribute values are equal. */
export function sameValue(a, b) { return stringify(a, 0) === stringify(b, 0); }

/** short returns a one-line text of an attribute value, for a cell. */
export function short(av, max = 60) {
  const t = typeOf(av);
  const v = av?.[t];
  const cut = (s) => (s.length > max ? s.slice(0, max - 1) + "…" : s);
  switch (t) {
    case "S": return cut(v);
    case "N": return v;
    case "BOOL": return String(v);
    case "NULL": return "null";
    case "B": return `binary, ${b64len(v)} B`;
    case "M": return cut(stringify(itemToPlain(v), 0));
    case "L": return cut(stringify(v.map((x) => toPlain(x)), 0));
    case "SS": return cut("{" + v.map((s) => JSON.stringify(s)).join(", ") + "}");
    case "NS": return cut("{" + v.join(", ") + "}");
    case "BS": return `${v.length} binary values`;
  }
  return "?";
}

function b64len(s) {
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/**
 * valueFor turns the text of a key field into an attribute value of type
 * t (S, N or B).
 */
export function valueFor(text, t) {
  if (t === "N") {
    const s = text.trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new Error(`${JSON.stringify(text)} is not a number`);
    return { N: s };
  }
  if (t === "B") return { B: text.trim() };
  return { S: text };
}
