// Starts `yttlint server` for the YAML and Starlark files of the workspace (the binary of
// `binary.ts`), restarts it on the "yttlint: Restart server" command and when its settings
// change. `yttlint.trace.server` logs the protocol in the "yttlint" output channel (the
// language client reads it by the client's id).
import * as fs from "fs";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

import { findBinary, needsRestart } from "./binary";

let client: LanguageClient | undefined;

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The settings the server reads at start (`initializationOptions`). */
function initializationOptions(): { inlayHints: boolean } {
  const config = vscode.workspace.getConfiguration("yttlint");
  return { inlayHints: config.get<boolean>("inlayHints") ?? false };
}

/** Starts the server; false when there is no binary (said to the user). */
async function start(): Promise<boolean> {
  const configured = vscode.workspace.getConfiguration("yttlint").get<string>("path");
  const command = findBinary(configured, {
    platform: process.platform,
    env: process.env,
    isExecutable: executable,
  });
  if (!command) {
    void vscode.window.showErrorMessage(
      "yttlint: no yttlint binary on PATH; install it or set yttlint.path",
    );
    return false;
  }
  const serverOptions: ServerOptions = { command, args: ["server"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "starlark" },
      { scheme: "file", pattern: "**/*.star" },
      { scheme: "file", pattern: "**/*.txt" },
    ],
    initializationOptions: initializationOptions(),
  };
  client = new LanguageClient("yttlint", "yttlint", serverOptions, clientOptions);
  await client.start();
  return true;
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

/** Stops the server if it runs, and starts it again. */
export async function restart(): Promise<boolean> {
  await stop();
  return start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("yttlint.restart", () => restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (needsRestart((s) => e.affectsConfiguration(s))) {
        void restart();
      }
    }),
    { dispose: () => void stop() },
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
