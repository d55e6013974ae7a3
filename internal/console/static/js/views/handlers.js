// Stream handlers: Lambda's event source mappings over the tables'
// streams (emulator/internal/lambdaesm), each with its function, its
// table's stream, its state, its last result and batch, its counts and
// its last error, refreshed while the view is shown; each enabled or
// disabled; and a drain that waits until every record written so far is
// handled. Through the admin endpoints GET /dynamoemu/streams/mappings
// and POST /dynamoemu/streams/drain, and Lambda's UpdateEventSourceMapping
// (PUT /2015-03-31/event-source-mappings/UUID {"Enabled": ...}).

import { admin, lambda } from "../api.js";
import { h, mount, icon, badge, count, toast, errorToast, empty } from "../ui.js";
import { viewAlive } from "../app.js";

/** REFRESH_MS is how often the mappings are read again while shown. */
const REFRESH_MS = 2000;

/** tableOfArn is the table name in a stream ARN ("" if none). */
function tableOfArn(arn) {
  const m = /:table\/([^/]+)\/stream\//.exec(arn || "");
  return m ? m[1] : "";
}

/** functionOfArn is the function name in a function ARN (or the ARN). */
function functionOfArn(arn) {
  const m = /:function:([^:]+)/.exec(arn || "");
  return m ? m[1] : arn || "—";
}

/** handlersView draws the event source mappings into main, refreshed until the view is left. */
export async function handlersView(main) {
  const alive = viewAlive();
  const box = h("div.handlers");
  const stamp = h("span.muted.small");
  let timer = null;
  const load = async () => {
    let list;
    try {
      list = (await admin("GET", "/streams/mappings")).mappings || [];
    } catch (err) {
      if (alive()) mount(box, h("div.note.error", `${err.type}: ${err.message}`));
      return;
    }
    if (!alive()) return;
    stamp.textContent = `read ${new Date().toLocaleTimeString()}`;
    mount(box, list.length === 0
      ? empty("No stream handlers", "Map a table's stream to a function with aws lambda create-event-source-mapping --endpoint-url (this server), a mappings file (-eventSourceMappings), serverless.yml (-serverless) or the Go and JS APIs.")
      : h("div.grid-wrap", h("table.grid.static.mappings", { "aria-label": "Event source mappings" },
        h("thead", h("tr", ["Function", "Table", "State", "Last result", "Last batch", "Invocations", "Errors", "Discarded", "Filtered", "Iterator age", ""].map((c, i) => h("th", { scope: "col", class: i >= 4 && i < 10 ? "t-n" : "" }, c)))),
        h("tbody", list.map((m) => [
          h("tr", { dataset: { uuid: m.uuid }, title: `UUID ${m.uuid}` },
            h("td.strong.mono", functionOfArn(m.functionArn)),
            h("td.mono.small", tableOfArn(m.eventSourceArn) || h("span.muted", "waiting for its table")),
            h("td", badge(m.state, m.state === "Enabled" ? "ok" : "warn")),
            h("td", badge(m.lastProcessingResult || "—", /OK/.test(m.lastProcessingResult) ? "ok" : /FAIL|ERROR/i.test(m.lastProcessingResult) ? "danger" : "")),
            h("td.t-n", count(m.lastBatchSize)), h("td.t-n", count(m.invocations)),
            h("td.t-n", m.functionErrors ? h("span.c-remove", count(m.functionErrors)) : "0"),
            h("td.t-n", count(m.discarded)), h("td.t-n", count(m.filtered)),
            h("td.t-n", `${count(m.iteratorAgeSeconds)} s`),
            h("td.actions-cell", h("button.small", { type: "button", onclick: () => setEnabled(m, m.state !== "Enabled") }, m.state === "Enabled" ? "Disable" : "Enable"))),
          m.lastError && h("tr.mapping-error", h("td", { colspan: "11" }, h("span.bad", "Last error: "), h("code.small", m.lastError))),
        ])))));
    timer = setTimeout(() => { if (alive()) load(); }, REFRESH_MS);
  };
  const setEnabled = async (m, on) => {
    try {
      await lambda("PUT", `/${encodeURIComponent(m.uuid)}`, { Enabled: on });
      toast(`${functionOfArn(m.functionArn)}: ${on ? "enabled" : "disabled"}`, "ok");
    } catch (err) { errorToast(err, on ? "Enable" : "Disable"); }
    if (alive()) { clearTimeout(timer); load(); }
  };
  const drain = async () => {
    try {
      await admin("POST", "/streams/drain", { timeout: "10s" });
      toast("Drained: every record written so far is handled", "ok");
    } catch (err) { errorToast(err, "Drain"); }
    if (alive()) { clearTimeout(timer); load(); }
  };
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("bolt"), "Stream handlers"),
        h("p.muted", "Lambda's event source mappings: each hands its table's stream records to a function in batches, with Lambda's filters, retries and on-failure records."), stamp),
      h("div.actions",
        h("button", { type: "button", onclick: () => { clearTimeout(timer); load(); }, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
        h("button.primary", { type: "button", onclick: drain, title: "Wait until every record written so far is handled (POST /dynamoemu/streams/drain)" }, "Drain"))),
    box));
  await load();
  return { cleanup: () => clearTimeout(timer), keys: { r: () => { clearTimeout(timer); load(); } } };
}
