// The tables of the namespace, as one compact list sorted by any column
// (a line a table, narrow enough for a laptop's screen, read one request
// a page of 100 tables: GET /dynamoemu/tables), and the other namespaces
// that hold tables, one click away.

import { admin, namespace, namespaceID, config } from "../api.js";
import { h, icon, mount, badge, bytes, count, empty, when } from "../ui.js";
import { setTables, loadNamespaces, switchNamespace, go } from "../app.js";

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

/**
 * describeAll returns the namespace's tables described, one request per
 * page of 100 (GET /dynamoemu/tables), never one per table.
 */
async function describeAll() {
  const out = [];
  let start = "";
  do {
    const q = new URLSearchParams({ namespace: namespaceID() });
    if (start) q.set("start", start);
    const page = await admin("GET", `/tables?${q}`);
    out.push(...(page.tables || []));
    start = page.lastEvaluatedTableName || "";
  } while (start);
  return out;
}

/** STREAMS are the stream view types, short. */
const STREAMS = { NEW_AND_OLD_IMAGES: "new+old", NEW_IMAGE: "new", OLD_IMAGE: "old", KEYS_ONLY: "keys" };

/** keysShort writes a key schema as "pk S · sk S". */
function keysShort(t) {
  const types = Object.fromEntries((t.AttributeDefinitions || []).map((d) => [d.AttributeName, d.AttributeType]));
  return h("span.key-text", t.KeySchema.map((k, i) => [i > 0 && h("span.ns-sep", " · "),
    h("span.key-name", { title: `${k.KeyType === "HASH" ? "partition" : "sort"} key` }, k.AttributeName), h("span.key-type", types[k.AttributeName] || "?")]));
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
  const [descs, spaces] = await Promise.all([describeAll(), loadNamespaces()]);
  const names = descs.map((t) => t.TableName);
  setTables(names); // the sidebar, from the same answer
  const elsewhere = spaces.filter((n) => n.accessKey !== namespace.accessKey || n.region !== namespace.region);
  const header = h("div.page-head.compact-head",
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
  mount(main, h("div.page.wide-page", header, strip, h("div.toolbar", find, summary), wrap));
  const rows = descs.map((t) => ({ name: t.TableName, t }));
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
      const gsis = t.GlobalSecondaryIndexes?.length || 0;
      const lsis = t.LocalSecondaryIndexes?.length || 0;
      const status = t.TableStatus === "ACTIVE" ? h("span.status-dot.ok", { title: "ACTIVE" }, "active") : badge(t.TableStatus, "warn");
      const stream = t.StreamSpecification?.StreamEnabled ? t.StreamSpecification.StreamViewType : "";
      const created = when(t.CreationDateTime);
      const tr = h("tr", { dataset: { table: r.name }, tabindex: "-1" },
        h("td.strong.name-col", { title: r.name }, h("a", { href }, icon("table"), h("span", r.name))),
        h("td.small", keysShort(t)),
        h("td.small", status),
        h("td.t-n", count(t.ItemCount)), h("td.t-n", bytes(t.TableSizeBytes)),
        h("td.t-n", [gsis ? `${gsis} GSI` : "", lsis ? `${lsis} LSI` : ""].filter(Boolean).join(" · ") || "—"),
        h("td.small", billing(t)),
        h("td.small", stream ? badge(STREAMS[stream] || stream, "info") : h("span.muted", "—")),
        h("td.small.mono", { title: created }, created.slice(0, 16)));
      tr.addEventListener("click", (e) => { if (!e.target.closest("a")) go(href); });
      return tr;
    }));
    mount(wrap, h("div.grid-wrap", h("table.grid.table-list-grid", { "aria-label": "Tables" }, h("thead", head), body)));
  };
  find.addEventListener("input", draw);
  draw();
  return { keys: { r: () => homeView(main) } };
}
