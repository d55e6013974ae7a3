// The tables of the namespace, as one compact list sorted by any column,
// and the other namespaces that hold tables, one click away.

import { call, namespace, config } from "../api.js";
import { h, icon, mount, badge, bytes, count, empty, when } from "../ui.js";
import { refreshTables, loadNamespaces, switchNamespace, go } from "../app.js";
import { keyText } from "./table.js";

const SORT_KEY = "dynamoemu.console.tableSort";

/** COLUMNS of the table list: [id, label, value of a row for sorting, numeric]. */
const COLUMNS = [
  ["name", "Table", (r) => r.name, false],
  ["keys", "Keys", (r) => (r.t ? r.t.KeySchema.map((k) => k.AttributeName).join(" ") : ""), false],
  ["status", "Status", (r) => r.t?.TableStatus || "", false],
  ["items", "Items", (r) => r.t?.ItemCount ?? -1, true],
  ["size", "Size", (r) => r.t?.TableSizeBytes ?? -1, true],
  ["indexes", "Indexes", (r) => (r.t?.GlobalSecondaryIndexes?.length || 0) + (r.t?.LocalSecondaryIndexes?.length || 0), true],
  ["billing", "Billing", (r) => billing(r.t), false],
  ["stream", "Stream", (r) => (r.t?.StreamSpecification?.StreamEnabled ? r.t.StreamSpecification.StreamViewType : ""), false],
  ["created", "Created", (r) => r.t?.CreationDateTime ?? 0, true],
];

/** RIGHT are the columns of numbers, aligned right. */
const RIGHT = new Set(["items", "size", "indexes"]);

function billing(t) {
  if (!t) return "";
  return t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST" ? "on-demand" : "provisioned";
}

function savedSort() {
  try {
    const s = JSON.parse(localStorage.getItem(SORT_KEY) || "null");
    if (s && COLUMNS.some(([id]) => id === s.col) && (s.dir === 1 || s.dir === -1)) return s;
  } catch { /* the default */ }
  return { col: "name", dir: 1 };
}

/** describeAll describes names, at most 8 at a time; a table that cannot be described is null. */
async function describeAll(names) {
  const out = new Array(names.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      out[i] = await call("DescribeTable", { TableName: names[i] }).then((o) => o.Table).catch(() => null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, names.length) }, worker));
  return out;
}

/** namespaceStrip shows the namespaces that hold tables, each a one-click switch. */
export function namespaceStrip(list) {
  if (config.sharedDb || list.length === 0) return null;
  const here = (n) => n.accessKey === namespace.accessKey && n.region === namespace.region;
  return h("nav.ns-strip", { "aria-label": "Namespaces with tables" },
    h("span.ns-strip-label", "Namespaces with tables"),
    list.map((n) => h("button.ns-pill" + (here(n) ? ".current" : ""), {
      type: "button", dataset: { namespace: n.namespace }, "aria-current": here(n) ? "true" : false,
      title: here(n) ? "The namespace shown" : `Switch to ${n.accessKey} · ${n.region}`,
      onclick: () => { if (!here(n)) switchNamespace(n.accessKey, n.region); },
    }, h("span.mono", `${n.accessKey} · ${n.region}`), h("span.ns-count", `${n.tables} table${n.tables === 1 ? "" : "s"} · ${count(n.items)} items`))));
}

