// Play round trips from the browser page (headless Chromium on the page the server serves):
// Connect JSON over the page's fetch, beside a bare echo over the same fetch (a cross-origin
// uvicorn echo, preflight cached), interleaved in one run: a JSON line for bench/report.py.
import { chromium } from "playwright-core";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage();
await page.goto(process.env.STICH_URL + "/");
const out = await page.evaluate(async ({ echoUrl, seconds }) => {
  const rpc = async (method, body) => {
    const r = await fetch(`/stich.v1.StichService/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) throw new Error(`${method}: ${j.message}`);
    return j;
  };
  const echo = () => fetch(echoUrl, { method: "POST", headers: { "content-type": "application/proto" }, body: new Uint8Array(34) }).then((r) => r.arrayBuffer());
  const plays = [], echoes = [];
  for (let i = 0; i < 20; i++) await echo();
  let seed = 0;
  for (let rep = 0; rep < 2; rep++) {
    let until = performance.now() + seconds * 500;
    while (performance.now() < until || echoes.length < 10 * (rep + 1)) { const t0 = performance.now(); await echo(); echoes.push(performance.now() - t0); }
    until = performance.now() + seconds * 500;
    while (performance.now() < until || plays.length < 10) {
      if (seed > 200) throw new Error(`no card played in ${seed} tables`);
      const t = await rpc("CreateTable", { game: "schafkopf", seed: String(seed++), dealsPerMatch: 1, seats: Array(4).fill("SEAT_KIND_HUMAN") });
      const tokens = Object.fromEntries(t.seatTokens.map((s) => [s.seat ?? 0, s.token]));
      let v = (await rpc("Deal", { tableId: t.tableId, token: tokens[0] })).view;
      while (v.status === "TABLE_STATUS_IN_DEAL") {
        const token = tokens[v.toAct ?? 0];
        v = (await rpc("GetView", { tableId: t.tableId, token })).view;
        // not an all-pass auction (it throws the cards in and no card would ever be played)
        const a = v.legal.find((x) => x.type !== "bid" || x.call !== "pass") ?? v.legal[0];
        const t0 = performance.now();
        const method = { bid: "Bid", play: "Play", announce: "Announce", exchange: "Exchange" }[a.type];
        v = (await rpc(method, { tableId: t.tableId, token, ...a })).view;
        if (a.type === "play") plays.push(performance.now() - t0);
      }
    }
  }
  const pct = (xs) => { const s = [...xs].sort((a, b) => a - b); return { p50_us: s[Math.floor(s.length / 2)] * 1000, p99_us: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] * 1000, calls: s.length }; };
  return { browser: { play: pct(plays), echo: pct(echoes) } };
}, { echoUrl: `http://${process.env.ECHO_HTTP}/stich.bench.Echo/Echo`, seconds: Number(process.env.BENCH_SECONDS ?? "2") });
console.log(JSON.stringify(out));
await browser.close();
