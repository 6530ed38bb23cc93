/**
 * The stich web table: a lobby to create a table, invite links, joining by link, spectating,
 * the daily deal with its leaderboard, and the table itself, all driven by the server's views
 * (the engine decides what is legal, how the hand is sorted and why a card may not be played).
 * Plain DOM, no framework.
 *
 * Links carry secrets only in the fragment (#join=<invite code>, #watch=<spectator id>), which
 * browsers never send to a server; the page claims the seat (JoinTable), keeps the seat's token
 * in localStorage and leaves only #table=<id> in the address bar, so a reload resumes the seat
 * from the stream's version.
 */
import {
  StichClient,
  StichError,
  TableStatus,
  SeatKind,
  GameWords,
  type Action,
  type SeatName,
  type GameInfo,
  type TableView,
  type Trick,
} from "@stich/client";
import { webTransport } from "@stich/client/web";
import { toJson } from "@bufbuild/protobuf";
import { ContractSchema } from "@stich/client";
import { ValueSchema, type Value } from "@bufbuild/protobuf/wkt";

/** A google.protobuf.Value message as the plain value it holds. */
function plain(v: Value | undefined): unknown {
  return v === undefined ? null : toJson(ValueSchema, v);
}

const client = new StichClient(webTransport(location.origin), { timeoutMs: 15_000 });
const app = document.getElementById("app")!;
const message = document.getElementById("message")!;
const where = document.getElementById("where")!;

type Attrs = Record<string, string | boolean | ((e: Event) => void)>;

/** A DOM element: h("button", {class: "card", onclick: …}, "Q♠"). */
function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | null | undefined)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children) if (c != null) el.append(c);
  return el;
}

function say(text: string, error = false): void {
  message.textContent = text;
  message.dataset.kind = error ? "error" : "info";
}

// ---- the game's words (GameInfo.words, from ListGames: cards, calls, contracts, items) ------------
const gameWords = new Map<string, GameWords>();
let words = new GameWords(undefined);         // the shown table's game

/** Keep the words of every game the server lists (the page knows no game by name). */
function learnWords(games: GameInfo[]): void {
  for (const g of games) gameWords.set(g.name, new GameWords(g.words, navigator.language.slice(0, 2)));
}

/** The words of a game, asked of the server once. */
async function wordsOf(game: string): Promise<GameWords> {
  if (!gameWords.has(game)) learnWords(await client.listGames());
  return gameWords.get(game) ?? new GameWords(undefined);
}

/** "QS" -> "Q♠", "TD" -> "10♦", "QC" -> "Ei-O": as the game's words say. */
function cardLabel(code: string): string {
  return words.card(code);
}

function cardEl(code: string, attrs: Attrs = {}): HTMLElement {
  const red = code.endsWith("H") || code.endsWith("D");
  return h("button", { class: `card${red ? " red" : ""}`, "data-card": code, ...attrs }, cardLabel(code));
}

/** What an action says: a card's label, or a call's short name ("no 90", "Wenz"). */
function actionLabel(a: Action): string {
  return a.type === "play" ? cardLabel(a.card) : words.call(a, "name");
}

// ---- secrets in the browser ------------------------------------------------------------------
interface Seat {
  table: string;
  seat?: number;
  token: string; // a seat token or the spectator id
  daily?: { game: string; date: string }; // the player's table of a daily deal
}

function fragment(): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

/** The table a token, spectator id or invite code is for (the part after its last "."). */
function tableOf(secret: string): string {
  return secret.slice(secret.lastIndexOf(".") + 1);
}

/** Keep a seat's secret in the browser and show only the table in the address bar. */
function keep(seat: Seat): void {
  localStorage.setItem(`stich:${seat.table}`, JSON.stringify(seat));
  history.replaceState(null, "", `/#table=${encodeURIComponent(seat.table)}`);
}

/** The seat the address names: an invite is claimed (JoinTable), a spectator id or a kept
 *  token is read; the secret leaves the address bar either way. */
