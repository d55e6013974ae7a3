// Snapshots of the whole emulator (beyond AWS, for test suites): take
// one, list them, see what changed since one was taken (table by table,
// item by item), rewind to one, drop one; through the admin endpoints
// POST/GET /dynamoemu/snapshots, GET .../{id}/diff,
// POST .../{id}/restore, DELETE .../{id}.

import { admin, namespace, config } from "../api.js";
import { h, mount, icon, badge, count, when, toast, errorToast, confirmDialog, segmented, empty } from "../ui.js";
import { refreshTables } from "../app.js";
import { itemToPlain, stringify } from "../ddb.js";
import { imageTable, diff as imageDiff } from "./stream.js";
import { nsID } from "./contributors.js";

/** shown keeps the diff on screen while the page lives: {id, scope}. */
let shown = null;

/** snapshotsView draws the snapshots and, if one was asked for, its diff into main. */
export async function snapshotsView(main) {
  let list;
  try {
    list = (await admin("GET", "/snapshots")).snapshots || [];
  } catch (err) {
    mount(main, h("div.page", h("h1", "Snapshots"), h("div.note.error", `${err.type}: ${err.message}`)));
    return null;
  }
  if (shown && !list.some((s) => s.id === shown.id)) shown = null;
  const again = () => snapshotsView(main);
  const act = async (what, fn) => { try { await fn(); toast(what, "ok"); } catch (err) { errorToast(err, what); } await again(); };
  const take = () => act("Snapshot taken", async () => { const { id } = await admin("POST", "/snapshots", {}); shown = { id, scope: shown?.scope || "here" }; });
  const restore = async (s) => {
    if (!(await confirmDialog(`Rewind to ${s.id}?`,
      `Every namespace goes back to how it was at ${when(s.taken)}: tables made since are dropped, changed ones restored (backups, the clock and stream records are left as they are). The snapshot is kept.`,
      "Rewind", true))) return;
    await act(`Rewound to ${s.id}`, () => admin("POST", `/snapshots/${encodeURIComponent(s.id)}/restore`, {}));
    await refreshTables();
  };
  const drop = async (s) => {
    if (!(await confirmDialog(`Drop ${s.id}?`, "Forgets the snapshot and frees what only it holds. The tables are not touched.", "Drop", true))) return;
    if (shown?.id === s.id) shown = null;
    await act(`${s.id} dropped`, () => admin("DELETE", `/snapshots/${encodeURIComponent(s.id)}`, {}));
  };
  const here = nsID();
  const summary = (s) => {
    const mine = s.namespaces.find((n) => n.namespace === here);
    const others = s.namespaces.filter((n) => n.namespace !== here);
    return [mine ? `${mine.tables} table${mine.tables === 1 ? "" : "s"}, ${count(mine.items)} items here` : "nothing here",
      others.length ? ` · ${others.length} other namespace${others.length > 1 ? "s" : ""}` : ""].join("");
  };
  const diffBox = h("div.snapshot-diff");
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("db"), "Snapshots"),
        h("p.muted", "A snapshot holds every namespace's tables at one instant, in O(1) per table: load fixtures once, snapshot, and rewind between tests (the Go API and POST /dynamoemu/snapshots do the same).")),
      h("div.actions",
        h("button", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
        h("button.primary", { type: "button", onclick: take, title: "Take a snapshot" }, icon("plus"), "Take snapshot"))),
    list.length === 0
      ? empty("No snapshots", "Take one here, or from a test (emulatortest.Checkpoint, POST /dynamoemu/snapshots).",
        h("button.primary", { type: "button", onclick: take }, icon("plus"), "Take snapshot"))
      : h("div.grid-wrap", h("table.grid.static.snapshots", { "aria-label": "Snapshots" },
        h("thead", h("tr", ["Snapshot", "Taken (emulator time)", "Holds", ""].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Actions"))))),
        h("tbody", list.slice().reverse().map((s) => h("tr", { dataset: { snapshot: s.id }, class: shown?.id === s.id ? "selected" : "" },
          h("td.strong.mono", s.id), h("td.small", when(s.taken)), h("td.small", summary(s)),
          h("td.actions-cell",
            h("button.small", { type: "button", onclick: () => { shown = { id: s.id, scope: shown?.scope || "here" }; again(); } }, "Diff with now"),
            h("button.small", { type: "button", onclick: () => restore(s) }, "Rewind…"),
            h("button.small.danger-outline", { type: "button", onclick: () => drop(s) }, "Drop"))))))),
    diffBox));
  if (shown) await drawDiff(diffBox, shown, again);
  return { keys: { r: again } };
}