/** homeView shows every table of the namespace with its keys, size and features. */
export async function homeView(main) {
  const [names, spaces] = await Promise.all([refreshTables(), loadNamespaces()]);
  const elsewhere = spaces.filter((n) => n.accessKey !== namespace.accessKey || n.region !== namespace.region);
  const header = h("div.page-head",
    h("div", h("h1", "Tables"), h("p.muted", config.sharedDb
      ? "The shared database (-sharedDb): every access key and region sees these tables."
      : `Namespace ${namespace.accessKey} · ${namespace.region}. Another access key or region is another database.`)),
    h("div.actions",
      h("button", { type: "button", onclick: () => homeView(main), title: "Refresh (r)" }, icon("refresh"), "Refresh"),
      h("a.button", { href: "#/transfers", title: "Import a table from files (S3 stand-in)" }, "Import…"),
      h("button.primary", { type: "button", onclick: () => document.getElementById("create-table").click(), title: "Create a table (c)" }, icon("plus"), "Create table")));
  const strip = namespaceStrip(spaces);
  if (names.length === 0) {
    mount(main, h("div.page", header, strip, empty("No tables here yet",
      elsewhere.length
        ? `Other namespaces hold tables (above): your application may sign with another access key or region. One click switches.`
        : "Create one here, or point an SDK or the AWS CLI at this server with the same access key and region.",
      h("button.primary", { type: "button", onclick: () => document.getElementById("create-table").click() }, icon("plus"), "Create table"),
      !config.sharedDb && h("button", { type: "button", onclick: () => document.getElementById("ns-button").click() }, icon("key"), "Switch namespace"))));
    return { keys: { r: () => homeView(main) } };
  }
  const wrap = h("div.table-index");
  const find = h("input", { type: "search", placeholder: "Filter tables", "aria-label": "Filter tables", autocomplete: "off", spellcheck: "false" });
  const summary = h("span.page-info");
  mount(main, h("div.page", header, strip, h("div.toolbar", find, summary), wrap));
  const descs = await describeAll(names);
  const rows = names.map((name, i) => ({ name, t: descs[i] }));
  let sort = savedSort();

  const draw = () => {
    const q = find.value.trim().toLowerCase();
    const [, , key, numeric] = COLUMNS.find(([id]) => id === sort.col);
    const shown = rows.filter((r) => r.name.toLowerCase().includes(q)).sort((a, b) => {
      const x = key(a), y = key(b);
      const c = numeric ? x - y : String(x).localeCompare(String(y));
      return sort.dir * c || a.name.localeCompare(b.name);
    });
    const items = rows.reduce((n, r) => n + (r.t?.ItemCount || 0), 0);
    summary.textContent = `${shown.length === rows.length ? rows.length : `${shown.length} of ${rows.length}`} tables · ${count(items)} items`;
    const head = h("tr", COLUMNS.map(([id, label]) => {
      const dir = sort.col === id ? sort.dir : 0;
      return h("th", { scope: "col", class: "sortable" + (RIGHT.has(id) ? " t-n" : ""), "aria-sort": dir === 1 ? "ascending" : dir === -1 ? "descending" : "none" },
        h("button.sort-button", {
          type: "button", title: `Sort by ${label.toLowerCase()}`,
          onclick: () => {
            sort = { col: id, dir: dir === 1 ? -1 : 1 };
            try { localStorage.setItem(SORT_KEY, JSON.stringify(sort)); } catch { /* not remembered */ }
            draw();
          },
        }, label, h("span.sort-mark", { "aria-hidden": "true" }, dir === 1 ? "▲" : dir === -1 ? "▼" : "")));
    }));
    const body = h("tbody", shown.map((r) => {
      const t = r.t;
      const href = `#/t/${encodeURIComponent(r.name)}/items`;
      if (!t) return h("tr", { dataset: { table: r.name } }, h("td.strong", h("a", { href }, r.name)), h("td.muted", { colspan: String(COLUMNS.length - 1) }, "could not be described"));
      const gsis = t.GlobalSecondaryIndexes?.length || 0;
      const lsis = t.LocalSecondaryIndexes?.length || 0;
      const tr = h("tr", { dataset: { table: r.name }, tabindex: "-1" },
        h("td.strong", h("a", { href }, icon("table"), h("span", r.name))),
        h("td.small", keyText(t.KeySchema, t.AttributeDefinitions)),
        h("td", badge(t.TableStatus, t.TableStatus === "ACTIVE" ? "ok" : "warn")),
        h("td.t-n", count(t.ItemCount)), h("td.t-n", bytes(t.TableSizeBytes)),
        h("td.t-n", [gsis ? `${gsis} GSI` : "", lsis ? `${lsis} LSI` : ""].filter(Boolean).join(" · ") || "—"),
        h("td", billing(t)),
        h("td", t.StreamSpecification?.StreamEnabled ? badge(t.StreamSpecification.StreamViewType, "info") : h("span.muted", "—")),
        h("td.small", when(t.CreationDateTime)));
      tr.addEventListener("click", (e) => { if (!e.target.closest("a")) go(href); });
      return tr;
    }));
    mount(wrap, h("div.grid-wrap", h("table.grid.table-list-grid", { "aria-label": "Tables" }, h("thead", head), body)));
  };
  find.addEventListener("input", draw);
  draw();
  return { keys: { r: () => homeView(main) } };
}
