// Stream handlers: Lambda's event source mappings over the tables'
// streams (emulator/internal/lambdaesm), each with its function, its
// table's stream, its state, its last result and batch, its counts and
// its last error, refreshed while the view is shown; each enabled or
// disabled; and a drain that waits until every record written so far is
// handled; and a form that creates a mapping (a table's stream, a
// function, the starting position, batch size and window, retries, a
// filter pattern) or edits one. Through the admin endpoints GET
// /dynamoemu/streams/mappings and POST /dynamoemu/streams/drain, and
// Lambda's own API on the server: CreateEventSourceMapping (POST
// /2015-03-31/event-source-mappings), GetEventSourceMapping and
// UpdateEventSourceMapping (GET and PUT .../UUID), DeleteEventSourceMapping
// (DELETE .../UUID), sent as the admin calls are (JSON, same origin).

import { admin, lambda, call } from "../api.js";
import { h, mount, icon, badge, count, toast, errorToast, empty, field, confirmDialog } from "../ui.js";
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
        h("thead", h("tr", ["Function · table", "State", "Last result", "Last batch", "Invocations", "Errors", "Discarded", "Filtered", "Iterator age", ""].map((c, i) => h("th", { scope: "col", class: i >= 3 && i < 9 ? "t-n" : "" }, c || h("span.visually-hidden", "Actions"))))),
        h("tbody", list.map((m) => [
          h("tr", { dataset: { uuid: m.uuid }, title: `UUID ${m.uuid}` },
            h("td", h("div.strong.mono", functionOfArn(m.functionArn)), h("div.mono.small.muted", tableOfArn(m.eventSourceArn) || "waiting for its table")),
            h("td", badge(m.state, m.state === "Enabled" ? "ok" : "warn")),
            h("td", badge(m.lastProcessingResult || "—", /OK/.test(m.lastProcessingResult) ? "ok" : /FAIL|ERROR/i.test(m.lastProcessingResult) ? "danger" : "")),
            h("td.t-n", count(m.lastBatchSize)), h("td.t-n", count(m.invocations)),
            h("td.t-n", m.functionErrors ? h("span.c-remove", count(m.functionErrors)) : "0"),
            h("td.t-n", count(m.discarded)), h("td.t-n", count(m.filtered)),
            h("td.t-n", `${count(m.iteratorAgeSeconds)} s`),
            h("td.actions-cell", h("div.row-actions",
              h("button.small", { type: "button", onclick: () => setEnabled(m, m.state !== "Enabled") }, m.state === "Enabled" ? "Disable" : "Enable"),
              h("button.small", { type: "button", onclick: () => edit(m) }, "Edit"),
              h("button.small", { type: "button", onclick: () => remove(m) }, "Delete…")))),
          m.lastError && h("tr.mapping-error", h("td", { colspan: "10" }, h("span.bad", "Last error: "), h("code.small", m.lastError))),
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
  const form = mappingForm(() => { if (alive()) { clearTimeout(timer); load(); } });
  const edit = async (m) => {
    try { form.edit(await lambda("GET", `/${encodeURIComponent(m.uuid)}`)); } catch (err) { errorToast(err, "Read the mapping"); }
  };
  const remove = async (m) => {
    if (!(await confirmDialog("Delete the stream handler?", `${functionOfArn(m.functionArn)} stops receiving ${tableOfArn(m.eventSourceArn) || "its table"}'s records.`, "Delete", true))) return;
    try { await lambda("DELETE", `/${encodeURIComponent(m.uuid)}`); toast("Stream handler deleted", "ok"); } catch (err) { errorToast(err, "Delete"); }
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
    form.el, box));
  await load();
  return { cleanup: () => clearTimeout(timer), keys: { r: () => { clearTimeout(timer); load(); } } };
}

/** num is an input's number, or undefined when it is empty. */
function num(el) { return el.value.trim() === "" ? undefined : Number(el.value); }

/**
 * mappingForm is the create and edit form: edit(config) fills it with a
 * mapping's configuration (GetEventSourceMapping's answer) for an
 * update; saved runs after each change that went through.
 */
function mappingForm(saved) {
  let uuid = ""; // the mapping edited, "" when creating
  const table = h("input", { "aria-label": "Handler table", placeholder: "Orders", autocomplete: "off", spellcheck: "false" });
  const fn = h("input", { "aria-label": "Function name", placeholder: "my-function", autocomplete: "off", spellcheck: "false" });
  const start = h("select", { "aria-label": "Starting position" }, ["LATEST", "TRIM_HORIZON"].map((v) => h("option", { value: v }, v)));
  const batch = h("input", { type: "number", min: "1", max: "10000", placeholder: "100", "aria-label": "Batch size" });
  const windowS = h("input", { type: "number", min: "0", max: "300", placeholder: "0", "aria-label": "Batching window" });
  const retries = h("input", { type: "number", min: "-1", max: "10000", placeholder: "-1", title: "-1: until the record expires", "aria-label": "Retry attempts" });
  const filter = h("textarea.code-input.small", { rows: "2", spellcheck: "false", "aria-label": "Filter pattern", placeholder: '{"eventName": ["INSERT"]}' });
  const enabled = h("input", { type: "checkbox", checked: true, "aria-label": "Enabled" });
  const bisect = h("input", { type: "checkbox", "aria-label": "Split a failing batch" });
  const title = h("summary", "Create a stream handler");
  const submit = h("button.primary", { type: "submit" }, "Create");
  const cancel = h("button", { type: "button", onclick: () => reset() }, "Cancel");
  const status = h("span.muted.small");
  const el = h("details.panel.mapping-form", title);
  const reset = () => {
    uuid = "";
    for (const x of [table, fn, batch, windowS, retries, filter]) x.value = "";
    start.value = "LATEST"; enabled.checked = true; bisect.checked = false;
    table.disabled = start.disabled = false;
    title.textContent = "Create a stream handler"; submit.textContent = "Create"; status.textContent = "";
    el.open = false;
  };
  const body = async () => {
    const patterns = filter.value.split("\n").map((l) => l.trim()).filter(Boolean);
    for (const p of patterns) {
      try { JSON.parse(p); } catch (err) { throw new Error(`The filter pattern ${p} is not JSON: ${err.message}`); }
    }
    const req = {
      FunctionName: fn.value.trim() || undefined, BatchSize: num(batch), MaximumBatchingWindowInSeconds: num(windowS),
      MaximumRetryAttempts: num(retries), BisectBatchOnFunctionError: bisect.checked, Enabled: enabled.checked,
      FilterCriteria: patterns.length || uuid ? { Filters: patterns.map((p) => ({ Pattern: p })) } : undefined,
    };
    if (uuid) return req;
    if (!req.FunctionName) throw new Error("Give the function's name");
    const name = table.value.trim();
    if (!name) throw new Error("Give the table whose stream the function handles");
    const { Table } = await call("DescribeTable", { TableName: name });
    if (!Table.LatestStreamArn || !Table.StreamSpecification?.StreamEnabled) throw new Error(`${name} has no stream: switch it on in the table's overview first`);
    return { ...req, EventSourceArn: Table.LatestStreamArn, StartingPosition: start.value };
  };
  const form = h("form.mapping-fields", {
    onsubmit: async (e) => {
      e.preventDefault();
      let req;
      try { req = await body(); } catch (err) { status.textContent = err.message; status.className = "bad small"; return; }
      try {
        if (uuid) await lambda("PUT", `/${encodeURIComponent(uuid)}`, req);
        else await lambda("POST", "", req);
      } catch (err) { errorToast(err, uuid ? "Update the stream handler" : "Create the stream handler"); return; }
      toast(uuid ? "Stream handler updated" : `Stream handler created: ${req.FunctionName} handles ${table.value.trim()}`, "ok");
      reset();
      saved();
    },
  },
  h("div.form-row", field("Table", table, "its stream's records"), field("Function", fn, "a Go or JS function, or one at the Lambda endpoint"), field("Starting position", start)),
  h("div.form-row.compact", field("Batch size", batch), field("Batching window (s)", windowS), field("Retry attempts", retries),
    h("label.check", enabled, "Enabled"), h("label.check", bisect, "Split a failing batch")),
  field("Filter patterns", filter, "Lambda's event filters, one JSON pattern a line: a record no pattern matches is dropped"),
  h("div.actions", submit, cancel, status));
  el.append(form);
  return {
    el,
    edit(c) {
      reset();
      uuid = c.UUID;
      table.value = tableOfArn(c.EventSourceArn); table.disabled = start.disabled = true;
      start.value = c.StartingPosition || "LATEST";
      fn.value = functionOfArn(c.FunctionArn);
      batch.value = c.BatchSize ?? ""; windowS.value = c.MaximumBatchingWindowInSeconds ?? ""; retries.value = c.MaximumRetryAttempts ?? "";
      filter.value = (c.FilterCriteria?.Filters || []).map((f) => f.Pattern).join("\n");
      enabled.checked = c.State !== "Disabled" && c.State !== "Disabling"; bisect.checked = !!c.BisectBatchOnFunctionError;
      title.textContent = `Edit the stream handler ${functionOfArn(c.FunctionArn)}`; submit.textContent = "Save";
      el.open = true;
      el.scrollIntoView({ block: "nearest" });
    },
  };
}
