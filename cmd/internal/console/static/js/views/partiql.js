// The PartiQL editor: a statement with ? parameters (plain JSON or
// DynamoDB JSON), run with ExecuteStatement a page at a time (NextToken),
// the items in the grid (editable when the statement reads one table),
// and the statements run before, kept in this browser (newest first,
// the last HISTORY_MAX), to load again with a click.

import { call, namespace } from "../api.js";
import { h, mount, icon, field, segmented, errorToast, empty, when, badge, dialog, jsonView, copyText } from "../ui.js";
import { parse, fromPlain, checkItem, stringify } from "../ddb.js";
import { itemGrid } from "../grid.js";
import { editItem, deleteItem } from "../editor.js";
import { state } from "../app.js";
import { downloadCSV } from "../csv.js";

const HISTORY_KEY = "dynamoemu.console.partiql";
const HISTORY_MAX = 50;

/** The editor's state while the page lives. */
const st = { statement: "", params: "", format: "plain", consistent: false, limit: "" };

/** history returns the statements run before, newest first. */
export function history() {
  try {
    const list = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(list) ? list.filter((e) => e && typeof e.statement === "string") : [];
  } catch { return []; }
}

function remember(entry) {
  const list = history().filter((e) => e.statement !== entry.statement || e.params !== entry.params);
  list.unshift(entry);
  try { localStorage.setItem(HISTORY_KEY, JSON.stringify(list.slice(0, HISTORY_MAX))); } catch { /* not remembered */ }
}

/** tableOf is the table a statement reads or writes ("" if it names none plainly). */
export function tableOf(statement) {
  const m = /\b(?:from|into|update)\s+("(?:[^"]|"")+"|[A-Za-z0-9_.-]+)/i.exec(statement);
  if (!m) return "";
  const name = m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1];
  return name.split(".")[0];
}

/** parameters reads the parameters text: a JSON array, plain or DynamoDB JSON. */
function parameters(text, format) {
  if (!text.trim()) return undefined;
  const v = parse(text);
  if (!Array.isArray(v)) throw new Error("Parameters: a JSON array, one value for each ? in order");
  return v.map((x, i) => (format === "plain" ? fromPlain(x, `[${i}]`) : checkItem({ [`[${i}]`]: x })[`[${i}]`]));
}

