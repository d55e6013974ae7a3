// The tables of the namespace, as cards.

import { call, namespace, config } from "../api.js";
import { h, icon, mount, badge, bytes, count, empty } from "../ui.js";
import { refreshTables } from "../app.js";
import { keyText } from "./table.js";

/** homeView shows every table of the namespace with its keys, size and features. */
export async function homeView(main) {
  const names = await refreshTables();
  const header = h("div.page-head",
    h("div", h("h1", "Tables"), h("p.muted", config.sharedDb
      ? "The shared database (-sharedDb): every access key and region sees these tables."
      : `Namespace ${namespace.accessKey} · ${namespace.region}. Another access key or region is another database.`)),
    h("div.actions",
      h("button", { type: "button", onclick: () => homeView(main), title: "Refresh (r)" }, icon("refresh"), "Refresh"),
      h("button.primary", { type: "button", onclick: () => document.getElementById("create-table").click(), title: "Create a table (c)" }, icon("plus"), "Create table")));
  if (names.length === 0) {
    mount(main, h("div.page", header, empty("No tables here yet",
      "Create one here, or point an SDK or the AWS CLI at this server with the same access key and region.",
      h("button.primary", { type: "button", onclick: () => document.getElementById("create-table").click() }, icon("plus"), "Create table"),
      !config.sharedDb && h("button", { type: "button", onclick: () => document.getElementById("ns-button").click() }, icon("key"), "Switch namespace"))));
    return { keys: { r: () => homeView(main) } };
  }
  const grid = h("div.cards");
  mount(main, h("div.page", header, grid));
  const shown = names.slice(0, 60);
  const descs = await Promise.all(shown.map((n) => call("DescribeTable", { TableName: n }).then((o) => o.Table).catch(() => null)));
  for (const [i, t] of descs.entries()) {
    const name = shown[i];
    if (!t) { grid.append(h("a.card", { href: `#/t/${encodeURIComponent(name)}` }, h("h3", name), h("p.muted", "could not be described"))); continue; }
    const gsis = t.GlobalSecondaryIndexes?.length || 0;
    const lsis = t.LocalSecondaryIndexes?.length || 0;
    grid.append(h("a.card", { href: `#/t/${encodeURIComponent(name)}/items`, dataset: { table: name } },
      h("div.card-top", icon("table"), h("h3", name), t.TableStatus !== "ACTIVE" && badge(t.TableStatus, "warn")),
      h("div.card-keys", keyText(t.KeySchema, t.AttributeDefinitions)),
      h("div.card-stats",
        h("div", h("strong", count(t.ItemCount)), h("span", "items")),
        h("div", h("strong", bytes(t.TableSizeBytes)), h("span", "size")),
        h("div", h("strong", String(gsis + lsis)), h("span", "indexes"))),
      h("div.card-badges",
        badge(t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST" ? "on-demand" : "provisioned"),
        t.StreamSpecification?.StreamEnabled && badge("stream", "info"),
        gsis > 0 && badge(`${gsis} GSI`), lsis > 0 && badge(`${lsis} LSI`))));
  }
  if (names.length > shown.length) grid.append(h("p.muted", `${names.length - shown.length} more tables: find them in the sidebar.`));
  return { keys: { r: () => homeView(main) } };
}
