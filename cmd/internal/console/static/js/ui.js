// Small DOM helpers: elements, icons, dialogs, toasts, highlighted JSON.
// Everything is built with DOM calls (text is never parsed as HTML), so
// nothing an item holds can run as markup.

/**
 * h builds an element: h("button.primary#go", {onclick, title}, "Run").
 * Attributes starting with "on" are listeners; class and dataset work;
 * false, null and undefined children and attributes are skipped.
 */
export function h(spec, attrs, ...children) {
  if (attrs == null || typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  const [, tag = "div", rest = ""] = /^([a-z0-9-]*)(.*)$/i.exec(spec);
  const el = document.createElement(tag || "div");
  for (const part of rest.match(/[.#][^.#]+/g) || []) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className += " " + v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "selected" || k === "disabled") el[k] = !!v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

const SVG = "http://www.w3.org/2000/svg";

/** s builds an SVG element with attributes. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : String(c));
  return el;
}

// Icons: 24x24 strokes (drawn for this console).
const ICONS = {
  table: "M4 5h16v14H4zM4 10h16M10 10v9",
  clock: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2",
  shield: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z M9 12l2 2 4-4",
  chart: "M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-3",
  plus: "M12 5v14M5 12h14",
  refresh: "M20 11a8 8 0 1 0-2.3 5.7M20 5v6h-6",
  trash: "M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13",
  edit: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4",
  play: "M8 5v14l11-7z",
  pause: "M8 5v14M16 5v14",
  sun: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.5 1.5M17.5 17.5L19 19M5 19l1.5-1.5M17.5 6.5L19 5",
  moon: "M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z",
  key: "M12 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0zM12 12h9M18 12v3M21 12v2",
  search: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4",
  wave: "M3 12c2-4 4-4 6 0s4 4 6 0 4-4 6 0",
  x: "M6 6l12 12M18 6L6 18",
  left: "M15 5l-7 7 7 7",
  right: "M9 5l7 7-7 7",
  first: "M17 5l-7 7 7 7M7 5v14",
  copy: "M9 9h11v11H9zM5 15H4V4h11v1",
  help: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17v.5",
  db: "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  bolt: "M13 3L5 14h6l-1 7 8-11h-6z",
};

/** icon returns the named icon as an inline SVG. */
export function icon(name, cls = "") {
  return s("svg", { viewBox: "0 0 24 24", class: "icon " + cls, "aria-hidden": "true" },
    s("path", { d: ICONS[name] || ICONS.help }));
}

/** clear empties an element and appends children. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** toast shows a short message; kind is "ok", "error" or "info". */
export function toast(message, kind = "info", detail = "") {
  const box = document.getElementById("toasts");
  const t = h("div.toast." + kind, { role: kind === "error" ? "alert" : "status" },
    h("div.toast-msg", message), detail && h("div.toast-detail", detail));
  box.append(t);
  setTimeout(() => t.classList.add("leaving"), kind === "error" ? 7000 : 2500);
  setTimeout(() => t.remove(), kind === "error" ? 7400 : 2900);
}

/** errorToast shows an ApiError or any error. */
export function errorToast(err, what = "") {
  console.warn(err);
  toast(what ? `${what} failed` : err.type || "Error", "error", err.type ? `${err.type}: ${err.message}` : String(err.message || err));
}

/**
 * dialog opens a modal <dialog> with a title, a body and buttons; it
 * resolves with the value of the button pressed (or null on Escape).
 * buttons: [{label, value, kind, onclick}], where onclick may return
 * false (or a promise of false) to keep the dialog open.
 */
export function dialog({ title, body, buttons = [{ label: "Close", value: null }], wide = false, cls = "" }) {
  return new Promise((resolve) => {
    const foot = h("footer.dialog-foot");
    const d = h("dialog.dialog" + (wide ? ".wide" : "") + (cls ? "." + cls : ""), { "aria-label": title },
      h("header.dialog-head", h("h2", title),
        h("button.icon-button", { type: "button", title: "Close (Esc)", "aria-label": "Close", onclick: () => d.close() }, icon("x"))),
      h("div.dialog-body", body), foot);
    let result = null;
    for (const b of buttons) {
      const btn = h("button" + (b.kind ? "." + b.kind : ""), { type: "button", dataset: { value: String(b.value) } }, b.label);
      btn.addEventListener("click", async () => {
        if (b.onclick) {
          btn.disabled = true;
          let keep;
          try { keep = (await b.onclick()) === false; } finally { btn.disabled = false; }
          if (keep) return;
        }
        result = b.value;
        d.close();
      });
      foot.append(btn);
    }
    d.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        const primary = foot.querySelector(".primary, .danger");
        if (primary) { e.preventDefault(); primary.click(); }
      }
    });
    d.addEventListener("close", () => { d.remove(); resolve(result); });
    document.body.append(d);
    d.showModal();
    const first = d.querySelector("[autofocus]") || d.querySelector(".dialog-body input, .dialog-body textarea, .dialog-body select");
    (first || foot.querySelector(".primary") || foot.lastElementChild)?.focus();
  });
}

/** confirmDialog asks a yes/no question; danger makes the yes button red. */
export async function confirmDialog(title, message, yes = "OK", danger = false) {
  const v = await dialog({
    title, body: h("p", message),
    buttons: [{ label: "Cancel", value: false }, { label: yes, value: true, kind: danger ? "danger" : "primary" }],
  });
  return v === true;
}

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** jsonView returns a <pre> with JSON text highlighted. */
export function jsonView(text, cls = "") {
  const pre = h("pre.json" + (cls ? "." + cls : ""));
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) pre.append(text.slice(last, m.index));
    if (m[1] !== undefined) {
      pre.append(h("span." + (m[2] !== undefined ? "j-key" : "j-str"), m[1]));
      if (m[2] !== undefined) pre.append(m[2]);
    } else if (m[3] !== undefined) pre.append(h("span.j-num", m[3]));
    else pre.append(h("span.j-lit", m[4]));
    last = m.index + m[0].length;
  }
  pre.append(text.slice(last));
  return pre;
}

