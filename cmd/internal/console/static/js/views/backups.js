// A table's backups: point-in-time recovery (on or off, its window, a
// restore to any second of it) and on-demand backups (create, list,
// restore to a new table, delete), through the DynamoDB API:
// DescribeContinuousBackups, UpdateContinuousBackups,
// RestoreTableToPointInTime, CreateBackup, ListBackups,
// RestoreTableFromBackup, DeleteBackup.

import { call } from "../api.js";
import { h, mount, icon, badge, bytes, when, field, dialog, toast, errorToast, confirmDialog } from "../ui.js";
import { refreshTables, go } from "../app.js";

/** localInput writes a time (epoch seconds) as a datetime-local value in UTC. */
export function localInput(secs) {
  return new Date(Math.floor(secs) * 1000).toISOString().slice(0, 19);
}

/** fromLocalInput reads a datetime-local value written in UTC as epoch seconds. */
export function fromLocalInput(v) {
  return new Date(v + (v.length === 16 ? ":00" : "") + "Z").getTime() / 1000;
}

/** stamp is a name-safe timestamp of now: 20261122-110000. */
function stamp() {
  return new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
}

/** listBackups follows ListBackups' pages for one table. */
async function listBackups(table) {
  const out = [];
  let start;
  do {
    const page = await call("ListBackups", start ? { TableName: table, ExclusiveStartBackupArn: start } : { TableName: table });
    out.push(...(page.BackupSummaries || []));
    start = page.LastEvaluatedBackupArn;
  } while (start);
  return out.sort((a, b) => b.BackupCreationDateTime - a.BackupCreationDateTime);
}

/** restored says a restore started and offers the new table. */
async function restored(name) {
  await refreshTables();
  toast(`Restoring into ${name}`, "ok", "The new table has the items, not the tags, stream, TTL or PITR (as on AWS).");
  go(`#/t/${encodeURIComponent(name)}/overview`);
}

