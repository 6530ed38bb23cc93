// The TypeScript client in a real browser (headless Chromium, playwright-core): the package's
// browser entry (src/web.ts) bundled by esbuild as a front-end would, loaded into a page of the
// server's own origin, then StichClient.evaluate over both browser transports, Connect (binary
// and JSON over fetch) and gRPC-Web: one answer per line, a bad line among good ones answered
// with its error, positions kept across batches, the batch bound refused in words; and a table
// created and dealt through each. Run by tests/test_ts_client.py: STICH_URL names the HTTP door.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const url = process.env.STICH_URL;
assert.ok(url, "STICH_URL must name the server's HTTP door");
const here = path.dirname(fileURLToPath(import.meta.url));

const bundle = await build({
  entryPoints: [path.join(here, "..", "src", "web.ts")],
  bundle: true,
  format: "iife",
  globalName: "stich",
  target: "es2022",
  write: false,
  logLevel: "warning",
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const THROWN_IN = {
  game: "schafkopf", dealer: 3,
  hands: [["QC", "QS", "JS", "JD", "8H", "KC", "8C", "AD"], ["QH", "JH", "AH", "TH", "AC", "TC", "9C", "7S"],
    ["QD", "JC", "KH", "7H", "AS", "TS", "9S", "KD"], ["9H", "7C", "KS", "8S", "TD", "9D", "8D", "7D"]],
  actions: [0, 1, 2, 3].map((seat) => ({ seat, type: "bid", call: "pass" })),
};
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  await page.goto(url + "/");
  await page.addScriptTag({ content: bundle.outputFiles[0].text });
  for (const transport of ["connect-binary", "connect-json", "grpc-web"]) {
    const got = await page.evaluate(async ({ transport, record }) => {
      const s = globalThis.stich;
      const t = transport === "grpc-web" ? s.grpcWebTransport(location.origin)
        : s.webTransport(location.origin, transport === "connect-binary");
      const client = new s.StichClient(t);
      const lines = [JSON.stringify(record), "{not json", JSON.stringify({ id: "mine", record }), JSON.stringify({ game: "nope" }), JSON.stringify(record)];
      const answers = await client.evaluate(lines, true, { batchLines: 2 });
      const tooMany = await client.evaluate(Array(1001).fill("{}"), false, { batchLines: 1001 }).then(
        () => null, (err) => ({ name: err.name, reason: err.reason, message: err.message, isStich: err instanceof s.StichError }));
      const table = await client.createTable("klaverjas", { seats: ["human", "bot:easy", "bot:easy", "bot:easy"], seed: 7 });
      const view = await client.deal(table.tableId, table.tokens.get(0));
      return {
        answers: answers.map((a) => ({ json: JSON.parse(a.json), outcome: a.outcome.case, reason: a.outcome.case === "error" ? a.outcome.value.reasonId : "", legal: a.legal.length })),
        tooMany,
        hand: view.hand.length,
      };
    }, { transport, record: THROWN_IN });
    const where = `over ${transport}`;
    assert.deepEqual(got.answers.map((a) => a.json.id), [1, 2, "mine", 4, 5], where);
    assert.deepEqual(got.answers.map((a) => a.outcome), ["result", "error", "result", "error", "result"], where);
    assert.equal(got.answers[1].reason, "MALFORMED_JSON", where);
    assert.equal(got.answers[3].reason, "INVALID_RECORD", where);
    assert.equal(got.answers[0].json.result.contract.type, "thrown_in", where);
    assert.equal(got.answers[0].legal, 4, `${where}: the legal actions before each of the 4 bids`);
    assert.ok(got.tooMany?.isStich && got.tooMany.reason === "BATCH_TOO_LARGE", `${where}: ${JSON.stringify(got.tooMany)}`);
    assert.match(got.tooMany.message, /1001 lines .* at most 1000/, where);
    assert.equal(got.hand, 8, where);
    console.log(`ok ${where}: ${got.answers.length} answers in order, the bound refused, a table dealt`);
  }
  assert.deepEqual(problems, []);
} finally {
  await browser.close();
}