async function seatFromAddress(): Promise<Seat | null> {
  const f = fragment();
  const invite = f.get("join");
  if (invite) {
    history.replaceState(null, "", "/");     // a used or wrong code must not linger either
    const joined = await client.joinTable(invite);
    const seat: Seat = { table: joined.tableId, seat: joined.seat, token: joined.token };
    keep(seat);
    return seat;
  }
  const watch = f.get("watch");
  if (watch) {
    const seat: Seat = { table: tableOf(watch), token: watch };
    keep(seat);
    return seat;
  }
  const table = f.get("table");
  if (!table) return null;
  const kept = localStorage.getItem(`stich:${table}`);
  return kept ? (JSON.parse(kept) as Seat) : null;
}

/** The player's identity for the daily deal: issued by the server on the first daily deal and
 * kept here ("" until then: the server issues one). */
function playerToken(): string {
  return localStorage.getItem("stich:player-token") ?? "";
}

// ---- lobby ---------------------------------------------------------------------------------------
async function lobby(): Promise<void> {
  where.textContent = "— new table";
  const games = await client.listGames();
  learnWords(games);
  const form = h("form", { id: "lobby" });
  const gameSelect = h("select", { id: "game", name: "game" }, ...games.map((g) => h("option", { value: g.name }, g.name))) as HTMLSelectElement;
  const seatsBox = h("div", { id: "seats" });
  const optionsBox = h("details", {}, h("summary", {}, "options"));
  const deals = h("input", { id: "deals", type: "number", min: "1", max: "1000", value: "1" }) as HTMLInputElement;
  const daily = h("input", { id: "daily", type: "checkbox" }) as HTMLInputElement;
  const seedInput = h("input", { id: "seed", type: "number", min: "0", placeholder: "random" }) as HTMLInputElement;

  function showGame(): void {
    const g = games.find((x) => x.name === gameSelect.value)!;
    seatsBox.replaceChildren(
      ...Array.from({ length: g.seats }, (_, i) =>
        h("label", {}, `seat ${i} `, h("select", { class: "seat-kind", "data-seat": String(i) },
          h("option", { value: "me", ...(i === 0 ? { selected: true } : {}) }, "you"),
          h("option", { value: "open" }, "open (invite a friend)"),
          h("option", { value: "bot:easy", ...(i !== 0 ? { selected: true } : {}) }, "bot (easy)"),
          h("option", { value: "bot:normal" }, "bot (normal)"),
          h("option", { value: "bot:hard" }, "bot (hard)"))),
      ),
    );
    optionsBox.replaceChildren(h("summary", {}, `options of ${g.name}`), ...g.options.map((o) => optionInput(o)));
    board.replaceChildren(leaderboardEl(g.name, ""));
  }
  const board = h("div", { id: "lobby-board" });
  const hints = h("input", { id: "hints", type: "checkbox", checked: true }) as HTMLInputElement;
  gameSelect.addEventListener("change", showGame);
  showGame();
  form.append(
    h("h2", {}, "Create a table"),
    h("label", {}, "game ", gameSelect),
    h("label", {}, "deals in the match ", deals),
    h("label", {}, "seed ", seedInput, h("small", {}, " the same seed deals the same cards (empty: random)")),
    h("label", {}, daily, " practise yesterday's daily deal (today's is played once, below)"),
    h("label", {}, hints, " hints at this table"),
    seatsBox,
    optionsBox,
    h("button", { type: "submit", id: "create" }, "Create the table"),
  );
  const dailyBox = h("section", { id: "daily-deal" },
    h("h2", {}, "Today's daily deal"),
    h("p", {}, "One deal, the same cards and the same bots for everyone; the engine scores it for the leaderboard."),
    h("button", { id: "play-daily", type: "button", onclick: () => void playDaily(gameSelect.value) }, "Play today's deal"),
    board);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const kinds = [...form.querySelectorAll<HTMLSelectElement>(".seat-kind")].map((s) => s.value);
    const me = kinds.indexOf("me");
    if (me < 0 || kinds.filter((k) => k === "me").length > 1) return say("choose exactly one seat for yourself", true);
    const options: Record<string, unknown> = {};
    for (const input of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      const raw = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
      const value = input.dataset.type === "int" || input.dataset.type === "float" ? Number(raw) : raw;
      if (String(value) !== input.dataset.default) options[input.dataset.option!] = value;
    }
    try {
      const t = await client.createTable(gameSelect.value, {
        options,
        dealsPerMatch: Number(deals.value),
        seats: kinds.map((k) => (k === "me" ? "human" : (k as SeatName))),
        settings: { hintsDisabled: !hints.checked },
        // a day's daily deal is practised once the day is over (UTC): the server refuses today's
        ...(daily.checked ? { dailyDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) }
          : { seed: seedInput.value ? BigInt(seedInput.value) : Math.floor(Math.random() * 2 ** 31) }),
      });
      const invites = [...t.invites].map(([seat, i]) => ({ seat, url: location.origin + i.link }));
      sessionStorage.setItem(`stich:invites:${t.tableId}`, JSON.stringify(invites));
      sessionStorage.setItem(`stich:watch:${t.tableId}`, location.origin + t.spectatorLink);
      keep({ table: t.tableId, seat: me, token: t.tokens.get(me)! });
      await start();
    } catch (err) {
      say(reasonOf(err), true);
    }
  });
  app.replaceChildren(form, dailyBox);
}

