// Charts as hand-written SVG, fed plain JSON. One entry point, chart(spec),
// so that a report served as JSON (the access-pattern report, the
// conventions counts) becomes a picture with no code of its own:
//
//   {
//     "kind": "bar" | "stacked" | "donut",
//     "title": "Hot partition keys",
//     "subtitle": "requests per key, last 5 minutes",   (optional)
//     "unit": "requests",                               (optional, after values)
//     "series": [{"name": "read", "tone": "accent"},    (stacked: one per segment;
//                {"name": "write", "tone": "warn"}],     bar and donut: the first)
//     "rows": [{"label": "ORDER#t1", "values": [120, 30], "hint": "tooltip"}],
//     "limit": 10                                       (optional: rows shown; the
//   }                                                     rest are summed as "others")
//
// bar: one horizontal bar per row (values[0]); stacked: one bar per row
// split by series (values[i] is series i), with a legend; donut: the
// share of each row (values[0]) of the total, with a legend. Tones are
// accent, ok, warn, danger, info, muted (colours follow the theme).

import { h, s } from "./ui.js";

const TONES = ["accent", "warn", "info", "ok", "danger", "muted"];
const W = 560; // the viewBox width; the SVG scales to its box
const ROW = 26;
const LABEL = 170;
const VALUE = 80;

/** chart returns a <figure> drawing spec. A bad spec draws a message, never throws. */
export function chart(spec) {
  const fig = h("figure.chart");
  const title = spec?.title || "";
  fig.append(h("figcaption", h("span.chart-title", title), (spec?.subtitle || spec?.unit) && h("span.chart-sub", spec.subtitle || spec.unit)));
  let rows;
  try { rows = normalize(spec); } catch (err) {
    fig.append(h("p.chart-empty", `This chart's data is not usable: ${err.message}`));
    return fig;
  }
  if (rows.length === 0) {
    fig.append(h("p.chart-empty", "Nothing to show yet."));
    return fig;
  }
  const draw = { bar: barChart, stacked: barChart, donut: donutChart }[spec.kind];
  if (!draw) {
    fig.append(h("p.chart-empty", `Unknown chart kind ${JSON.stringify(spec.kind)}.`));
    return fig;
  }
  const series = (spec.series && spec.series.length > 0 ? spec.series : [{ name: spec.unit || "value" }])
    .map((x, i) => ({ name: String(x.name ?? `series ${i + 1}`), tone: TONES.includes(x.tone) ? x.tone : TONES[i % TONES.length] }));
  fig.append(draw(rows, series, spec, title));
  return fig;
}

/** normalize checks the rows and folds those past the limit into "others". */
function normalize(spec) {
  if (!spec || typeof spec !== "object") throw new Error("not an object");
  if (!Array.isArray(spec.rows)) throw new Error("rows is not an array");
  let rows = spec.rows.map((r, i) => {
    const values = (Array.isArray(r.values) ? r.values : [r.value]).map(Number);
    if (values.some((v) => !Number.isFinite(v) || v < 0)) throw new Error(`row ${i + 1} has a value that is not a number ≥ 0`);
    return { label: String(r.label ?? ""), values, hint: r.hint ? String(r.hint) : "" };
  });
  const limit = Number.isInteger(spec.limit) && spec.limit > 0 ? spec.limit : 10;
  if (rows.length > limit) {
    const rest = rows.slice(limit - 1);
    const n = Math.max(...rest.map((r) => r.values.length));
    const sum = Array.from({ length: n }, (_, i) => rest.reduce((a, r) => a + (r.values[i] || 0), 0));
    rows = [...rows.slice(0, limit - 1), { label: `${rest.length} others`, values: sum, hint: "", others: true }];
  }
  return rows;
}

const fmt = (v) => (Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 2 }));
const cut = (t, n) => (t.length > n ? t.slice(0, n - 1) + "…" : t);

