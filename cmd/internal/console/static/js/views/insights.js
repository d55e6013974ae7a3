// Insights: the access-pattern report (GET /dynamoemu/report) of the
// namespace the console uses, and the fault-injection rules
// (GET/PUT/DELETE /dynamoemu/faults, GET /dynamoemu/faults/stats).
// The report's JSON is package insights' Report; each table gets three
// charts (chart.js specs): its hottest partition keys, filter waste per
// table and index, and its reads by kind (get, query, scan).

import { admin, config, namespace } from "../api.js";
import { h, mount, icon, badge, count, when, confirmDialog, toast, errorToast, empty } from "../ui.js";
import { chart } from "../chart.js";

/** renderCharts draws chart specs (chart.js) into a grid. */
export function renderCharts(specs) {
  return h("div.chart-grid", specs.map((s) => chart(s)));
}

/** nsID is the report's name of the console's namespace. */
function nsID() {
  return config.sharedDb ? "shared" : `${namespace.accessKey}/${namespace.region}`;
}

/** tableCharts returns the chart specs of one table's report. */
export function tableCharts(t) {
  const res = t.resources || [];
  const label = (r) => (r.index ? `${t.table} · ${r.index}` : t.table);
  const hot = (res[0]?.hotKeys || []).slice(0, 8);
  const reads = res.reduce((a, r) => ({ gets: a.gets + r.gets, queries: a.queries + r.queries, scans: a.scans + r.scans }), { gets: 0, queries: 0, scans: 0 });
  return [
    {
      kind: "bar", title: "Hot partition keys", subtitle: `${t.table}: consumed throughput units (3 × WCU + RCU)`, unit: "units",
      series: [{ name: "units", tone: "accent" }],
      rows: hot.map((k) => ({ label: k.key, values: [Number(k.units.toFixed(2))] })),
    },
    {
      kind: "stacked", title: "Filter waste", subtitle: "items returned, and read then dropped by a filter", unit: "items",
      series: [{ name: "returned", tone: "ok" }, { name: "read and dropped", tone: "danger" }],
      rows: res.filter((r) => r.itemsRead > 0).map((r) => ({ label: label(r), values: [r.itemsReturned, Math.max(0, r.itemsRead - r.itemsReturned)] })),
    },
    {
      kind: "donut", title: "Reads by kind", subtitle: `${t.table}, its indexes included`, unit: "requests",
      rows: [{ label: "Get", values: [reads.gets] }, { label: "Query", values: [reads.queries] }, { label: "Scan", values: [reads.scans] }].filter((r) => r.values[0] > 0),
    },
  ];
}

/** insightsView draws the report and the rules into main. */
export async function insightsView(main) {
  let body, rules, stats;
  try {
    [body, rules, stats] = await Promise.all([admin("GET", "/report"), admin("GET", "/faults"), admin("GET", "/faults/stats")]);
  } catch (err) {
    mount(main, h("div.page", h("h1", "Insights"), h("div.note.error", `${err.type}: ${err.message}`)));
    return null;
  }
  const refresh = () => insightsView(main);
  const act = async (what, fn) => { try { await fn(); toast(what, "ok"); refresh(); } catch (err) { errorToast(err, what); } };
  const report = (body.namespaces || []).find((n) => n.namespace === nsID())?.report;
  const tables = (report?.tables || []).filter((t) => (t.resources || []).some((r) => r.requests > 0));
  const collecting = body.reporting;
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("chart"), "Insights"),
        h("p.muted", "How your application uses its tables (the access-pattern report of this namespace), and the faults injected to test it.")),
      h("div.actions",
        h("button", { type: "button", onclick: refresh, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
        h("button", { type: "button", onclick: () => act(collecting ? "Stopped collecting" : "Collecting", () => admin("POST", collecting ? "/report/stop" : "/report/start")) },
          collecting ? "Stop collecting" : "Start collecting"),
        h("button", {
          type: "button",
          onclick: async () => { if (await confirmDialog("Reset the report?", "Forgets every count (collecting and the design stay).", "Reset")) act("Report reset", () => admin("DELETE", "/report")); },
        }, icon("trash"), "Reset"))),
    h("section.panel.report",
      h("div.soon-head", h("h2", "Access patterns"), collecting ? badge("collecting", "ok") : badge("not collecting", "warn"),
        body.design && badge("design checked", "accent"), report?.since && h("span.muted.small", "since " + when(report.since))),
      tables.length === 0
        ? empty("No traffic recorded", collecting
          ? "Nothing has used a table of this namespace since the report started."
          : "Start collecting here, or run the emulator with -report (and -design to check a single-table design).")
        : [tables.map(tableSection), costliest(report.costliest || []), design(report.design)]),
    faultsPanel(rules, stats, act)));
  return { keys: { r: refresh } };
}

