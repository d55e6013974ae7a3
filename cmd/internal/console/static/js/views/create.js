// The create-table dialog: keys, billing, stream, global secondary
// indexes and TTL, with the CreateTable request it sends shown as it is
// built.

import { call } from "../api.js";
import { h, mount, dialog, field, icon, jsonView, segmented } from "../ui.js";
import { stringify } from "../ddb.js";

const typeSelect = (label, value = "S") => h("select", { "aria-label": label },
  [["S", "String"], ["N", "Number"], ["B", "Binary"]].map(([v, l]) => h("option", { value: v, selected: v === value }, l)));
const text = (label, placeholder = "", value = "") => h("input", { "aria-label": label, placeholder, value, autocomplete: "off", spellcheck: "false" });

/** createTable opens the dialog; it resolves with the new table's name, or null. */
export async function createTable() {
  const name = text("Table name", "Orders");
  const pk = text("Partition key name", "pk", "pk");
  const pkType = typeSelect("Partition key type");
  const sk = text("Sort key name", "sk (optional)", "sk");
  const skType = typeSelect("Sort key type");
  let billing = "PAY_PER_REQUEST";
  const rcu = h("input", { type: "number", min: "1", value: "5", "aria-label": "Read capacity units" });
  const wcu = h("input", { type: "number", min: "1", value: "5", "aria-label": "Write capacity units" });
  const provisioned = h("div.form-row.compact.hidden", field("Read capacity units", rcu), field("Write capacity units", wcu));
  const billingSwitch = segmented([["PAY_PER_REQUEST", "On-demand"], ["PROVISIONED", "Provisioned"]], billing, (v) => {
    billing = v;
    provisioned.classList.toggle("hidden", v !== "PROVISIONED");
    update();
  }, "Billing mode");
  const stream = h("select", { "aria-label": "Stream" },
    [["", "No stream"], ["NEW_AND_OLD_IMAGES", "New and old images"], ["NEW_IMAGE", "New image"], ["OLD_IMAGE", "Old image"], ["KEYS_ONLY", "Keys only"]]
      .map(([v, l]) => h("option", { value: v }, l)));
  const ttl = text("TTL attribute", "expiresAt (optional)");
  const gsiList = h("div.gsi-list");
  const syncHead = () => gsiList.parentElement?.querySelector(".gsi-head")?.classList.toggle("hidden", gsis.length === 0);
  const gsis = [];
  const addGSI = () => {
    const row = {
      name: text("Index name", "byStatus"), pk: text("Index partition key", "status"), pkType: typeSelect("Index partition key type"),
      sk: text("Index sort key", "optional"), skType: typeSelect("Index sort key type"),
      projection: h("select", { "aria-label": "Projection" }, ["ALL", "KEYS_ONLY", "INCLUDE"].map((v) => h("option", { value: v }, v))),
      include: text("Projected attributes", "a, b, c"),
    };
    row.el = h("div.gsi-row",
      row.name, row.pk, row.pkType, row.sk, row.skType, row.projection, row.include,
      h("button.icon-button", { type: "button", title: "Remove the index", "aria-label": "Remove the index", onclick: () => { gsis.splice(gsis.indexOf(row), 1); row.el.remove(); syncHead(); update(); } }, icon("x")));
    gsis.push(row);
    gsiList.append(row.el);
    syncHead();
    row.name.focus();
    update();
  };
  const preview = h("div.create-preview");
  const err = h("div.form-error", { role: "alert" });

  /** build returns the CreateTable request of the form. */
  const build = () => {
    const defs = new Map();
    const def = (n, t) => {
      if (defs.has(n) && defs.get(n) !== t) throw new Error(`Attribute ${n} is given two types`);
      defs.set(n, t);
    };
    const keySchema = (p, pt, s, stp) => {
      def(p, pt);
      const ks = [{ AttributeName: p, KeyType: "HASH" }];
      if (s) { def(s, stp); ks.push({ AttributeName: s, KeyType: "RANGE" }); }
      return ks;
    };
    const input = { TableName: name.value.trim() };
    input.KeySchema = keySchema(pk.value.trim(), pkType.value, sk.value.trim(), skType.value);
    const g = gsis.map((r) => {
      const x = { IndexName: r.name.value.trim(), KeySchema: keySchema(r.pk.value.trim(), r.pkType.value, r.sk.value.trim(), r.skType.value), Projection: { ProjectionType: r.projection.value } };
      if (r.projection.value === "INCLUDE") x.Projection.NonKeyAttributes = r.include.value.split(",").map((a) => a.trim()).filter(Boolean);
      if (billing === "PROVISIONED") x.ProvisionedThroughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
      return x;
    });
    input.AttributeDefinitions = [...defs].map(([n, t]) => ({ AttributeName: n, AttributeType: t }));
    if (g.length) input.GlobalSecondaryIndexes = g;
    input.BillingMode = billing;
    if (billing === "PROVISIONED") input.ProvisionedThroughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    if (stream.value) input.StreamSpecification = { StreamEnabled: true, StreamViewType: stream.value };
    return input;
  };
  function update() {
    try {
      const input = build();
      err.textContent = "";
      mount(preview, h("details", h("summary", "CreateTable request"), jsonView(stringify(input))),
        ttl.value.trim() && h("p.muted.small", `then UpdateTimeToLive on ${ttl.value.trim()}`));
    } catch (e) { err.textContent = e.message; }
  }
  for (const el of [name, pk, pkType, sk, skType, rcu, wcu, stream, ttl]) el.addEventListener("input", update);
  gsiList.addEventListener("input", update);
  gsiList.addEventListener("change", update);
  update();
  queueMicrotask(syncHead);

  let created = null;
  await dialog({
    title: "Create a table", wide: true,
    body: [
      h("div.form-row", field("Table name", name)),
      h("div.form-row", field("Partition key", h("div.cond", pk, pkType)), field("Sort key", h("div.cond", sk, skType), "leave empty for none")),
      h("div.form-row", field("Billing", billingSwitch), field("Stream", stream), field("TTL attribute", ttl, "epoch seconds; optional")),
      provisioned,
      h("div.field", h("span.field-label", "Global secondary indexes"),
        h("div.gsi-row.gsi-head", ["name", "partition key", "type", "sort key", "type", "projection", "included attributes", ""].map((c) => h("span", c))),
        gsiList,
        h("button.small", { type: "button", onclick: addGSI }, icon("plus"), "Add an index")),
      preview, err,
    ],
    buttons: [{ label: "Cancel", value: null }, {
      label: "Create table", value: true, kind: "primary",
      onclick: async () => {
        let input;
        try { input = build(); } catch (e) { err.textContent = e.message; return false; }
        try {
          await call("CreateTable", input);
          if (ttl.value.trim()) await call("UpdateTimeToLive", { TableName: input.TableName, TimeToLiveSpecification: { Enabled: true, AttributeName: ttl.value.trim() } });
        } catch (e) { err.textContent = `${e.type}: ${e.message}`; return false; }
        created = input.TableName;
        return true;
      },
    }],
  });
  return created;
}
