// Builds the page into dist/ (served by the server at /): esbuild bundles src/main.ts with the
// TypeScript client; index.html and style.css are copied. `npm run build -w web` in clients/,
// or `make web` at the top.
import { build } from "esbuild";
import { cpSync, mkdirSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2022",
  outfile: "dist/app.js",
  minify: true,
  sourcemap: true,
  logLevel: "warning",
  // the client's TypeScript sources themselves (no separate build of clients/ts needed)
  alias: { "@stich/client/web": "../ts/src/web.ts", "@stich/client": "../ts/src/index.ts" },
});
cpSync("public", "dist", { recursive: true });
console.log("built clients/web/dist (index.html, app.js, style.css)");
