// The item grid: key attributes first, then the columns chosen (by
// default the other attributes of the page by how many items have them,
// as many as fit the grid's width). The grid is laid out to its frame
// (table-layout: fixed): it never scrolls sideways; a value too long for
// its column ends in an ellipsis, or wraps over a few lines when the
// grid wraps. Rows are keyboard-driven: ↑/↓ or j/k move, Enter opens,
// Delete (or x) deletes, Space selects (when the grid has selection). A
// column header sorts the rows shown (click again to reverse), by each
// value's type: numbers as numbers, the rest as text.

import { h, icon, badge, dialog } from "./ui.js";
import { typeOf, short, stringify } from "./ddb.js";

/** MAX_COLUMNS bounds the attribute columns shown by default. */
const MAX_COLUMNS = 12;

/** MIN_COLUMN_PX is the narrowest column the default gives a width of. */
const MIN_COLUMN_PX = 120;

/** FIXED_PX is the width of the columns that are no attribute (selection, "+N more", actions). */
const FIXED_PX = 36 + 88 + 76;

/**
 * KEY_MIN_PX and KEY_MAX_PX bound a key column's width: its values whole,
 * within reason. A grid whose width is known lets a key take more
 * (keyMaxPx): what is left beside one attribute column and the other
 * keys at their narrowest, so that a sort key such as
 * CATEGORY#<code>@<version> shows whole at 1280 px; fitKeys then shares
 * the width when the keys together want more.
 */
const KEY_MIN_PX = 64;
const KEY_MAX_PX = 340;

/** keyMaxPx is the widest a key column is given in a grid width px wide (0: not known) with keys key columns. */
function keyMaxPx(width, keys) {
  if (!(width > 0)) return KEY_MAX_PX;
  return Math.max(KEY_MAX_PX, width - FIXED_PX - MIN_COLUMN_PX - (keys - 1) * KEY_MIN_PX);
}

/** CELL_PAD_PX is a cell's padding left and right (app.css .grid td), with a pixel to spare. */
const CELL_PAD_PX = 2 * 12 + 2;

let measurer = null;
/** textWidth is the width in px of text in the grid's font (mono: its numbers'). */
function textWidth(text, mono, font = "13px") {
  if (typeof document === "undefined") return text.length * 7.5;
  measurer ||= document.createElement("canvas").getContext("2d");
  const style = getComputedStyle(document.documentElement);
  measurer.font = mono ? `12.5px ${style.getPropertyValue("--mono") || "monospace"}` : `${font} ${getComputedStyle(document.body).fontFamily}`;
  return measurer.measureText(text).width;
}

/**
 * keyWidths is the width in px each key column needs for its header
 * (name and badge) and its values to show whole on one line (the
 * widest of items, between KEY_MIN_PX and keyMaxPx of the grid's width
 * px, 0 when not known). A key is what a person looks a row up by: it
 * is not cut while the other columns share what is left.
 */
export function keyWidths(items, keys, badges = [], width = 0) {
  const max = keyMaxPx(width, keys.length);
  return keys.map((k, i) => {
    // The header: the name (12px, bold), its badge (10px, 5px padding, 6px apart) and the sort mark.
    let w = textWidth(k, false, "600 12px") + textWidth(badges[i] || (i === 0 ? "PK" : "SK"), false, "600 10px") + 2 * 5 + 6 + 14;
    for (const it of items) {
      const av = it[k];
      if (av === undefined) continue;
      w = Math.max(w, textWidth(short(av, 240), typeOf(av) === "N"));
    }
    return Math.round(Math.min(max, Math.max(KEY_MIN_PX, w + CELL_PAD_PX)));
  });
}

/**
 * attributesByUse lists the attributes of items that are not keys, the
 * most used first (then by name), with how many items have each.
 */
export function attributesByUse(items, keys) {
  const freq = new Map();
  for (const it of items) for (const k of Object.keys(it)) if (!keys.includes(k)) freq.set(k, (freq.get(k) || 0) + 1);
  return [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name, n]) => ({ name, n }));
}

/**
 * defaultColumns is the columns shown when none are chosen: the most
 * used attributes, as many as fit width px beside the keys (all of
 * MAX_COLUMNS when the width is not known).
 */
