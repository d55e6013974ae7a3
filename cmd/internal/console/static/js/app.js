// The console's shell: the layout, the hash router, the sidebar of tables,
// the namespace switch (with the namespaces that hold tables), the theme,
// the footer clock and the keyboard.

import { config, loadConfig, namespace, setNamespace, recentNamespaces, validAccessKey, validRegion, listAllTables, admin, onActivity } from "./api.js";
import { h, icon, mount, dialog, field, toast, errorToast, when, duration, count } from "./ui.js";
import { homeView } from "./views/home.js";
import { tableView, TAB_IDS } from "./views/table.js";
import { clockView } from "./views/clock.js";
import { conventionsView } from "./views/conventions.js";
import { insightsView } from "./views/insights.js";
import { snapshotsView } from "./views/snapshots.js";
import { partiqlView } from "./views/partiql.js";
import { transfersView } from "./views/transfers.js";
import { createTable } from "./views/create.js";
import { branchesView } from "./views/branches.js";
import { handlersView } from "./views/handlers.js";

/** state is shared by the views: the table names of the namespace and the view's hooks. */
export const state = {
  tables: [],
  keys: {},       // the current view's shortcuts: key -> function
  cleanup: null,  // the current view's cleanup (stops polling)
  clock: null,    // {off: ms the emulator's clock is ahead of this computer's} of the last reading
  namespaces: [], // the namespaces that hold tables (GET /dynamoemu/namespaces)
};

const main = document.getElementById("main");
const tableList = document.getElementById("table-list");
const filter = document.getElementById("table-filter");

// ---------------------------------------------------------------- routing

