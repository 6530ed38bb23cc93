/**
 * The stich client for TypeScript: the generated messages (src/gen, from proto/stich/v1 by
 * @bufbuild/protoc-gen-es; no hand-written message types) and a small wrapper that gives every
 * call a deadline and turns every refusal into a StichError subclass carrying the ErrorInfo
 * reason and the legal alternatives. The transport decides the door: `@stich/client/node`
 * (gRPC to the gRPC door, Connect to the HTTP door) or `@stich/client/web` (browsers).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import type { Action } from "./gen/stich/v1/actions_pb.js";
import {
  StichService,
  type CreateTableRequestSchema,
  type ScoreResponse,
  type SimulateResponse,
  type HintResponse,
  type SubmitDailyResponse,
  type GetLeaderboardResponse,
  type RecordAnswer,
} from "./gen/stich/v1/stich_service_pb.js";
import { SeatKind, type TableEvent, type TableView } from "./gen/stich/v1/tables_pb.js";
import { ActionSchema } from "./gen/stich/v1/actions_pb.js";
import type { GameInfo } from "./gen/stich/v1/games_pb.js";
import { stichError } from "./errors.js";

export * from "./errors.js";
export * from "./words.js";
export * from "./gen/stich/v1/actions_pb.js";
export * from "./gen/stich/v1/games_pb.js";
export * from "./gen/stich/v1/results_pb.js";
export * from "./gen/stich/v1/stich_service_pb.js";
export * from "./gen/stich/v1/tables_pb.js";

export interface CallOptions {
  /** Milliseconds this call may take (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ActOptions extends CallOptions {
  /** Refuse (STALE_VERSION) unless the table is at this version. */
  expectedVersion?: number;
  /** Makes a retried action idempotent: the same id gives the same answer. */
  requestId?: string;
}

export interface Table {
  tableId: string;
  spectatorId: string;
  /** The page link that opens the spectator view: "/#watch=<spectator id>" (fragment only). */
  spectatorLink: string;
  /** seat number -> that seat's secret token (only the human seats). */
  tokens: Map<number, string>;
  /** seat number -> the invite of that open seat: its code (for JoinTable) and page link. */
  invites: Map<number, { code: string; link: string }>;
  view: TableView;
}

/** A claimed seat (JoinTable) or the player's daily table (GetDailyDeal). */
export interface SeatGrant {
  tableId: string;
  seat: number;
  /** The seat's secret token: keep it out of URLs and logs. */
  token: string;
  view: TableView;
}

/** A seat as CreateTable takes it: a person, an open seat (invite), or a bot and its level. */
export type SeatName = "human" | "open" | "bot" | "bot:easy" | "bot:normal" | "bot:hard";

const SEAT_KINDS: Record<SeatName, SeatKind> = {
  human: SeatKind.HUMAN,
  open: SeatKind.OPEN,
  bot: SeatKind.BOT,
  "bot:easy": SeatKind.BOT_EASY,
  "bot:normal": SeatKind.BOT_NORMAL,
  "bot:hard": SeatKind.BOT_HARD,
};

