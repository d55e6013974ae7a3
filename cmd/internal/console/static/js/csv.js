// Items as CSV (RFC 4180), for a download of what a view shows: a column
// per attribute (the key attributes first, then the others by how many
// items have them), a row per item. Strings and numbers are written as
// they are (numbers keep every digit), booleans as true and false, NULL
// and an absent attribute as an empty field, lists, maps, sets and binary
// as their plain JSON. A string that a spreadsheet would run as a formula
// (starting with = + - @, a tab or a carriage return) gets a leading ' .

import { typeOf, toPlain, stringify } from "./ddb.js";

/** columns returns the attribute names of items: keys first, then by frequency, then by name. */
export function columns(items, keys = []) {
  const freq = new Map();
  for (const it of items) for (const k of Object.keys(it)) if (!keys.includes(k)) freq.set(k, (freq.get(k) || 0) + 1);
  const others = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  return [...keys.filter((k) => items.some((it) => k in it) || items.length === 0), ...others];
}

/** cell writes one attribute value as a CSV field's text (before quoting). */
function cell(av) {
  const t = typeOf(av);
  switch (t) {
    case "": return "";
    case "S": return /^[=+\-@\t\r]/.test(av.S) ? "'" + av.S : av.S;
    case "N": return av.N;
    case "BOOL": return av.BOOL ? "true" : "false";
    case "NULL": return "";
    default: return stringify(toPlain(av), 0);
  }
}

/** quote quotes a field when it holds a comma, a quote or a line break. */
function quote(s) {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** toCSV writes items (DynamoDB JSON) as CSV text, lines ending in CRLF. */
export function toCSV(items, keys = []) {
  const cols = columns(items, keys);
  const lines = [cols.map(quote).join(",")];
  for (const it of items) lines.push(cols.map((c) => quote(cell(it[c]))).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** downloadCSV offers items as the file name (a CSV download). */
export function downloadCSV(name, items, keys = []) {
  const url = URL.createObjectURL(new Blob([toCSV(items, keys)], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
