// A table's items, a page at a time (Scan with Limit and
// ExclusiveStartKey), with add, edit and delete; the page sorted by a
// column; the columns chosen (kept per table in localStorage; by
// default the key attributes and the most used others, as many as fit)
// and long values wrapped or cut; items selected and deleted together
// (BatchWriteItem); and the whole table purged.

import { call, namespaceID } from "../api.js";
import { h, mount, icon, empty, errorToast, dialog, field, toast, count, confirmDialog } from "../ui.js";
import { itemGrid, rowKey, attributesByUse, defaultColumns, chosenColumns, columnsDialog, columnsButton, wrapped, wrapButton } from "../grid.js";
import { editItem, deleteItem } from "../editor.js";
import { deleteKeys, purgeTable } from "../bulk.js";
import { keyOf } from "../ddb.js";
import { downloadCSV } from "../csv.js";

const SIZE_KEY = "dynamoemu.console.pageSize";

/** sorts keeps each table's sort while the page lives (table name -> {col, dir}). */
const sorts = new Map();

/** itemsTab draws the items of info.table into body. */
export async function itemsTab(body, info, reload) {
  const t = info.table;
  const keys = t.KeySchema.map((k) => k.AttributeName);
  let size = Number((() => { try { return localStorage.getItem(SIZE_KEY); } catch { return null; } })()) || 25;
  const starts = [undefined]; // starts[p] is the ExclusiveStartKey of page p
  let page = 0;
  let last = null; // the last answer
  let seq = 0;      // of the latest Scan: an older answer that arrives later is dropped
  const selected = new Set(); // rowKey of the items selected on this page

  const bar = h("div.toolbar");
  const result = h("div.result");
  mount(body, bar, result);

  const load = async () => {
    const mine = ++seq;
    const p = page;
    const input = { TableName: t.TableName, Limit: size, ReturnConsumedCapacity: "TOTAL" };
    if (starts[p]) input.ExclusiveStartKey = starts[p];
    let out;
    try {
      out = await call("Scan", input);
    } catch (err) {
      if (mine === seq) errorToast(err, "Scan");
      return;
    }
    if (mine !== seq) return;
    last = out;
    starts[p + 1] = out.LastEvaluatedKey;
    selected.clear();
    draw();
  };
  const next = () => { if (starts[page + 1]) { page++; load(); } }; // once this page has answered
  const prev = () => { if (page > 0) { page--; load(); } };
  const first = () => { if (page > 0) { page = 0; load(); } };
  const add = async () => { if ((await editItem(t, null)) === "saved") load(); };
  const open = async (item) => { if (await editItem(t, item)) load(); };
  const remove = async (item) => { if (await deleteItem(t, item)) load(); };

  const removeSelected = async () => {
    const chosen = (last.Items || []).filter((it) => selected.has(rowKey(it, keys))).map((it) => keyOf(it, t.KeySchema));
    if (chosen.length === 0) return;
    if (!(await confirmDialog(`Delete ${chosen.length} item${chosen.length > 1 ? "s" : ""}?`,
      `Deletes the selected items from ${t.TableName} with BatchWriteItem (25 a request). There is no undo.`, "Delete", true))) return;
    try {
      const n = await deleteKeys(t.TableName, chosen);
      toast(`${n} item${n === 1 ? "" : "s"} deleted`, "ok");
    } catch (err) { errorToast(err, "Deleting the items"); }
    load();
  };

  const purge = async () => {
    const desc = (await reload()).table;
    const input = h("input", { placeholder: t.TableName, "aria-label": "Table name", autocomplete: "off", spellcheck: "false" });
    const err = h("div.form-error", { role: "alert" });
    const progress = h("div.purge-progress", { role: "status" });
    const done = await dialog({
      title: `Purge ${t.TableName}?`,
      body: [h("p", `Deletes every item (about ${count(desc.ItemCount)}) and keeps the table, its indexes, stream and settings. ` +
        "Each deletion goes through the normal write path: the stream records it. Type the table's name to confirm."), field("Table name", input), err, progress],
      buttons: [{ label: "Cancel", value: false }, {
        label: "Purge", value: true, kind: "danger",
        onclick: async () => {
          if (input.value !== t.TableName) { err.textContent = "The name does not match."; return false; }
          try {
            const n = await purgeTable(t, (k) => { progress.textContent = `Deleted ${count(k)} items…`; });
            toast(`${count(n)} items deleted`, "ok");
          } catch (e) { err.textContent = `${e.type || "Error"}: ${e.message}`; return false; }
          return true;
        },
      }],
    });
    if (done) { starts.length = 1; page = 0; load(); }
  };

  const sizeSelect = h("select", {
    "aria-label": "Items per page",
    onchange: () => {
      size = Number(sizeSelect.value);
      try { localStorage.setItem(SIZE_KEY, String(size)); } catch { /* not remembered */ }
      starts.length = 1;
      page = 0;
      load();
    },
  }, [10, 25, 50, 100, 250].map((n) => h("option", { value: String(n), selected: n === size }, `${n} per page`)));

  const width = () => result.clientWidth || body.clientWidth;
  const columnsID = () => `${namespaceID()}/${t.TableName}`;
  const chooseColumns = async () => {
    if (await columnsDialog({ id: columnsID(), title: `Columns of ${t.TableName}`, items: last?.Items || [], keys, width: width() })) draw();
  };
  let wrap = wrapped();
  const wrapToggle = wrapButton((w) => { wrap = w; draw(); });

  const deleteButton = h("button.danger-outline", { type: "button", onclick: removeSelected, title: "Delete the selected items" }, icon("trash"), "Delete selected");
  const syncSelection = () => {
    deleteButton.disabled = selected.size === 0;
    deleteButton.lastChild.textContent = selected.size ? `Delete ${selected.size} selected` : "Delete selected";
  };

  let shownColumns = [];
  const draw = () => {
    const items = last.Items || [];
    const sort = sorts.get(t.TableName) || null;
    shownColumns = (chosenColumns(columnsID()) || defaultColumns(items, keys, width())).filter((c) => !keys.includes(c));
    syncSelection();
    mount(bar,
      h("button.primary", { type: "button", onclick: add, title: "New item (n)" }, icon("plus"), "Add item"),
      h("button", { type: "button", onclick: load, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
      deleteButton,
      h("button.danger-outline", { type: "button", onclick: purge, title: "Delete every item of the table" }, "Purge…"),
      items.length > 0 && h("button", { type: "button", title: "Download this page of items as CSV", onclick: () => downloadCSV(`${t.TableName}-page${page + 1}.csv`, items, keys) }, "CSV"),
      columnsButton(chooseColumns, keys.length + shownColumns.length, keys.length + attributesByUse(items, keys).length),
      wrapToggle,
      h("span.spacer"),
      h("span.page-info", `Page ${page + 1} · ${items.length} items · scanned ${last.ScannedCount}`,
        last.ConsumedCapacity && ` · ${last.ConsumedCapacity.CapacityUnits} RCU`,
        sort && ` · sorted by ${sort.col} ${sort.dir > 0 ? "▲" : "▼"} (this page)`),
      sizeSelect,
      h("div.pager",
        h("button.icon-button", { type: "button", onclick: first, disabled: page === 0, title: "First page", "aria-label": "First page" }, icon("first")),
        h("button.icon-button", { type: "button", onclick: prev, disabled: page === 0, title: "Previous page ([)", "aria-label": "Previous page" }, icon("left")),
        h("button.icon-button", { type: "button", onclick: next, disabled: !last.LastEvaluatedKey, title: "Next page (])", "aria-label": "Next page" }, icon("right"))));
    if (items.length === 0) {
      mount(result, empty(page === 0 ? "No items yet" : "No more items", page === 0 ? "Add one here, or write with an SDK: the grid shows every attribute." : "",
        page === 0 && h("button.primary", { type: "button", onclick: add }, icon("plus"), "Add item")));
      return;
    }
    mount(result, itemGrid({
      items, keys, onOpen: open, onDelete: remove, label: `Items of ${t.TableName}`,
      sort, onSort: (s) => { if (s) sorts.set(t.TableName, s); else sorts.delete(t.TableName); draw(); },
      selected, onSelect: syncSelection, columns: shownColumns, width: width(), onColumns: chooseColumns, wrap,
    }));
  };

  await load();
  return { keys: { n: add, r: load, "]": next, "[": prev, w: () => wrapToggle.click() } };
}