function barChart(rows, series, spec, title) {
  const stacked = spec.kind === "stacked";
  const totals = rows.map((r) => (stacked ? r.values.reduce((a, b) => a + b, 0) : r.values[0] || 0));
  const max = Math.max(...totals) || 1;
  const legend = stacked ? 26 : 0;
  const height = legend + rows.length * ROW + 4;
  const svg = s("svg", { viewBox: `0 0 ${W} ${height}`, class: "chart-svg", role: "img", "aria-label": title });
  if (stacked) {
    let x = LABEL;
    series.forEach((ser) => {
      svg.append(s("rect", { x, y: 6, width: 10, height: 10, rx: 2, class: "tone-" + ser.tone }),
        s("text", { x: x + 15, y: 15, class: "chart-legend" }, cut(ser.name, 40)));
      x += 34 + Math.min(ser.name.length, 40) * 6.2;
    });
  }
  const span = W - LABEL - VALUE;
  rows.forEach((r, i) => {
    const y = legend + i * ROW;
    const g = s("g", { class: "chart-row" + (r.others ? " others" : "") });
    g.append(s("title", {}, `${r.label}: ${stacked ? series.map((ser, j) => `${ser.name} ${fmt(r.values[j] || 0)}`).join(", ") : fmt(totals[i])}${spec.unit ? " " + spec.unit : ""}${r.hint ? "\n" + r.hint : ""}`));
    g.append(s("text", { x: LABEL - 10, y: y + 17, "text-anchor": "end", class: "chart-label" }, cut(r.label, 26)));
    g.append(s("rect", { x: LABEL, y: y + 4, width: span, height: ROW - 8, rx: 3, class: "chart-track" }));
    let x = LABEL;
    const parts = stacked ? r.values : [totals[i]];
    parts.forEach((v, j) => {
      const w = (v / max) * span;
      if (w > 0) g.append(s("rect", { x, y: y + 4, width: Math.max(w, 1.5), height: ROW - 8, rx: 3, class: "tone-" + (series[j]?.tone || "muted") }));
      x += w;
    });
    g.append(s("text", { x: LABEL + ((totals[i] / max) * span) + 6, y: y + 17, class: "chart-value" }, fmt(totals[i])));
    svg.append(g);
  });
  return svg;
}

function donutChart(rows, series, spec, title) {
  const total = rows.reduce((a, r) => a + (r.values[0] || 0), 0);
  const wrap = h("div.donut");
  const R = 60;
  const C = 2 * Math.PI * R;
  const svg = s("svg", { viewBox: "0 0 160 160", class: "chart-svg donut-svg", role: "img", "aria-label": title });
  svg.append(s("circle", { cx: 80, cy: 80, r: R, class: "chart-track-ring" }));
  let offset = 0;
  const legend = h("ul.chart-legend-list");
  rows.forEach((r, i) => {
    const v = r.values[0] || 0;
    const share = total > 0 ? v / total : 0;
    const tone = TONES[i % TONES.length];
    if (share > 0) {
      svg.append(s("circle", {
        cx: 80, cy: 80, r: R, class: "donut-slice tone-stroke-" + tone,
        "stroke-dasharray": `${share * C} ${C}`, "stroke-dashoffset": String(-offset * C), transform: "rotate(-90 80 80)",
      }, s("title", {}, `${r.label}: ${fmt(v)}${spec.unit ? " " + spec.unit : ""} (${Math.round(share * 100)}%)`)));
    }
    offset += share;
    legend.append(h("li", h("span.swatch.tone-" + tone), h("span.legend-label", r.label), h("span.legend-value", `${fmt(v)} · ${Math.round(share * 100)}%`)));
  });
  svg.append(s("text", { x: 80, y: 78, "text-anchor": "middle", class: "donut-total" }, fmt(total)));
  svg.append(s("text", { x: 80, y: 96, "text-anchor": "middle", class: "donut-unit" }, spec.unit || series[0].name));
  wrap.append(svg, legend);
  return wrap;
}