export function defaultColumns(items, keys, width = 0) {
  let n = MAX_COLUMNS - keys.length;
  if (width > 0) n = Math.min(n, Math.floor((width - FIXED_PX - keyWidths(items, keys, [], width).reduce((a, b) => a + b, 0)) / MIN_COLUMN_PX));
  return attributesByUse(items, keys).slice(0, Math.max(1, n)).map((a) => a.name);
}

/** rowKey names an item by its key attributes (for selection). */
export function rowKey(item, keys) {
  return stringify(Object.fromEntries(keys.map((k) => [k, item[k]])), 0);
}

/**
 * compareValues orders two attribute values for sorting: absent last,
 * then by type (numbers, strings, the rest), numbers by value, the others
 * by their text.
 */
export function compareValues(a, b) {
  if (a === undefined || b === undefined) return a === undefined ? (b === undefined ? 0 : 1) : -1;
  const ta = typeOf(a), tb = typeOf(b);
  const rank = (t) => (t === "N" ? 0 : t === "S" ? 1 : 2);
  if (rank(ta) !== rank(tb)) return rank(ta) - rank(tb);
  if (ta === "N" && tb === "N") {
    const d = Number(a.N) - Number(b.N);
    if (d !== 0 && !Number.isNaN(d)) return d < 0 ? -1 : 1;
    return a.N < b.N ? -1 : a.N > b.N ? 1 : 0;
  }
  const sa = ta === "S" ? a.S : ta + stringify(a, 0), sb = tb === "S" ? b.S : tb + stringify(b, 0);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * itemGrid returns a table of items. keys are the key attribute names
 * (partition key first), badges their labels (PK, SK by default);
 * onOpen(item) and onDelete(item) are called for a row, onDelete may be
 * omitted (no delete buttons). sort ({col, dir: 1 or -1}, or null) orders
 * the rows and onSort(sort) is called when a header is clicked (no
 * onSort: the headers do not sort). selected (a Set of rowKey) turns on
 * a checkbox per row; onSelect() is called when it changes. columns are
 * the attributes shown after the keys (null: defaultColumns for width
 * px); onColumns(), when given, is called by the "+N more" header, to
 * choose them. wrap lets a long value wrap over a few lines.
 */
export function itemGrid({ items, keys, badges = [], onOpen, onDelete, label = "Items", sort = null, onSort = null, selected = null, onSelect = () => {},
  columns = null, width = 0, onColumns = null, wrap = false }) {
  const cols = (columns || defaultColumns(items, keys, width)).filter((k) => !keys.includes(k));
  const shown = [...keys, ...cols];
  const hiddenNames = new Set();
  for (const it of items) for (const k of Object.keys(it)) if (!shown.includes(k)) hiddenNames.add(k);
  const hidden = hiddenNames.size;
  const widths = fitKeys(keyWidths(items, keys, badges, width), width, cols.length, !!selected, hidden > 0);
  if (sort && shown.includes(sort.col)) {
    items = items.map((it, i) => [it, i]).sort(([a, i], [b, j]) => sort.dir * compareValues(a[sort.col], b[sort.col]) || i - j).map(([it]) => it);
  }

  const boxes = [];
  const allBox = selected && h("input", {
    type: "checkbox", "aria-label": "Select every item shown",
    onchange: () => {
      for (const [box, it] of boxes) {
        box.checked = allBox.checked;
        if (allBox.checked) selected.add(rowKey(it, keys)); else selected.delete(rowKey(it, keys));
      }
      onSelect();
    },
  });
  const syncAll = () => {
    if (!allBox) return;
    const n = boxes.filter(([b]) => b.checked).length;
    allBox.checked = n > 0 && n === boxes.length;
    allBox.indeterminate = n > 0 && n < boxes.length;
  };
  const headCell = (k, i) => {
    const label = [h("span.col-name", { title: k }, k), i < keys.length && badge(badges[i] || (i === 0 ? "PK" : "SK"), "key")];
    const dir = sort?.col === k ? sort.dir : 0;
    if (!onSort) return h("th", { scope: "col", class: i < keys.length ? "key-col" : "" }, label);
    return h("th", { scope: "col", class: (i < keys.length ? "key-col " : "") + "sortable", "aria-sort": dir === 1 ? "ascending" : dir === -1 ? "descending" : "none" },
      h("button.sort-button", {
        type: "button", title: `Sort by ${k}`,
        onclick: () => onSort(dir === 1 ? { col: k, dir: -1 } : dir === -1 ? null : { col: k, dir: 1 }),
      }, label, h("span.sort-mark", { "aria-hidden": "true" }, dir === 1 ? "▲" : dir === -1 ? "▼" : "")));
  };
  const head = h("tr",
    selected && h("th.select-col", { scope: "col" }, allBox),
    shown.map(headCell),
    hidden > 0 && h("th.more-col", { scope: "col" }, onColumns
      ? h("button.more-button", { type: "button", title: `${hidden} more attribute${hidden > 1 ? "s" : ""}: ${[...hiddenNames].slice(0, 12).join(", ")}. Choose the columns`, onclick: onColumns }, `+${hidden} more`)
      : h("span", { title: [...hiddenNames].slice(0, 12).join(", ") }, `+${hidden} more`)),
    h("th.actions-col", { scope: "col" }, h("span.visually-hidden", "Actions")));
  const body = h("tbody");
  items.forEach((it, idx) => {
    const box = selected && h("input", {
      type: "checkbox", "aria-label": "Select item", checked: selected.has(rowKey(it, keys)),
      onclick: (e) => e.stopPropagation(),
      onchange: () => {
        if (box.checked) selected.add(rowKey(it, keys)); else selected.delete(rowKey(it, keys));
        tr.classList.toggle("selected", box.checked);
        syncAll();
        onSelect();
      },
    });
    if (box) boxes.push([box, it]);
    const tr = h("tr", { tabindex: idx === 0 ? "0" : "-1", dataset: { index: String(idx) }, class: box?.checked ? "selected" : "" },
      selected && h("td.select-col", { onclick: (e) => { e.stopPropagation(); if (e.target !== box) box.click(); } }, box),
      shown.map((k) => cell(it[k])),
      hidden > 0 && h("td.more-col", String(Object.keys(it).filter((k) => !shown.includes(k)).length || "")),
      h("td.actions-col",
        h("button.icon-button", { type: "button", title: "Edit (Enter)", "aria-label": "Edit item", onclick: (e) => { e.stopPropagation(); onOpen(it); } }, icon("edit")),
        onDelete && h("button.icon-button.danger-hover", { type: "button", title: "Delete (Del)", "aria-label": "Delete item", onclick: (e) => { e.stopPropagation(); onDelete(it); } }, icon("trash"))));
    tr.addEventListener("click", () => onOpen(it));
    body.append(tr);
  });
  syncAll();
  body.addEventListener("keydown", (e) => {
    const tr = e.target.closest("tr");
    if (!tr || e.target !== tr) return;
    const i = Number(tr.dataset.index);
    const move = (j) => {
      const next = body.children[Math.max(0, Math.min(body.children.length - 1, j))];
      if (!next) return;
      tr.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    };
    if (e.key === "ArrowDown" || e.key === "j") { e.preventDefault(); move(i + 1); }
    else if (e.key === "ArrowUp" || e.key === "k") { e.preventDefault(); move(i - 1); }
    else if (e.key === "Home") { e.preventDefault(); move(0); }
    else if (e.key === "End") { e.preventDefault(); move(body.children.length - 1); }
    else if (e.key === "Enter") { e.preventDefault(); onOpen(items[i]); }
    else if (e.key === " " && selected) { e.preventDefault(); tr.querySelector(".select-col input")?.click(); }
    else if ((e.key === "Delete" || e.key === "x") && onDelete) { e.preventDefault(); onDelete(items[i]); }
  });
  return h("div.grid-wrap", h("table.grid.fit" + (wrap ? ".wrap-cells" : ""), { "aria-label": label, dataset: { columns: String(shown.length) } },
    h("colgroup",
      selected && h("col.select-col"),
      shown.map((k, i) => {
        const col = h("col", { class: i < keys.length ? "key-col" : "" });
        if (i < keys.length && widths) col.style.width = `${widths[i]}px`; // CSSOM: the page's CSP allows no style attribute
        return col;
      }),
      hidden > 0 && h("col.more-col"),
      h("col.actions-col")),
    h("thead", head), body));
}

/** OTHER_MIN_PX is the narrowest an attribute column that is no key is left. */
const OTHER_MIN_PX = 72;

/**
 * fitKeys returns the key columns' widths for a grid width px wide
 * (null: the columns share the width alike): as keyWidths asks, and
 * narrower in proportion where that leaves the others fewer than
 * OTHER_MIN_PX each. width 0 (not known) keeps them as asked.
 */
export function fitKeys(widths, width, others, selection, more) {
  if (!(width > 0)) return widths;
  const room = width - (selection ? 36 : 0) - (more ? 96 : 0) - 76 - others * OTHER_MIN_PX - 2;
  const sum = widths.reduce((a, b) => a + b, 0);
  if (sum <= room) return widths;
  if (room < widths.length * KEY_MIN_PX) return null;
  return widths.map((w) => Math.floor((w * room) / sum));
}

/** cell shows one attribute value with a type hint. */
function cell(av) {
  if (av === undefined) return h("td.absent", "");
  const t = typeOf(av);
  return h("td", { class: "t-" + t.toLowerCase(), title: `${t}: ${short(av, 400)}` },
    h("span.cell-text", short(av, 240)), ["M", "L", "SS", "NS", "BS", "B"].includes(t) && h("span.type-tag", t));
}

const COLUMNS_KEY = "dynamoemu.console.columns"; // {"namespace/table" (items) or "namespace/table?index" (query results): [attribute, ...]}
const WRAP_KEY = "dynamoemu.console.wrap";

/** stored reads a JSON value kept in localStorage (fallback when none or unreadable). */
export function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}