function tableSection(t) {
  return h("div.report-table",
    h("h3", t.table, h("span.muted.small", ` ${count(t.itemCount || 0)} items`)),
    renderCharts(tableCharts(t)),
    h("div.grid-wrap", h("table.grid.static",
      h("thead", h("tr", ["", "Requests", "Get", "Query", "Scan", "Writes", "Read", "Returned", "Filter waste", "RCU", "WCU", "Throttled"].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Table or index"))))),
      h("tbody", (t.resources || []).map((r) => h("tr",
        h("td.strong", r.index ? "index " + r.index : "table"), h("td.t-n", count(r.requests)), h("td.t-n", count(r.gets)),
        h("td.t-n", count(r.queries)), h("td.t-n", r.scans ? badge(count(r.scans), "warn") : "0"), h("td.t-n", count(r.writes)),
        h("td.t-n", count(r.itemsRead)), h("td.t-n", count(r.itemsReturned)), h("td.t-n", `${Math.round(100 * (r.filterWaste || 0))}%`),
        h("td.t-n", r.readUnits), h("td.t-n", r.writeUnits), h("td.t-n", count(r.throttled || 0))))))),
    t.unusedIndexes?.length ? h("p.note.warn", "Indexes nothing read: " + t.unusedIndexes.join(", ")) : null);
}

function costliest(list) {
  if (list.length === 0) return null;
  return h("div.report-costly", h("h3", "Costliest requests"),
    h("div.grid-wrap", h("table.grid.static",
      h("thead", h("tr", ["Cost", "Operation", "Table", "Key", "Read", "Returned", "Pattern"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", list.map((q) => h("tr", h("td.t-n", q.cost), h("td", q.operation), h("td", q.index ? `${q.table} · ${q.index}` : q.table),
        h("td.mono.small", q.key || ""), h("td.t-n", count(q.itemsRead || 0)), h("td.t-n", count(q.itemsReturned || 0)), h("td", q.pattern || "")))))));
}

function design(d) {
  if (!d) return null;
  return h("div.report-design", h("h3", "Design"),
    h("div.grid-wrap", h("table.grid.static",
      h("thead", h("tr", ["Pattern", "Access", "Served by", "Condition", "Requests"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", (d.patterns || []).map((p) => h("tr", h("td.strong", p.name), h("td", p.access), h("td", p.servedBy),
        h("td.mono.small", p.condition || ""), h("td.t-n", p.requests ? count(p.requests) : badge("unused", "warn"))))))),
    (d.findings || []).length === 0
      ? h("p.note.info", "No findings: every request fits a pattern served by a key or an index.")
      : h("ul.findings", d.findings.map((f) => h("li", badge(f.kind, f.kind.includes("scan") ? "danger" : "warn"), " ", f.detail))));
}

function faultsPanel(rules, stats, act) {
  const list = rules.rules || [];
  const fired = Object.fromEntries((stats.rules || []).map((r) => [r.name, r]));
  const editor = h("textarea.mono.rules-editor", { rows: 6, spellcheck: false, "aria-label": "Fault rules (JSON)" },
    JSON.stringify({ seed: rules.seed || 1, rules: list }, null, 2));
  const key = (r) => [r.partitionKey && `pk=${JSON.stringify(r.partitionKey)}`, r.partitionKeyPrefix && `pk^=${JSON.stringify(r.partitionKeyPrefix)}`,
    r.sortKey && `sk=${JSON.stringify(r.sortKey)}`, r.sortKeyPrefix && `sk^=${JSON.stringify(r.sortKeyPrefix)}`].filter(Boolean).join(" ");
  const trigger = (r) => [r.probability && `p=${r.probability}`, r.every && `every ${r.every}`, r.count && `first ${r.count}`, r.delay && `delay ${r.delay}`].filter(Boolean).join(", ") || "always";
  return h("section.panel.faults",
    h("div.soon-head", h("h2", "Fault injection"), list.length ? badge(`${list.length} rule${list.length > 1 ? "s" : ""}`, "danger") : badge("no rules", "ok")),
    list.length === 0
      ? h("p.muted", "No rule: every request runs normally. Rules make chosen requests fail as AWS's would (throttling, conflicts, conditional failures, server errors) or wait; write them below, or load them with -faults.")
      : h("div.grid-wrap", h("table.grid.static",
        h("thead", h("tr", ["Rule", "Fault", "Table", "Index", "Operations", "Key", "Fires", "Matched", "Fired"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", list.map((r) => h("tr", h("td.strong", r.name), h("td", badge(r.fault, "danger")), h("td", r.table || "any"), h("td", r.index || ""),
          h("td.small", (r.operations || []).join(", ") || "any"), h("td.mono.small", key(r)), h("td.small", trigger(r)),
          h("td.t-n", count(fired[r.name]?.matched || 0)), h("td.t-n", count(fired[r.name]?.fired || 0))))))),
    Object.keys(stats.injected || {}).length
      ? h("p.small.muted", "Injected so far: " + Object.entries(stats.injected).map(([k, n]) => `${k} ${n}`).join(", "))
      : null,
    h("details.rules-edit", h("summary", "Edit the rules"), editor,
      h("div.actions",
        h("button", { type: "button", onclick: () => act("Rules saved", () => admin("PUT", "/faults", JSON.parse(editor.value))) }, "Save rules"),
        h("button", { type: "button", onclick: () => act("Rules cleared", () => admin("DELETE", "/faults")) }, icon("trash"), "Clear"))));
}
