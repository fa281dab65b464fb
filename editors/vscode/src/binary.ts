// Which yttlint binary the extension runs: the `yttlint.path` setting (a machine setting: a
// workspace's `.vscode/settings.json` cannot point it at a file of the repository), else the
// first `yttlint` (`yttlint.exe` on Windows) on PATH. Pure: the file system and the
// environment are passed in, so that the tests need no editor.
import * as path from "path";

/** What finding the binary needs from its surroundings. */
export interface Host {
  platform: string;
  env: { [name: string]: string | undefined };
  /** Whether `file` exists and may be run. */
  isExecutable(file: string): boolean;
}

/** The name of the binary on this platform. */
export function binaryName(platform: string): string {
  return platform === "win32" ? "yttlint.exe" : "yttlint";
}

/** The binary to run, or undefined when there is none. */
export function findBinary(configured: string | undefined, host: Host): string | undefined {
  if (configured && configured.trim() !== "") {
    return configured;
  }
  const delimiter = host.platform === "win32" ? ";" : ":";
  const name = binaryName(host.platform);
  const join = host.platform === "win32" ? path.win32.join : path.posix.join;
  const pathVar = host.env.PATH ?? host.env.Path ?? "";
  for (const dir of pathVar.split(delimiter)) {
    if (dir === "") {
      continue;
    }
    const candidate = join(dir, name);
    if (host.isExecutable(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/** Whether a change of settings concerns the server (it is restarted then). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return ["yttlint.path", "yttlint.inlayHints"].some((s) => affects(s));
}
