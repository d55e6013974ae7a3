// One table: its header and tabs (overview, items, query, stream,
// backups, exports, replicas, Contributor Insights, monitor).

import { describe } from "../api.js";
import { h, mount, badge, icon, empty } from "../ui.js";
import { go, state } from "../app.js";
import { overviewTab } from "./overview.js";
import { itemsTab } from "./items.js";
import { queryTab } from "./query.js";
import { streamTab } from "./stream.js";
import { backupsTab } from "./backups.js";
import { exportsTab } from "./exports.js";
import { replicasTab } from "./replicas.js";
import { contributorsTab } from "./contributors.js";
import { monitorTab } from "./monitor.js";

const TABS = [
  ["overview", "Overview", overviewTab],
  ["items", "Items", itemsTab],
  ["query", "Query & Scan", queryTab],
  ["stream", "Stream", streamTab],
  ["backups", "Backups & PITR", backupsTab],
  ["exports", "Exports", exportsTab],
  ["replicas", "Replicas", replicasTab],
  ["contributors", "Contributor Insights", contributorsTab],
  ["monitor", "Monitor", monitorTab],
];

/** TAB_IDS are the tabs' route names ("#/t/Orders/backups"). */
export const TAB_IDS = TABS.map(([id]) => id);

/** keyText writes a key schema as "pk (S) · sk (S)". */
export function keyText(keySchema, defs) {
  const types = Object.fromEntries((defs || []).map((d) => [d.AttributeName, d.AttributeType]));
  return h("span.key-text", keySchema.map((k, i) => [
    i > 0 && h("span.ns-sep", " · "),
    h("span.key-name", k.AttributeName), h("span.key-type", types[k.AttributeName] || "?"),
    badge(k.KeyType === "HASH" ? "PK" : "SK", "key"),
  ]));
}

/** tableView shows table name's tab. */
export async function tableView(main, name, tab) {
  let info;
  try {
    info = await describe(name);
  } catch (err) {
    if (err.type === "ResourceNotFoundException") {
      mount(main, h("div.page", empty(`No table ${name} here`, "It may have been deleted, or it lives in another namespace (access key and region).",
        h("a.button", { href: "#/" }, "All tables"))));
      return null;
    }
    throw err;
  }
  const t = info.table;
  const href = (id) => `#/t/${encodeURIComponent(name)}/${id}`;
  const tabs = h("nav.tabs", { "aria-label": "Table views" },
    TABS.map(([id, label], i) => h("a", { href: href(id), class: id === tab ? "active" : "", "aria-current": id === tab ? "page" : false, title: `${label} (${i + 1})` }, label)));
  const body = h("div.tab-body");
  mount(main, h("div.page",
    h("div.page-head",
      h("div",
        h("div.crumbs", h("a", { href: "#/" }, "Tables"), " / "),
        h("h1", icon("table"), name, t.TableStatus !== "ACTIVE" && badge(t.TableStatus, "warn")),
        h("div.muted", keyText(t.KeySchema, t.AttributeDefinitions)))),
    tabs, body));
  const [, , render] = TABS.find(([id]) => id === tab);
  const reload = async () => {
    info = await describe(name);
    return info;
  };
  const keys = Object.fromEntries(TABS.map(([id], i) => [String(i + 1), () => go(href(id))]));
  Object.assign(state.keys, keys); // the tabs answer while the tab loads
  const sub = (await render(body, info, reload)) || {};
  return { keys: { ...keys, ...(sub.keys || {}) }, cleanup: sub.cleanup };
}
