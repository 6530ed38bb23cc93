// Play round trips from Node over gRPC (to the gRPC door) and over Connect (to the HTTP door),
// each beside a bare echo over the same transport, interleaved in one run: a JSON line on
// stdout for bench/report.py. STICH_GRPC / STICH_HTTP: the server's doors; ECHO_GRPC: a bare
// grpcio echo (service.benchmark echo-server); ECHO_HTTP: a bare uvicorn echo (http-echo-server).
// The echo method answers its request bytes, so a BytesValue in is a BytesValue out.
import { create, createFileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, BytesValueSchema, file_google_protobuf_wrappers } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { StichClient, TableStatus } from "../dist/src/index.js";
import { connectTransport, grpcTransport } from "../dist/src/node.js";

const seconds = Number(process.env.BENCH_SECONDS ?? "2");
const registry = createFileRegistry(create(FileDescriptorProtoSchema, {
  name: "stich/bench/echo.proto", package: "stich.bench", syntax: "proto3",
  dependency: ["google/protobuf/wrappers.proto"],
  service: [{ name: "Echo", method: [{ name: "Echo", inputType: ".google.protobuf.BytesValue", outputType: ".google.protobuf.BytesValue" }] }],
}), (name) => (name === "google/protobuf/wrappers.proto" ? file_google_protobuf_wrappers : undefined));
const EchoService = registry.getService("stich.bench.Echo");

function percentiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50_us: s[Math.floor(s.length / 2)] * 1000, p99_us: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] * 1000, calls: s.length };
}

async function echoLatency(transport, until) {
  const echo = createClient(EchoService, transport);
  const payload = create(BytesValueSchema, { value: new Uint8Array(32).fill(120) });
  const lat = [];
  for (let i = 0; i < 20; i++) await echo.echo(payload);            // warm up
  while ((performance.now() < until || lat.length < 10) && lat.length < 20000) {
    const t0 = performance.now();
    await echo.echo(payload);
    lat.push(performance.now() - t0);
  }
  return lat;
}

/** The first legal action, except that the first bid of a deal names a game (an all-pass
 *  auction throws the cards in, and a bench that only ever passes would never play a card). */
function firstPlayable(legal) {
  return legal.find((a) => a.type !== "bid" || a.call !== "pass") ?? legal[0];
}

/** Play round trips at all-human tables (one card per call), the seat to act from the view. */
async function playLatency(client, until, game = "schafkopf") {
  const lat = [];
  let seed = 0;
  while (performance.now() < until || lat.length < 10) {
    if (seed > 200) throw new Error(`no card played in ${seed} tables`);
    const t = await client.createTable(game, { seats: ["human", "human", "human", "human"], seed: seed++, dealsPerMatch: 1 });
    let v = await client.deal(t.tableId, t.tokens.get(0));
    while (v.status === TableStatus.IN_DEAL) {
      const token = t.tokens.get(v.toAct);
      v = await client.view(t.tableId, token);
      const action = firstPlayable(v.legal);
      const t0 = performance.now();
      v = await client.act(t.tableId, token, action);
      if (action.type === "play") lat.push(performance.now() - t0);
    }
  }
  return lat;
}

const out = {};
for (const [name, transport, echoTransport] of [
  ["grpc", grpcTransport(process.env.STICH_GRPC), grpcTransport(process.env.ECHO_GRPC)],
  ["connect", connectTransport(process.env.STICH_HTTP), connectTransport(process.env.ECHO_HTTP)],
]) {
  const client = new StichClient(transport, { timeoutMs: 30000 });
  const plays = [], echoes = [];
  for (let rep = 0; rep < 2; rep++) {                                   // interleaved
    echoes.push(...await echoLatency(echoTransport, performance.now() + seconds * 500));
    plays.push(...await playLatency(client, performance.now() + seconds * 500));
  }
  out[name] = { play: percentiles(plays), echo: percentiles(echoes) };
}
console.log(JSON.stringify(out));
