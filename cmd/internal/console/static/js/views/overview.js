// A table's overview: keys, billing, indexes (projections and sizes),
// stream, TTL and tags, with their switches (UpdateTable: a global
// secondary index added or deleted, the billing mode and capacity,
// deletion protection), and deleting the table.

import { call } from "../api.js";
import { h, mount, badge, bytes, count, when, dialog, field, toast, errorToast, icon, jsonView, breakable, confirmDialog } from "../ui.js";
import { stringify } from "../ddb.js";
import { refreshTables, go } from "../app.js";
import { keyText } from "./table.js";

/** overviewTab draws info (describe's answer) into body. */
export async function overviewTab(body, info, reload) {
  const { table: t, tags, ttl } = info;
  const again = async () => overviewTab(body, await reload(), reload);
  const act = (what, fn) => async () => {
    try { await fn(); toast(what, "ok"); await again(); } catch (err) { errorToast(err, what); }
  };
  const billing = t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST"
    ? "On-demand"
    : `Provisioned · ${t.ProvisionedThroughput?.ReadCapacityUnits ?? "?"} RCU / ${t.ProvisionedThroughput?.WriteCapacityUnits ?? "?"} WCU`;
  const stream = t.StreamSpecification?.StreamEnabled ? t.StreamSpecification.StreamViewType : null;
  const ttlOn = ttl?.TimeToLiveStatus === "ENABLED" || ttl?.TimeToLiveStatus === "ENABLING";

  const stats = h("div.stats",
    stat("Items", count(t.ItemCount)), stat("Size", bytes(t.TableSizeBytes)), stat("Billing", billing),
    stat("Stream", stream || "off", stream ? "info" : ""), stat("TTL", ttlOn ? ttl.AttributeName : "off", ttlOn ? "info" : ""),
    stat("Created", when(t.CreationDateTime)));

  const indexes = [
    ...(t.GlobalSecondaryIndexes || []).map((x) => ({ ...x, kind: "GSI" })),
    ...(t.LocalSecondaryIndexes || []).map((x) => ({ ...x, kind: "LSI" })),
  ];
  const indexTable = indexes.length === 0
    ? h("p.muted", "No secondary indexes. Add a global one below; local ones only at creation (Create table).")
    : h("div.grid-wrap", h("table.grid.static.indexes", { "aria-label": "Indexes" },
      h("thead", h("tr", ["Name", "Kind", "Keys", "Projection", "Items", "Size", "Status", ""].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Actions"))))),
      h("tbody", indexes.map((x) => h("tr", { dataset: { index: x.IndexName } },
        h("td.strong", x.IndexName), h("td", badge(x.kind)), h("td", keyText(x.KeySchema, t.AttributeDefinitions)),
        h("td", projectionText(x.Projection)), h("td.t-n", count(x.ItemCount)), h("td.t-n", bytes(x.IndexSizeBytes)),
        h("td", x.IndexStatus ? badge(x.IndexStatus, x.IndexStatus === "ACTIVE" ? "ok" : "warn") : "—"),
        h("td.actions-cell", x.kind === "GSI" && h("button.small.danger-outline", { type: "button", onclick: () => deleteIndex(t, x.IndexName, act) }, "Delete…")))))));

  const streamBox = stream
    ? [kv("View type", stream), kv("Label", t.LatestStreamLabel), kv("ARN", h("code.small", t.LatestStreamArn)),
      h("div.actions", h("a.button", { href: `#/t/${encodeURIComponent(t.TableName)}/stream` }, icon("wave"), "Tail the stream"),
        h("button", { type: "button", onclick: act("Stream disabled", () => call("UpdateTable", { TableName: t.TableName, StreamSpecification: { StreamEnabled: false } })) }, "Disable"))]
    : [h("p.muted", "No stream: writes are not recorded."), enableStream(t, act)];

  const ttlBox = ttlOn
    ? [kv("Attribute", h("code", ttl.AttributeName)), kv("Status", ttl.TimeToLiveStatus),
      h("p.muted", "Items whose attribute holds an epoch-seconds time before the emulator's clock are deleted by the sweeper (Clock & TTL sweeps at once)."),
      h("div.actions", h("button", { type: "button", onclick: act("TTL disabled", () => call("UpdateTimeToLive", { TableName: t.TableName, TimeToLiveSpecification: { Enabled: false, AttributeName: ttl.AttributeName } })) }, "Disable"))]
    : [h("p.muted", "Off: no item expires."), enableTTL(t, act)];

  const tagList = h("div.tags", tags.length === 0 ? h("span.muted", "No tags.") : tags.map((g) => h("span.tag", h("span.tag-k", g.Key), h("span.tag-v", g.Value),
    h("button.icon-button.small", { type: "button", title: `Remove tag ${g.Key}`, "aria-label": `Remove tag ${g.Key}`, onclick: act("Tag removed", () => call("UntagResource", { ResourceArn: t.TableArn, TagKeys: [g.Key] })) }, icon("x")))));
  const tagKey = h("input", { placeholder: "key", "aria-label": "Tag key", autocomplete: "off" });
  const tagValue = h("input", { placeholder: "value", "aria-label": "Tag value", autocomplete: "off" });
  const tagForm = h("form.inline-form", {
    onsubmit: (e) => {
      e.preventDefault();
      if (!tagKey.value.trim()) return;
      act("Tag added", () => call("TagResource", { ResourceArn: t.TableArn, Tags: [{ Key: tagKey.value.trim(), Value: tagValue.value }] }))();
    },
  }, tagKey, tagValue, h("button", { type: "submit" }, icon("plus"), "Add tag"));

  mount(body,
    stats,
    h("section.panel", h("h2", "Keys and attributes"),
      kv("Primary key", keyText(t.KeySchema, t.AttributeDefinitions)),
      kv("Attribute definitions", h("span", t.AttributeDefinitions.map((d) => h("span.pill", d.AttributeName, h("span.key-type", d.AttributeType))))),
      kv("Table ARN", h("code.small", t.TableArn)), t.TableId && kv("Table id", h("code.small", t.TableId)),
      t.DeletionProtectionEnabled && kv("Deletion protection", "on")),
    h("section.panel", h("h2", `Indexes (${indexes.length})`), indexTable, addIndex(t, act)),
    h("section.panel.billing-panel", h("h2", "Capacity"), capacityForm(t, act)),
    h("div.two-col",
      h("section.panel", h("h2", "Stream"), streamBox),
      h("section.panel", h("h2", "Time to live"), ttlBox)),
    h("section.panel", h("h2", `Tags (${tags.length})`), tagList, tagForm),
    h("details.panel.raw", h("summary", "DescribeTable answer"), jsonView(stringify(t))),
    h("section.panel.danger-zone", h("h2", "Delete the table"),
      h("p.muted", "Deletes the table, its items, indexes and stream. There is no undo."),
      h("div.actions",
        h("button.protection", {
          type: "button", "aria-pressed": String(!!t.DeletionProtectionEnabled),
          title: "UpdateTable DeletionProtectionEnabled: while on, DeleteTable is refused",
          onclick: act(t.DeletionProtectionEnabled ? "Deletion protection off" : "Deletion protection on",
            () => call("UpdateTable", { TableName: t.TableName, DeletionProtectionEnabled: !t.DeletionProtectionEnabled })),
        }, icon("shield"), t.DeletionProtectionEnabled ? "Deletion protection: on (turn off)" : "Deletion protection: off (turn on)"),
        h("button.danger", { type: "button", disabled: !!t.DeletionProtectionEnabled, title: t.DeletionProtectionEnabled ? "Turn deletion protection off first" : "", onclick: () => deleteTable(t) }, icon("trash"), "Delete table…"))));
  return { keys: { r: again } };
}

function stat(label, value, kind = "") {
  return h("div.stat" + (kind ? "." + kind : ""), h("span.stat-label", label), h("span.stat-value", { title: String(value) }, breakable(value)));
}

function kv(k, v) { return h("div.kv", h("span.kv-k", k), h("span.kv-v", v ?? "—")); }

function projectionText(p) {
  if (!p) return "—";
  if (p.ProjectionType === "INCLUDE") return h("span", badge("INCLUDE"), " ", (p.NonKeyAttributes || []).join(", "));
  return badge(p.ProjectionType);
}

/** provisioned is whether t bills by provisioned capacity. */
function provisioned(t) { return t.BillingModeSummary?.BillingMode !== "PAY_PER_REQUEST"; }

/** addIndex is the form that adds a global secondary index (UpdateTable GlobalSecondaryIndexUpdates Create). */
function addIndex(t, act) {
  const types = (id) => h("select", { "aria-label": id }, ["S", "N", "B"].map((x) => h("option", { value: x }, x)));
  const name = h("input", { placeholder: "index name", "aria-label": "New index name", autocomplete: "off", spellcheck: "false", required: true });
  const pk = h("input", { placeholder: "partition key", "aria-label": "New index partition key", autocomplete: "off", spellcheck: "false", required: true });
  const pkType = types("New index partition key type");
  const sk = h("input", { placeholder: "sort key (optional)", "aria-label": "New index sort key", autocomplete: "off", spellcheck: "false" });
  const skType = types("New index sort key type");
  const projection = h("select", { "aria-label": "New index projection" }, ["ALL", "KEYS_ONLY"].map((x) => h("option", { value: x }, x)));
  return h("details.add-index", h("summary", "Add a global secondary index"),
    h("form.inline-form.wrap-form", {
      onsubmit: (e) => {
        e.preventDefault();
        const defs = new Map(t.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
        const keySchema = [{ AttributeName: pk.value.trim(), KeyType: "HASH" }];
        defs.set(pk.value.trim(), defs.get(pk.value.trim()) || pkType.value);
        if (sk.value.trim()) {
          keySchema.push({ AttributeName: sk.value.trim(), KeyType: "RANGE" });
          defs.set(sk.value.trim(), defs.get(sk.value.trim()) || skType.value);
        }
        const create = { IndexName: name.value.trim(), KeySchema: keySchema, Projection: { ProjectionType: projection.value } };
        if (provisioned(t)) create.ProvisionedThroughput = { ReadCapacityUnits: t.ProvisionedThroughput?.ReadCapacityUnits || 5, WriteCapacityUnits: t.ProvisionedThroughput?.WriteCapacityUnits || 5 };
        act(`Index ${create.IndexName} added`, () => call("UpdateTable", {
          TableName: t.TableName,
          AttributeDefinitions: [...defs].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
          GlobalSecondaryIndexUpdates: [{ Create: create }],
        }))();
      },
    }, name, pk, pkType, sk, skType, projection, h("button", { type: "submit" }, icon("plus"), "Add index")));
}

/** deleteIndex asks, then deletes global secondary index name (UpdateTable GlobalSecondaryIndexUpdates Delete). */
async function deleteIndex(t, name, act) {
  if (!(await confirmDialog(`Delete index ${name}?`, `Deletes the index from ${t.TableName}; the table's items stay. Queries on the index stop working.`, "Delete index", true))) return;
  await act(`Index ${name} deleted`, () => call("UpdateTable", { TableName: t.TableName, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: name } }] }))();
}

