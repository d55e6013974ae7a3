// Exports and imports of the namespace: every export (ListExports,
// DescribeExport), every import (ListImports, DescribeImport) with its
// counts and errors, and a new table imported from files under a prefix
// of the export directory (ImportTable: DynamoDB JSON, Ion or CSV,
// plain, gzipped or ZSTD). An export's row fills the import form with
// its data folder and its table's keys.

import { call } from "../api.js";
import { h, mount, icon, badge, count, bytes, when, field, toast, errorToast } from "../ui.js";
import { refreshTables } from "../app.js";
import { listExports, describeExports, exportsTable, tableOfArn } from "./exports.js";

/** listImports follows ListImports' pages. */
async function listImports() {
  const out = [];
  let next;
  do {
    const page = await call("ListImports", next ? { PageSize: 25, NextToken: next } : { PageSize: 25 });
    out.push(...(page.ImportSummaryList || []));
    next = page.NextToken;
  } while (next);
  return out;
}

/** transfersView draws the exports, the imports and the import form into main. */
export async function transfersView(main) {
  let exports, imports;
  try {
    [exports, imports] = await Promise.all([
      listExports().then((s) => describeExports(s)),
      listImports().then((s) => Promise.all(s.slice(0, 25).map((i) => call("DescribeImport", { ImportArn: i.ImportArn }).then((o) => o.ImportTableDescription).catch(() => i)))),
    ]);
  } catch (err) {
    mount(main, h("div.page", h("h1", "Exports & imports"), h("div.note.error", `${err.type}: ${err.message}`)));
    return null;
  }
  const again = () => transfersView(main);

  const bucket = h("input", { value: "dynamoemu-exports", "aria-label": "Import S3 bucket", autocomplete: "off", spellcheck: "false" });
  const prefix = h("input.mono", { placeholder: "Orders/AWSDynamoDB/01234-abcd/data/", "aria-label": "Import S3 key prefix", autocomplete: "off", spellcheck: "false" });
  const format = h("select", { "aria-label": "Import format" }, [["DYNAMODB_JSON", "DynamoDB JSON"], ["ION", "Amazon Ion"], ["CSV", "CSV"]].map(([v, l]) => h("option", { value: v }, l)));
  const compression = h("select", { "aria-label": "Compression" }, [["GZIP", "gzip"], ["NONE", "none"], ["ZSTD", "zstd"]].map(([v, l]) => h("option", { value: v }, l)));
  const table = h("input", { placeholder: "NewTable", "aria-label": "Import table name", autocomplete: "off", spellcheck: "false" });
  const pk = h("input", { placeholder: "pk", "aria-label": "Import partition key", autocomplete: "off", spellcheck: "false" });
  const pkType = typeSelect("Import partition key type");
  const sk = h("input", { placeholder: "none", "aria-label": "Import sort key", autocomplete: "off", spellcheck: "false" });
  const skType = typeSelect("Import sort key type");
  const err = h("div.form-error", { role: "alert" });
  const form = h("form.panel.import-form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      const keys = [[pk.value.trim(), pkType.value, "HASH"], [sk.value.trim(), skType.value, "RANGE"]].filter(([n]) => n);
      const input = {
        S3BucketSource: { S3Bucket: bucket.value.trim(), S3KeyPrefix: prefix.value.trim() },
        InputFormat: format.value, InputCompressionType: compression.value,
        TableCreationParameters: {
          TableName: table.value.trim(), BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: keys.map(([n, t]) => ({ AttributeName: n, AttributeType: t })),
          KeySchema: keys.map(([n, , k]) => ({ AttributeName: n, KeyType: k })),
        },
      };
      try {
        const out = await call("ImportTable", input);
        const d = out.ImportTableDescription || {};
        toast(`Import ${d.ImportStatus || "started"}`, d.ImportStatus === "FAILED" ? "error" : "ok", d.FailureMessage || `into ${input.TableCreationParameters.TableName}`);
      } catch (x) { err.textContent = `${x.type}: ${x.message}`; return; }
      await refreshTables();
      await again();
    },
  },
  h("h2", icon("plus"), "Import a new table"),
  h("p.muted", "Reads every object under the prefix (the files an export wrote are under <prefix>/AWSDynamoDB/<export id>/data/) into a new table. Bad lines are counted and end the import FAILED, as on AWS."),
  h("div.form-row.compact", field("S3 bucket", bucket), field("Key prefix", prefix), field("Format", format), field("Compression", compression)),
  h("div.form-row.compact", field("New table", table), field("Partition key", h("div.cond", pk, pkType)), field("Sort key", h("div.cond", sk, skType))),
  err,
  h("div.actions", h("button.primary", { type: "submit" }, "Import")));

  // An export's row fills the form: its data folder and its table's keys.
  const useExport = async (x) => {
    bucket.value = x.S3Bucket || bucket.value;
    prefix.value = x.ExportManifest ? x.ExportManifest.replace(/manifest-summary\.json$/, "data/") : x.S3Prefix || "";
    format.value = x.ExportFormat === "ION" ? "ION" : "DYNAMODB_JSON";
    compression.value = "GZIP";
    const source = tableOfArn(x.TableArn);
    table.value = `${source}-imported`;
    try {
      const { Table } = await call("DescribeTable", { TableName: source });
      const types = Object.fromEntries(Table.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
      const [hash, range] = Table.KeySchema;
      pk.value = hash.AttributeName; pkType.value = types[hash.AttributeName];
      sk.value = range ? range.AttributeName : ""; skType.value = range ? types[range.AttributeName] : "S";
    } catch (e) { errorToast(e, `Reading ${source}'s keys`); }
    form.scrollIntoView({ block: "start" });
    table.focus();
  };
  const exportRows = exportsTable(exports, true);
  for (const [i, tr] of [...exportRows.querySelectorAll("tbody tr")].entries()) {
    const x = exports[i];
    tr.append(h("td", x.ExportStatus === "COMPLETED" && h("button.small", { type: "button", onclick: () => useExport(x), title: "Fill the import form with this export" }, "Import…")));
  }
  exportRows.querySelector("thead tr")?.append(h("th", { scope: "col" }, h("span.visually-hidden", "Actions")));

  const importState = (s) => badge(s, s === "COMPLETED" ? "ok" : s === "FAILED" ? "danger" : "warn");
  mount(main, h("div.page",
    h("div.page-head",
      h("div", h("h1", icon("db"), "Exports & imports"),
        h("p.muted", "Every export and import of this namespace. The emulator's export directory (-exportDir) stands for S3: a bucket is a folder, a key a path.")),
      h("div.actions", h("button", { type: "button", onclick: again, title: "Refresh (r)" }, icon("refresh"), "Refresh"))),
    h("section.panel", h("h2", `Exports (${exports.length})`), exportRows,
      h("p.muted.small", "Start an export from a table's Exports tab.")),
    h("section.panel", h("h2", `Imports (${imports.length})`),
      imports.length === 0 ? h("p.muted", "No imports yet.") : h("div.grid-wrap", h("table.grid.static.imports", { "aria-label": "Imports" },
        h("thead", h("tr", ["Table", "State", "Format", "From", "Imported", "Processed", "Errors", "Size", "Started"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", imports.map((i) => h("tr",
          h("td.strong", h("a", { href: `#/t/${encodeURIComponent(tableOfArn(i.TableArn))}/items` }, tableOfArn(i.TableArn))),
          h("td", { title: i.FailureMessage || "" }, importState(i.ImportStatus)), h("td.small", [i.InputFormat, i.InputCompressionType].filter(Boolean).join(" · ")),
          h("td.mono.small.wrap", `s3://${i.S3BucketSource?.S3Bucket}/${i.S3BucketSource?.S3KeyPrefix || ""}`),
          h("td.t-n", i.ImportedItemCount != null ? count(i.ImportedItemCount) : ""), h("td.t-n", i.ProcessedItemCount != null ? count(i.ProcessedItemCount) : ""),
          h("td.t-n", i.ErrorCount ? badge(count(i.ErrorCount), "danger") : i.ErrorCount === 0 ? "0" : ""),
          h("td.t-n", i.ProcessedSizeBytes != null ? bytes(i.ProcessedSizeBytes) : ""), h("td.small", when(i.StartTime)))))))),
    form));
  return { keys: { r: again } };
}

function typeSelect(label) {
  return h("select", { "aria-label": label }, ["S", "N", "B"].map((t) => h("option", { value: t }, t)));
}
