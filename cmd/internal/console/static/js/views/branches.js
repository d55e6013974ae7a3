// Branches: a namespace forked from another in O(1) (beyond AWS, for test
// suites that seed a base once and fork it per test): the branches made,
// a fork of a namespace that holds tables, a branch diffed against its
// base now (table by table, item by item), opened, or dropped; through
// the admin endpoints GET/POST /dynamoemu/branches,
// GET .../{name}/diff and DELETE .../{name}.

import { admin, config, namespace, validAccessKey } from "../api.js";
import { h, mount, icon, badge, count, toast, errorToast, confirmDialog, empty, field } from "../ui.js";
import { loadNamespaces, switchNamespace, viewAlive } from "../app.js";
import { tableDiffs } from "./snapshots.js";

/** diffOf is the branch whose diff is shown while the page lives (its name, or ""). */
let diffOf = "";

/** branchesView draws the branches, the fork form and a branch's diff into main. */
export async function branchesView(main) {
  const alive = viewAlive();
  const again = () => branchesView(main);
  if (config.sharedDb) {
    mount(main, h("div.page", h("h1", icon("db"), "Branches"),
      empty("No branches with -sharedDb", "Every access key reaches the one database, so a branch (the namespace of another access key) cannot be told apart.")));
    return { keys: { r: again } };
  }
  const [list, spaces] = await Promise.all([admin("GET", "/branches").then((o) => o.branches || []), loadNamespaces()]);
  if (!alive()) return null;
  if (diffOf && !list.some((b) => b.name === diffOf)) diffOf = "";
  const here = `${namespace.accessKey}/${namespace.region}`;
  const bases = spaces.filter((n) => !list.some((b) => b.namespace === n.namespace));
  const base = h("select", { "aria-label": "Base namespace" }, bases.map((n) => h("option", { value: n.namespace, selected: n.namespace === here },
    `${n.accessKey} · ${n.region} (${n.tables} table${n.tables === 1 ? "" : "s"}, ${count(n.items)} items)`)));
  const name = h("input", { placeholder: "t1", "aria-label": "Branch name", autocomplete: "off", spellcheck: "false", required: true, pattern: "[A-Za-z0-9]{1,128}" });
  const err = h("div.form-error", { role: "alert" });
  const fork = async (e) => {
    e.preventDefault();
    if (!validAccessKey(name.value.trim())) { err.textContent = "A branch name is 1 to 128 letters and digits: it is the access key that reaches the branch."; return; }
    try {
      const b = await admin("POST", "/branches", { base: base.value, name: name.value.trim() });
      toast(`Branch ${b.name} forked from ${b.base}`, "ok");
      diffOf = b.name;
    } catch (x) { errorToast(x, "Fork"); return; }
    again();
  };
  const drop = async (b) => {
    if (!(await confirmDialog(`Drop branch ${b.name}?`, `Drops the branch's tables (namespace ${b.namespace}); its base ${b.base} is not touched.`, "Drop", true))) return;
    try { await admin("DELETE", `/branches/${encodeURIComponent(b.name)}`, {}); toast(`Branch ${b.name} dropped`, "ok"); } catch (x) { errorToast(x, "Drop"); }
    again();
  };
  const diffBox = h("div.branch-diff");
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("db"), "Branches"),
        h("p.muted", "A branch is a namespace forked from another in O(1), whatever it holds: writes in the branch are invisible to its base and to other branches. Requests signed with the branch's name as access key id, in the base's region, reach it.")),
      h("div.actions", h("button", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh"))),
    h("section.panel",
      h("h2", "Fork a namespace"),
      bases.length === 0
        ? h("p.muted", "No namespace holds tables yet: create a table, then fork its namespace.")
        : h("form.inline-form", { onsubmit: fork }, field("Base", base), field("Branch name (its access key)", name), h("button.primary", { type: "submit" }, icon("plus"), "Fork")),
      err),
    list.length === 0
      ? empty("No branches", "Fork one here, from a test (emulatortest.Fork) or with POST /dynamoemu/branches.")
      : h("div.grid-wrap", h("table.grid.static.branches", { "aria-label": "Branches" },
        h("thead", h("tr", ["Branch", "Namespace", "Base", ""].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Actions"))))),
        h("tbody", list.map((b) => {
          const [, region] = b.namespace.split("/");
          return h("tr", { dataset: { branch: b.name }, class: diffOf === b.name ? "selected" : "" },
            h("td.strong.mono", b.name), h("td.mono.small", b.namespace), h("td.mono.small", b.base),
            h("td.actions-cell",
              h("button.small", { type: "button", onclick: () => { diffOf = b.name; again(); } }, "Diff with base"),
              h("button.small", { type: "button", title: `Switch the console to ${b.accessKey} · ${region}`, onclick: () => switchNamespace(b.accessKey, region) }, "Open"),
              h("button.small.danger-outline", { type: "button", onclick: () => drop(b) }, "Drop…")));
        })))),
    diffBox));
  if (diffOf) await drawDiff(diffBox, list.find((b) => b.name === diffOf), alive);
  return { keys: { r: again } };
}

/** drawDiff draws what branch b holds that its base does not, table by table. */
async function drawDiff(box, b, alive) {
  let d;
  try {
    d = await admin("GET", `/branches/${encodeURIComponent(b.name)}/diff?limit=200`);
  } catch (err) {
    if (alive()) mount(box, h("div.note.error", `${err.type}: ${err.message}`));
    return;
  }
  if (!alive()) return;
  const changes = d.tables.filter((t) => t.change !== "unchanged").length;
  mount(box, h("section.panel.diff-panel",
    h("div.soon-head", h("h2", `${d.branch} against ${d.base}`),
      badge(changes ? `${changes} table${changes > 1 ? "s" : ""} differ` : "same as its base", changes ? "warn" : "ok")),
    h("p.muted.small", "Then is the base now, now is the branch: “added” is in the branch only, “removed” in the base only."),
    d.tables.length === 0 ? h("p.muted", "Neither holds a table.") : tableDiffs(d.tables, d.branch)));
}
