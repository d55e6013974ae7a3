// The conventions report (GET /dynamoemu/conventions) and its reset
// (DELETE): which tables follow the mbc-cqrs-serverless key rules, with
// their role, mode and where their policy comes from; the
// configuration's entries (one that matches no table is flagged); and
// every refusal and warning with its rule id, key, position in a batch
// or transaction, message, the rule's reason and the request id.

import { admin } from "../api.js";
import { h, mount, icon, badge, count, when, confirmDialog, toast, errorToast, empty, segmented, copyText } from "../ui.js";
import { chart } from "../chart.js";

/** The filter of entries while the page lives: all, refused, or written with a warning. */
let show = "all";

const MODE_TONE = { enforce: "danger", warn: "warn", off: "" };

/** conventionsView draws the report into main. */
export async function conventionsView(main) {
  let report;
  try {
    report = await admin("GET", "/conventions");
  } catch (err) {
    mount(main, h("div.page", h("h1", "Conventions"), h("div.note.error", `${err.type}: ${err.message}`)));
    return null;
  }
  const again = () => conventionsView(main);
  const reset = async () => {
    if (!(await confirmDialog("Reset the report?", "Forgets every violation seen so far (the emulator goes on checking).", "Reset"))) return;
    try { await admin("DELETE", "/conventions"); toast("Report reset", "ok"); again(); } catch (err) { errorToast(err, "Reset"); }
  };
  const tables = report.tables || [];
  const checked = report.checked || [];
  const config = report.config || [];
  const keep = (e) => show === "all" || (show === "refused" ? e.refused > 0 : e.refused < e.count);
  const shownTables = tables.map((t) => ({ ...t, entries: (t.entries || []).filter(keep) })).filter((t) => t.entries.length > 0 || show === "all");
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("shield"), "Conventions"),
        h("p.muted", "The key, version and tenant rules of mbc-cqrs-serverless, on the tables that follow them (-conventions, or a table's tags). In enforce mode a breaking write is refused; in warn mode it is written and reported here.")),
      h("div.actions",
        h("button", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
        h("button", { type: "button", onclick: reset }, icon("trash"), "Reset"))),
    h("div.stats",
      stat("Violations", count(report.violations)), stat("Refused writes", count(report.refused), report.refused ? "danger" : ""),
      stat("Errors", count(report.errors), report.errors ? "danger" : ""), stat("Warnings", count(report.warnings), report.warnings ? "warn" : ""),
      stat("Checked tables", count(checked.length)), stat("Dropped entries", count(report.dropped))),
    h("section.panel.conv-checked",
      h("h2", "Tables checked", badge(`${checked.length}`, checked.length ? "info" : "")),
      checked.length === 0
        ? h("p.muted", "No table follows the conventions: start the server with -conventions FILE, or tag a table dynamoemu:conventions (its role) and dynamoemu:conventions-mode (enforce, warn or off).")
        : h("div.grid-wrap", h("table.grid.static", { "aria-label": "Tables checked" },
          h("thead", h("tr", ["Table", "Namespace", "Role", "Mode", "Policy from"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", checked.map((c) => h("tr", { dataset: { table: c.table } },
            h("td.strong", c.table), h("td.mono.small", c.namespace || "shared"),
            h("td", c.roles ? c.roles.split("+").map((r) => badge(r, "accent")) : h("span.muted.small", "latest item or design only")),
            h("td", badge(c.mode, MODE_TONE[c.mode] ?? "")),
            h("td.small", c.source === "tags" ? "the table's tags" : h("span", "configuration ", h("code", c.source))))))))),
    config.length > 0 && h("section.panel.conv-config",
      h("h2", "Configuration"),
      h("div.grid-wrap", h("table.grid.static", { "aria-label": "Configuration entries" },
        h("thead", h("tr", ["Match", "Role", "Mode", "Tables"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", config.map((c) => h("tr",
          h("td.mono", c.match), h("td", c.roles), h("td", badge(c.mode, MODE_TONE[c.mode] ?? "")),
          h("td", c.tables ? count(c.tables) : badge("matches no table", "warn")))))))),
    h("div.toolbar.conv-filter",
      h("h2.inline", "Refusals and warnings"),
      segmented([["all", "All"], ["refused", "Refused"], ["warned", "Written with a warning"]], show, (v) => { show = v; again(); }, "Show")),
    tables.length === 0
      ? empty("No violations", "Nothing seen since the emulator started or the report was reset.")
      : shownTables.length === 0
        ? empty("None of this kind", "Other entries are hidden by the filter above.")
        : shownTables.map(tableReport)));
  return { keys: { r: again } };
}

function stat(label, value, kind = "") {
  return h("div.stat" + (kind ? "." + kind : ""), h("span.stat-label", label), h("span.stat-value", value));
}

function keyCell(k) {
  if (!k?.pk && !k?.sk) return h("span.muted", "table");
  return [h("div.mono.small", h("span.muted", "pk "), k.pk), k.sk && h("div.mono.small", h("span.muted", "sk "), k.sk)];
}

function tableReport(t) {
  const rules = Object.entries(t.counts || {}).sort((a, b) => b[1] - a[1]);
  return h("section.panel.conv-table", { dataset: { table: t.table } },
    h("h2", t.table),
    chart({ kind: "bar", title: "Violations by rule", unit: "seen", series: [{ name: "violations", tone: "warn" }], rows: rules.map(([rule, n]) => ({ label: rule, values: [n] })) }),
    h("div.grid-wrap", h("table.grid.static.conv-entries", { "aria-label": `Violations of ${t.table}` },
      h("thead", h("tr", ["Rule", "", "Key", "Position", "What and why", "Seen", "Last", "Request"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", t.entries.map((e) => h("tr", { dataset: { rule: e.rule } },
        h("td.strong.mono", e.rule),
        h("td", { title: `severity ${e.severity}` }, e.refused ? badge(`refused${e.refused > 1 ? " ×" + count(e.refused) : ""}`, "danger") : null,
          e.refused < e.count ? badge(e.refused ? "also written" : "written, warned", "warn") : null),
        h("td", keyCell(e.key)),
        h("td.mono.small", e.position || h("span.muted", "alone")),
        h("td.wrap", h("div", e.message), e.reason && h("div.conv-reason", h("span.muted", "Why: "), e.reason)),
        h("td.t-n", count(e.count)),
        h("td.small", when(e.last), h("div.muted", e.operation)),
        h("td.mono.small", e.requestId
          ? h("button.link-button", { type: "button", title: `${e.requestId}: click to copy (the server's log line of the request has it)`, onclick: () => copyText(e.requestId, "Request id copied") }, e.requestId.slice(0, 13) + (e.requestId.length > 13 ? "…" : ""))
          : "")))))));
}
