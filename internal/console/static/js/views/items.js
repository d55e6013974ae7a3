// A table's items, a page at a time (Scan with Limit and
// ExclusiveStartKey), with add, edit and delete.

import { call } from "../api.js";
import { h, mount, icon, empty, errorToast } from "../ui.js";
import { itemGrid } from "../grid.js";
import { editItem, deleteItem } from "../editor.js";

const SIZE_KEY = "dynamoemu.console.pageSize";

/** itemsTab draws the items of info.table into body. */
export async function itemsTab(body, info) {
  const t = info.table;
  const keys = t.KeySchema.map((k) => k.AttributeName);
  let size = Number((() => { try { return localStorage.getItem(SIZE_KEY); } catch { return null; } })()) || 25;
  const starts = [undefined]; // starts[p] is the ExclusiveStartKey of page p
  let page = 0;
  let last = null; // the last answer
  let seq = 0;      // of the latest Scan: an older answer that arrives later is dropped

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
    draw();
  };
  const next = () => { if (starts[page + 1]) { page++; load(); } }; // once this page has answered
  const prev = () => { if (page > 0) { page--; load(); } };
  const first = () => { if (page > 0) { page = 0; load(); } };
  const add = async () => { if ((await editItem(t, null)) === "saved") load(); };
  const open = async (item) => { if (await editItem(t, item)) load(); };
  const remove = async (item) => { if (await deleteItem(t, item)) load(); };

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

  const draw = () => {
    const items = last.Items || [];
    mount(bar,
      h("button.primary", { type: "button", onclick: add, title: "New item (n)" }, icon("plus"), "Add item"),
      h("button", { type: "button", onclick: load, title: "Refresh (r)" }, icon("refresh"), "Refresh"),
      h("span.spacer"),
      h("span.page-info", `Page ${page + 1} · ${items.length} items · scanned ${last.ScannedCount}`,
        last.ConsumedCapacity && ` · ${last.ConsumedCapacity.CapacityUnits} RCU`),
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
    mount(result, itemGrid({ items, keys, onOpen: open, onDelete: remove, label: `Items of ${t.TableName}` }));
  };

  await load();
  return { keys: { n: add, r: load, "]": next, "[": prev } };
}