/** Today's daily deal of a game for this browser's player (the same table all day). */
async function playDaily(game: string): Promise<void> {
  try {
    const d = await client.dailyDeal(game, playerToken());
    localStorage.setItem("stich:player-token", d.playerToken);
    keep({ table: d.tableId, seat: d.seat, token: d.token, daily: { game, date: d.date } });
    await start();
  } catch (err) {
    // a token this server does not know (another server, a rotated key): ask for a new identity next time
    if (err instanceof StichError && err.reason === "BAD_PLAYER_TOKEN") localStorage.removeItem("stich:player-token");
    say(reasonOf(err), true);
  }
}

/** A game's daily leaderboard (date "": today), filled in when the server answers. */
function leaderboardEl(game: string, date: string): HTMLElement {
  const box = h("div", { class: "leaderboard", "data-game": game }, h("h3", {}, `Leaderboard: ${game}`), h("p", {}, "…"));
  client.leaderboard(game, date).then((b) => {
    box.replaceChildren(h("h3", {}, `Leaderboard: ${b.game}, ${b.date} (${b.total} ${b.total === 1 ? "player" : "players"})`),
      b.entries.length
        ? h("table", { class: "board" }, h("tr", {}, h("th", {}, "rank"), h("th", {}, "player"), h("th", {}, "score")),
          ...b.entries.map((e) => h("tr", { class: "entry" }, h("td", {}, String(e.rank)), h("td", {}, e.nickname), h("td", {}, String(e.score)))))
        : h("p", {}, "nobody has played it yet today"));
  }, (err) => box.replaceChildren(h("p", {}, `leaderboard unavailable: ${reasonOf(err)}`)));
  return box;
}

/** After the daily deal: enter the engine's score under a nickname, then show the board. */
function dailySubmitEl(seat: Seat): HTMLElement {
  const d = seat.daily!;
  const nick = h("input", { id: "nickname", maxlength: "24", value: localStorage.getItem("stich:nickname") ?? "" }) as HTMLInputElement;
  const box = h("section", { id: "daily-submit" }, h("h2", {}, "Daily deal: the leaderboard"));
  const board = h("div", {}, leaderboardEl(d.game, d.date));
  const form = h("form", {}, h("label", {}, "nickname ", nick), h("button", { id: "submit-daily", type: "submit" }, "Enter my score"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      localStorage.setItem("stich:nickname", nick.value);
      const r = await client.submitDaily(seat.table, seat.token, nick.value, playerToken());
      say(`entered: ${r.entry!.score} points, rank ${r.rank}`);
      form.replaceChildren(h("p", { id: "daily-rank" }, `your score ${r.entry!.score}, rank ${r.rank}`));
      board.replaceChildren(leaderboardEl(d.game, d.date));
    } catch (err) {
      say(reasonOf(err), true);
    }
  });
  box.append(form, board);
  return box;
}