const routes = [
  [/^#?\/?$/, () => homeView(main)],
  [new RegExp(`^#\\/t\\/([^/]+)(?:\\/(${TAB_IDS.join("|")}))?$`), (m) => tableView(main, decodeURIComponent(m[1]), m[2] || "overview")],
  [/^#\/clock$/, () => clockView(main)],
  [/^#\/snapshots$/, () => snapshotsView(main)],
  [/^#\/partiql$/, () => partiqlView(main)],
  [/^#\/transfers$/, () => transfersView(main)],
  [/^#\/conventions$/, () => conventionsView(main)],
  [/^#\/insights$/, () => insightsView(main)],
  [/^#\/branches$/, () => branchesView(main)],
  [/^#\/handlers$/, () => handlersView(main)],
];

/** go navigates to a hash route ("#/t/Orders/items"). */
export function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

let generation = 0; // of the latest route: a view that ends after a newer one started is cleaned up
let shownHash = ""; // the route last drawn: another one starts at the top of the page

/**
 * viewAlive returns a check that stays true while the view drawn now is
 * shown: false once another route starts or the namespace switches. A
 * view's loop of calls checks it before each call, so that a view left
 * (or a namespace left) sends nothing more.
 */
export function viewAlive() {
  const gen = generation;
  return () => gen === generation;
}

/** leaveView stops the view shown: its cleanup runs and its checks (viewAlive) turn false. */
function leaveView() {
  generation++;
  if (state.cleanup) { try { state.cleanup(); } catch { /* gone anyway */ } }
  state.cleanup = null;
  state.keys = {};
}

async function route() {
  // An in-page anchor (the skip link's #main, typed or followed) is no
  // page: the view shown stays, and the anchor's target takes the focus.
  if (location.hash && !location.hash.startsWith("#/")) {
    const target = document.getElementById(location.hash.slice(1));
    history.replaceState(null, "", shownHash || "#/");
    target?.focus();
    return;
  }
  leaveView();
  const gen = generation;
  delete document.documentElement.dataset.route;
  const hash = location.hash || "#/";
  if (hash !== shownHash) main.scrollTop = 0; // a new view opens at its top; the same one redrawn keeps its place
  shownHash = hash;
  if (hash !== "#/") refreshTables(); // tables made elsewhere (an SDK) show up; home refreshes itself
  for (const [re, view] of routes) {
    const m = re.exec(hash);
    if (!m) continue;
    markNav(hash);
    let out = null;
    try {
      out = await view(m);
    } catch (err) {
      if (gen === generation) mount(main, h("div.page", h("div.note.error", `${err.type || "Error"}: ${err.message}`)));
    }
    if (gen !== generation) { out?.cleanup?.(); return; }
    if (out && typeof out === "object") {
      state.cleanup = out.cleanup || null;
      state.keys = { ...state.keys, ...(out.keys || {}) };
    }
    // The view is drawn and its keys are live (the browser test waits for this).
    document.documentElement.dataset.route = hash;
    const title = main.querySelector("h1")?.textContent.trim();
    document.title = title ? `${title} · dynamoemu console` : "dynamoemu console";
    return;
  }
  mount(main, h("div.page", h("h1", "Not here"), h("p", "This page of the console does not exist. "), h("a", { href: "#/" }, "Back to the tables")));
}

function markNav(hash) {
  for (const a of document.querySelectorAll("[data-nav]")) {
    const on = a.dataset.nav === "tables" ? hash === "#/" || hash.startsWith("#/t/") : hash.startsWith("#/" + a.dataset.nav);
    a.classList.toggle("active", on);
    if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const m = /^#\/t\/([^/]+)/.exec(hash);
  const current = m ? decodeURIComponent(m[1]) : null;
  for (const a of tableList.querySelectorAll("a")) a.classList.toggle("active", a.dataset.table === current);
}

// ---------------------------------------------------------------- sidebar

/** refreshTables reloads the table names of the namespace into the sidebar. */
export async function refreshTables() {
  try {
    state.tables = await listAllTables();
  } catch (err) {
    state.tables = [];
    mount(tableList, h("li.sidebar-error", `${err.type}: ${err.message}`));
    return state.tables;
  }
  renderTableList();
  return state.tables;
}

/** setTables shows names in the sidebar (a view that read them itself: the table list). */
export function setTables(names) {
  state.tables = names;
  renderTableList();
}

function renderTableList() {
  const q = filter.value.trim().toLowerCase();
  const names = state.tables.filter((n) => n.toLowerCase().includes(q));
  mount(tableList, names.length
    ? names.map((n) => h("li", h("a", { href: `#/t/${encodeURIComponent(n)}/items`, dataset: { table: n } }, icon("table"), h("span", n))))
    : h("li.sidebar-empty", state.tables.length ? "No table matches." : "No tables yet."));
  markNav(location.hash || "#/");
}

filter.addEventListener("input", renderTableList);

// A table opened from a filtered list clears the filter: the list shows
// every table again, the opened one marked (and focused if its link was).
tableList.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-table]");
  if (!a || !filter.value) return;
  const focused = document.activeElement === a || document.activeElement === filter;
  setTimeout(() => {
    filter.value = "";
    renderTableList();
    if (focused) tableList.querySelector(`a[data-table="${CSS.escape(a.dataset.table)}"]`)?.focus();
  }, 0);
});

// The skip link moves the focus to the content without changing the route.
document.querySelector("a.skip")?.addEventListener("click", (e) => {
  e.preventDefault();
  main.focus();
  main.scrollIntoView({ block: "start" });
});
filter.addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    const first = tableList.querySelector("a");
    if (first) { first.click(); first.focus(); }
  } else if (e.key === "Escape") {
    filter.value = "";
    renderTableList();
    filter.blur();
  }
});

document.getElementById("create-table").addEventListener("click", () => openCreate());

async function openCreate() {
  const name = await createTable();
  if (name) {
    await refreshTables();
    go(`#/t/${encodeURIComponent(name)}/overview`);
  }
}

// ---------------------------------------------------------------- namespace

const nsButton = document.getElementById("ns-button");

function renderNamespace() {
  const others = state.namespaces.filter((n) => n.accessKey !== namespace.accessKey || n.region !== namespace.region).length;
  // Its name is what it shows, after "Namespace" (read, not shown): a voice command says what it sees.
  mount(nsButton, h("span.visually-hidden", "Namespace "), icon("key"), h("span.ns-key", namespace.accessKey), h("span.ns-sep", "·"), h("span.ns-region", namespace.region),
    config.sharedDb && h("span.badge.info", "shared"),
    !config.sharedDb && others > 0 && h("span.badge.accent.ns-others", { title: `${others} other namespace${others > 1 ? "s" : ""} hold tables` }, `+${others}`));
  nsButton.title = config.sharedDb
    ? "This server runs with -sharedDb: every access key and region sees the same tables"
    : "The access key and region pick the database, as in DynamoDB Local (n to change)";
}

/** loadNamespaces reads the namespaces that hold tables ([] if the server cannot say). */
export async function loadNamespaces() {
  try {
    state.namespaces = (await admin("GET", "/namespaces")).namespaces || [];
  } catch {
    state.namespaces = [];
  }
  renderNamespace();
  return state.namespaces;
}

/** switchNamespace makes the console use another access key and region, and shows its tables (or the view at hash). */
export async function switchNamespace(k, r, hash = "#/", secret = "") {
  leaveView(); // nothing of the view shown runs on in the new namespace
  setNamespace(k, r, secret);
  renderNamespace();
  if (hash !== "#/") await refreshTables(); // the table list reads them itself
  toast(`Namespace ${k} · ${r}`, "ok");
  go(hash);
}

async function openNamespace() {
  const key = h("input", { value: namespace.accessKey, autocomplete: "off", spellcheck: "false", required: true, pattern: "[A-Za-z0-9]{1,128}" });
  const region = h("input", { value: namespace.region, list: "regions", autocomplete: "off", spellcheck: "false", required: true });
  // With -credentials the server verifies signatures: the key's secret signs every call.
  const secret = config.signatures && h("input", { type: "password", value: namespace.secret, autocomplete: "off", spellcheck: "false", required: true });
  const err = h("div.form-error", { role: "alert" });
  const recent = recentNamespaces().filter((n) => n.accessKey !== namespace.accessKey || n.region !== namespace.region);
  const apply = async (k, r) => {
    if (!validAccessKey(k)) { err.textContent = "The access key is letters and digits (up to 128), as the emulator takes it."; return false; }
    if (!validRegion(r)) { err.textContent = "The region is letters, digits and dashes (us-east-1)."; return false; }
    const s = secret ? secret.value : "";
    if (secret && !s) { err.textContent = "This server verifies signatures (-credentials): enter the key's secret access key."; return false; }
    await switchNamespace(k, r, "#/", s);
    return true;
  };
  const spaces = config.sharedDb ? [] : await loadNamespaces();
  const close = () => document.querySelector("dialog.dialog")?.close();
  const body = [
    h("p.muted", config.sharedDb
      ? "This server runs with -sharedDb: every access key and region sees one database. The choice here only changes the credential the console sends."
      : "The emulator keeps one database per access key and region, as DynamoDB Local does: use the key and region your application or the AWS CLI uses to see its tables."),
    config.signatures && h("p.muted", "This server verifies signatures (-credentials): the console signs every call with the key's secret, which it keeps for this tab only."),
    spaces.length > 0 && h("div.ns-with-data", h("span.field-label", "Namespaces that hold tables"),
      h("ul.ns-list", spaces.map((n) => {
        const here = n.accessKey === namespace.accessKey && n.region === namespace.region;
        return h("li", h("button.ns-choice" + (here ? ".current" : ""), {
          type: "button", dataset: { namespace: n.namespace }, disabled: here,
          onclick: async () => {
            if (secret) { key.value = n.accessKey; region.value = n.region; secret.focus(); return; } // its secret is not kept
            if (await apply(n.accessKey, n.region)) close();
          },
        }, h("span.mono", `${n.accessKey} · ${n.region}`), h("span.muted.small", here ? "shown now" : `${n.tables} table${n.tables === 1 ? "" : "s"} · ${count(n.items)} items`)));
      }))),
    spaces.length > 0 && h("span.field-label.or-type", "Or type an access key and region"),
    h("div.form-row", field("Access key id", key), field("Region", region)),
    secret && h("div.form-row", field("Secret access key", secret)),
    h("datalist#regions", ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1", "ap-southeast-1", "local"].map((r) => h("option", { value: r }))),
    err,
    recent.length > 0 && h("div.recent", h("span.field-label", "Recently used"),
      h("div.chips", recent.map((n) => h("button.chip", { type: "button", onclick: async () => {
        if (secret) { key.value = n.accessKey; region.value = n.region; secret.focus(); return; } // its secret is not kept
        if (await apply(n.accessKey, n.region)) close();
      } },
        `${n.accessKey} · ${n.region}`)))),
  ];
  await dialog({
    title: "Namespace", body,
    buttons: [{ label: "Cancel", value: null }, { label: "Switch", value: true, kind: "primary", onclick: () => apply(key.value.trim(), region.value.trim()) }],
  });
}

nsButton.addEventListener("click", openNamespace);

// ---------------------------------------------------------------- theme

const THEME_KEY = "dynamoemu.console.theme";
const themeButton = document.getElementById("theme-toggle");

function effectiveTheme() {
  const saved = (() => { try { return localStorage.getItem(THEME_KEY); } catch { return null; } })();
  if (saved === "light" || saved === "dark") return saved;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** setTheme switches to "light" or "dark" and remembers it. */
export function setTheme(t) {
  document.documentElement.dataset.theme = t;
  try { localStorage.setItem(THEME_KEY, t); } catch { /* not remembered */ }
  mount(themeButton, icon(t === "dark" ? "sun" : "moon"));
  themeButton.title = t === "dark" ? "Light theme (d)" : "Dark theme (d)";
}

themeButton.addEventListener("click", () => setTheme(effectiveTheme() === "dark" ? "light" : "dark"));

// ---------------------------------------------------------------- footer

const footClock = document.getElementById("foot-clock");
const footActivity = document.getElementById("foot-activity");

/**
 * clockOffset is how far the emulator's clock is ahead of this
 * computer's (ms, negative behind), from a reading now (its time) that
 * the emulator made somewhere between t0 and t1 (Date.now() before the
 * request and after its answer): only what lies outside that window is
 * an offset. A slow page or network widens the window; it never makes
 * the clocks look apart.
 */
export function clockOffset(now, t0, t1) {
  const emu = new Date(now).getTime();
  return emu < t0 ? emu - t0 : emu > t1 ? emu - t1 : 0;
}

/** clockCall calls a clock endpoint and records the emulator's time from its answer. */
export async function clockCall(method, body) {
  const t0 = Date.now();
  const out = await admin(method, "/clock", body);
  state.clock = { off: clockOffset(out.now, t0, Date.now()) };
  tickClock();
  return out;
}

/** readClock asks the emulator for its time and shows it. */
export async function readClock() {
  try {
    await clockCall("GET");
  } catch (err) {
    state.clock = null;
    footClock.textContent = `clock: ${err.message}`;
  }
  return state.clock;
}

/** emulatorNow is the emulator's time now, from the last reading. */
export function emulatorNow() {
  if (!state.clock) return null;
  return new Date(Date.now() + state.clock.off);
}

function tickClock() {
  const now = emulatorNow();
  if (!now) return;
  const off = state.clock.off;
  mount(footClock, icon("clock"), h("a", { href: "#/clock", title: "The emulator's clock (k)" }, when(now)),
    Math.abs(off) > 2000 && h("span.badge.warn.clock-skew", { title: "The emulator's clock is this far from this computer's" }, (off > 0 ? "+" : "") + duration(off)));
}

setInterval(tickClock, 1000);
setInterval(() => { if (!document.hidden) readClock(); }, 15000);

onActivity((e) => {
  mount(footActivity, h("span" + (e.error ? ".bad" : ".good"), e.op), " ", e.error ? e.error : String(e.status), ` · ${Math.round(e.ms)} ms`);
});

// ---------------------------------------------------------------- keyboard

const GLOBAL_KEYS = {
  "/": () => filter.focus(),
  "?": () => showHelp(),
  c: () => openCreate(),
  t: () => go("#/"),
  k: () => go("#/clock"),
  v: () => go("#/conventions"),
  i: () => go("#/insights"),
  p: () => go("#/partiql"),
  s: () => go("#/snapshots"),
  e: () => go("#/transfers"),
  b: () => go("#/branches"),
  h: () => go("#/handlers"),
  d: () => themeButton.click(),
  N: () => openNamespace(),
};

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const t = e.target;
  if (t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  if (document.querySelector("dialog[open]")) return;
  const fn = state.keys[e.key] || GLOBAL_KEYS[e.key];
  if (fn) { e.preventDefault(); fn(); }
});

function showHelp() {
  const rows = [
    ["/", "find a table"], ["c", "create a table"], ["t", "all tables"], ["k", "clock and TTL"], ["v", "conventions report"],
    ["i", "insights"], ["p", "PartiQL editor"], ["s", "snapshots"], ["e", "exports and imports"], ["b", "branches"], ["h", "stream handlers"],
    ["N", "switch namespace"], ["d", "dark / light"], ["?", "this help"],
    ["1 – 9", "table: overview, items, query, stream, backups, exports, replicas, contributor insights, monitor"], ["n", "new item"], ["r", "refresh"], ["[ ]", "previous / next page"],
    ["Space", "select the item (items grid)"], ["w", "wrap long values (items grid, query results)"],
    ["↑ ↓  j k", "move in a grid"], ["Enter", "open the item"], ["Del  x", "delete the item"],
    ["Ctrl+Enter", "save, run, confirm"], ["Esc", "close a dialog"],
  ];
  const d = dialog({ title: "Keyboard", body: h("table.keys", rows.map(([k, d]) => h("tr", h("td", h("kbd", k)), h("td", d)))) });
  // The list scrolls and holds nothing to focus: the keyboard scrolls it once it has the focus.
  const body = document.querySelector("dialog[open] .dialog-body");
  body?.setAttribute("tabindex", "0");
  body?.setAttribute("aria-label", "Keys");
  return d;
}

document.getElementById("help-button").addEventListener("click", showHelp);

// A blocked load (the page's Content-Security-Policy) is a bug of the console: say so.
document.addEventListener("securitypolicyviolation", (e) => console.error(`blocked by the Content-Security-Policy: ${e.violatedDirective} ${e.blockedURI}`));

// ---------------------------------------------------------------- start

async function start() {
  setTheme(effectiveTheme());
  await loadConfig();
  renderNamespace();
  if (config.signatures && !namespace.secret) await openNamespace(); // nothing works unsigned
  document.getElementById("foot-version").textContent = config.version ? `dynamoemu ${config.version}` : "dynamoemu";
  window.addEventListener("hashchange", route);
  window.addEventListener("focus", () => { if (!document.hidden) readClock(); });
  const home = (location.hash || "#/") === "#/"; // the table list reads the tables itself
  await Promise.all([home ? null : refreshTables(), readClock(), home ? null : loadNamespaces()]);
  route();
  document.documentElement.dataset.ready = "true";
}

start().catch((err) => errorToast(err, "Starting the console"));