/** drawDiff draws what changed since snapshot sel.id, in this namespace or all. */
async function drawDiff(box, sel, again) {
  let d;
  try {
    d = await admin("GET", `/snapshots/${encodeURIComponent(sel.id)}/diff?limit=200${sel.scope === "here" ? `&namespace=${encodeURIComponent(nsID())}` : ""}`);
  } catch (err) {
    mount(box, h("div.note.error", `${err.type}: ${err.message}`));
    return;
  }
  const spaces = d.namespaces || [];
  const changes = spaces.flatMap((n) => n.tables).filter((t) => t.change !== "unchanged").length;
  mount(box, h("section.panel.diff-panel",
    h("div.soon-head", h("h2", `Since ${d.id}`), h("span.muted.small", `taken ${when(d.taken)}`),
      badge(changes ? `${changes} table${changes > 1 ? "s" : ""} changed` : "no change", changes ? "warn" : "ok"),
      h("span.spacer"),
      !config.sharedDb && segmented([["here", `${namespace.accessKey} · ${namespace.region}`], ["all", "Every namespace"]], sel.scope, (v) => { sel.scope = v; again(); }, "Diff scope")),
    spaces.length === 0
      ? h("p.muted", "No tables then or now" + (sel.scope === "here" ? " in this namespace." : "."))
      : spaces.map((n) => h("div.diff-space",
        (sel.scope === "all" || config.sharedDb) && h("h3.mono", n.namespace),
        tableDiffs(n.tables, n.namespace)))));
}

/** diffGrid is the grid of tables of a diff, with their counts. */
function diffGrid(tables, label) {
  return h("div.grid-wrap", h("table.grid.static.diff-tables", { "aria-label": label },
    h("thead", h("tr", ["Table", "Change", "Items then", "Items now", "Added", "Removed", "Modified"].map((c, i) => h("th", { scope: "col", class: i > 1 ? "t-n" : "" }, c)))),
    h("tbody", tables.map((t) => h("tr", { dataset: { table: t.table }, class: t.change === "unchanged" ? "dim" : "" },
      h("td.strong", t.table), h("td", changeBadge(t.change)),
      h("td.t-n", count(t.itemsThen)), h("td.t-n", count(t.itemsNow)),
      h("td.t-n", t.added ? h("span.c-insert", "+" + count(t.added)) : "0"),
      h("td.t-n", t.removed ? h("span.c-remove", "−" + count(t.removed)) : "0"),
      h("td.t-n", t.modified ? h("span.c-modify", "~" + count(t.modified)) : "0"))))));
}

/**
 * tableDiffs draws a diff's tables (GET .../diff's "tables"): the changed
 * ones first with their items, the unchanged ones folded away below.
 */
export function tableDiffs(tables, label) {
  const changed = tables.filter((t) => t.change !== "unchanged");
  const same = tables.filter((t) => t.change === "unchanged");
  return [
    changed.length ? diffGrid(changed, `Tables changed in ${label}`) : h("p.muted", "No table changed."),
    changed.filter((t) => (t.items || []).length || t.note).map((t) => h("details.diff-items", { open: true },
      h("summary", h("strong", t.table), ` · ${(t.items || []).length} item${(t.items || []).length === 1 ? "" : "s"} shown`, t.truncated && " (more differ: the counts above are exact)"),
      t.note && h("p.muted.small", t.note),
      h("ul.records", (t.items || []).map(itemCard)))),
    same.length > 0 && h("details.diff-unchanged",
      h("summary", `${same.length} unchanged table${same.length === 1 ? "" : "s"}`),
      diffGrid(same, `Tables unchanged in ${label}`)),
  ];
}

function changeBadge(c) {
  return badge(c, { added: "ok", removed: "danger", replaced: "warn", changed: "info" }[c] || "");
}

/** itemCard draws one item that differs, as a stream record is drawn. */
function itemCard(x) {
  const keySchema = Object.keys(x.key || {}).map((n) => ({ AttributeName: n }));
  const kind = { added: "INSERT", removed: "REMOVE", modified: "MODIFY" }[x.change];
  return h("li.record.r-" + kind.toLowerCase(),
    h("div.record-head", badge(x.change, x.change === "added" ? "ok" : x.change === "removed" ? "danger" : "info"),
      h("code.record-key", stringify(itemToPlain(x.key || {}), 0))),
    x.change === "modified" ? imageDiff(x.old, x.new, keySchema) : imageTable(x.new || x.old, keySchema, x.change === "removed" ? "old" : "new"));
}