/** backupsTab draws point-in-time recovery and the on-demand backups of info.table into body. */
export async function backupsTab(body, info) {
  const t = info.table;
  const name = t.TableName;
  let pitr, backups;
  try {
    [pitr, backups] = await Promise.all([
      call("DescribeContinuousBackups", { TableName: name }).then((o) => o.ContinuousBackupsDescription),
      listBackups(name),
    ]);
  } catch (err) {
    mount(body, h("div.note.error", `${err.type}: ${err.message}`));
    return null;
  }
  const again = () => backupsTab(body, info);
  const act = (what, fn) => async () => { try { await fn(); toast(what, "ok"); await again(); } catch (err) { errorToast(err, what); } };
  const rec = pitr?.PointInTimeRecoveryDescription || {};
  const on = rec.PointInTimeRecoveryStatus === "ENABLED";

  // Point-in-time recovery.
  const period = h("input", { type: "number", min: "1", max: "35", value: String(rec.RecoveryPeriodInDays || 35), "aria-label": "Recovery period (days)" });
  const target = h("input", { value: `${name}-restored`, "aria-label": "New table name", autocomplete: "off", spellcheck: "false" });
  const time = h("input", { type: "datetime-local", step: "1", "aria-label": "Restore time (UTC)", value: on && rec.LatestRestorableDateTime ? localInput(rec.LatestRestorableDateTime) : "" });
  const latest = h("input", { type: "checkbox", "aria-label": "The latest restorable time" });
  latest.addEventListener("change", () => { time.disabled = latest.checked; });
  const restoreErr = h("div.form-error", { role: "alert" });
  const restoreToTime = async (e) => {
    e.preventDefault();
    restoreErr.textContent = "";
    const input = { SourceTableName: name, TargetTableName: target.value.trim() };
    if (latest.checked) input.UseLatestRestorableTime = true;
    else if (time.value) input.RestoreDateTime = fromLocalInput(time.value);
    else { restoreErr.textContent = "Choose a time, or the latest restorable time."; return; }
    try {
      await call("RestoreTableToPointInTime", input);
    } catch (err) { restoreErr.textContent = `${err.type}: ${err.message}`; return; }
    await restored(input.TargetTableName);
  };
  const pitrPanel = h("section.panel.pitr",
    h("h2", icon("clock"), "Point-in-time recovery", on ? badge("enabled", "ok") : badge("off", "warn")),
    on
      ? [
        h("div.stats.compact",
          stat("Earliest restorable", when(rec.EarliestRestorableDateTime)),
          stat("Latest restorable", when(rec.LatestRestorableDateTime)),
          stat("Recovery period", `${rec.RecoveryPeriodInDays || 35} days`)),
        h("p.muted", "The window runs on the emulator's clock (Clock & TTL moves it), from when recovery was enabled to now: restore any second of it into a new table."),
        h("form.inline-form.restore-form", { onsubmit: restoreToTime },
          field("New table", target), field("Time (UTC)", time),
          h("label.check", latest, "latest restorable time"),
          h("button.primary", { type: "submit" }, "Restore to this time")),
        restoreErr,
        h("div.actions.pitr-off", h("button", {
          type: "button",
          onclick: act("Point-in-time recovery disabled", () => call("UpdateContinuousBackups", { TableName: name, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } })),
        }, "Disable recovery")),
      ]
      : [
        h("p.muted", "Off: no history is kept, so the table cannot be restored to an earlier time. Enabling it starts the window now."),
        h("form.inline-form", {
          onsubmit: (e) => {
            e.preventDefault();
            act("Point-in-time recovery enabled", () => call("UpdateContinuousBackups", {
              TableName: name, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: Number(period.value) || 35 },
            }))();
          },
        }, field("Recovery period (days)", period), h("button.primary", { type: "submit" }, "Enable recovery")),
      ]);

  // On-demand backups.
  const backupName = h("input", { value: `${name}-${stamp()}`, "aria-label": "Backup name", autocomplete: "off", spellcheck: "false" });
  const create = h("form.inline-form", {
    onsubmit: (e) => {
      e.preventDefault();
      act("Backup created", () => call("CreateBackup", { TableName: name, BackupName: backupName.value.trim() }))();
    },
  }, field("Backup name", backupName), h("button.primary", { type: "submit" }, icon("plus"), "Create backup"));
  const restoreBackup = async (b) => {
    const input = h("input", { value: `${name}-from-backup`, "aria-label": "New table name", autocomplete: "off", spellcheck: "false" });
    const err = h("div.form-error", { role: "alert" });
    const done = await dialog({
      title: `Restore ${b.BackupName}`,
      body: [h("p", "Makes a new table with the backup's items, keys and indexes, as the table was when the backup was taken."), field("New table", input), err],
      buttons: [{ label: "Cancel", value: null }, {
        label: "Restore", value: true, kind: "primary",
        onclick: async () => {
          try { await call("RestoreTableFromBackup", { BackupArn: b.BackupArn, TargetTableName: input.value.trim() }); } catch (e) { err.textContent = `${e.type}: ${e.message}`; return false; }
          return true;
        },
      }],
    });
    if (done) await restored(input.value.trim());
  };
  const deleteBackup = async (b) => {
    if (!(await confirmDialog(`Delete backup ${b.BackupName}?`, "The backup is gone for good; the table is not touched.", "Delete", true))) return;
    act("Backup deleted", () => call("DeleteBackup", { BackupArn: b.BackupArn }))();
  };
  const list = backups.length === 0
    ? h("p.muted", "No backups of this table yet.")
    : h("div.grid-wrap", h("table.grid.static.backups", { "aria-label": "Backups" },
      h("thead", h("tr", ["Name", "Type", "Status", "Created", "Size", ""].map((c) => h("th", { scope: "col" }, c || h("span.visually-hidden", "Actions"))))),
      h("tbody", backups.map((b) => h("tr", { dataset: { backup: b.BackupName } },
        h("td.strong", b.BackupName), h("td", badge(b.BackupType, b.BackupType === "SYSTEM" ? "info" : "")),
        h("td", badge(b.BackupStatus, b.BackupStatus === "AVAILABLE" ? "ok" : "warn")), h("td.small", when(b.BackupCreationDateTime)),
        h("td.t-n", bytes(b.BackupSizeBytes)),
        h("td.actions-cell",
          h("button.small", { type: "button", disabled: b.BackupStatus !== "AVAILABLE", onclick: () => restoreBackup(b) }, "Restore…"),
          b.BackupType !== "SYSTEM" && h("button.small.danger-outline", { type: "button", onclick: () => deleteBackup(b) }, "Delete")))))));
  mount(body, pitrPanel,
    h("section.panel.backups-panel", h("h2", icon("db"), `On-demand backups (${backups.length})`),
      h("p.muted", "A backup is a copy-on-write snapshot of the table and its definition: instant, whatever the table's size. Restoring makes a new table."),
      create, h("div.spacer-12"), list));
  return { keys: { r: again } };
}

function stat(label, value) {
  return h("div.stat", h("span.stat-label", label), h("span.stat-value", value));
}