function optionInput(o: GameInfo["options"][number]): HTMLElement {
  const def = plain(o.defaultValue);
  const common = { "data-option": o.name, "data-type": o.type, "data-default": String(def), title: o.description };
  let input: HTMLElement;
  if (o.allowed.length) {
    input = h("select", common, ...o.allowed.map(plain).map((v) => h("option", { value: String(v), ...(String(v) === String(def) ? { selected: true } : {}) }, String(v))));
  } else if (o.type === "bool") {
    input = h("input", { ...common, type: "checkbox", ...(def ? { checked: true } : {}) });
  } else {
    input = h("input", { ...common, value: String(def), ...(o.type === "int" || o.type === "float" ? { type: "number", step: "any" } : {}) });
  }
  return h("div", {}, h("label", { title: o.description }, `${o.name} `, input), h("small", {}, ` ${o.description}`));
}

function reasonOf(err: unknown): string {
  return err instanceof StichError ? `${err.message} (${err.reason})` : String(err);
}

// ---- the table -----------------------------------------------------------------------------------
async function table(seat: Seat): Promise<void> {
  let view = await client.view(seat.table, seat.token);
  words = await wordsOf(view.game);
  render(seat, view);
  // live: every event of the table from the version this view shows; each one re-reads the
  // seat's own view (what the seat may see is the server's business, not the page's)
  const stop = new AbortController();
  window.addEventListener("hashchange", () => stop.abort(), { once: true });
  for (;;) {
    try {
      for await (const event of client.watch(seat.table, seat.token, Number(view.version), { signal: stop.signal })) {
        view = await client.view(seat.table, seat.token);
        if (event.version >= view.version) render(seat, view);
      }
      return;
    } catch (err) {
      if (stop.signal.aborted) return;
      say(`lost the table's stream (${reasonOf(err)}); reconnecting…`, true);
      await new Promise((r) => setTimeout(r, 1000));
      view = await client.view(seat.table, seat.token);
      render(seat, view);
    }
  }
}

let shownVersion = -1;

/** "you" for the viewer's own seat, "seat 2" for the others. */
function seatNamer(view: TableView): (s: number) => string {
  return (s) => (s === view.seat ? "you" : `seat ${s}`);
}

/** The calls of the deal so far, each in the game's words: "seat 1 passes; you play a Wenz". */
function callsText(view: TableView): string {
  const name = seatNamer(view);
  return view.actions.filter((a) => a.type !== "play")
    .map((a) => `${name(a.seat)} ${words.call(a, a.seat === view.seat ? "you" : "said", name)}`).join("; ");
}

/** The contract (its JSON with the records' field names) as the game's words put it. */
function contractText(view: TableView, contract: NonNullable<TableView["contract"]>): string {
  return words.contract(toJson(ContractSchema, contract, { useProtoFieldName: true }) as Record<string, unknown>, seatNamer(view));
}

