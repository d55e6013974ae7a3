// dynamoemu's MCP server driven by the MCP TypeScript SDK's client, as an
// agent's host drives it: over streamable HTTP with a bearer token
// (MCP_URL, MCP_TOKEN) and over stdio, starting `dynamoemu mcp`
// (DYNAMOEMU_BIN). Each session lists the tools and calls three of them,
// and checks that a bad input is a tool error. Then, as an agent whose
// server lists the core group alone: a snapshot tool is refused with the
// call that lists its group, enable_tools lists the snapshots group (over
// stdio the server says so with notifications/tools/list_changed), and a
// snapshot taken undoes a delete, in the same session: no restart. Last,
// a message too deep or too large fails its call at once and leaves the
// session serving. The first line printed is a JSON summary that
// cmd/internal/mcp/npm_client_test.go reads.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const sdkVersion = JSON.parse(readFileSync(new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url))).version;

function check(cond, what) {
	if (!cond) throw new Error(what);
}

async function session(label, transport) {
	const client = new Client({ name: "dynamoemu-npm-client-test", version: "1.0.0" });
	let listChanged = false;
	let heard;
	const changed = new Promise((resolve) => (heard = resolve));
	client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
		listChanged = true;
		heard();
	});
	await client.connect(transport);
	check(client.getServerCapabilities()?.tools?.listChanged === true, `${label}: the server does not declare tools.listChanged`);
	const { tools } = await client.listTools();
	const names = tools.map((t) => t.name);
	for (const want of ["create_table", "put_item", "get_item", "query", "explain", "design_match"]) {
		check(names.includes(want), `${label}: no tool ${want} in ${names.join(", ")}`);
	}
	const call = async (name, args) => {
		const res = await client.callTool({ name, arguments: args });
		const text = res.content.map((c) => c.text).join("");
		if (res.isError) throw new Error(`${label}: ${name}: ${text}`);
		return text;
	};
	const table = `Orders-${label}`;
	const created = await call("create_table", {
		TableName: table,
		BillingMode: "PAY_PER_REQUEST",
		KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
		AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "sk", AttributeType: "S" }],
	});
	check(created.includes('"TableStatus":"CREATING"'), `${label}: create_table answered ${created}`);
	await call("put_item", { TableName: table, Item: { pk: { S: "ORDER#1" }, sk: { S: "2024-05-01" }, total: { N: "12.5" } } });
	const got = await call("get_item", { TableName: table, Key: { pk: { S: "ORDER#1" }, sk: { S: "2024-05-01" } } });
	check(got.includes('"12.5"'), `${label}: get_item answered ${got}`);

	const bad = await client.callTool({ name: "get_item", arguments: { TableName: table, Key: { pk: { S: "ORDER#1" } } } });
	check(bad.isError && bad.content[0].text.includes("ValidationException"), `${label}: a key without its sort key was taken: ${JSON.stringify(bad)}`);

	// The snapshots group, listed in the session.
	check(!names.includes("snapshot_restore"), `${label}: snapshot_restore is listed before enable_tools`);
	let refused = "";
	try {
		await client.callTool({ name: "snapshot_create", arguments: {} });
	} catch (e) {
		refused = String(e.message);
	}
	check(refused.includes('group "snapshots"') && refused.includes("enable_tools"), `${label}: snapshot_create before enable_tools: ${refused || "taken"}`);
	const enabled = JSON.parse(await call("enable_tools", { groups: ["snapshots"] }));
	check(enabled.added.includes("snapshot_restore"), `${label}: enable_tools answered ${JSON.stringify(enabled)}`);
	if (label === "stdio") {
		await Promise.race([changed, new Promise((_, reject) => setTimeout(() => reject(new Error(`${label}: no notifications/tools/list_changed`)), 10000))]);
	}
	const after = (await client.listTools()).tools.map((t) => t.name);
	for (const want of ["snapshot_create", "snapshot_list", "snapshot_restore", "snapshot_delete"]) {
		check(after.includes(want), `${label}: no tool ${want} after enable_tools: ${after.join(", ")}`);
	}
	const snap = JSON.parse(await call("snapshot_create", { label: "one order" }));
	await call("delete_item", { TableName: table, Key: { pk: { S: "ORDER#1" }, sk: { S: "2024-05-01" } } });
	const gone = await call("get_item", { TableName: table, Key: { pk: { S: "ORDER#1" }, sk: { S: "2024-05-01" } } });
	check(!gone.includes('"Item"'), `${label}: the order was not deleted: ${gone}`);
	await call("snapshot_restore", { id: snap.id });
	const back = await call("get_item", { TableName: table, Key: { pk: { S: "ORDER#1" }, sk: { S: "2024-05-01" } } });
	check(back.includes('"12.5"'), `${label}: snapshot_restore did not bring the order back: ${back}`);

	// Messages the server cannot take (nested 1,001 levels deep, 20 MB:
	// over the 4 MiB of HTTP and the 16 MiB of stdio) fail the call at
	// once, not at the client's timeout, and the session goes on.
	let deep = 1;
	for (let i = 0; i < 1000; i++) deep = { a: deep };
	const tooBig = [];
	for (const [what, args] of [["1,001 levels", { x: deep }], ["20 MB", { TableName: table, Item: { pk: { S: "x".repeat(20_000_000) } } }]]) {
		let err;
		try {
			await client.callTool({ name: "put_item", arguments: args }, undefined, { timeout: 60_000 });
		} catch (e) {
			err = e;
		}
		check(err !== undefined, `${label}: ${what}: the call was taken`);
		check(err.code !== -32001, `${label}: ${what}: the call timed out instead of failing: ${err.message}`);
		const listed = await client.listTools();
		check(listed.tools.length === after.length, `${label}: ${what}: tools/list after it listed ${listed.tools.length}`);
		tooBig.push(what);
	}
	await client.close();
	return {
		transport: label, tools: tools.length, toolsAfter: after.length, calls: ["create_table", "put_item", "get_item"], badInput: "ValidationException",
		unlisted: refused, listChanged, restored: snap.id, refused: tooBig,
	};
}

const sessions = [];
if (process.env.MCP_URL) {
	sessions.push(await session("http", new StreamableHTTPClientTransport(new URL(process.env.MCP_URL), {
		requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } },
	})));
}
if (process.env.DYNAMOEMU_BIN) {
	sessions.push(await session("stdio", new StdioClientTransport({ command: process.env.DYNAMOEMU_BIN, args: ["mcp", "-logLevel", "error"], stderr: "inherit" })));
}
check(sessions.length > 0, "set MCP_URL and MCP_TOKEN, or DYNAMOEMU_BIN");
console.log(JSON.stringify({ client: `@modelcontextprotocol/sdk@${sdkVersion}`, sessions }));