/** capacityForm switches the billing mode (UpdateTable BillingMode) and sets provisioned capacity. */
function capacityForm(t, act) {
  const prov = provisioned(t);
  const rcu = h("input", { type: "number", min: "1", value: String(t.ProvisionedThroughput?.ReadCapacityUnits || 5), "aria-label": "Read capacity units" });
  const wcu = h("input", { type: "number", min: "1", value: String(t.ProvisionedThroughput?.WriteCapacityUnits || 5), "aria-label": "Write capacity units" });
  const gsis = t.GlobalSecondaryIndexes || [];
  const toProvisioned = () => {
    const pt = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    const input = { TableName: t.TableName, ProvisionedThroughput: pt };
    if (!prov) {
      input.BillingMode = "PROVISIONED";
      // Leaving on-demand, each global index needs its capacity too.
      if (gsis.length) input.GlobalSecondaryIndexUpdates = gsis.map((x) => ({ Update: { IndexName: x.IndexName, ProvisionedThroughput: pt } }));
    }
    return call("UpdateTable", input);
  };
  return [
    h("p", prov
      ? `Provisioned: ${t.ProvisionedThroughput?.ReadCapacityUnits ?? "?"} read and ${t.ProvisionedThroughput?.WriteCapacityUnits ?? "?"} write capacity units.`
      : "On-demand (PAY_PER_REQUEST): billed per request, no capacity to set."),
    h("form.inline-form", { onsubmit: (e) => { e.preventDefault(); act(prov ? "Capacity changed" : "Switched to provisioned", toProvisioned)(); } },
      field("RCU", rcu), field("WCU", wcu), h("button", { type: "submit" }, prov ? "Set capacity" : "Switch to provisioned"),
      prov && h("button", { type: "button", onclick: act("Switched to on-demand", () => call("UpdateTable", { TableName: t.TableName, BillingMode: "PAY_PER_REQUEST" })) }, "Switch to on-demand")),
  ];
}

