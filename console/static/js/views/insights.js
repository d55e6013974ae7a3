// Insights: room for the fault-injection rules and the access-pattern
// report (hot keys, filter waste, Query vs Scan), which are being built
// in the emulator now and are NOT available yet. The charts are ready:
// chart.js draws each from a JSON spec, so wiring a report in is a fetch
// and a list of specs (renderCharts). The preview below draws example
// specs, marked as such.

import { h, mount, icon } from "../ui.js";
import { chart } from "../chart.js";

/** renderCharts draws chart specs (chart.js) into a grid. */
export function renderCharts(specs) {
  return h("div.chart-grid", specs.map((s) => chart(s)));
}

/** EXAMPLES are made-up specs, one per chart the access-pattern report will feed. */
export const EXAMPLES = [
  {
    kind: "bar", title: "Hot partition keys", subtitle: "requests per partition key (example)", unit: "requests",
    series: [{ name: "requests", tone: "accent" }],
    rows: [
      { label: "TENANT#acme", values: [1840] }, { label: "TENANT#globex", values: [620] }, { label: "TENANT#initech", values: [410] },
      { label: "TENANT#umbrella", values: [220] }, { label: "TENANT#hooli", values: [95] },
    ],
  },
  {
    kind: "stacked", title: "Filter waste", subtitle: "items read vs returned, per table and index (example)", unit: "items",
    series: [{ name: "returned", tone: "ok" }, { name: "read and dropped by the filter", tone: "danger" }],
    rows: [
      { label: "Orders", values: [300, 2700] }, { label: "Orders · GSI byStatus", values: [480, 120] }, { label: "Customers", values: [90, 10] },
    ],
  },
  {
    kind: "donut", title: "Query vs Scan", subtitle: "read requests (example)", unit: "requests",
    rows: [{ label: "Query", values: [1290] }, { label: "Scan", values: [310] }, { label: "GetItem", values: [2050] }],
  },
];

/** insightsView draws the placeholders and the preview into main. */
export async function insightsView(main) {
  const preview = h("div.preview-charts");
  let shown = false;
  const toggle = h("button", {
    type: "button",
    onclick: () => {
      shown = !shown;
      mount(preview, shown && [h("div.note.info", "Example data, made up to show the charts: not from this emulator."), renderCharts(EXAMPLES)]);
      toggle.textContent = shown ? "Hide the preview" : "Preview the charts with example data";
    },
  }, "Preview the charts with example data");
  mount(main, h("div.page",
    h("div.page-head", h("div", h("h1", icon("chart"), "Insights"), h("p.muted", "How your application uses its tables, and the faults you inject to test it."))),
    h("div.two-col", h("section.panel.soon",
      h("div.soon-head", h("h2", "Access patterns"), h("span.badge.warn", "not available yet")),
      h("p", "Hot partition keys, filter waste (items read and then dropped by a filter) and Query vs Scan, per table and index. The emulator does not report them yet: this tab shows them once it does.")),
    h("section.panel.soon",
      h("div.soon-head", h("h2", "Fault injection"), h("span.badge.warn", "not available yet")),
      h("p", "Rules that make chosen requests fail (throttling, conditional failures, latency) to test an application's error handling. Not in the emulator yet: the rules will be listed and switched here."))),
    h("section.panel", h("div.actions", toggle), preview)));
  return null;
}
