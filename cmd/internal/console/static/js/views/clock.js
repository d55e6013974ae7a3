// The emulator's clock (read, advance, set) and the TTL sweep, through
// the admin endpoints: GET/POST /dynamoemu/clock, POST /dynamoemu/ttl/sweep.

import { admin, call } from "../api.js";
import { h, mount, icon, field, toast, errorToast, when, duration, badge } from "../ui.js";
import { state, readClock, emulatorNow, clockCall, viewAlive } from "../app.js";

const STEPS = [["1m", "+1 min"], ["10m", "+10 min"], ["1h", "+1 hour"], ["24h", "+1 day"], ["168h", "+7 days"]];

/** clockView draws the clock and the sweeper into main. */
export async function clockView(main) {
  const alive = viewAlive(); // false once this view is left or the namespace switches
  await readClock();
  const big = h("div.clock-big", { role: "timer", "aria-live": "off" });
  const offset = h("div.clock-offset");
  const sweeps = h("ul.sweep-log");
  const ttlTables = h("div.ttl-tables");

  const tick = () => {
    const now = emulatorNow();
    if (!now) { big.textContent = "—"; return; }
    const iso = now.toISOString();
    mount(big, h("span.clock-date", iso.slice(0, 10)), h("span.clock-time", iso.slice(11, 19)), h("span.clock-zone", "UTC"));
    const off = state.clock.off;
    mount(offset, Math.abs(off) <= 2000
      ? h("span.muted", "In step with this computer's clock.")
      : h("span", badge((off > 0 ? "+" : "") + duration(off), "warn"), off > 0 ? " ahead of this computer's clock" : " behind this computer's clock"));
  };
  const timer = setInterval(() => { if (alive()) tick(); else clearInterval(timer); }, 250);

  const move = async (body, what) => {
    try {
      const { now } = await clockCall("POST", body);
      tick();
      toast(what, "ok", `Emulator time ${when(now)}`);
    } catch (err) { errorToast(err, "Moving the clock"); }
  };
  const custom = h("input.mono", { placeholder: "90m, 36h, 1h30m, -5m", autocomplete: "off", spellcheck: "false", "aria-label": "Duration to advance" });
  const setTo = h("input", { type: "datetime-local", step: "1", "aria-label": "Time to set (UTC)" });

  const sweep = async () => {
    try {
      const { deleted } = await admin("POST", "/ttl/sweep");
      sweeps.prepend(h("li", h("span.muted", when(emulatorNow())), ` · deleted ${deleted} expired item${deleted === 1 ? "" : "s"}`));
      toast(`TTL sweep: ${deleted} deleted`, "ok");
      loadTTL();
    } catch (err) { errorToast(err, "TTL sweep"); }
  };

  const loadTTL = async () => {
    const rows = [];
    for (const name of state.tables.slice(0, 50)) {
      if (!alive()) return; // left: no call more, and nothing drawn
      try {
        const d = (await call("DescribeTimeToLive", { TableName: name })).TimeToLiveDescription;
        if (d?.TimeToLiveStatus === "ENABLED") rows.push(h("li", h("a", { href: `#/t/${encodeURIComponent(name)}/overview` }, name), " · ", h("code", d.AttributeName)));
      } catch { /* deleted meanwhile */ }
    }
    if (!alive()) return;
    mount(ttlTables, rows.length ? h("ul.plain", rows) : h("p.muted", "No table of this namespace has TTL enabled (a table's overview turns it on)."));
  };

  mount(main, h("div.page",
    h("div.page-head", h("div", h("h1", icon("clock"), "Clock & TTL"),
      h("p.muted", "Everything time-dependent in the emulator (TTL expiry, stream retention, timestamps) reads this one clock; moving it here moves it for every client."))),
    h("section.panel.clock-panel",
      h("h2", "Emulator time"), big, offset,
      h("div.actions.steps", STEPS.map(([d, label]) => h("button", { type: "button", onclick: () => move({ advance: d }, `Clock advanced ${label.slice(1)}`) }, label))),
      h("div.clock-forms",
        h("form.inline-form", {
          onsubmit: (e) => { e.preventDefault(); if (custom.value.trim()) move({ advance: custom.value.trim() }, `Clock advanced ${custom.value.trim()}`); },
        }, field("Advance by (Go duration)", custom), h("button", { type: "submit" }, "Advance")),
        h("form.inline-form", {
          onsubmit: (e) => { e.preventDefault(); if (setTo.value) move({ set: new Date(setTo.value + "Z").toISOString() }, "Clock set"); },
        }, field("Set to (UTC)", setTo), h("button", { type: "submit" }, "Set")),
        h("div.inline-form", h("button", { type: "button", onclick: () => move({ set: new Date().toISOString() }, "Clock back in step"), title: "Set the emulator's clock to this computer's time" }, "Back to real time")))),
    h("section.panel",
      h("h2", "TTL sweep"),
      h("p.muted", "The sweeper deletes items whose TTL attribute (epoch seconds) is before the emulator's time, through the normal write path: streams record the deletions as a service's. A sweep runs it now instead of waiting."),
      h("div.actions", h("button.primary", { type: "button", onclick: sweep }, icon("bolt"), "Sweep now")),
      sweeps,
      h("h3", "Tables with TTL"), ttlTables)));
  tick();
  loadTTL();
  return { cleanup: () => clearInterval(timer), keys: { r: () => clockView(main) } };
}
