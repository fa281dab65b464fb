// The extension's activation logic with the `vscode` API stubbed (test/stub.js): which binary
// it runs, on which platform, and when it restarts the server. Run with `npm test` (compiled
// by `tsc` into out/, unbundled, so that the stubs stand in for the editor's modules).
const assert = require("node:assert");
const path = require("node:path");
const test = require("node:test");

const { calls, state, changeSettings } = require("./stub");
const { findBinary, binaryName, needsRestart } = require("../out/binary");
const extension = require("../out/extension");

const host = (platform, PATH, executables) => ({
  platform,
  env: { PATH },
  isExecutable: (f) => executables.includes(f),
});

test("the setting wins over PATH", () => {
  const h = host("linux", "/usr/bin", ["/usr/bin/yttlint"]);
  assert.strictEqual(findBinary("/opt/yttlint", h), "/opt/yttlint");
  assert.strictEqual(findBinary("", h), "/usr/bin/yttlint");
  assert.strictEqual(findBinary("  ", h), "/usr/bin/yttlint");
});

test("PATH is searched in order, for yttlint.exe on Windows", () => {
  const linux = host("linux", "/a::/b:/c", ["/b/yttlint", "/c/yttlint"]);
  assert.strictEqual(findBinary(undefined, linux), "/b/yttlint");
  const windows = host("win32", "C:\\tools;D:\\bin", ["D:\\bin\\yttlint.exe", "C:\\tools\\yttlint"]);
  assert.strictEqual(findBinary(undefined, windows), "D:\\bin\\yttlint.exe");
  assert.strictEqual(binaryName("win32"), "yttlint.exe");
  assert.strictEqual(binaryName("darwin"), "yttlint");
  assert.strictEqual(findBinary(undefined, host("linux", "/x", [])), undefined);
});

test("only the server's settings restart it", () => {
  assert.ok(needsRestart((s) => s === "yttlint.path"));
  assert.ok(needsRestart((s) => s === "yttlint.inlayHints"));
  assert.ok(!needsRestart((s) => s === "yttlint.trace.server"));
  assert.ok(!needsRestart(() => false));
});

test("activation starts the server, the command and a new path restart it", async () => {
  const fake = path.join(__dirname, "..", "package.json");
  state.settings["yttlint.path"] = fake;
  const context = { subscriptions: [] };
  await extension.activate(context);
  assert.deepStrictEqual(calls.shift(), ["start", fake, ["server"]]);
  assert.ok(context.subscriptions.length >= 3);
  assert.strictEqual(state.clients[0].clientOptions.initializationOptions.inlayHints, false);

  await state.commands["yttlint.restart"]();
  assert.deepStrictEqual(calls.splice(0), [["stop"], ["start", fake, ["server"]]]);

  await changeSettings({ "yttlint.path": "/elsewhere/yttlint" });
  // The listener does not wait for the restart: let it run.
  await new Promise((r) => setTimeout(r, 10));
  assert.deepStrictEqual(calls.splice(0), [["stop"], ["start", "/elsewhere/yttlint", ["server"]]]);

  await changeSettings({ "yttlint.inlayHints": true });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepStrictEqual(calls.splice(0), [["stop"], ["start", "/elsewhere/yttlint", ["server"]]]);
  assert.strictEqual(state.clients.at(-1).clientOptions.initializationOptions.inlayHints, true);

  await changeSettings({ "yttlint.trace.server": "verbose" });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepStrictEqual(calls.splice(0), []);

  await extension.deactivate();
  assert.deepStrictEqual(calls.splice(0), [["stop"]]);
});

test("without a binary the user is told, and nothing starts", async () => {
  state.settings["yttlint.path"] = "";
  const saved = process.env.PATH;
  process.env.PATH = "/nonexistent-dir";
  try {
    await extension.activate({ subscriptions: [] });
  } finally {
    process.env.PATH = saved;
  }
  const [what, message] = calls.shift();
  assert.strictEqual(what, "error");
  assert.match(message, /set yttlint.path/);
  assert.deepStrictEqual(calls.splice(0), []);
});
