// The item grid: key attributes first, then the other attributes of the
// page by how many items have them. Rows are keyboard-driven: ↑/↓ or j/k
// move, Enter opens, Delete (or x) deletes, Space selects (when the grid
// has selection). A column header sorts the rows shown (click again to
// reverse), by each value's type: numbers as numbers, the rest as text.

import { h, icon, badge } from "./ui.js";
import { typeOf, short, stringify } from "./ddb.js";

const MAX_COLUMNS = 12;

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
 * a checkbox per row; onSelect() is called when it changes.
 */
export function itemGrid({ items, keys, badges = [], onOpen, onDelete, label = "Items", sort = null, onSort = null, selected = null, onSelect = () => {} }) {
  const freq = new Map();
  for (const it of items) for (const k of Object.keys(it)) if (!keys.includes(k)) freq.set(k, (freq.get(k) || 0) + 1);
  const others = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  const shown = [...keys, ...others.slice(0, Math.max(0, MAX_COLUMNS - keys.length))];
  const hidden = others.length - (shown.length - keys.length);
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
    const label = [k, i < keys.length && badge(badges[i] || (i === 0 ? "PK" : "SK"), "key")];
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
    hidden > 0 && h("th.more-col", { scope: "col" }, `+${hidden} more`),
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
  return h("div.grid-wrap", h("table.grid", { "aria-label": label }, h("thead", head), body));
}

/** cell shows one attribute value with a type hint. */
function cell(av) {
  if (av === undefined) return h("td.absent", "");
  const t = typeOf(av);
  return h("td", { class: "t-" + t.toLowerCase(), title: `${t}: ${short(av, 400)}` }, short(av), ["M", "L", "SS", "NS", "BS", "B"].includes(t) && h("span.type-tag", t));
}
