// The item editor: one item as DynamoDB JSON, plain JSON or a form of
// attributes (attrform.js; switchable, converted every way without
// losing a digit), saved with PutItem; a
// changed key saves the new item and deletes the old one in one
// TransactWriteItems.

import { call } from "./api.js";
import { h, dialog, segmented, confirmDialog, toast, errorToast } from "./ui.js";
import { parseItem, formatItem, keyOf, sameValue, stringify, short } from "./ddb.js";
import { attributeForm } from "./attrform.js";

const FORMAT_KEY = "dynamoemu.console.format";

function savedFormat() {
  try { return localStorage.getItem(FORMAT_KEY) === "plain" ? "plain" : "ddb"; } catch { return "ddb"; }
}

/**
 * editItem opens the editor for item (null: a new item) of table (a
 * TableDescription). It resolves with "saved", "deleted" or null.
 */
export async function editItem(table, item) {
  const keySchema = table.KeySchema;
  const types = Object.fromEntries(table.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
  const adding = !item;
  if (adding) {
    item = {};
    for (const k of keySchema) item[k.AttributeName] = { [types[k.AttributeName]]: types[k.AttributeName] === "N" ? "0" : "" };
  }
  const oldKey = adding ? null : keyOf(item, keySchema);
  item = { ...keyOf(item, keySchema), ...item }; // the key first
  let format = savedFormat();
  const area = h("textarea.code-input", { spellcheck: "false", rows: "18", "aria-label": "Item", autofocus: true });
  const status = h("div.editor-status", { role: "status" });
  const lossNote = h("div.note.warn.hidden");
  let lossy = []; // what the plain JSON shown cannot say
  const formBox = h("div.form-box.hidden");
  let form = null; // the attribute form, when format is "form"

  const show = (it) => {
    lossy = [];
    area.classList.toggle("hidden", format === "form");
    formBox.classList.toggle("hidden", format !== "form");
    if (format === "form") {
      form = attributeForm(it, keySchema, types, () => check());
      formBox.replaceChildren(form.el);
      lossNote.classList.add("hidden");
      return;
    }
    area.value = formatItem(it, format, lossy);
    lossNote.classList.toggle("hidden", lossy.length === 0);
    lossNote.textContent = lossy.length ? `Plain JSON cannot say what type these are, and saving from here would change them: ${lossy.join(", ")}. Edit them in DynamoDB JSON.` : "";
  };
  const current = () => (format === "form" ? form.read() : parseItem(area.value, format));
  const check = () => {
    try {
      const it = current();
      const missing = keySchema.filter((k) => !it[k.AttributeName]).map((k) => k.AttributeName);
      status.className = "editor-status " + (missing.length ? "warn" : "ok");
      status.textContent = missing.length ? `Missing key attribute ${missing.join(", ")}` : `${Object.keys(it).length} attributes · valid`;
      return it;
    } catch (err) {
      status.className = "editor-status error";
      status.textContent = err.message;
      return null;
    }
  };
  show(item);
  area.addEventListener("input", check);
  area.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey) {
      e.preventDefault();
      area.setRangeText("  ", area.selectionStart, area.selectionEnd, "end");
      check();
    }
  });
  check();

  const formats = segmented([["ddb", "DynamoDB JSON"], ["plain", "Plain JSON"], ["form", "Form"]], format, (f) => {
    if (f === format) return;
    const it = check();
    if (!it) { formats.querySelector(`[data-value="${format}"]`).click(); toast(format === "form" ? "Fix the attributes before switching formats" : "Fix the JSON before switching formats", "error"); return; }
    format = f;
    if (f !== "form") try { localStorage.setItem(FORMAT_KEY, f); } catch { /* not remembered */ }
    show(it);
    check();
  }, "Format");

  const save = async () => {
    const it = check();
    if (!it) return false;
    if (format === "plain" && lossy.length > 0 && !(await confirmDialog("Change these types?",
      `Saved from plain JSON, ${lossy.join(", ")} become lists and strings. Edit in DynamoDB JSON to keep their types.`, "Save anyway", true))) {
      return false;
    }
    const newKey = keyOf(it, keySchema);
    const names = { "#pk": keySchema[0].AttributeName };
    try {
      if (adding) {
        await call("PutItem", { TableName: table.TableName, Item: it, ConditionExpression: "attribute_not_exists(#pk)", ExpressionAttributeNames: names });
      } else if (keySchema.every((k) => newKey[k.AttributeName] && sameValue(newKey[k.AttributeName], oldKey[k.AttributeName]))) {
        await call("PutItem", { TableName: table.TableName, Item: it });
      } else {
        const ok = await confirmDialog("The key changed",
          `This saves a new item under ${stringify(newKey, 0)} and deletes the one under ${stringify(oldKey, 0)}, in one transaction.`, "Save and delete the old one");
        if (!ok) return false;
        await call("TransactWriteItems", {
          TransactItems: [
            { Put: { TableName: table.TableName, Item: it, ConditionExpression: "attribute_not_exists(#pk)", ExpressionAttributeNames: names } },
            { Delete: { TableName: table.TableName, Key: oldKey } },
          ],
        });
      }
    } catch (err) {
      status.className = "editor-status error";
      status.textContent = err.type === "ConditionalCheckFailedException" || /ConditionalCheckFailed/.test(err.message)
        ? "An item with this key exists already: open it to edit it."
        : `${err.type}: ${err.message}`;
      return false;
    }
    toast(adding ? "Item added" : "Item saved", "ok");
    return true;
  };

  const buttons = [];
  if (!adding) {
    buttons.push({
      label: "Delete", value: "deleted", kind: "danger-ghost",
      onclick: async () => (await deleteItem(table, item)) ? true : false,
    });
  }
  buttons.push({ label: "Cancel", value: null }, { label: adding ? "Add item" : "Save", value: "saved", kind: "primary", onclick: save });
  return dialog({
    title: adding ? `New item in ${table.TableName}` : `${table.TableName} · ${keySchema.map((k) => short(oldKey[k.AttributeName], 40)).join(" · ")}`,
    wide: true,
    body: [
      h("div.editor-bar", formats, h("span.hint", "Ctrl+Enter saves · Tab indents · numbers keep every digit")),
      area, formBox, status, lossNote,
    ],
    buttons,
  });
}

/** deleteItem asks, then deletes item by its key; it resolves true when deleted. */
export async function deleteItem(table, item) {
  const key = keyOf(item, table.KeySchema);
  const ok = await confirmDialog("Delete this item?", h("span", "Deletes the item with key ", h("code", stringify(key, 0)), ` from ${table.TableName}.`), "Delete", true);
  if (!ok) return false;
  try {
    await call("DeleteItem", { TableName: table.TableName, Key: key });
  } catch (err) {
    errorToast(err, "Delete");
    return false;
  }
  toast("Item deleted", "ok");
  return true;
}

