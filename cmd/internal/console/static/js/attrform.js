// The item editor's attribute form: an item as rows of name, type and
// value, as the AWS console's form view shows it, instead of JSON. The
// key attributes come first, their names and types fixed by the table.
// A string, number or binary is typed as it is (numbers keep every
// digit); a boolean is chosen; NULL has no value; sets, lists and maps
// take the DynamoDB JSON of their value (["a", "b"] for SS, [{"S": "x"}]
// for L, {"k": {"N": "1"}} for M).

import { h, icon } from "./ui.js";
import { parse, checkItem, typeOf, stringify } from "./ddb.js";

/** TYPES are the attribute types the form offers, in its menu's order. */
export const TYPES = ["S", "N", "BOOL", "NULL", "L", "M", "SS", "NS", "B", "BS"];

/** NUMBER is a DynamoDB number's text. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** valueText writes an attribute value as the form's value field shows it. */
export function valueText(av) {
  const t = typeOf(av);
  switch (t) {
    case "S": case "N": case "B": return av[t];
    case "BOOL": return av.BOOL ? "true" : "false";
    case "NULL": return "";
    default: return stringify(av[t], 0);
  }
}

/** readValue reads a value field's text as an attribute value of type t; errors name the attribute. */
export function readValue(name, t, text) {
  switch (t) {
    case "S": return { S: text };
    case "N": {
      const n = text.trim();
      if (!NUMBER.test(n)) throw new Error(`${name}: ${JSON.stringify(text)} is not a number`);
      return { N: n };
    }
    case "B": return { B: text.trim() };
    case "BOOL": return { BOOL: text === "true" };
    case "NULL": return { NULL: true };
  }
  let v;
  try { v = parse(text); } catch (err) { throw new Error(`${name}: ${err.message}`); }
  return checkItem({ [name]: { [t]: v } })[name];
}

/**
 * attributeForm returns the form of item (DynamoDB JSON) for a table
 * whose key is keySchema with types (name -> S, N or B): {el, read},
 * where read() returns the item the form holds or throws an error that
 * names the attribute. onchange is called on every edit.
 */
export function attributeForm(item, keySchema, types, onchange = () => {}) {
  const keys = keySchema.map((k) => k.AttributeName);
  const rows = h("tbody");
  const valueControl = (t, text) => {
    if (t === "BOOL") {
      return h("select.attr-value", { "aria-label": "Attribute value" }, ["true", "false"].map((v) => h("option", { value: v, selected: v === text }, v)));
    }
    return h("input.attr-value.mono", {
      value: t === "NULL" ? "" : text, disabled: t === "NULL", autocomplete: "off", spellcheck: "false", "aria-label": "Attribute value",
      placeholder: { S: "text", N: "a number", B: "base64", NULL: "null", SS: '["a", "b"]', NS: '["1", "2"]', BS: '["AAE="]', L: '[{"S": "x"}, {"N": "1"}]', M: '{"k": {"S": "v"}}' }[t] || "",
    });
  };
  const addRow = (name, av, isKey) => {
    const t = typeOf(av) || "S";
    const nameInput = h("input.attr-name.mono", { value: name, readonly: isKey, autocomplete: "off", spellcheck: "false", "aria-label": "Attribute name", placeholder: "name" });
    const typeSelect = h("select.attr-type", { "aria-label": "Attribute type", disabled: isKey }, (isKey ? [t] : TYPES).map((x) => h("option", { value: x, selected: x === t }, x)));
    let value = valueControl(t, valueText(av || { S: "" }));
    const cell = h("td.attr-value-cell", value);
    typeSelect.addEventListener("change", () => {
      const old = value.value;
      value = valueControl(typeSelect.value, typeSelect.value === "BOOL" ? "true" : old);
      cell.replaceChildren(value);
      onchange();
    });
    const tr = h("tr", { dataset: { attr: name, key: isKey ? "true" : "" } },
      h("td", nameInput, isKey && h("span.badge.key", keys.indexOf(name) === 0 ? "PK" : "SK")), h("td", typeSelect), cell,
      h("td.actions-col", !isKey && h("button.icon-button", { type: "button", title: "Remove this attribute", "aria-label": "Remove attribute", onclick: () => { tr.remove(); onchange(); } }, icon("trash"))));
    tr.read = () => [nameInput.value.trim(), typeSelect.value, value.value];
    rows.append(tr);
    return tr;
  };
  for (const k of keys) addRow(k, item[k] || { [types[k] || "S"]: "" }, true);
  for (const [name, av] of Object.entries(item)) if (!keys.includes(name)) addRow(name, av, false);
  rows.addEventListener("input", onchange);
  rows.addEventListener("change", onchange);
  const add = h("button.small", {
    type: "button", title: "Add an attribute",
    onclick: () => { const tr = addRow("", { S: "" }, false); tr.querySelector(".attr-name").focus(); onchange(); },
  }, icon("plus"), "Add attribute");
  const el = h("div.attr-form",
    h("table.grid.static.attr-table", { "aria-label": "Attributes" },
      h("thead", h("tr", h("th", { scope: "col" }, "Attribute"), h("th", { scope: "col" }, "Type"), h("th", { scope: "col" }, "Value"), h("th", { scope: "col" }, h("span.visually-hidden", "Remove")))), rows),
    h("div.actions", add));
  const read = () => {
    const out = {};
    for (const tr of rows.children) {
      const [name, t, text] = tr.read();
      if (!name) {
        if (text.trim() === "") continue; // an empty row added and left
        throw new Error("an attribute has a value but no name");
      }
      if (Object.prototype.hasOwnProperty.call(out, name)) throw new Error(`${name}: the name is used twice`);
      out[name] = readValue(name, t, text);
    }
    return out;
  };
  return { el, read };
}
