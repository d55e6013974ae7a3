// The conventions report (GET /dynamoemu/conventions) and its reset
// (DELETE): violations of the mbc-cqrs-serverless key rules, per table.

import { admin } from "../api.js";
import { h, mount, icon, badge, count, when, confirmDialog, toast, errorToast, empty } from "../ui.js";
import { chart } from "../chart.js";

/** conventionsView draws the report into main. */
export async function conventionsView(main) {
  let report;
  try {
    report = await admin("GET", "/conventions");
  } catch (err) {
    mount(main, h("div.page", h("h1", "Conventions"), h("div.note.error", `${err.type}: ${err.message}`)));
    return null;
  }
  const reset = async () => {
    if (!(await confirmDialog("Reset the report?", "Forgets every violation seen so far (the emulator goes on checking).", "Reset"))) return;
    try { await admin("DELETE", "/conventions"); toast("Report reset", "ok"); conventionsView(main); } catch (err) { errorToast(err, "Reset"); }
  };
  const tables = report.tables || [];
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("shield"), "Conventions"),
        h("p.muted", "Violations of the key, version and tenant rules, on the tables that follow the conventions (-conventions, or a table's tags). Served from the emulator's memory; a reset empties it.")),
      h("div.actions",
        h("button", { type: "button", onclick: () => conventionsView(main), title: "Refresh (r)" }, icon("refresh"), "Refresh"),
        h("button", { type: "button", onclick: reset }, icon("trash"), "Reset"))),
    h("div.stats",
      stat("Violations", count(report.violations)), stat("Errors", count(report.errors), report.errors ? "danger" : ""),
      stat("Warnings", count(report.warnings), report.warnings ? "warn" : ""), stat("Refused writes", count(report.refused)),
      stat("Dropped entries", count(report.dropped))),
    tables.length === 0
      ? empty("No violations", "Nothing seen since the emulator started or the report was reset.")
      : tables.map(tableReport)));
  return { keys: { r: () => conventionsView(main) } };
}

function stat(label, value, kind = "") {
  return h("div.stat" + (kind ? "." + kind : ""), h("span.stat-label", label), h("span.stat-value", value));
}

function tableReport(t) {
  const rules = Object.entries(t.counts || {}).sort((a, b) => b[1] - a[1]);
  return h("section.panel",
    h("h2", t.table),
    chart({ kind: "bar", title: "Violations by rule", unit: "seen", series: [{ name: "violations", tone: "warn" }], rows: rules.map(([rule, n]) => ({ label: rule, values: [n] })) }),
    h("div.grid-wrap", h("table.grid.static",
      h("thead", h("tr", ["Rule", "Severity", "Key", "Message", "Seen", "Refused", "Last", "Operation"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", (t.entries || []).map((e) => h("tr",
        h("td.strong", e.rule), h("td", badge(e.severity, e.severity === "error" ? "danger" : "warn")),
        h("td.mono.small", e.key?.pk || e.key?.sk ? `${e.key.pk}${e.key.sk ? " / " + e.key.sk : ""}` : "table"),
        h("td.wrap", e.message), h("td.t-n", count(e.count)), h("td.t-n", count(e.refused)), h("td.small", when(e.last)), h("td", e.operation)))))));
}