function enableStream(t, act) {
  const view = h("select", { "aria-label": "Stream view type" },
    ["NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"].map((v) => h("option", { value: v }, v)));
  return h("form.inline-form", {
    onsubmit: (e) => {
      e.preventDefault();
      act("Stream enabled", () => call("UpdateTable", { TableName: t.TableName, StreamSpecification: { StreamEnabled: true, StreamViewType: view.value } }))();
    },
  }, view, h("button", { type: "submit" }, "Enable stream"));
}

function enableTTL(t, act) {
  const attr = h("input", { placeholder: "attribute, e.g. expiresAt", "aria-label": "TTL attribute", autocomplete: "off", required: true });
  return h("form.inline-form", {
    onsubmit: (e) => {
      e.preventDefault();
      act("TTL enabled", () => call("UpdateTimeToLive", { TableName: t.TableName, TimeToLiveSpecification: { Enabled: true, AttributeName: attr.value.trim() } }))();
    },
  }, attr, h("button", { type: "submit" }, "Enable TTL"));
}

async function deleteTable(t) {
  const input = h("input", { placeholder: t.TableName, "aria-label": "Table name", autocomplete: "off", spellcheck: "false" });
  const err = h("div.form-error", { role: "alert" });
  const done = await dialog({
    title: `Delete ${t.TableName}?`,
    body: [h("p", `Its ${count(t.ItemCount)} items, its indexes and its stream go with it. Type the table's name to confirm.`), field("Table name", input), err],
    buttons: [{ label: "Cancel", value: false }, {
      label: "Delete table", value: true, kind: "danger",
      onclick: async () => {
        if (input.value !== t.TableName) { err.textContent = "The name does not match."; return false; }
        try { await call("DeleteTable", { TableName: t.TableName }); } catch (e) { err.textContent = `${e.type}: ${e.message}`; return false; }
        return true;
      },
    }],
  });
  if (done) {
    toast(`Table ${t.TableName} deleted`, "ok");
    await refreshTables();
    go("#/");
  }
}
