// A table's Contributor Insights: on or off for the table and each GSI
// (DescribeContributorInsights, UpdateContributorInsights), and, where
// on, the most accessed and most throttled keys of each rule, as
// CloudWatch's rule reports would show them
// (GET /dynamoemu/contributors?table=T&index=I&namespace=NS).

import { call, admin, namespaceID } from "../api.js";
import { h, mount, icon, badge, when, toast, errorToast, segmented } from "../ui.js";
import { chart } from "../chart.js";

/** nsID is the server's name of the console's namespace. */
export function nsID() { return namespaceID(); }

/** contributorsTab draws the Contributor Insights of info.table and its GSIs into body. */
export async function contributorsTab(body, info) {
  const t = info.table;
  const resources = [null, ...(t.GlobalSecondaryIndexes || []).map((x) => x.IndexName)];
  let states, tops;
  try {
    states = await Promise.all(resources.map((index) => call("DescribeContributorInsights", index ? { TableName: t.TableName, IndexName: index } : { TableName: t.TableName })));
    tops = await Promise.all(resources.map((index, i) => (["ENABLED", "ENABLING"].includes(states[i].ContributorInsightsStatus)
      ? admin("GET", `/contributors?table=${encodeURIComponent(t.TableName)}${index ? `&index=${encodeURIComponent(index)}` : ""}&namespace=${encodeURIComponent(nsID())}&n=10`).then((o) => o.rules || [])
      : Promise.resolve([]))));
  } catch (err) {
    mount(body, h("div.note.error", `${err.type}: ${err.message}`));
    return null;
  }
  const again = () => contributorsTab(body, info);
  const set = (index, action, mode) => async () => {
    const input = { TableName: t.TableName, ContributorInsightsAction: action };
    if (index) input.IndexName = index;
    if (mode) input.ContributorInsightsMode = mode;
    try {
      await call("UpdateContributorInsights", input);
      toast(`Contributor Insights ${action === "ENABLE" ? "enabled" : "disabled"}${index ? ` on ${index}` : ""}`, "ok");
    } catch (err) { errorToast(err, "Contributor Insights"); }
    await again();
  };
  const panels = resources.map((index, i) => {
    const st = states[i];
    const status = st.ContributorInsightsStatus || "DISABLED";
    const on = status === "ENABLED" || status === "ENABLING";
    let mode = st.ContributorInsightsMode || "ACCESSED_AND_THROTTLED_KEYS";
    const rules = tops[i];
    return h("section.panel.ci-panel", { dataset: { resource: index || "table" } },
      h("div.soon-head", h("h2", index ? `GSI ${index}` : `Table ${t.TableName}`),
        badge(status, on ? "ok" : status === "FAILED" ? "danger" : ""),
        on && st.ContributorInsightsMode && badge(st.ContributorInsightsMode.replaceAll("_", " ").toLowerCase()),
        st.LastUpdateDateTime && h("span.muted.small", "changed " + when(st.LastUpdateDateTime))),
      on
        ? [
          rules.length === 0 || rules.every((r) => (r.contributors || []).length === 0)
            ? h("p.muted", "No keys yet: reads and writes of this " + (index ? "index" : "table") + " since it was enabled show up here (Refresh).")
            : h("div.chart-grid", rules.map((r) => chart({
              kind: "bar", title: ruleTitle(r.rule), subtitle: r.rule, unit: ruleCode(r.rule)[2] === "T" ? "throttled requests" : "units (3 × WCU + RCU)",
              series: [{ name: "count", tone: ruleCode(r.rule)[2] === "T" ? "danger" : "accent" }],
              rows: (r.contributors || []).map((c) => ({ label: c.keys.join(" · "), values: [c.value] })),
            }))),
          h("div.actions", h("button", { type: "button", onclick: set(index, "DISABLE") }, "Disable")),
        ]
        : [
          h("p.muted", "Off. When on, the emulator counts the most accessed and most throttled partition keys (and partition + sort keys) of this " + (index ? "index" : "table") + ", as CloudWatch Contributor Insights does."),
          h("div.actions",
            segmented([["ACCESSED_AND_THROTTLED_KEYS", "Accessed and throttled keys"], ["THROTTLED_KEYS", "Throttled keys only"]], mode, (v) => { mode = v; }, "Contributor Insights mode"),
            h("button.primary", { type: "button", onclick: () => set(index, "ENABLE", mode)() }, "Enable")),
        ]);
  });
  mount(body,
    h("div.toolbar.ci-head", h("p.muted", "Contributor Insights shows which keys get the traffic: the hot keys that throttle a table. Values are totals since it was enabled (CloudWatch graphs them per minute)."),
      h("button", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh")),
    panels);
  return { keys: { r: again } };
}

/** ruleTitle names a rule by what it counts: "Most accessed partition keys". */
function ruleTitle(rule) {
  const code = ruleCode(rule);
  return `${code[2] === "T" ? "Most throttled" : "Most accessed"} ${code.startsWith("SK") ? "partition + sort keys" : "partition keys"}`;
}

/** ruleCode is a rule's kind: PKC, PKT, SKC or SKT (keys counted or throttled). */
function ruleCode(rule) {
  return String(rule).replace(/^DynamoDBContributorInsights-/, "").slice(0, 3);
}
