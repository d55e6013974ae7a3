// A live tail of a table's stream: DescribeStream for the shards,
// GetShardIterator (LATEST or TRIM_HORIZON), then GetRecords every second
// on each open shard, through the DynamoDB Streams API
// (DynamoDBStreams_20120810.*) on the same endpoint.

import { call } from "../api.js";
import { h, mount, icon, badge, segmented, empty, errorToast, toast, when } from "../ui.js";
import { itemToPlain, stringify, sameValue, short } from "../ddb.js";

const POLL_MS = 1000;
const REDISCOVER_EVERY = 5; // polls between DescribeStream calls
const KEEP = 500;           // records shown at most

const streams = (op, input) => call(op, input, { streams: true });

/** streamTab draws the tail of info.table's stream into body. */
export async function streamTab(body, info, reload) {
  const t = info.table;
  if (!t.StreamSpecification?.StreamEnabled) {
    const view = h("select", { "aria-label": "Stream view type" },
      ["NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"].map((v) => h("option", { value: v }, v)));
    mount(body, empty("This table has no stream", "Enable one to record every write (items, batches, transactions, TTL deletions) and tail it here.",
      view, h("button.primary", {
        type: "button",
        onclick: async () => {
          try {
            await call("UpdateTable", { TableName: t.TableName, StreamSpecification: { StreamEnabled: true, StreamViewType: view.value } });
          } catch (err) { errorToast(err, "Enabling the stream"); return; }
          toast("Stream enabled", "ok");
          const sub = await streamTab(body, await reload(), reload);
          cleanupRef.fn = sub.cleanup;
        },
      }, "Enable stream")));
    const cleanupRef = { fn: null };
    return { cleanup: () => cleanupRef.fn?.() };
  }

  const arn = t.LatestStreamArn;
  let position = "LATEST";
  let running = false;
  let run = 0; // the tail's generation: a poll of a stopped tail ends there
  let timer = null;
  let polls = 0;
  let shards = new Map(); // shardId -> {iterator, lastSeq}
  const finished = new Set();
  const records = [];
  let lastPoll = null;
  const counts = { INSERT: 0, MODIFY: 0, REMOVE: 0 };

  const status = h("span.tail-status", { role: "status" });
  const list = h("ol.records", { "aria-label": "Stream records, newest first" });
  const toggle = h("button.primary", { type: "button", title: "Start or pause (space)" });
  const positionSwitch = segmented([["LATEST", "From now (LATEST)"], ["TRIM_HORIZON", "From the oldest (TRIM_HORIZON)"]], position,
    (v) => { position = v; stop(); clear(); start(); }, "Start position");

  const drawStatus = () => {
    mount(toggle, icon(running ? "pause" : "play"), running ? "Pause" : "Tail");
    mount(status,
      h("span.dot" + (running ? ".live" : "")), running ? "tailing" : "paused",
      ` · ${shards.size} shard${shards.size === 1 ? "" : "s"} · ${records.length} records`,
      lastPoll && ` · polled ${when(lastPoll).slice(11)}`,
      " · ", h("span.c-insert", `${counts.INSERT} insert`), " ", h("span.c-modify", `${counts.MODIFY} modify`), " ", h("span.c-remove", `${counts.REMOVE} remove`));
  };

  const iterator = async (shardId, type, seq) => {
    const input = { StreamArn: arn, ShardId: shardId, ShardIteratorType: type };
    if (seq) input.SequenceNumber = seq;
    return (await streams("GetShardIterator", input)).ShardIterator;
  };

  const describeShards = async () => {
    const all = [];
    let start;
    do {
      const input = { StreamArn: arn };
      if (start) input.ExclusiveStartShardId = start;
      const { StreamDescription: d } = await streams("DescribeStream", input);
      all.push(...(d.Shards || []));
      start = d.LastEvaluatedShardId;
    } while (start);
    return all;
  };

  const discover = async (type) => {
    const into = shards; // this tail's: a restart makes a new map
    for (const s of await describeShards()) {
      if (into.has(s.ShardId) || finished.has(s.ShardId)) continue;
      const closed = !!s.SequenceNumberRange?.EndingSequenceNumber;
      if (type === "LATEST" && closed) { finished.add(s.ShardId); continue; }
      into.set(s.ShardId, { iterator: await iterator(s.ShardId, type), lastSeq: null });
    }
  };

  const poll = async (gen) => {
    timer = null;
    if (!running || gen !== run) return;
    try {
      if (++polls % REDISCOVER_EVERY === 0) await discover("TRIM_HORIZON");
      for (const [id, sh] of shards) {
        if (gen !== run) return;
        let out;
        try {
          out = await streams("GetRecords", { ShardIterator: sh.iterator, Limit: 1000 });
        } catch (err) {
          if (err.type === "ExpiredIteratorException") {
            sh.iterator = await iterator(id, sh.lastSeq ? "AFTER_SEQUENCE_NUMBER" : position, sh.lastSeq);
            continue;
          }
          if (err.type === "TrimmedDataAccessException") { sh.iterator = await iterator(id, "TRIM_HORIZON"); continue; }
          throw err;
        }
        if (gen !== run) return;
        for (const r of out.Records || []) add(r, id);
        if (out.Records?.length) sh.lastSeq = out.Records[out.Records.length - 1].dynamodb.SequenceNumber;
        if (out.NextShardIterator) sh.iterator = out.NextShardIterator;
        else { shards.delete(id); finished.add(id); }
      }
      lastPoll = new Date();
    } catch (err) {
      if (gen !== run) return;
      errorToast(err, "Reading the stream");
      running = false;
    }
    drawStatus();
    if (running && gen === run) timer = setTimeout(() => poll(gen), POLL_MS);
  };

  const add = (r, shardId) => {
    records.unshift(r);
    counts[r.eventName] = (counts[r.eventName] || 0) + 1;
    list.prepend(recordCard(r, shardId, t.KeySchema));
    while (records.length > KEEP) { records.pop(); list.lastElementChild?.remove(); }
    list.querySelector(".records-empty")?.remove();
  };

  async function start() {
    if (running) return;
    running = true;
    const gen = ++run;
    shards = new Map();
    finished.clear();
    drawStatus();
    try {
      await discover(position);
    } catch (err) {
      if (gen !== run) return;
      errorToast(err, "Opening the stream");
      running = false;
      drawStatus();
      return;
    }
    poll(gen);
  }
  function stop() {
    running = false;
    run++;
    if (timer) clearTimeout(timer);
    timer = null;
    drawStatus();
  }
  const clear = () => {
    records.length = 0;
    for (const k of Object.keys(counts)) counts[k] = 0;
    mount(list, h("li.records-empty", "Waiting for writes… add, change or delete an item (another tab, an SDK, the CLI) and it shows here."));
    drawStatus();
  };
  toggle.addEventListener("click", () => (running ? stop() : start()));

  clear();
  mount(body,
    h("div.toolbar",
      toggle, positionSwitch,
      h("button", { type: "button", onclick: clear, title: "Clear the list (doesn't touch the stream)" }, icon("trash"), "Clear"),
      h("span.spacer"),
      h("span.muted.small", `${t.StreamSpecification.StreamViewType} · label ${t.LatestStreamLabel}`)),
    h("div.toolbar", status),
    list);
  await start();
  return { cleanup: stop, keys: { " ": () => toggle.click(), r: () => { stop(); start(); } } };
}

