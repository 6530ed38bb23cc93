/** A real stich server for the tests: `python -m service --memory` on free loopback ports. */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

export interface Server {
  grpc: string;
  http: string;
  stop(): Promise<number | null>;
}

/** STICH_PYTHON, else the checkout's .venv/bin/python, else python3. */
export function python(): string {
  const venv = path.join(ROOT, ".venv", "bin", "python");
  return process.env.STICH_PYTHON ?? (existsSync(venv) ? venv : "python3");
}

export function startServer(args: string[] = []): Promise<Server> {
  const child: ChildProcess = spawn(
    python(),
    ["-m", "service", "--memory", "--address", "127.0.0.1:0", "--http-address", "127.0.0.1:0", "--grace", "1", ...args],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PYTHONPATH: path.join(ROOT, "src") } },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const g = /listening on (\S+:\d+)/.exec(out);
      const h = /http:\s+http:\/\/(\S+:\d+)\//.exec(out);
      if (g && h) {
        clearTimeout(timer);
        resolve({
          grpc: g[1],
          http: `http://${h[1]}`,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode);
              child.once("exit", (code) => {
                if (process.env.STICH_SERVER_LOG) writeFileSync(process.env.STICH_SERVER_LOG, out);
                done(code);
              });
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}
