// A table's Monitor tab, as the AWS console's: its consumed read and
// write capacity, requests, throttled requests, injected faults, item
// count and size over time, each a small line graph drawn as inline SVG.
//
// The server keeps totals, not time series: the access-pattern report
// (GET /dynamoemu/report: per table and index the requests, capacity
// units and throttles since it started), DescribeTable (ItemCount,
// TableSizeBytes) and the fault log (GET /dynamoemu/faults/stats: each
// injected fault with its table). The tab reads them every few seconds
// while it is shown and graphs the change between readings (a rate per
// second for the counters); the readings are kept for the page's life,
// per namespace and table, so a graph goes on where it left off (with a
// gap) when the tab is opened again. A counter that goes down (the
// report reset) counts from zero again.

import { admin, call, namespaceID } from "../api.js";
import { h, s, mount, icon, badge, bytes, count, errorToast } from "../ui.js";
import { viewAlive } from "../app.js";

/** EVERY_MS is how often the totals are read while the tab is shown. */
const EVERY_MS = 5000;
/** KEEP is how many readings a table keeps (10 minutes at EVERY_MS). */
const KEEP = 120;

/** history keeps each table's readings while the page lives ("ns/table" -> readings). */
const history = new Map();

/** rate is a counter's change per second from the reading before. */
const rate = (k) => (cur, prev) => (prev ? Math.max(0, cur[k] - prev[k]) / Math.max(0.001, (cur.t - prev.t) / 1000) : null);
/** gauge is a reading's value. */
const gauge = (k) => (cur) => cur[k];

/** METRICS are the graphs: id, title, unit, the value of a reading (given the one before). */
const METRICS = [
  ["read", "Consumed read capacity", "units/s", rate("r")],
  ["write", "Consumed write capacity", "units/s", rate("w")],
  ["requests", "Requests", "/s", rate("q")],
  ["throttled", "Throttled requests", "/s", rate("th")],
  ["faults", "Injected errors", "/s", rate("f")],
  ["items", "Item count", "items", gauge("n")],
  ["size", "Table size", "bytes", gauge("sz")],
];

/** reading reads a table's totals now. */
async function reading(name) {
  const [report, desc, faults] = await Promise.all([
    admin("GET", "/report"), call("DescribeTable", { TableName: name }), admin("GET", "/faults/stats"),
  ]);
  const rep = (report.namespaces || []).find((n) => n.namespace === namespaceID())?.report;
  const res = (rep?.tables || []).find((x) => x.table === name)?.resources || [];
  const sum = (k) => res.reduce((a, r) => a + (Number(r[k]) || 0), 0);
  return {
    t: Date.now(), collecting: !!report.reporting,
    r: sum("readUnits"), w: sum("writeUnits"), q: sum("requests"), th: sum("throttled"),
    f: (faults.events || []).filter((e) => e.table === name).length,
    n: Number(desc.Table.ItemCount) || 0, sz: Number(desc.Table.TableSizeBytes) || 0,
  };
}

/** show writes a value of a metric for people. */
function show(v, unit) {
  if (v == null) return "—";
  if (unit === "bytes") return bytes(v);
  if (unit === "items") return count(v);
  return `${v >= 100 ? Math.round(v) : Math.round(v * 100) / 100} ${unit}`;
}

const GW = 300, GH = 80; // the viewBox of a graph

/** graph draws one metric of readings as a line over time. */
function graph([id, title, unit, value], readings) {
  const pts = [];
  for (let i = 0; i < readings.length; i++) {
    const v = value(readings[i], readings[i - 1]?.gap ? null : readings[i - 1]);
    if (v != null) pts.push([readings[i].t, v]);
  }
  const last = pts.length ? pts[pts.length - 1][1] : null;
  const fig = h("figure.metric", { dataset: { metric: id, points: String(pts.length) } },
    h("figcaption", h("span.chart-title", title), h("span.metric-last", show(last, unit))));
  if (pts.length < 2) {
    fig.append(h("p.chart-empty", pts.length ? "One reading so far: the line starts at the next." : "Waiting for the first readings."));
    return fig;
  }
  const t0 = pts[0][0], t1 = pts[pts.length - 1][0];
  const max = Math.max(...pts.map((p) => p[1]));
  const top = max > 0 ? max * 1.1 : 1;
  const x = (t) => ((t - t0) / Math.max(1, t1 - t0)) * GW;
  const y = (v) => GH - (v / top) * (GH - 4);
  const line = pts.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  fig.append(s("svg", { viewBox: `0 0 ${GW} ${GH}`, preserveAspectRatio: "none", class: "metric-svg", role: "img", "aria-label": `${title}: ${pts.length} readings, the latest ${show(last, unit)}` },
    s("line", { x1: 0, y1: GH, x2: GW, y2: GH, class: "metric-axis" }),
    s("polygon", { points: `0,${GH} ${line} ${GW},${GH}`, class: "metric-area" }),
    s("polyline", { points: line, class: "metric-line" }),
    s("title", `${title}: highest ${show(max, unit)}`)),
  h("div.metric-scale.muted.small", h("span", new Date(t0).toLocaleTimeString()), h("span", `max ${show(max, unit)}`), h("span", new Date(t1).toLocaleTimeString())));
  return fig;
}

/** monitorTab draws info.table's graphs into body, reading again until the tab is left. */
export async function monitorTab(body, info) {
  const alive = viewAlive();
  const name = info.table.TableName;
  const id = `${namespaceID()}/${name}`;
  const readings = history.get(id) || [];
  history.set(id, readings);
  if (readings.length) readings[readings.length - 1].gap = true; // the next reading does not follow it
  let timer = null;
  const grid = h("div.metric-grid");
  const note = h("div");
  const stamp = h("span.muted.small");
  const tick = async () => {
    clearTimeout(timer);
    let r;
    try { r = await reading(name); } catch (err) {
      if (alive()) mount(note, h("div.note.error", `${err.type}: ${err.message}`));
      return;
    }
    if (!alive()) return;
    readings.push(r);
    if (readings.length > KEEP) readings.splice(0, readings.length - KEEP);
    stamp.textContent = `${readings.length} readings, every ${EVERY_MS / 1000} s while shown · read ${new Date(r.t).toLocaleTimeString()}`;
    mount(note, !r.collecting && h("div.note.warn", "The access-pattern report is not collecting, so capacity, requests and throttles stay flat. ",
      h("button.small", { type: "button", onclick: async () => { try { await admin("POST", "/report/start"); tick(); } catch (err) { errorToast(err, "Start collecting"); } } }, "Start collecting")));
    mount(grid, METRICS.map((m) => graph(m, readings)));
    timer = setTimeout(() => { if (alive()) tick(); }, EVERY_MS);
  };
  mount(body, h("section.panel.monitor",
    h("div.soon-head", h("h2", icon("chart"), "Monitor"), badge("table and its indexes", "info"), stamp),
    h("p.muted.small", "From what the emulator records: the access-pattern report's totals, DescribeTable and the fault log, read while this tab is shown; counters are graphed as their change per second."),
    note, grid));
  await tick();
  return { cleanup: () => clearTimeout(timer), keys: { r: tick } };
}
