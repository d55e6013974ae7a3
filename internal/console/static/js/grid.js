// The item grid: key attributes first, then the other attributes of the
// page by how many items have them. Rows are keyboard-driven: ↑/↓ or j/k
// move, Enter opens, Delete (or x) deletes.

import { h, icon, badge } from "./ui.js";
import { typeOf, short } from "./ddb.js";

const MAX_COLUMNS = 12;

/**
 * itemGrid returns a table of items. keys are the key attribute names
 * (partition key first), badges their labels (PK, SK by default);
 * onOpen(item) and onDelete(item) are called for a row, onDelete may be
 * omitted (no delete buttons).
 */
export function itemGrid({ items, keys, badges = [], onOpen, onDelete, label = "Items" }) {
  const freq = new Map();
  for (const it of items) for (const k of Object.keys(it)) if (!keys.includes(k)) freq.set(k, (freq.get(k) || 0) + 1);
  const others = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  const shown = [...keys, ...others.slice(0, Math.max(0, MAX_COLUMNS - keys.length))];
  const hidden = others.length - (shown.length - keys.length);

  const head = h("tr",
    shown.map((k, i) => h("th", { scope: "col", class: i < keys.length ? "key-col" : "" },
      k, i < keys.length && badge(badges[i] || (i === 0 ? "PK" : "SK"), "key"))),
    hidden > 0 && h("th.more-col", { scope: "col" }, `+${hidden} more`),
    h("th.actions-col", { scope: "col" }, h("span.visually-hidden", "Actions")));
  const body = h("tbody");
  items.forEach((it, idx) => {
    const tr = h("tr", { tabindex: idx === 0 ? "0" : "-1", dataset: { index: String(idx) } },
      shown.map((k) => cell(it[k])),
      hidden > 0 && h("td.more-col", String(Object.keys(it).filter((k) => !shown.includes(k)).length || "")),
      h("td.actions-col",
        h("button.icon-button", { type: "button", title: "Edit (Enter)", "aria-label": "Edit item", onclick: (e) => { e.stopPropagation(); onOpen(it); } }, icon("edit")),
        onDelete && h("button.icon-button.danger-hover", { type: "button", title: "Delete (Del)", "aria-label": "Delete item", onclick: (e) => { e.stopPropagation(); onDelete(it); } }, icon("trash"))));
    tr.addEventListener("click", () => onOpen(it));
    body.append(tr);
  });
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