function render(seat: Seat, view: TableView): void {
  if (view.version < shownVersion) return;
  shownVersion = view.version;
  const mine = view.seat !== undefined;
  where.textContent = `— ${view.game}, deal ${view.dealNumber} of ${view.dealsPerMatch}${mine ? `, you are seat ${view.seat}` : " (watching)"}`;
  const status = TableStatus[view.status].toLowerCase().replace(/_/g, " ");
  const parts: (HTMLElement | null)[] = [
    h("section", { id: "status", "data-version": String(view.version), "data-status": String(view.status) },
      `${status}${view.phase ? ` · ${words.phase(view.phase)}` : ""}${view.toAct !== undefined ? ` · seat ${view.toAct} to act` : ""}`),
    seatsEl(view),
    invitesEl(view),
  ];
  if (view.status === TableStatus.WAITING_FOR_DEAL && mine) {
    parts.push(h("section", {}, h("button", { id: "deal", onclick: () => act(seat, () => client.deal(seat.table, seat.token)) }, "Deal")));
  }
  if (view.status === TableStatus.IN_DEAL || view.result) {
    parts.push(h("section", { class: "trick", id: "trick" }, h("h2", {}, "Trick"), trickEl(view.trick, view.seats.length)));
    const done = view.tricks.filter((t) => t.winner !== undefined);
    if (done.length) parts.push(h("section", { class: "last", id: "last-trick" }, h("h2", {}, `Last trick (won by seat ${done.at(-1)!.winner})`), trickEl(done.at(-1), view.seats.length)));
  }
  if (view.contract) parts.push(h("section", { id: "contract" }, `contract: ${contractText(view, view.contract)}`));
  if (view.shown) parts.push(h("section", { id: "shown" }, `face up, seat ${view.shown.seat}: ${view.shown.cards.map(cardLabel).join(" ")}`));
  const said = callsText(view);
  if (said) parts.push(h("section", { id: "auction" }, `calls: ${said}`));
  if (mine && view.hand.length) parts.push(handEl(seat, view));
  if (mine && view.toAct === view.seat && view.legal.length && !view.settings?.hintsDisabled) parts.push(hintEl(seat, view));
  const calls = view.legal.filter((a) => a.type !== "play");
  if (mine && calls.length) {
    parts.push(h("section", { id: "calls" }, h("h2", {}, "Your call"),
      ...calls.map((a) => h("button", { class: "call", "data-type": a.type, "data-call": a.call, onclick: () => act(seat, () => client.act(seat.table, seat.token, a)) }, actionLabel(a)))));
  }
  if (view.result) parts.push(resultEl(view));
  if (view.result && seat.daily) parts.push(dailySubmitEl(seat));
  app.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
}

/** The hard bot's evaluation of each legal action, asked for by the player (Hint). */
let shownHint: { version: number; el: HTMLElement } | null = null;

function hintEl(seat: Seat, view: TableView): HTMLElement {
  if (shownHint && shownHint.version === view.version) return shownHint.el;
  const box = h("section", { id: "hint" });
  const ask = h("button", { id: "hint-button", type: "button" }, "Hint");
  ask.addEventListener("click", async () => {
    ask.setAttribute("disabled", "");
    ask.textContent = "thinking…";
    try {
      const r = await client.hint(seat.table, seat.token, { timeoutMs: 60_000 });
      if (r.version !== view.version) {            // the table moved on while the bot thought
        box.replaceChildren(h("p", {}, "the table moved on: ask again"));
        return;
      }
      box.replaceChildren(h("h2", {}, "Hint"), h("ol", { class: "hints" }, ...r.hints.map((x) =>
        h("li", { class: "hint" }, `${actionLabel(x.action!)}: ${x.expected >= 0 ? "+" : ""}${x.expected.toFixed(1)} points expected, ${(x.win * 100).toFixed(0)}% to win`))));
    } catch (err) {
      box.replaceChildren(h("p", {}, `no hint: ${reasonOf(err)}`));
    }
  });
  box.append(ask);
  shownHint = { version: view.version, el: box };
  return box;
}

function seatsEl(view: TableView): HTMLElement {
  return h("section", { id: "seat-list" }, h("h2", {}, "Seats"), h("table", {},
    h("tr", {}, h("th", {}, "seat"), h("th", {}, "who"), h("th", {}, "match total")),
    ...view.seats.map((kind, i) => h("tr", { class: `seat${view.toAct === i ? " to-act" : ""}` },
      h("td", {}, String(i)),
      h("td", {}, `${SeatKind[kind].toLowerCase().replace(/_/g, " ")}${view.seat === i ? " (you)" : ""}${view.dealer === i ? " · dealer" : ""}`),
      h("td", { class: "match-total" }, String(view.matchScores[i] ?? 0))))));
}

