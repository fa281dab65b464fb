// A stand-in for the `vscode` and `vscode-languageclient/node` modules: what the extension
// calls is recorded in `calls`, and the tests drive the events it subscribes to.
const Module = require("module");

const calls = [];
const state = { settings: {}, commands: {}, configListeners: [], clients: [] };

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.id = id;
    this.serverOptions = serverOptions;
    this.clientOptions = clientOptions;
    this.running = false;
    state.clients.push(this);
  }
  async start() {
    this.running = true;
    calls.push(["start", this.serverOptions.command, this.serverOptions.args]);
  }
  async stop() {
    this.running = false;
    calls.push(["stop"]);
  }
}

const vscode = {
  workspace: {
    getConfiguration(section) {
      return { get: (key) => state.settings[`${section}.${key}`] };
    },
    onDidChangeConfiguration(listener) {
      state.configListeners.push(listener);
      return { dispose() {} };
    },
  },
  window: {
    showErrorMessage(message) {
      calls.push(["error", message]);
      return Promise.resolve(undefined);
    },
  },
  commands: {
    registerCommand(name, f) {
      state.commands[name] = f;
      return { dispose() {} };
    },
  },
};

const stubs = {
  vscode,
  "vscode-languageclient/node": { LanguageClient },
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request in stubs) {
    return request;
  }
  return resolve.call(this, request, ...rest);
};
for (const [name, exports] of Object.entries(stubs)) {
  require.cache[name] = { id: name, filename: name, loaded: true, exports };
}

/** Changes settings, as the user would, telling the extension's listeners. */
function changeSettings(changed) {
  Object.assign(state.settings, changed);
  const event = { affectsConfiguration: (s) => Object.keys(changed).some((k) => k.startsWith(s)) };
  return Promise.all(state.configListeners.map((l) => l(event)));
}

module.exports = { calls, state, changeSettings };