/** partiqlView draws the editor, its answer and the history into main. */
export async function partiqlView(main) {
  const first = state.tables[0] || "MyTable";
  const area = h("textarea.code-input.partiql-input", { rows: "4", title: "PartiQL for DynamoDB: SELECT, INSERT, UPDATE, DELETE; ? takes the parameters in order", spellcheck: "false", "aria-label": "PartiQL statement", placeholder: `SELECT * FROM "${first}" WHERE pk = ?` });
  area.value = st.statement;
  const params = h("textarea.code-input.small.partiql-params", { rows: "1", spellcheck: "false", "aria-label": "Parameters" });
  params.value = st.params;
  const placeholder = () => { params.placeholder = st.format === "plain" ? '["ORDER#1", 10]' : '[{"S": "ORDER#1"}, {"N": "10"}]'; };
  placeholder();
  const format = segmented([["plain", "Plain"], ["ddb", "DynamoDB JSON"]], st.format, (v) => { st.format = v; placeholder(); }, "Parameters format");
  const consistent = h("input", { type: "checkbox", checked: st.consistent });
  const limit = h("input", { type: "number", min: "1", placeholder: "none", "aria-label": "Limit", value: st.limit });
  const result = h("div.result.partiql-result");
  const historyBox = h("div.partiql-history");
  let token = null; // NextToken of the last answer
  let tokens = [null]; // tokens[p]: the NextToken that gives page p
  let page = 0;
  let seq = 0;

  const sync = () => { st.statement = area.value; st.params = params.value; st.consistent = consistent.checked; st.limit = limit.value; };
  for (const el of [area, params, consistent, limit]) el.addEventListener("input", sync);

  const run = async (fromStart) => {
    sync();
    const statement = area.value.trim();
    if (!statement) { mount(result, h("div.note.warn", "Write a statement first.")); return; }
    if (fromStart) { tokens = [null]; page = 0; }
    let input;
    try {
      input = { Statement: statement, ReturnConsumedCapacity: "TOTAL" };
      const p = parameters(params.value, st.format);
      if (p) input.Parameters = p;
      if (consistent.checked) input.ConsistentRead = true;
      if (limit.value) input.Limit = Number(limit.value);
      if (tokens[page]) input.NextToken = tokens[page];
    } catch (err) {
      mount(result, h("div.note.error", err.message));
      return;
    }
    const mine = ++seq;
    const began = performance.now();
    let out;
    try {
      out = await call("ExecuteStatement", input);
    } catch (err) {
      if (mine !== seq) return;
      remember({ statement, params: params.value, format: st.format, at: new Date().toISOString(), ok: false, error: err.type });
      drawHistory();
      mount(result, h("div.note.error", h("strong", err.type), ": ", err.message));
      return;
    }
    if (mine !== seq) return;
    const ms = performance.now() - began;
    token = out.NextToken || null;
    tokens[page + 1] = token;
    if (page === 0) {
      remember({ statement, params: params.value, format: st.format, at: new Date().toISOString(), ok: true, count: (out.Items || []).length });
      drawHistory();
    }
    await drawResult(out, ms, statement);
  };

  const drawResult = async (out, ms, statement) => {
    const items = out.Items || [];
    const name = tableOf(statement);
    let table = null;
    if (name && state.tables.includes(name)) {
      try { table = (await call("DescribeTable", { TableName: name })).Table; } catch { /* shown without keys */ }
    }
    const keys = table ? table.KeySchema.map((k) => k.AttributeName) : [];
    const show = (it) => dialog({ title: "Item", wide: true, body: jsonView(stringify(it)) });
    mount(result,
      h("div.summary",
        h("div.stat", h("span.stat-label", "Items"), h("span.stat-value", String(items.length))),
        h("div.stat", h("span.stat-label", "Consumed"), h("span.stat-value", out.ConsumedCapacity ? `${out.ConsumedCapacity.CapacityUnits} units` : "—")),
        h("div.stat", h("span.stat-label", "Time"), h("span.stat-value", `${Math.round(ms)} ms`)),
        h("div.stat", h("span.stat-label", "Page"), h("span.stat-value", String(page + 1)))),
      h("div.toolbar",
        out.NextToken ? h("span.muted.small", "More pages (NextToken)") : h("span.muted", page ? "last page" : ""),
        h("span.spacer"),
        items.length > 0 && h("button", { type: "button", title: "Download this page of items as CSV", onclick: () => downloadCSV(`${name || "partiql"}-page${page + 1}.csv`, items, keys) }, "Download CSV"),
        h("button", { type: "button", disabled: page === 0, onclick: () => { page--; run(false); } }, icon("left"), "Previous"),
        h("button", { type: "button", disabled: !out.NextToken, onclick: () => { page++; run(false); } }, "Next", icon("right"))),
      items.length
        ? itemGrid({
          items, keys, label: "Statement results", width: result.clientWidth,
          onOpen: table ? async (it) => { if (await editItem(table, it)) run(false); } : show,
          onDelete: table ? async (it) => { if (await deleteItem(table, it)) run(false); } : undefined,
        })
        : empty(/^\s*select/i.test(statement) ? "No items" : "Done", /^\s*select/i.test(statement) ? "Nothing matches." : "The statement ran; it returns no items."));
  };

  const drawHistory = () => {
    const list = history();
    mount(historyBox,
      h("div.soon-head", h("h2", "History"), h("span.muted.small", `${list.length} kept in this browser`), h("span.spacer"),
        list.length > 0 && h("button.small", { type: "button", onclick: () => { try { localStorage.removeItem(HISTORY_KEY); } catch { /* gone */ } drawHistory(); } }, "Clear")),
      list.length === 0
        ? h("p.muted", "Statements you run show up here; a click loads one back.")
        : h("ol.history-list", list.map((e) => h("li",
          h("button.history-entry", {
            type: "button", title: "Load this statement",
            onclick: () => {
              area.value = e.statement; params.value = e.params || "";
              if ((e.format || "plain") !== st.format) format.querySelector(`[data-value="${e.format || "plain"}"]`)?.click();
              sync(); area.focus();
            },
          }, h("code.history-statement", e.statement), e.params && h("code.history-params", e.params),
          h("span.history-meta", e.ok ? badge(`${e.count} item${e.count === 1 ? "" : "s"}`, "ok") : badge(e.error || "error", "danger"), " ", when(e.at)))))));
  };

  const examples = (state.tables.length ? state.tables.slice(0, 1) : ["MyTable"]).flatMap((t) => [
    [`SELECT * FROM "${t}"`, ""],
    [`SELECT * FROM "${t}" WHERE pk = ?`, '["value"]'],
    [`INSERT INTO "${t}" VALUE {'pk': ?, 'note': ?}`, '["new", "hello"]'],
    [`UPDATE "${t}" SET note = ? WHERE pk = ?`, '["changed", "new"]'],
    [`DELETE FROM "${t}" WHERE pk = ?`, '["new"]'],
  ]);
  const form = h("form.panel.partiql-form", { onsubmit: (e) => { e.preventDefault(); run(true); } },
    field("Statement", area),
    h("div.partiql-row", field(h("span", "Parameters ", format), params), field("Limit", limit), h("label.check", consistent, "Consistent read"),
      h("div.actions", h("button", { type: "button", title: "Copy an AWS CLI command", onclick: () => copyText(`aws dynamodb execute-statement --endpoint-url ${location.origin} --statement ${JSON.stringify(area.value.trim())}`, "AWS CLI command copied") }, icon("copy"), "AWS CLI"),
        h("button.primary", { type: "submit", title: "Run (Ctrl+Enter)" }, icon("play"), "Run"))),
    h("div.examples", h("span.muted.small", "Examples: "), examples.map(([s, p]) => h("button.chip", { type: "button", onclick: () => { area.value = s; params.value = p; sync(); area.focus(); } }, s.split(" ")[0] + (s.includes("WHERE") ? " … WHERE" : "")))));
  form.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(true); } });
  mount(main, h("div.page.wide-page",
    h("div.page-head.compact-head", h("div", h("h1", icon("search"), "PartiQL"),
      h("p.muted", `ExecuteStatement on namespace ${namespace.accessKey} · ${namespace.region}: reads and writes go through the same path as the API's.`))),
    h("div.partiql-layout", h("div.partiql-main", form, result), h("aside.panel.partiql-side", historyBox))));
  drawHistory();
  return { keys: { r: () => run(false) } };
}