/** store keeps a JSON value in localStorage (not kept when it cannot be). */
export function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* not remembered */ }
}

/** chosenColumns returns the columns chosen for the grid id names (null: the default). */
export function chosenColumns(id) {
  const c = stored(COLUMNS_KEY, {})[id];
  return Array.isArray(c) && c.every((x) => typeof x === "string") ? c : null;
}

/** chooseColumns keeps the columns of the grid id names (null: back to the default). */
function chooseColumns(id, columns) {
  const all = stored(COLUMNS_KEY, {});
  if (columns) all[id] = columns; else delete all[id];
  store(COLUMNS_KEY, all);
}

/**
 * columnsDialog lets a person choose the columns of the grid id names
 * (of items, keys, width px): the attributes of the items, the most used
 * first, with how many items have each. It returns true when the choice
 * changed (kept in localStorage), false when cancelled.
 */
export async function columnsDialog({ id, title, items, keys, width }) {
  const current = chosenColumns(id) || defaultColumns(items, keys, width);
  const attrs = attributesByUse(items, keys);
  for (const c of current) if (!attrs.some((a) => a.name === c)) attrs.push({ name: c, n: 0 });
  const boxes = attrs.map((a) => [a.name, h("input", { type: "checkbox", checked: current.includes(a.name), dataset: { attr: a.name }, "aria-label": `Show ${a.name}` })]);
  const fits = defaultColumns(items, keys, width).length;
  const choice = await dialog({
    title,
    body: [
      h("p.muted.small", `The key attributes always show (${keys.join(", ")}). About ${fits} more fit this grid's width one line each; more columns are narrower (Wrap shows their values over a few lines).`),
      h("ul.column-choice", boxes.map(([name, box]) => {
        const a = attrs.find((x) => x.name === name);
        return h("li", h("label.check", box, h("span.mono", name), h("span.muted.small", a.n ? `in ${a.n} of ${items.length}` : "not on this page")));
      })),
    ],
    buttons: [
      { label: "Default", value: "default" },
      { label: "Cancel", value: null },
      { label: "Show", value: "show", kind: "primary" },
    ],
  });
  if (choice === "default") chooseColumns(id, null);
  else if (choice === "show") chooseColumns(id, boxes.filter(([, b]) => b.checked).map(([name]) => name));
  else return false;
  return true;
}

/** columnsButton is the toolbar's Columns button: how many of the attributes show. */
export function columnsButton(onclick, shown, all) {
  return h("button.columns-button", { type: "button", onclick, title: "Choose the columns shown" }, icon("table"), `Columns ${shown}/${all}`);
}

/** wrapped tells whether grids wrap long values (one choice for every grid, kept in localStorage). */
export function wrapped() { return stored(WRAP_KEY, false) === true; }

/** wrapButton toggles wrapping and calls redraw(wrap). */
export function wrapButton(redraw) {
  const b = h("button", {
    type: "button", "aria-pressed": String(wrapped()), title: "Wrap long values over a few lines, or cut them to one line (w)",
    onclick: () => { const w = !wrapped(); store(WRAP_KEY, w); b.setAttribute("aria-pressed", String(w)); redraw(w); },
  }, "Wrap");
  return b;
}
