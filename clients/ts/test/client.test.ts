/**
 * The TypeScript client against a real server, over both doors: gRPC (Node's HTTP/2 straight
 * to grpcio) and Connect (HTTP/1.1 to the HTTP door). Every RPC, the error classes with their
 * ErrorInfo, and a streamed match of each game watched to its end.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  IllegalActionError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  StaleVersionError,
  StichClient,
  TableStatus,
  UnavailableError,
  EventKind,
  GameWords,
  type Action,
  type TableView,
} from "../src/index.js";
import { connectTransport, grpcTransport } from "../src/node.js";
import { startServer, type Server } from "./server.js";

let server: Server;
before(async () => {
  server = await startServer();
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const doors: [string, () => StichClient][] = [
  ["gRPC", () => new StichClient(grpcTransport(server.grpc))],
  ["Connect", () => new StichClient(connectTransport(server.http))],
];

for (const [door, make] of doors) {
  describe(`over ${door}`, () => {
    test("ListGames names the four games with their options", async () => {
      const games = await make().listGames();
      const names = games.map((g) => g.name);
      for (const g of ["schafkopf", "doppelkopf", "sheepshead", "klaverjas"]) assert.ok(names.includes(g), names.join());
      const schafkopf = games.find((g) => g.name === "schafkopf")!;
      assert.equal(schafkopf.seats, 4);
      assert.ok(schafkopf.options.some((o) => o.name === "tariff_solo"));
    });

    test("ListGames carries each game's words, which GameWords renders", async () => {
      const games = await make().listGames();
      for (const g of games) {
        assert.ok(g.words?.en, `${g.name} has no English words`);
        const w = new GameWords(g.words, "xx");                 // an unknown language: English
        assert.notEqual(w.card("TH"), "TH");
        assert.notEqual(w.phase("play"), "");
      }
      const sk = new GameWords(games.find((g) => g.name === "schafkopf")!.words);
      assert.equal(sk.card("QC"), "Ei-O");
      assert.equal(sk.call({ type: "bid", call: "rufspiel", suit: "D" }, "said"), "plays a Sauspiel with the Schellen-Sau");
      assert.equal(sk.call({ type: "bid", call: "farbsolo", suit: "C" }, "you"), "play an Eichel-Solo");
      const you = (s: number) => (s === 0 ? "you" : `seat ${s}`);
      assert.equal(sk.contract({ type: "rufspiel", declarer: 0, suit: "D", kontra: 2 }, you),
        "Sauspiel with the Schellen-Sau by you; Kontra by seat 2");
      const sh = new GameWords(games.find((g) => g.name === "sheepshead")!.words);
      assert.equal(sh.call({ type: "exchange", call: "bury", cards: ["KS", "TH"] }, "said"), "buries K♠ 10♥");
      assert.equal(sh.call({ type: "exchange", call: "bury", cards: ["??", "??"] }, "you"), "bury 2 cards");
      assert.equal(sh.contract({ type: "ace", picker: 1, called_card: "AC", multiplier: "2", cracked_by: 3, recracked: true }, you),
        "called ace, seat 1 picked; called card A♣; cracked by seat 3, re-cracked; stakes ×2");
      assert.equal(sh.contract({ type: "ace", picker: 1, multiplier: "1" }, you), "called ace, seat 1 picked");
      assert.equal(new GameWords(undefined).call({ type: "bid", call: "solo_tout", suit: "C" }, "said"), "solo tout C");
    });

    test("refusals are StichError classes with the ErrorInfo reason and the legal actions", async () => {
      const c = make();
      const t = await c.createTable("schafkopf", { seats: ["human", "human", "human", "human"], seed: 1, dealsPerMatch: 2 });
      const dealt = await c.deal(t.tableId, t.tokens.get(0)!);
      const token = t.tokens.get(dealt.toAct!)!;
      const view = await c.view(t.tableId, token);
      const err = await c.play(t.tableId, token, "QS").catch((e) => e);
      assert.ok(err instanceof IllegalActionError, String(err));
      assert.equal(err.reason, "WRONG_PHASE");
      assert.match(err.message, /a play action is not allowed in the auction phase/);
      assert.deepEqual(err.legal.map((a: Action) => [a.type, a.call, a.suit]), view.legal.map((a) => [a.type, a.call, a.suit]));
      const bad = await c.bid(t.tableId, "wrong-token", "pass").catch((e) => e);
      assert.ok(bad instanceof PermissionDeniedError && bad.reason === "BAD_SEAT_TOKEN", String(bad));
      const missing = await c.view("no-such-table", token).catch((e) => e);
      assert.ok(missing instanceof NotFoundError && missing.reason === "TABLE_NOT_FOUND", String(missing));
      const stale = await c.bid(t.tableId, token, "pass", "", { expectedVersion: 1 }).catch((e) => e);
      assert.ok(stale instanceof StaleVersionError && stale.reason === "STALE_VERSION", String(stale));
      assert.equal(stale.version, Number(view.version));
      const option = await c.createTable("schafkopf", { options: { tariff_solo: -5 } }).catch((e) => e);
      assert.ok(option instanceof InvalidRequestError && option.reason === "BAD_OPTION", String(option));
      assert.equal(option.field, "options.tariff_solo");
      const early = await c.score(t.tableId, token, 1).catch((e) => e);
      assert.equal(early.reason, "DEAL_NOT_FINISHED");
      const slow = await c.simulate("doppelkopf", 1_000_000, 1, undefined, { timeoutMs: 1 }).catch((e) => e);
      assert.ok(slow instanceof UnavailableError, String(slow));
      // nothing changed by any refusal; an idempotent retry gives the same answer
      assert.equal((await c.view(t.tableId, token)).version, view.version);
      const a = await c.act(t.tableId, token, view.legal[0], { requestId: "first-bid" });
      const b = await c.act(t.tableId, token, view.legal[0], { requestId: "first-bid" });
      assert.equal(a.version, b.version);
    });

    test("a streamed match of each game: watched live to the end, every deal scored", async () => {
      const c = make();
      const used = new Set<string>();
      let itemised = 0;
      for (const [game, seats] of [["schafkopf", 4], ["doppelkopf", 4], ["sheepshead", 5], ["klaverjas", 4]] as const) {
        const t = await c.createTable(game, { seats: Array(seats).fill("human"), seed: 7, dealsPerMatch: 1 });
        const spectator = new AbortController();
        const events: number[] = [];
        const watching = (async () => {
          for await (const e of c.watch(t.tableId, t.spectatorId, 0, { signal: spectator.signal })) {
            events.push(Number(e.version));
            if (e.status === TableStatus.MATCH_OVER) return e;
          }
        })().catch((e) => e);
        let view: TableView = t.view;
        while (view.status !== TableStatus.MATCH_OVER) {
          if (view.status === TableStatus.WAITING_FOR_DEAL) {
            view = await c.deal(t.tableId, t.tokens.get(0)!);
            continue;
          }
          const seat = view.toAct!;
          const mine = await c.view(t.tableId, t.tokens.get(seat)!);
          // an action of a kind not yet sent when there is one, so every RPC is exercised
          const action = mine.legal.find((a) => !used.has(a.type)) ?? mine.legal[0];
          used.add(action.type);
          view = await c.act(t.tableId, t.tokens.get(seat)!, action);
        }
        const last = await watching;
        assert.equal(last?.kind, EventKind.ACTION, String(last));
        assert.deepEqual(events, Array.from({ length: Number(view.version) }, (_, i) => i + 1));
        for (const deal of [1]) {
          const s = await c.score(t.tableId, t.tokens.get(0)!, deal);
          assert.equal(s.result!.scores.length, seats);
          if (s.result!.breakdown.length > 0) itemised += 1;   // a deal all passed has none
        }
        assert.equal(view.matchScores.length, seats);
        spectator.abort();
      }
      assert.deepEqual([...used].sort(), ["announce", "bid", "exchange", "play"]);
      assert.ok(itemised >= 2, `only ${itemised} of 4 deals had an itemised breakdown`);
    });

    test("a room: an open seat claimed once by its invite, hints, and fair analysis", async () => {
      const c = make();
      const t = await c.createTable("schafkopf", { seats: ["human", "open", "bot:easy", "bot:easy"], seed: 11, dealsPerMatch: 1 });
      assert.deepEqual([...t.tokens.keys()], [0]);
      const invite = t.invites.get(1)!;
      assert.equal(invite.link, `/#join=${invite.code}`);
      assert.equal(t.spectatorLink, `/#watch=${t.spectatorId}`);
      const early = await c.deal(t.tableId, t.tokens.get(0)!).catch((e) => e);
      assert.equal(early.reason, "SEATS_OPEN", String(early));
      const bogus = await c.joinTable("iv_nonsense").catch((e) => e);
      assert.equal(bogus.reason, "BAD_INVITE", String(bogus));
      const friend = await c.joinTable(invite.code);
      assert.equal(friend.seat, 1);
      assert.equal(friend.view.seat, 1);
      const again = await c.joinTable(invite.code).catch((e) => e);
      assert.equal(again.reason, "INVITE_USED", String(again));
      const tokens = new Map([[0, t.tokens.get(0)!], [1, friend.token]]);
      let view = await c.deal(t.tableId, tokens.get(0)!);
      let hinted = false;
      // play on (the bots act off the request path) until a human is to act in the card play
      for (let guard = 0; view.status === TableStatus.IN_DEAL && guard < 200; guard++) {
        const seat = view.toAct;
        if (seat === undefined || !tokens.has(seat)) {
          await new Promise((r) => setTimeout(r, 20));
          view = await c.view(t.tableId, tokens.get(0)!);
          continue;
        }
        const mine = await c.view(t.tableId, tokens.get(seat)!);
        if (mine.phase === "play") {
          const other = tokens.get(seat === 0 ? 1 : 0)!;
          const refused = await c.hint(t.tableId, other).catch((e) => e);
          assert.equal(refused.reason, "NOT_YOUR_TURN", String(refused));
          const hint = await c.hint(t.tableId, tokens.get(seat)!, { timeoutMs: 60_000 });
          assert.equal(hint.seat, seat);
          assert.deepEqual(hint.hints.map((h) => h.action!.card).sort(), mine.legal.map((a) => a.card).sort());
          const expected = hint.hints.map((h) => h.expected);
          assert.deepEqual(expected, [...expected].sort((a, b) => b - a));
          for (const h of hint.hints) assert.ok(h.win >= 0 && h.win <= 1, String(h.win));
          hinted = true;
          break;
        }
        view = await c.act(t.tableId, tokens.get(seat)!, mine.legal.find((a) => a.call !== "pass") ?? mine.legal[0]);
      }
      assert.ok(hinted, `no human came to play a card (status ${view.status})`);
      const noHints = await c.createTable("schafkopf", { seats: ["human", "bot:easy", "bot:easy", "bot:easy"], seed: 3, settings: { hintsDisabled: true } });
      await c.deal(noHints.tableId, noHints.tokens.get(0)!);
      const disabled = await c.hint(noHints.tableId, noHints.tokens.get(0)!).catch((e) => e);
      assert.equal(disabled.reason, "HINTS_DISABLED", String(disabled));
      // fair analysis of a finished record (the reference's first random deal that is bid)
      const lines = readFileSync(new URL("../../../../tests/conformance/schafkopf/random.jsonl", import.meta.url), "utf8").split("\n");
      const bid = lines.filter(Boolean).map((l) => JSON.parse(l).record)
        .find((r) => r.actions.some((a: { type: string; call?: string }) => a.type === "bid" && a.call !== "pass"));
      const record = JSON.stringify(bid);
      const open = (await c.analyze(record, { budget: 200_000 }, { timeoutMs: 60_000 })) as Record<string, unknown>;
      const fair = (await c.analyze(record, { seat: 1, fair: true }, { timeoutMs: 60_000 })) as Record<string, unknown>;
      assert.equal(typeof open, "object");
      assert.notDeepEqual(fair, open);
      const needsSeat = await c.analyze(record, { fair: true }).catch((e) => e);
      assert.ok(needsSeat instanceof InvalidRequestError, String(needsSeat));
    });

    test("the daily deal: the same cards for everyone, the engine's score on the leaderboard", async () => {
      const c = make();
      const daily = await c.dailyDeal("klaverjas");              // a new identity, issued by the server
      const secret = daily.playerToken;
      assert.match(secret, /^pt_[0-9a-f]{32}\.[0-9a-f]{32}$/);
      const again = await c.dailyDeal("klaverjas", secret);
      assert.equal(again.tableId, daily.tableId);
      assert.equal(again.playerToken, secret);
      const other = await c.dailyDeal("klaverjas");
      assert.notEqual(other.tableId, daily.tableId);
      assert.deepEqual(other.view.hand, daily.view.hand);
      const madeUp = await c.dailyDeal("klaverjas", `player-${door}-made-up`).catch((e) => e);
      assert.equal(madeUp.reason, "BAD_PLAYER_TOKEN", String(madeUp));
      const unfinished = await c.submitDaily(daily.tableId, daily.token, "early", secret).catch((e) => e);
      assert.equal(unfinished.reason, "DEAL_NOT_FINISHED", String(unfinished));
      let view = daily.view;
      for (let guard = 0; !view.result && guard < 400; guard++) {
        if (view.toAct === daily.seat && view.legal.length) view = await c.act(daily.tableId, daily.token, view.legal[0]);
        else {
          await new Promise((r) => setTimeout(r, 20));
          view = await c.view(daily.tableId, daily.token);
        }
      }
      assert.ok(view.result, "the daily deal did not finish");
      const entry = await c.submitDaily(daily.tableId, daily.token, `nick ${door}`, secret);
      assert.equal(entry.entry!.score, view.result!.scores[daily.seat]);
      const twice = await c.submitDaily(daily.tableId, daily.token, "twice", secret).catch((e) => e);
      assert.equal(twice.reason, "DAILY_ALREADY_SUBMITTED", String(twice));
      const board = await c.leaderboard("klaverjas");
      assert.equal(board.date, daily.date);
      assert.ok(board.entries.some((e) => e.nickname === `nick ${door}` && e.score === entry.entry!.score));
    });

    test("EvaluateBatch (evaluate) and Simulate", async () => {
      const c = make();
      const answers = await c.evaluate(["{not json", JSON.stringify({ game: "nope" }), "[]"], false, { batchLines: 2 });
      assert.deepEqual(answers.map((a) => JSON.parse(a.json).id), [1, 2, 3]);      // positions across batches
      assert.deepEqual(answers.map((a) => a.outcome.case), ["error", "error", "error"]);
      const tooMany = await c.evaluate(Array(1001).fill("{}"), false, { batchLines: 1001 }).catch((e) => e);
      assert.ok(tooMany instanceof InvalidRequestError && tooMany.reason === "BATCH_TOO_LARGE", String(tooMany));
      const sim = await c.simulate("schafkopf", 200, 3);
      assert.equal(Number(sim.deals), 200);
      assert.equal(sim.meanScores.length, 4);
    });
  });
}
