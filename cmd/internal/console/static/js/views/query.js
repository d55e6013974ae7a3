// The Query and Scan builder: key condition, filter, index, projection,
// limit, names and values; it shows the request it sends, as it is built,
// which access pattern of the design it serves (or the nearest and why
// not: POST /dynamoemu/report/match, the MCP server's design_match), and
// the answer's counts and consumed capacity.

import { call, config, namespace, admin, namespaceID } from "../api.js";
import { h, mount, icon, field, segmented, jsonView, errorToast, copyText, badge, empty } from "../ui.js";
import { parse, fromPlain, checkItem, stringify, valueFor, Num } from "../ddb.js";
import { itemGrid, defaultColumns, chosenColumns, columnsDialog, columnsButton, attributesByUse, wrapped, wrapButton } from "../grid.js";
import { editItem, deleteItem } from "../editor.js";
import { downloadCSV } from "../csv.js";

/** forms keeps each table's form while the page lives (namespace/table -> state). */
const forms = new Map();

const SK_OPS = [["", "any"], ["=", "="], ["<", "<"], ["<=", "≤"], [">", ">"], [">=", "≥"], ["between", "between"], ["begins_with", "begins with"]];

/** queryTab draws the builder for info.table into body. */
export async function queryTab(body, info) {
  const t = info.table;
  const id = `${namespace.accessKey}/${namespace.region}/${t.TableName}`;
  const st = forms.get(id) || {
    op: "Query", index: "", pk: "", skOp: "", sk: "", sk2: "", filter: "", projection: "",
    names: "", values: "", valuesFormat: "plain", limit: "", descending: false, consistent: false, capacity: "INDEXES",
    last: null, // the last answer, drawn again when the tab is opened again
  };
  forms.set(id, st);
  const types = Object.fromEntries(t.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
  const indexes = [
    ...(t.GlobalSecondaryIndexes || []).map((x) => ({ name: x.IndexName, kind: "GSI", keys: x.KeySchema })),
    ...(t.LocalSecondaryIndexes || []).map((x) => ({ name: x.IndexName, kind: "LSI", keys: x.KeySchema })),
  ];
  const keySchema = () => (st.index ? indexes.find((x) => x.name === st.index)?.keys : null) || t.KeySchema;
  let starts = [undefined];
  let page = 0;
  let seq = 0; // of the latest run: an older answer that arrives later is dropped

  // Controls, bound to st.
  const bind = (el, prop, kind = "value") => {
    if (kind === "checked") el.checked = st[prop]; else el.value = st[prop];
    el.addEventListener("input", () => { st[prop] = kind === "checked" ? el.checked : el.value; changed(); });
    el.addEventListener("change", () => { st[prop] = kind === "checked" ? el.checked : el.value; changed(); });
    return el;
  };
  const opSwitch = segmented([["Query", "Query"], ["Scan", "Scan"]], st.op, (v) => { st.op = v; drawForm(); changed(); }, "Operation");
  const indexSelect = bind(h("select", { "aria-label": "Index" },
    h("option", { value: "" }, `Table · ${t.KeySchema.map((k) => k.AttributeName).join(", ")}`),
    indexes.map((x) => h("option", { value: x.name }, `${x.kind} ${x.name} · ${x.keys.map((k) => k.AttributeName).join(", ")}`))), "index");
  // Another index has other key attributes: the values typed for the last one's keys are not its.
  indexSelect.addEventListener("change", () => { st.pk = st.sk = st.sk2 = st.skOp = ""; pk.value = sk.value = sk2.value = skOp.value = ""; drawForm(); showPreview(); });
  const pk = bind(h("input", { autocomplete: "off", spellcheck: "false", placeholder: "value" }), "pk");
  const skOp = bind(h("select", { "aria-label": "Sort key condition" }, SK_OPS.map(([v, l]) => h("option", { value: v }, l))), "skOp");
  skOp.addEventListener("change", drawForm);
  const sk = bind(h("input", { autocomplete: "off", spellcheck: "false", placeholder: "value", "aria-label": "Sort key value" }), "sk");
  const sk2 = bind(h("input", { autocomplete: "off", spellcheck: "false", placeholder: "and", "aria-label": "Sort key upper value" }), "sk2");
  const filter = bind(h("input.mono", { autocomplete: "off", spellcheck: "false", placeholder: "#status = :open AND total > :min" }), "filter");
  const projection = bind(h("input.mono", { autocomplete: "off", spellcheck: "false", placeholder: "all attributes" }), "projection");
  const names = bind(h("textarea.code-input.small", { rows: "3", spellcheck: "false", placeholder: '{"#status": "status"}' }), "names");
  const values = bind(h("textarea.code-input.small", { rows: "3", spellcheck: "false" }), "values");
  const valuesFormat = segmented([["plain", "Plain"], ["ddb", "DynamoDB JSON"]], st.valuesFormat, (v) => { st.valuesFormat = v; placeholder(); changed(); }, "Values format");
  const placeholder = () => { values.placeholder = st.valuesFormat === "plain" ? '{":open": "open", ":min": 10}' : '{":open": {"S": "open"}, ":min": {"N": "10"}}'; };
  placeholder();
  const limit = bind(h("input", { type: "number", min: "1", placeholder: "none", "aria-label": "Limit" }), "limit");
  const descending = bind(h("input", { type: "checkbox" }), "descending", "checked");
  const consistent = bind(h("input", { type: "checkbox" }), "consistent", "checked");
  const capacity = bind(h("select", { "aria-label": "ReturnConsumedCapacity" }, ["INDEXES", "TOTAL", "NONE"].map((v) => h("option", { value: v }, v))), "capacity");

  const keyRow = h("div.key-row");
  const form = h("form.panel.builder", { onsubmit: (e) => { e.preventDefault(); run(true); } });
  const preview = h("div.preview");
  const matchBox = h("div.design-match", { "aria-live": "polite" });
  let matchTimer = null;
  let matchSeq = 0;
  let matched = ""; // the request last matched, as text
  const result = h("div.result.query-result");
  let shownResult = null; // [out, ms] drawn last, drawn again when the columns or Wrap change
  const wrapToggle = wrapButton(() => { if (shownResult) drawResult(...shownResult); });
  const runButton = h("button.primary", { type: "submit", title: "Run (Ctrl+Enter)" }, icon("play"), "Run");
  form.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(true); } });

  function drawForm() {
    const ks = keySchema();
    const [hash, range] = [ks[0], ks[1]];
    pk.setAttribute("aria-label", `Partition key ${hash.AttributeName}`);
    mount(keyRow,
      st.op === "Query" && [
        field(h("span", "Partition key ", h("code", hash.AttributeName), h("span.key-type", types[hash.AttributeName])), h("div.cond", h("span.op", "="), pk)),
        range && field(h("span", "Sort key ", h("code", range.AttributeName), h("span.key-type", types[range.AttributeName])),
          h("div.cond", skOp, st.skOp && sk, st.skOp === "between" && h("span.op", "and"), st.skOp === "between" && sk2)),
      ],
      st.op === "Scan" && h("p.muted", "A Scan reads every item of the table or index, a page at a time; a filter drops items after they are read (and paid for)."));
    mount(form,
      h("div.form-row", field("Operation", opSwitch), field("Table or index", indexSelect)),
      keyRow,
      field("Filter expression", filter, "applied after the read: it does not lower the capacity consumed"),
      field("Projection expression", projection),
      h("div.form-row",
        field("Expression attribute names", names),
        field(h("span", "Expression attribute values ", valuesFormat), values)),
      h("div.form-row.compact",
        field("Limit", limit),
        field("Consumed capacity", capacity),
        st.op === "Query" && h("label.check", descending, "Descending"),
        h("label.check", consistent, "Consistent read")),
      h("div.actions", runButton, h("span.hint", "Ctrl+Enter runs")));
  }

  /** build returns the request of the form, or throws what is wrong with it. */
  function build() {
    const input = { TableName: t.TableName };
    if (st.index) input.IndexName = st.index;
    const en = {};
    const ev = {};
    const ks = keySchema();
    if (st.op === "Query") {
      const [hash, range] = ks;
      if (st.pk === "") throw new Error(`Give the partition key ${hash.AttributeName}'s value`);
      en["#pk"] = hash.AttributeName;
      ev[":pk"] = valueFor(st.pk, types[hash.AttributeName]);
      let cond = "#pk = :pk";
      if (range && st.skOp) {
        en["#sk"] = range.AttributeName;
        const tp = types[range.AttributeName];
        ev[":sk"] = valueFor(st.sk, tp);
        if (st.skOp === "between") {
          ev[":sk2"] = valueFor(st.sk2, tp);
          cond += " AND #sk BETWEEN :sk AND :sk2";
        } else if (st.skOp === "begins_with") cond += " AND begins_with(#sk, :sk)";
        else cond += ` AND #sk ${st.skOp} :sk`;
      }
      input.KeyConditionExpression = cond;
    }
    if (st.filter.trim()) input.FilterExpression = st.filter.trim();
    if (st.projection.trim()) input.ProjectionExpression = st.projection.trim();
    if (st.names.trim()) {
      const n = parse(st.names);
      if (!n || typeof n !== "object" || Array.isArray(n) || n instanceof Num) throw new Error("Names: a JSON object {\"#name\": \"attribute\"}");
      for (const [k, v] of Object.entries(n)) {
        if (k in en) throw new Error(`Names: ${k} is the key condition's; use another placeholder`);
        if (typeof v !== "string") throw new Error(`Names: ${k} takes a string`);
        en[k] = v;
      }
    }
    if (st.values.trim()) {
      const v = parse(st.values);
      if (!v || typeof v !== "object" || Array.isArray(v) || v instanceof Num) throw new Error("Values: a JSON object {\":value\": ...}");
      const converted = st.valuesFormat === "plain" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromPlain(x, k)])) : checkItem(v);
      for (const [k, x] of Object.entries(converted)) {
        if (k in ev) throw new Error(`Values: ${k} is the key condition's; use another placeholder`);
        ev[k] = x;
      }
    }
    if (Object.keys(en).length) input.ExpressionAttributeNames = en;
    if (Object.keys(ev).length) input.ExpressionAttributeValues = ev;
    if (st.limit !== "") input.Limit = Number(st.limit);
    if (st.op === "Query" && st.descending) input.ScanIndexForward = false;
    if (st.consistent) input.ConsistentRead = true;
    if (st.capacity !== "NONE") input.ReturnConsumedCapacity = st.capacity;
    if (starts[page]) input.ExclusiveStartKey = starts[page];
    return input;
  }

  function changed() {
    starts = [undefined];
    page = 0;
    st.last = null;
    showPreview();
  }

  function showPreview() {
    let input;
    try { input = build(); } catch (err) {
      mount(preview, h("div.preview-head", h("span", "Request")), h("div.note.warn", err.message));
      runButton.disabled = true;
      return null;
    }
    runButton.disabled = false;
    const text = stringify(input);
    askMatch(input);
    mount(preview,
      h("div.preview-head",
        h("span", "Request ", h("code", "POST " + config.apiPath), " ", h("code", `X-Amz-Target: DynamoDB_20120810.${st.op}`)),
        h("span.actions",
          h("button.small", { type: "button", onclick: () => copyText(text, "Request copied") }, icon("copy"), "JSON"),
          h("button.small", { type: "button", title: "An AWS CLI command that sends the same request", onclick: () => copyText(cliCommand(st.op, input), "AWS CLI command copied") }, icon("copy"), "AWS CLI"))),
      jsonView(text, "request-json"));
    return input;
  }

  /** askMatch asks, once the form rests, which design pattern input serves. */
  function askMatch(input) {
    const { ExclusiveStartKey, ReturnConsumedCapacity, ...req } = input;
    const text = JSON.stringify(req);
    if (text === matched) return;
    matched = text;
    clearTimeout(matchTimer);
    const mine = ++matchSeq;
    matchTimer = setTimeout(async () => {
      let out;
      try {
        out = await admin("POST", "/report/match", { namespace: namespaceID(), operation: st.op, request: req });
      } catch (err) {
        if (mine === matchSeq && matchBox.isConnected) mount(matchBox, h("span.muted", "Design pattern: "), h("span.bad", `${err.type}: ${err.message}`));
        return;
      }
      if (mine !== matchSeq || !matchBox.isConnected) return;
      drawMatch(out);
    }, 250);
  }

  function drawMatch(out) {
    if (!out.design) {
      mount(matchBox, h("span.muted", "Design pattern: no design is set (-design, or Insights)"));
      return;
    }
    const m = (out.matches || [])[0] || {};
    const others = (m.candidates || []).filter((c) => c.pattern !== m.pattern);
    mount(matchBox,
      m.pattern
        ? h("div.match-line", h("span.muted", "Design pattern "), badge(m.pattern, "ok"), h("span.small", ` ${m.why}`))
        : h("div.match-line", h("span.muted", "Design pattern "), badge("none", "warn"), h("span.small", ` ${m.why}`),
          m.nearestPattern && h("div.small.nearest", h("span.muted", "Nearest: "), m.nearestPattern)),
      others.length > 0 && h("details.small", h("summary", `${others.length} other pattern${others.length === 1 ? "" : "s"} of ${m.table}`),
        h("ul.candidates", others.map((c) => h("li", h("code", c.pattern), " ", c.fits ? badge("fits", "ok") : h("span.muted", c.why))))));
  }

  async function run(fromStart) {
    if (fromStart) { starts = [undefined]; page = 0; }
    const input = showPreview();
    if (!input) return;
    const mine = ++seq;
    const p = page;
    const began = performance.now();
    let out;
    try {
      out = await call(st.op, input);
    } catch (err) {
      if (mine !== seq) return;
      mount(result, h("div.note.error", h("strong", err.type), ": ", err.message));
      errorToast(err, st.op);
      return;
    }
    if (mine !== seq) return;
    const ms = performance.now() - began;
    starts[p + 1] = out.LastEvaluatedKey;
    st.last = { out, ms, page, starts: [...starts] };
    drawResult(out, ms);
    // The result is drawn under the form, across the page's width: brought into view when it starts in the window's lower half.
    const top = result.getBoundingClientRect().top;
    if (top > innerHeight / 2) result.scrollIntoView({ block: "start" });
  }

  function drawResult(out, ms) {
    shownResult = [out, ms];
    const items = out.Items || [];
    const keys = [...new Set([...t.KeySchema, ...keySchema()].map((k) => k.AttributeName))];
    const kind = indexes.find((x) => x.name === st.index)?.kind;
    const badges = keys.map((k, i) => (i < t.KeySchema.length ? (i === 0 ? "PK" : "SK") : `${kind} ${keySchema()[0].AttributeName === k ? "PK" : "SK"}`));
    // The columns of a table's or index's results are chosen apart from its items grid's (a projection or index may hold fewer).
    const columnsID = `${namespaceID()}/${t.TableName}?${st.index}`;
    const width = result.clientWidth;
    const cols = (chosenColumns(columnsID) || defaultColumns(items, keys, width)).filter((c) => !keys.includes(c));
    const chooseColumns = async () => {
      if (await columnsDialog({ id: columnsID, title: `Columns of ${st.index ? `${t.TableName} · ${st.index}` : t.TableName}`, items, keys, width })) drawResult(out, ms);
    };
    const waste = out.ScannedCount > 0 ? 1 - out.Count / out.ScannedCount : 0;
    const cc = out.ConsumedCapacity;
    mount(result,
      h("div.summary",
        h("div.stat", h("span.stat-label", "Count"), h("span.stat-value", String(out.Count))),
        h("div.stat", h("span.stat-label", "Scanned"), h("span.stat-value", String(out.ScannedCount))),
        h("div.stat" + (waste > 0.5 ? ".warn" : ""), { title: "Items read and then dropped by the filter (paid for, not returned)" }, h("span.stat-label", "Dropped"), h("span.stat-value", `${Math.round(waste * 100)}%`)),
        h("div.stat", h("span.stat-label", "Consumed"), h("span.stat-value", cc ? `${cc.CapacityUnits} RCU` : "—")),
        h("div.stat", h("span.stat-label", "Time"), h("span.stat-value", `${Math.round(ms)} ms`))),
      cc && capacityDetail(cc),
      h("div.toolbar",
        h("span.page-info", `Page ${page + 1}`),
        out.LastEvaluatedKey ? h("span.muted.mono.small", "LastEvaluatedKey ", stringify(out.LastEvaluatedKey, 0)) : h("span.muted", "last page"),
        h("span.spacer"),
        items.length > 0 && columnsButton(chooseColumns, keys.length + cols.length, keys.length + attributesByUse(items, keys).length),
        items.length > 0 && wrapToggle,
        items.length > 0 && h("button", { type: "button", title: "Download this page of results as CSV", onclick: () => downloadCSV(`${t.TableName}-results-page${page + 1}.csv`, items, keys) }, "CSV"),
        h("button", { type: "button", disabled: page === 0, onclick: () => { page--; run(false); }, title: "Previous page ([)" }, icon("left"), "Previous"),
        h("button", { type: "button", disabled: !out.LastEvaluatedKey, onclick: () => { page++; run(false); }, title: "Next page (])" }, "Next", icon("right"))),
      items.length
        ? itemGrid({ items, keys, badges, label: "Results", width, columns: cols, onColumns: chooseColumns, wrap: wrapped(), onOpen: async (it) => { if (await editItem(t, it)) run(false); }, onDelete: async (it) => { if (await deleteItem(t, it)) run(false); } })
        : empty("No items", out.ScannedCount > 0 ? "Items were read, and the filter dropped them all." : "Nothing matches the key condition."));
  }

  drawForm();
  mount(body, h("div.builder-layout", form, h("div.builder-out", matchBox, preview)), result);
  showPreview();
  if (st.last) {
    // The form was run before: run it again (a read), so the answer shown is today's.
    ({ page } = st.last);
    starts = [...st.last.starts];
    await run(false);
  }
  return {
    keys: {
      r: () => run(false),
      "]": () => { if (starts[page + 1]) { page++; run(false); } },
      "[": () => { if (page > 0) { page--; run(false); } },
      w: () => { if (shownResult) wrapToggle.click(); },
    },
  };
}

/** capacityDetail shows ConsumedCapacity's parts: table and each index. */
function capacityDetail(cc) {
  const parts = [];
  if (cc.Table) parts.push(["table", cc.Table.CapacityUnits]);
  for (const [n, v] of Object.entries(cc.GlobalSecondaryIndexes || {})) parts.push([`GSI ${n}`, v.CapacityUnits]);
  for (const [n, v] of Object.entries(cc.LocalSecondaryIndexes || {})) parts.push([`LSI ${n}`, v.CapacityUnits]);
  return h("div.capacity", h("span.muted", "ConsumedCapacity: "), badge(`${cc.CapacityUnits} total`, "info"),
    parts.map(([k, v]) => badge(`${k} ${v}`)), h("details", h("summary", "answer"), jsonView(stringify(cc))));
}

/** cliCommand is the AWS CLI command that sends input (its --cli-input-json form). */
function cliCommand(op, input) {
  const q = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  const rest = { ...input };
  return `aws dynamodb ${op.toLowerCase()} --endpoint-url ${location.origin} --cli-input-json ${q(JSON.stringify(rest))}`;
}
