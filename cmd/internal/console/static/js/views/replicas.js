// A table's global-table replicas (version 2019.11.21): the replicas
// DescribeTable lists, one added in another region or removed
// (UpdateTable ReplicaUpdates), and a one-click switch to a replica's
// namespace (the same access key in the replica's region).

import { call, namespace, config } from "../api.js";
import { h, mount, icon, badge, field, toast, errorToast, confirmDialog } from "../ui.js";
import { switchNamespace } from "../app.js";

const REGIONS = ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-west-2", "eu-central-1", "ap-northeast-1", "ap-southeast-1", "ap-southeast-2"];

/** replicasTab draws the replicas of info.table into body. */
export async function replicasTab(body, info, reload) {
  const t = info.table;
  const again = async () => replicasTab(body, await reload(), reload);
  if (config.sharedDb) {
    mount(body, h("section.panel", h("h2", "Replicas"),
      h("p.note.info", "This server runs with -sharedDb: every region is one database, so a table cannot have a replica in another region. Run it without -sharedDb to try global tables.")));
    return { keys: { r: again } };
  }
  const replicas = t.Replicas || [];
  const region = h("select", { "aria-label": "Replica region" },
    REGIONS.filter((r) => r !== namespace.region && !replicas.some((x) => x.RegionName === r)).map((r) => h("option", { value: r }, r)));
  const err = h("div.form-error", { role: "alert" });
  const update = (what, change) => async () => {
    err.textContent = "";
    try {
      await call("UpdateTable", { TableName: t.TableName, ReplicaUpdates: [change] });
      toast(what, "ok");
    } catch (e) { err.textContent = `${e.type}: ${e.message}`; errorToast(e, what); return; }
    await again();
  };
  const remove = async (r) => {
    if (!(await confirmDialog(`Remove the replica in ${r}?`, `Deletes the table ${t.TableName} in ${r} (that region's namespace); this one stays.`, "Remove replica", true))) return;
    update(`Replica in ${r} removed`, { Delete: { RegionName: r } })();
  };
  const provisioned = t.BillingModeSummary?.BillingMode !== "PAY_PER_REQUEST";
  mount(body,
    h("section.panel.replicas",
      h("h2", icon("db"), "Global-table replicas", t.GlobalTableVersion ? badge(`version ${t.GlobalTableVersion}`, "info") : badge("not global")),
      h("p.muted", `A replica is the table of the same name in another region's namespace of this access key (${namespace.accessKey}). Writes to any replica reach the others asynchronously; the later write wins.`),
      replicas.length === 0
        ? h("p.muted", "No replicas: this table lives in this region only.")
        : h("div.grid-wrap", h("table.grid.static", { "aria-label": "Replicas" },
          h("thead", h("tr", ["Region", "Status", "Table class", ""].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Actions"))))),
          h("tbody", replicas.map((r) => h("tr", { dataset: { region: r.RegionName } },
            h("td.strong.mono", r.RegionName, r.RegionName === namespace.region && h("span.muted.small", " (this one)")),
            h("td", badge(r.ReplicaStatus || "?", r.ReplicaStatus === "ACTIVE" ? "ok" : "warn")),
            h("td.small", r.ReplicaTableClassSummary?.TableClass || "STANDARD"),
            h("td.actions-cell",
              r.RegionName !== namespace.region && h("button.small", {
                type: "button", title: `Switch the console to ${namespace.accessKey} · ${r.RegionName}`,
                onclick: () => switchNamespace(namespace.accessKey, r.RegionName, `#/t/${encodeURIComponent(t.TableName)}/items`),
              }, "Open there"),
              r.RegionName !== namespace.region && h("button.small.danger-outline", { type: "button", onclick: () => remove(r.RegionName) }, "Remove"))))))),
      h("form.inline-form", { onsubmit: (e) => { e.preventDefault(); if (region.value) update(`Replica in ${region.value} added`, { Create: { RegionName: region.value } })(); } },
        field("Add a replica in", region), h("button.primary", { type: "submit", disabled: region.options.length === 0 }, icon("plus"), "Add replica")),
      err,
      provisioned && h("p.note.info", "A provisioned table needs write auto scaling before it can have replicas (UpdateTableReplicaAutoScaling), as on AWS; an on-demand table does not."),
      !t.StreamSpecification?.StreamEnabled && h("p.muted.small", "Adding a replica turns on a NEW_AND_OLD_IMAGES stream, as AWS does.")));
  return { keys: { r: again } };
}
