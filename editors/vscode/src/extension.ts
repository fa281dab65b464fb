// Starts `yttlint server` for the YAML and Starlark files of the workspace: the binary named by
// the `yttlint.path` setting, else `yttlint` found on PATH.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The yttlint binary: the setting, else the first `yttlint` on PATH. */
function findBinary(): string | undefined {
  const configured = vscode.workspace.getConfiguration("yttlint").get<string>("path");
  if (configured) {
    return configured;
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "yttlint");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = findBinary();
  if (!command) {
    void vscode.window.showErrorMessage(
      "yttlint: no yttlint binary on PATH; install it or set yttlint.path",
    );
    return;
  }
  const serverOptions: ServerOptions = { command, args: ["server"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "starlark" },
      { scheme: "file", pattern: "**/*.star" },
    ],
  };
  client = new LanguageClient("yttlint", "yttlint", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
