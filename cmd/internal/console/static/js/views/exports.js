// A table's exports to S3 (the emulator's export directory stands for
// S3: a bucket is a subdirectory): export now or as of a time, in full or
// the changes of a window (ExportTableToPointInTime, which needs
// point-in-time recovery, as on AWS), and the table's exports with their
// state, item count and where their files are (ListExports,
// DescribeExport).

import { call } from "../api.js";
import { h, mount, icon, badge, bytes, count, when, field, segmented, toast } from "../ui.js";
import { localInput, fromLocalInput } from "./backups.js";

/** listExports follows ListExports' pages (tableArn: one table's; none: the namespace's). */
export async function listExports(tableArn) {
  const out = [];
  let next;
  do {
    const input = { MaxResults: 25 };
    if (tableArn) input.TableArn = tableArn;
    if (next) input.NextToken = next;
    const page = await call("ListExports", input);
    out.push(...(page.ExportSummaries || []));
    next = page.NextToken;
  } while (next);
  return out;
}

/** describeExports describes the newest n exports (the rest stay summaries). */
export async function describeExports(summaries, n = 25) {
  return Promise.all(summaries.slice(0, n).map((s) => call("DescribeExport", { ExportArn: s.ExportArn }).then((o) => o.ExportDescription).catch(() => s)));
}

/** tableOfArn is the table name of a table ARN. */
export function tableOfArn(arn) { return String(arn || "").split("/")[1] || arn || ""; }

/** exportsTable lists exports (ExportDescriptions or summaries). */
export function exportsTable(list, withTable = false) {
  if (list.length === 0) return h("p.muted", "No exports yet.");
  const state = (s) => badge(s, s === "COMPLETED" ? "ok" : s === "FAILED" ? "danger" : "warn");
  return h("div.grid-wrap", h("table.grid.static.exports", { "aria-label": "Exports" },
    h("thead", h("tr", [withTable && "Table", "Export", "State", "Type", "Format", "As of", "Items", "Size", "Written to"].filter(Boolean).map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", list.map((x) => h("tr",
      withTable && h("td.strong", tableOfArn(x.TableArn)),
      h("td.mono.small", { title: x.ExportArn }, String(x.ExportArn).split("/").pop()),
      h("td", { title: x.FailureMessage || "" }, state(x.ExportStatus)), h("td.small", x.ExportType || "FULL_EXPORT"), h("td.small", x.ExportFormat || ""),
      h("td.small", x.ExportTime ? when(x.ExportTime) : x.IncrementalExportSpecification ? `${when(x.IncrementalExportSpecification.ExportFromTime)} → ${when(x.IncrementalExportSpecification.ExportToTime)}` : ""),
      h("td.t-n", x.ItemCount != null ? count(x.ItemCount) : ""), h("td.t-n", x.BilledSizeBytes != null ? bytes(x.BilledSizeBytes) : ""),
      h("td.mono.small.wrap", x.S3Bucket ? `s3://${x.S3Bucket}/${x.ExportManifest ? x.ExportManifest.replace(/\/manifest-summary\.json$/, "/") : x.S3Prefix || ""}` : ""))))));
}

/** exportsTab draws the export form and the exports of info.table into body. */
export async function exportsTab(body, info) {
  const t = info.table;
  let pitr, list;
  try {
    [pitr, list] = await Promise.all([
      call("DescribeContinuousBackups", { TableName: t.TableName }).then((o) => o.ContinuousBackupsDescription?.PointInTimeRecoveryDescription || {}),
      listExports(t.TableArn).then((s) => describeExports(s)),
    ]);
  } catch (err) {
    mount(body, h("div.note.error", `${err.type}: ${err.message}`));
    return null;
  }
  const again = () => exportsTab(body, info);
  const on = pitr.PointInTimeRecoveryStatus === "ENABLED";
  let kind = "FULL_EXPORT";
  const bucket = h("input", { value: "dynamoemu-exports", "aria-label": "S3 bucket", autocomplete: "off", spellcheck: "false" });
  const prefix = h("input", { value: t.TableName, "aria-label": "S3 prefix", autocomplete: "off", spellcheck: "false" });
  const format = h("select", { "aria-label": "Export format" }, [["DYNAMODB_JSON", "DynamoDB JSON"], ["ION", "Amazon Ion"]].map(([v, l]) => h("option", { value: v }, l)));
  const at = h("input", { type: "datetime-local", step: "1", "aria-label": "Export time (UTC)" });
  const from = h("input", { type: "datetime-local", step: "1", "aria-label": "Changes from (UTC)", value: pitr.EarliestRestorableDateTime ? localInput(pitr.EarliestRestorableDateTime) : "" });
  const to = h("input", { type: "datetime-local", step: "1", "aria-label": "Changes to (UTC)", value: pitr.LatestRestorableDateTime ? localInput(pitr.LatestRestorableDateTime) : "" });
  const timeRow = h("div.form-row.compact");
  const drawTimes = () => mount(timeRow, kind === "FULL_EXPORT"
    ? field("As of (UTC, empty: now)", at)
    : [field("Changes from (UTC)", from), field("to (UTC)", to)]);
  drawTimes();
  const err = h("div.form-error", { role: "alert" });
  const start = async (e) => {
    e.preventDefault();
    err.textContent = "";
    const input = { TableArn: t.TableArn, S3Bucket: bucket.value.trim(), S3Prefix: prefix.value.trim() || undefined, ExportFormat: format.value, ExportType: kind };
    if (kind === "FULL_EXPORT" && at.value) input.ExportTime = fromLocalInput(at.value);
    if (kind === "INCREMENTAL_EXPORT") {
      input.IncrementalExportSpecification = { ExportFromTime: fromLocalInput(from.value), ExportToTime: fromLocalInput(to.value), ExportViewType: "NEW_AND_OLD_IMAGES" };
    }
    try {
      const out = await call("ExportTableToPointInTime", input);
      toast("Export started", "ok", out.ExportDescription?.ExportArn || "");
    } catch (x) { err.textContent = `${x.type}: ${x.message}`; return; }
    await again();
  };
  mount(body,
    h("section.panel.export-form",
      h("h2", icon("db"), "Export to S3"),
      on
        ? [
          h("p.muted", "The emulator writes AWS's layout (manifest-summary.json, manifest-files.json, gzipped data files) under its export directory (-exportDir), where a bucket is a folder: make the folder first, as a bucket is made before an export on AWS (an export to one that does not exist ends FAILED, S3NoSuchBucket)."),
          h("form", { onsubmit: start },
            h("div.form-row.compact",
              field("Kind", segmented([["FULL_EXPORT", "Full"], ["INCREMENTAL_EXPORT", "Incremental"]], kind, (v) => { kind = v; drawTimes(); }, "Export type")),
              field("S3 bucket", bucket), field("Prefix", prefix), field("Format", format)),
            timeRow, err,
            h("div.actions", h("button.primary", { type: "submit" }, "Export"))),
        ]
        : h("div.note.warn", "Exports need point-in-time recovery, as on AWS: ",
          h("a", { href: `#/t/${encodeURIComponent(t.TableName)}/backups` }, "enable it on the Backups tab"), ".")),
    h("section.panel",
      h("div.soon-head", h("h2", `Exports of ${t.TableName} (${list.length})`),
        h("button.small", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh")),
      exportsTable(list),
      h("p.muted.small", "Every export and import of this namespace: ", h("a", { href: "#/transfers" }, "Exports & imports"), ".")));
  return { keys: { r: again } };
}