/** bytes writes a size: "1.2 KB". */
export function bytes(n) {
  if (n == null) return "—";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  let v = Number(n);
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** count writes a number with thousands separators. */
export function count(n) { return n == null ? "—" : Number(n).toLocaleString("en-US"); }

/** when writes a time (a Date, epoch seconds or RFC 3339 text) as "2026-11-22 11:00:00 UTC". */
export function when(t) {
  if (t == null) return "—";
  const d = t instanceof Date ? t : typeof t === "number" ? new Date(t * 1000) : new Date(t);
  if (isNaN(d)) return String(t);
  return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC").replace(/Z$/, " UTC");
}

/** duration writes milliseconds as "1d 2h 3m 4s" (the two largest units). */
export function duration(ms) {
  const neg = ms < 0;
  let s = Math.round(Math.abs(ms) / 1000);
  const parts = [];
  for (const [u, n] of [["d", 86400], ["h", 3600], ["m", 60], ["s", 1]]) {
    if (s >= n) { parts.push(Math.floor(s / n) + u); s %= n; }
  }
  return (neg ? "−" : "") + (parts.slice(0, 2).join(" ") || "0s");
}

/** copyText puts text on the clipboard and says so. */
export async function copyText(text, what = "Copied") {
  try {
    await navigator.clipboard.writeText(text);
    toast(what, "ok");
  } catch {
    toast("The browser did not allow copying", "error");
  }
}

let uid = 0;

/** field is a labelled form control (or a labelled group of them). */
export function field(label, control, hint = "") {
  const hintEl = hint && h("span.field-hint", hint);
  if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement) {
    if (!control.id) control.id = "f" + ++uid;
    return h("div.field", h("label.field-label", { for: control.id }, label), control, hintEl);
  }
  return h("div.field", { role: "group" }, h("span.field-label", label), control, hintEl);
}

/** segmented is a group of toggle buttons; onchange gets the value. */
export function segmented(options, value, onchange, label = "") {
  const group = h("div.segmented", { role: "radiogroup", "aria-label": label });
  const set = (v) => {
    for (const b of group.children) b.setAttribute("aria-checked", String(b.dataset.value === v));
    group.dataset.value = v;
  };
  for (const [v, text] of options) {
    group.append(h("button", {
      type: "button", role: "radio", dataset: { value: v },
      onclick: () => { set(v); onchange(v); },
    }, text));
  }
  set(value);
  return group;
}

/**
 * breakable returns text as a span that may wrap after "_", "-", "." and
 * "/" (NEW_AND_OLD_IMAGES in a narrow card wraps at its words instead of
 * being cut off); the text copied is unchanged.
 */
export function breakable(text) {
  const el = h("span");
  for (const part of String(text).split(/(?<=[_\-./])/)) {
    if (el.childNodes.length) el.append(h("wbr"));
    el.append(part);
  }
  return el;
}

/** badge is a small label. */
export function badge(text, kind = "") { return h("span.badge" + (kind ? "." + kind : ""), text); }

/** empty is a friendly empty state. */
export function empty(title, text, ...actions) {
  return h("div.empty", icon("db", "empty-icon"), h("h3", title), text && h("p", text), actions.length > 0 && h("div.actions", actions));
}