function invitesEl(view: TableView): HTMLElement | null {
  const invites = JSON.parse(sessionStorage.getItem(`stich:invites:${view.tableId}`) ?? "[]") as { seat: number; url: string }[];
  const watch = sessionStorage.getItem(`stich:watch:${view.tableId}`);
  if (!invites.length && !watch) return null;
  const row = (label: string, url: string, id: string) =>
    h("div", { class: "invite" }, `${label} `, h("input", { readonly: true, value: url, id }),
      h("button", { onclick: () => navigator.clipboard?.writeText(url).then(() => say("copied")) }, "copy"));
  return h("section", { id: "invites" }, h("h2", {}, "Invite"),
    ...invites.map((i) => row(`seat ${i.seat}:`, i.url, `invite-${i.seat}`)),
    watch ? row("spectators:", watch, "watch-link") : null);
}

function trickEl(trick: Trick | undefined, seats: number): HTMLElement {
  if (!trick || !trick.cards.length) return h("div", { class: "cards" }, "—");
  return h("div", { class: "cards", "data-leader": String(trick.leader) },
    ...trick.cards.map((c, i) => h("span", {}, h("small", {}, `seat ${(trick.leader + i) % seats}: `), cardEl(c, { tabindex: "-1" }))));
}

function handEl(seat: Seat, view: TableView): HTMLElement {
  const legal = new Map(view.legal.filter((a) => a.type === "play").map((a) => [a.card, a]));
  return h("section", { id: "hand" }, h("h2", {}, "Your hand"), ...view.hand.map((card) => {
    const action = legal.get(card);
    if (action) return cardEl(card, { class: `card legal${card.endsWith("H") || card.endsWith("D") ? " red" : ""}`, onclick: () => act(seat, () => client.play(seat.table, seat.token, card)) });
    // not playable now: the engine says why when it is clicked (the server refuses, nothing changes)
    return cardEl(card, { "aria-disabled": "true", title: "not playable now — click to see why", onclick: () => explain(seat, card) });
  }));
}

async function explain(seat: Seat, card: string): Promise<void> {
  try {
    await client.play(seat.table, seat.token, card, { expectedVersion: Number(shownVersion) });
  } catch (err) {
    say(`${cardLabel(card)}: ${err instanceof StichError ? err.message : String(err)}`, true);
    document.getElementById("message")!.dataset.reason = err instanceof StichError ? err.reason : "";
  }
}

async function act(seat: Seat, run: () => Promise<TableView>): Promise<void> {
  say("");
  try {
    render(seat, await run());
  } catch (err) {
    say(reasonOf(err), true);
  }
}

function resultEl(view: TableView): HTMLElement {
  const r = view.result!;
  return h("section", { id: "result" }, h("h2", {}, `Deal ${view.dealNumber}: the score`),
    h("p", {}, `contract: ${r.contract ? contractText(view, r.contract) : "none"}`),
    h("table", { id: "breakdown" },
      h("tr", {}, h("th", {}, "item"), h("th", {}, "value"), h("th", {}, "count"), h("th", {}, "factor"), h("th", {}, "team")),
      ...r.breakdown.map((b) => h("tr", {}, h("td", {}, words.item(b.item)), h("td", {}, str(b.value)), h("td", {}, str(b.count)), h("td", {}, str(b.factor)), h("td", {}, str(b.team))))),
    h("table", { id: "scores" },
      h("tr", {}, h("th", {}, "seat"), h("th", {}, "card points"), h("th", {}, "this deal"), h("th", {}, "match total")),
      ...r.scores.map((s, i) => h("tr", {}, h("td", {}, String(i)), h("td", {}, str(r.cardPoints[i])), h("td", {}, String(s)), h("td", {}, String(view.matchScores[i] ?? 0))))));
}

function str(v: unknown): string {
  return v === undefined || v === null ? "" : String(v);
}

// ---- start ----------------------------------------------------------------------------------------
async function start(): Promise<void> {
  say("");
  shownVersion = -1;
  let seat: Seat | null = null;
  try {
    seat = await seatFromAddress();
  } catch (err) {
    say(reasonOf(err), true);              // e.g. an invite used already: say so, show the lobby
  }
  try {
    if (seat) await table(seat);
    else await lobby();
  } catch (err) {
    say(reasonOf(err), true);
  }
}
window.addEventListener("hashchange", () => void start());
void start();

export type { Action };