/** A new request id: 16 random hex digits (1..64 of A-Z a-z 0-9 - _ . : are accepted). */
export function newRequestId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class StichClient {
  /** The generated client itself, for anything the wrapper does not cover. */
  readonly raw: Client<typeof StichService>;
  readonly timeoutMs: number;

  constructor(transport: Transport, options: { timeoutMs?: number } = {}) {
    this.raw = createClient(StichService, transport);
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private async call<T>(run: (o: { timeoutMs: number; signal?: AbortSignal }) => Promise<T>, o: CallOptions = {}): Promise<T> {
    try {
      return await run({ timeoutMs: o.timeoutMs ?? this.timeoutMs, signal: o.signal });
    } catch (err) {
      throw stichError(err);
    }
  }

  listGames(o?: CallOptions): Promise<GameInfo[]> {
    return this.call(async (c) => (await this.raw.listGames({}, c)).games, o);
  }

  async createTable(
    game: string,
    init: {
      options?: Record<string, unknown>;
      dealsPerMatch?: number;
      seats?: SeatName[];
      seed?: bigint | number;
      dailyDate?: string;
      /** Bot pacing (0..10000 ms before each bot action) and whether Hint is refused. */
      settings?: { botDelayMs?: number; hintsDisabled?: boolean };
    } = {},
    o?: CallOptions,
  ): Promise<Table> {
    const request: MessageInitShape<typeof CreateTableRequestSchema> = {
      game,
      options: init.options as never,
      dealsPerMatch: init.dealsPerMatch ?? 0,
      seats: (init.seats ?? []).map((s) => {
        if (!(s in SEAT_KINDS)) throw new TypeError(`unknown seat ${JSON.stringify(s)}: ${Object.keys(SEAT_KINDS).join(", ")}`);
        return SEAT_KINDS[s];
      }),
      settings: init.settings,
    };
    if (init.seed !== undefined) request.deals = { case: "seed", value: BigInt(init.seed) };
    else if (init.dailyDate !== undefined) request.deals = { case: "dailyDate", value: init.dailyDate };
    const r = await this.call((c) => this.raw.createTable(request, c), o);
    return {
      tableId: r.tableId,
      spectatorId: r.spectatorId,
      spectatorLink: r.spectatorLink,
      tokens: new Map(r.seatTokens.map((t) => [t.seat, t.token])),
      invites: new Map(r.invites.map((i) => [i.seat, { code: i.code, link: i.link }])),
      view: r.view!,
    };
  }

  /** Claim an open seat with its invite code (the part after "#join=" of its link). */
  async joinTable(invite: string, o?: CallOptions): Promise<SeatGrant> {
    const r = await this.call((c) => this.raw.joinTable({ invite }, c), o);
    return { tableId: r.tableId, seat: r.seat, token: r.token, view: r.view! };
  }

  /** The hard bot's evaluation of each legal action of the seat to act, best first. */
  hint(tableId: string, token: string, o?: CallOptions): Promise<HintResponse> {
    return this.call((c) => this.raw.hint({ tableId, token }, c), o);
  }

  /** Analyze a record (JSON text): all hands open, or `fair` from `seat`'s own view. */
  async analyze(record: string, init: { seat?: number; fair?: boolean; budget?: number } = {}, o?: CallOptions): Promise<unknown> {
    const r = await this.call((c) => this.raw.analyze({ record, seat: init.seat, fair: init.fair ?? false, budget: init.budget ?? 0 }, c), o);
    return JSON.parse(r.json);
  }

  /** Today's daily deal of a game for the player whose server-issued token is given ("": the
   * server issues a new identity; keep the answer's playerToken and send it on later calls). */
  async dailyDeal(game: string, playerToken = "", o?: CallOptions): Promise<SeatGrant & { date: string; playerToken: string }> {
    const r = await this.call((c) => this.raw.getDailyDeal({ game, playerToken }, c), o);
    return { date: r.date, tableId: r.tableId, seat: r.seat, token: r.token, view: r.view!, playerToken: r.playerToken };
  }

  /** Enter a finished daily deal on the day's leaderboard (the engine scores it). */
  submitDaily(tableId: string, token: string, nickname: string, playerToken: string, o?: CallOptions): Promise<SubmitDailyResponse> {
    return this.call((c) => this.raw.submitDaily({ tableId, token, nickname, playerToken }, c), o);
  }

  /** A game's daily leaderboard (date "": today, UTC), best first. */
  leaderboard(game: string, date = "", limit = 0, o?: CallOptions): Promise<GetLeaderboardResponse> {
    return this.call((c) => this.raw.getLeaderboard({ game, date, limit }, c), o);
  }

  async deal(tableId: string, token: string, o: ActOptions = {}): Promise<TableView> {
    return (await this.call((c) => this.raw.deal({ tableId, token, ...versioned(o) }, c), o)).view!;
  }

  async view(tableId: string, token: string, o?: CallOptions): Promise<TableView> {
    return (await this.call((c) => this.raw.getView({ tableId, token }, c), o)).view!;
  }

  async bid(tableId: string, token: string, call: string, suit = "", o: ActOptions = {}): Promise<TableView> {
    return (await this.call((c) => this.raw.bid({ tableId, token, call, suit, ...versioned(o) }, c), o)).view!;
  }

  async exchange(tableId: string, token: string, call: string, cards: string[], o: ActOptions = {}): Promise<TableView> {
    return (await this.call((c) => this.raw.exchange({ tableId, token, call, cards, ...versioned(o) }, c), o)).view!;
  }

  async announce(tableId: string, token: string, call: string, o: ActOptions = {}): Promise<TableView> {
    return (await this.call((c) => this.raw.announce({ tableId, token, call, ...versioned(o) }, c), o)).view!;
  }

  async play(tableId: string, token: string, card: string, o: ActOptions = {}): Promise<TableView> {
    return (await this.call((c) => this.raw.play({ tableId, token, card, ...versioned(o) }, c), o)).view!;
  }

  /** Any legal action as the view lists it (bid, exchange, announce or play). */
  act(tableId: string, token: string, action: Action, o: ActOptions = {}): Promise<TableView> {
    switch (action.type) {
      case "bid":
        return this.bid(tableId, token, action.call, action.suit, o);
      case "exchange":
        return this.exchange(tableId, token, action.call, action.cards, o);
      case "announce":
        return this.announce(tableId, token, action.call, o);
      case "play":
        return this.play(tableId, token, action.card, o);
      default:
        throw new TypeError(`unknown action type ${JSON.stringify(action.type)}: bid, exchange, announce or play`);
    }
  }

  score(tableId: string, token: string, dealNumber = 0, o?: CallOptions): Promise<ScoreResponse> {
    return this.call((c) => this.raw.score({ tableId, token, dealNumber }, c), o);
  }

  /**
   * The table's events after `fromVersion` (0: all), then live ones as they happen; ends when the
   * server stops or `signal` aborts. No deadline unless `timeoutMs` is given.
   */
  async *watch(tableId: string, token: string, fromVersion = 0, o: CallOptions = {}): AsyncGenerator<TableEvent> {
    try {
      for await (const r of this.raw.watchTable(
        { tableId, token, fromVersion },
        { timeoutMs: o.timeoutMs, signal: o.signal },
      )) {
        yield r.event!;
      }
    } catch (err) {
      throw stichError(err);
    }
  }

  /**
   * Evaluate record lines (JSON text): one answer per line, in order, each its result or its
   * error (a bad line never stops the others). Unary EvaluateBatch calls of at most
   * `batchLines` lines each (the server's --evaluate-batch-lines, 1000 by default), one after
   * the other, so it works over every transport, a browser's fetch included; an answer whose
   * record has no id of its own has its 1-based position in `lines`. Each call has the deadline.
   */
  async evaluate(lines: string[], withLegal = false, o: CallOptions & { batchLines?: number } = {}): Promise<RecordAnswer[]> {
    const step = o.batchLines ?? 1000;
    if (!(Number.isInteger(step) && step >= 1)) throw new RangeError(`batchLines must be a whole number 1 or more, got ${step}`);
    const out: RecordAnswer[] = [];
    for (let i = 0; i < lines.length; i += step) {
      const batch = { lines: lines.slice(i, i + step), withLegal, firstNumber: i + 1 };
      out.push(...(await this.call((c) => this.raw.evaluateBatch(batch, c), o)).answers);
    }
    return out;
  }

  simulate(game: string, deals: number, seed = 0, options?: Record<string, unknown>, o?: CallOptions): Promise<SimulateResponse> {
    return this.call((c) => this.raw.simulate({ game, deals, seed: BigInt(seed), options: options as never }, c), o);
  }
}

function versioned(o: ActOptions): { expectedVersion?: number; requestId: string } {
  return {
    ...(o.expectedVersion !== undefined ? { expectedVersion: o.expectedVersion } : {}),
    requestId: o.requestId ?? "",
  };
}

/** An action as a plain object ({seat, type, call, ...}), for display or logs. */
export function describeAction(a: Action): string {
  return [a.type, a.call, a.suit, a.card, a.cards.join(" ")].filter(Boolean).join(" ");
}

export { create, ActionSchema };