/** recordCard draws one stream record: what happened, to which key, and what changed. */
function recordCard(r, shardId, keySchema) {
  const d = r.dynamodb || {};
  const kind = r.eventName || "?";
  const ttl = r.userIdentity?.type === "Service";
  const keys = stringify(itemToPlain(d.Keys || {}), 0);
  let detail;
  if (kind === "MODIFY" && d.OldImage && d.NewImage) detail = diff(d.OldImage, d.NewImage, keySchema);
  else if (d.NewImage || d.OldImage) detail = imageTable(d.NewImage || d.OldImage, keySchema, kind === "REMOVE" ? "old" : "new");
  else detail = h("p.muted.small", "Keys only (the stream's view type records no images).");
  return h("li.record.r-" + kind.toLowerCase(),
    h("div.record-head",
      badge(kind, kind === "INSERT" ? "ok" : kind === "REMOVE" ? "danger" : "info"),
      ttl && badge("TTL", "warn"),
      h("code.record-key", keys),
      h("span.spacer"),
      h("span.muted.small", when(d.ApproximateCreationDateTime), ` · #${d.SequenceNumber} · ${d.SizeBytes ?? "?"} B`),
      h("span.muted.small.shard", { title: shardId }, shardId ? "shard …" + shardId.slice(-6) : "")),
    detail);
}

/** imageTable lists an image's attributes besides the key (side: "old" or "new" colours them). */
export function imageTable(img, keySchema, side) {
  const keyNames = keySchema.map((k) => k.AttributeName);
  const names = Object.keys(img).filter((n) => !keyNames.includes(n)).sort();
  if (names.length === 0) return h("p.muted.small", "No attributes besides the key.");
  return h("table.diff", h("tbody", names.map((n) => h("tr", h("th", { scope: "row" }, n), h("td." + side, short(img[n], 120))))));
}

/** diff lists the attributes that differ between two images of an item, old → new. */
export function diff(oldImg, newImg, keySchema) {
  const keyNames = keySchema.map((k) => k.AttributeName);
  const names = [...new Set([...Object.keys(oldImg), ...Object.keys(newImg)])].filter((n) => !keyNames.includes(n)).sort();
  const changed = names.filter((n) => !(n in oldImg) || !(n in newImg) || !sameValue(oldImg[n], newImg[n]));
  if (changed.length === 0) return h("p.muted.small", "Written with the same attributes.");
  return h("table.diff", h("tbody", changed.map((n) => h("tr",
    h("th", { scope: "row" }, n),
    h("td.old", n in oldImg ? short(oldImg[n], 80) : h("span.muted", "absent")),
    h("td.arrow", "→"),
    h("td.new", n in newImg ? short(newImg[n], 80) : h("span.muted", "removed"))))),
  names.length > changed.length && h("tfoot", h("tr", h("td.muted.small", { colspan: "4" }, `${names.length - changed.length} attributes unchanged`))));
}
