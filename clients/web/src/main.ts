/**
 * The stich web table: a lobby to start a game, invite links, joining by link, spectating, the
 * daily deal with its leaderboard, and the table itself, all drawn from the server's views (the
 * engine decides what is legal, how the hand is sorted and why a card may not be played; the
 * game's words, served by ListGames, name cards, calls, contracts and breakdown items; the page's
 * own words come from the catalogues in i18n.ts). Plain DOM through one small `h` helper.
 *
 * Links carry secrets only in the fragment (#join=<invite code>, #watch=<spectator id>), which
 * browsers never send to a server; the page claims the seat (JoinTable), keeps the seat's token
 * in localStorage and leaves only #table=<id> in the address bar, so a reload resumes the seat.
 * The reader's choices (language, card faces, each game's rules) are kept on the device too.
 */
import {
  StichClient,
  StichError,
  TableStatus,
  SeatKind,
  GameWords,
  ContractSchema,
  type Action,
  type SeatName,
  type GameInfo,
  type TableView,
  type Trick,
} from "@stich/client";
import { webTransport } from "@stich/client/web";
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import { t, setLang, lang, LANGS, reasonText, num, type Lang } from "./i18n.js";
import { cardSvg, type Pattern } from "./cards.js";

/** A google.protobuf.Value message as the plain value it holds. */
function plain(v: Value | undefined): unknown {
  return v === undefined ? null : toJson(ValueSchema, v);
}

const client = new StichClient(webTransport(location.origin), { timeoutMs: 15_000 });
const app = document.getElementById("app")!;
const message = document.getElementById("message")!;
const where = document.getElementById("where")!;
const turn = document.getElementById("turn")!;
const controls = document.getElementById("controls")!;

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>;

/** A DOM element: h("button", {class: "card", onclick: …}, "Q♠"). */
function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

function say(text: string, error = false): void {
  message.textContent = text;
  message.dataset.kind = error ? "error" : "info";
}

/** An error in words: the catalogue's sentence for its reason, else the server's sentence. */
function errorText(err: unknown): string {
  if (err instanceof StichError) return reasonText(err.reason, err.message);
  return String(err instanceof Error ? err.message : err);
}

function sayError(err: unknown): void {
  say(errorText(err), true);
  message.dataset.reason = err instanceof StichError ? err.reason : "";
}

// ---- the reader's choices, kept on the device -------------------------------------------------
type PatternChoice = "game" | Pattern;

function patternChoice(): PatternChoice {
  const kept = localStorage.getItem("stich:pattern");
  return kept === "german" || kept === "french" ? kept : "game";
}

/** A seat as people count them: "Seat 1" for the protocol's seat 0. */
function seatNumber(s: number): string {
  return t("seat_n", { n: s + 1 });
}

/** A game's rules as the reader chose them (only the options changed from the defaults). */
function rulesOf(game: string): Record<string, unknown> {
  try {
    return JSON.parse(localStorage.getItem(`stich:rules:${game}`) ?? "{}") as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** An option that carries the match's state (declared so: a doubler's multiplier, the Stock's
 *  pot, bock rounds; and the match's length, which the lobby sets), not a rule to switch. */
function matchState(game: string, name: string): boolean {
  return name === "deals_per_match" || gameInfo.get(game)?.options.find((o) => o.name === name)?.status === "match_state";
}

/** The rules `options` set for `game`, without match state and without values at the game's
 *  defaults: two ways of writing the same rules compare equal. */
function changedRules(game: string, options: Record<string, unknown>): Record<string, unknown> {
  const declared = new Map((gameInfo.get(game)?.options ?? []).map((o) => [o.name, plain(o.defaultValue)]));
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(options).sort()) {
    if (matchState(game, name)) continue;
    if (!declared.has(name) || JSON.stringify(declared.get(name)) !== JSON.stringify(options[name])) out[name] = options[name];
  }
  return out;
}

/** Which of the game's presets `options` are: a preset's name, "" for the game's own rules,
 *  null for a mix of the reader's own. */
function presetOf(game: string, options: Record<string, unknown>): string | null {
  const mine = JSON.stringify(changedRules(game, options));
  if (mine === "{}") return "";
  const found = gameInfo.get(game)?.presets.find((p) => JSON.stringify(changedRules(game, (p.options ?? {}) as Record<string, unknown>)) === mine);
  return found ? found.name : null;
}

/** A preset's name in words (the game's words), else its name. */
function presetName(game: string, name: string): string {
  if (!name) return t("rules_standard");
  const said = gameWords.get(game)?.get("presets", name);
  return typeof said === "string" ? said : name.replace(/_/g, " ");
}

let rerender: () => void = () => {};

/** The language and card-face switches in the header; a change re-draws what is shown. */
function drawControls(): void {
  const language = h("select", { id: "lang" },
    ...Object.entries(LANGS).map(([code, l]) => h("option", { value: code, lang: code, selected: code === lang }, l.name))) as HTMLSelectElement;
  language.addEventListener("change", () => {
    setLang(language.value as Lang);
    for (const [game, w] of gameInfo) gameWords.set(game, new GameWords(w.words, lang));
    words = gameWords.get(currentGame) ?? words;
    drawControls();
    rerender();
  });
  const pattern = h("select", { id: "pattern" },
    ...(["game", "german", "french"] as const).map((p) => h("option", { value: p, selected: p === patternChoice() }, `${t("cards_pattern")}: ${t(`pattern_${p}`)}`))) as HTMLSelectElement;
  pattern.addEventListener("change", () => {
    localStorage.setItem("stich:pattern", pattern.value);
    rerender();
  });
  controls.replaceChildren(h("label", {}, h("span", { class: "label sr-only" }, t("language")), language),
    h("label", {}, h("span", { class: "label sr-only" }, t("cards_pattern")), pattern));
  document.title = t("title");
}

// ---- the game's words (GameInfo.words, from ListGames) --------------------------------------------
const gameInfo = new Map<string, GameInfo>();
const gameWords = new Map<string, GameWords>();
let words = new GameWords(undefined);         // the shown table's game
let currentGame = "";

function learnGames(games: GameInfo[]): void {
  for (const g of games) {
    gameInfo.set(g.name, g);
    gameWords.set(g.name, new GameWords(g.words, lang));
  }
}

async function games(): Promise<GameInfo[]> {
  if (!gameInfo.size) learnGames(await client.listGames());
  return [...gameInfo.values()];
}

/** A game's name in its own words' language: the registry's name, capitalised. */
function gameName(game: string): string {
  return game.charAt(0).toUpperCase() + game.slice(1);
}

/** The faces the reader sees: the chosen pattern, else the game's own. */
function pattern(): Pattern {
  const chosen = patternChoice();
  if (chosen !== "game") return chosen;
  return words.pattern === "german" ? "german" : "french";
}

function cardLabel(code: string): string {
  return words.card(code);
}

/** A card as a button with its drawn face; its name is the game's word for it. */
function cardEl(code: string, attrs: Attrs = {}, tag = "button"): HTMLElement {
  const name = code === "??" ? words.cards([code]) : cardLabel(code);
  const el = h(tag, { ...attrs, class: `card ${attrs.class ?? ""}`.trim(), "data-card": code });
  el.innerHTML = cardSvg(code, pattern());
  // a picture's name is its label; a button's is its (hidden) text, so voice control finds it
  if (tag === "span") el.setAttribute("role", "img"), el.setAttribute("aria-label", name);
  else el.append(h("span", { class: "sr-only" }, name));
  return el;
}

// ---- secrets in the browser ------------------------------------------------------------------
interface Seat {
  table: string;
  seat?: number;
  token: string; // a seat token or the spectator id
  daily?: { game: string; date: string }; // the player's table of a daily deal
}

/** How a table was set up from the lobby: enough to start the next one with other rules. */
interface Setup {
  game: string;
  seats: SeatName[];
  me: number;
  pace: number;
  deals: number;
  hints: boolean;
  rules?: Record<string, unknown>;   // the rules the table was started with (the next one takes the reader's current choice)
}

function fragment(): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

function tableOf(secret: string): string {
  return secret.slice(secret.lastIndexOf(".") + 1);
}

function keep(seat: Seat): void {
  localStorage.setItem(`stich:${seat.table}`, JSON.stringify(seat));
  history.replaceState(null, "", `/#table=${encodeURIComponent(seat.table)}`);
}

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

function playerToken(): string {
  return localStorage.getItem("stich:player-token") ?? "";
}

// ---- starting a table --------------------------------------------------------------------------
/** Create a table as set up, keep the seat and show it. */
async function startTable(setup: Setup, deals: { seed?: bigint; dailyDate?: string } = {}): Promise<void> {
  const rules = rulesOf(setup.game);
  const t0 = await client.createTable(setup.game, {
    options: rules,
    dealsPerMatch: setup.deals,
    seats: setup.seats,
    settings: { hintsDisabled: !setup.hints, botDelayMs: setup.pace },
    ...(deals.dailyDate ? { dailyDate: deals.dailyDate } : { seed: deals.seed ?? BigInt(Math.floor(Math.random() * 2 ** 31)) }),
  });
  const invites = [...t0.invites].map(([seat, i]) => ({ seat, url: location.origin + i.link }));
  sessionStorage.setItem(`stich:invites:${t0.tableId}`, JSON.stringify(invites));
  sessionStorage.setItem(`stich:watch:${t0.tableId}`, location.origin + t0.spectatorLink);
  localStorage.setItem(`stich:setup:${t0.tableId}`, JSON.stringify({ ...setup, rules }));
  localStorage.setItem("stich:last-setup", JSON.stringify(setup));
  keep({ table: t0.tableId, seat: setup.me, token: t0.tokens.get(setup.me)! });
  await start();
}

/** The rules switch of a game: the presets it declares, then each option, set as the reader
 *  chose. `onChange` runs after a choice is kept; `playing`: the rules the shown table was
 *  started with, whose preset the summary names. */
function rulesEl(game: string, onChange: () => void, playing?: Record<string, unknown>): HTMLElement {
  const info = gameInfo.get(game);
  const chosen = rulesOf(game);
  const inForce = playing ? presetOf(game, playing) : null;
  const summary = `${t("rules")}: ${gameName(game)}${inForce ? ` · ${presetName(game, inForce)}` : ""}`;
  const box = h("details", { id: "rules", class: "rules", "data-preset": inForce ?? "" }, h("summary", {}, summary), h("p", { class: "note" }, t("rules_note")));
  const choose = (rules: Record<string, unknown>) => {
    localStorage.setItem(`stich:rules:${game}`, JSON.stringify(rules));
    const again = rulesEl(game, onChange, playing);
    (again as HTMLDetailsElement).open = true;
    box.replaceWith(again);
    onChange();
  };
  if (info?.presets.length) {
    const current = presetOf(game, chosen);
    const choice = h("select", { id: "preset" },
      h("option", { value: "", selected: current === "" }, presetName(game, "")),
      ...info.presets.map((p) => h("option", { value: p.name, selected: current === p.name }, presetName(game, p.name))),
      current === null ? h("option", { value: "*", selected: true, disabled: true }, t("rules_own")) : null) as HTMLSelectElement;
    choice.addEventListener("change", () => {
      const preset = info.presets.find((p) => p.name === choice.value);
      choose(preset ? changedRules(game, (preset.options ?? {}) as Record<string, unknown>) : {});
    });
    box.append(h("label", { class: "rule", for: "preset" }, h("span", {}, t("rules_preset")), choice));
  }
  for (const o of info?.options ?? []) {
    if (o.status === "match_state" || o.name === "deals_per_match") continue;
    const def = plain(o.defaultValue);
    const current = o.name in chosen ? chosen[o.name] : def;
    const id = `rule-${o.name}`;
    let input: HTMLInputElement | HTMLSelectElement;
    if (o.allowed.length) {
      input = h("select", { id, "data-option": o.name },
        ...o.allowed.map(plain).map((v) => h("option", { value: JSON.stringify(v), selected: JSON.stringify(v) === JSON.stringify(current) }, v === null ? "—" : String(v).replace(/_/g, " ")))) as HTMLSelectElement;
    } else if (o.type === "bool") {
      input = h("input", { id, type: "checkbox", "data-option": o.name, checked: current === true }) as HTMLInputElement;
    } else {
      continue;                              // numbers (tariffs, bonuses) stay at the game's values here
    }
    input.addEventListener("change", () => {
      const value = input instanceof HTMLInputElement ? input.checked : JSON.parse(input.value);
      choose(changedRules(game, { ...rulesOf(game), [o.name]: value }));
    });
    box.append(h("label", { class: "rule", for: id }, h("span", {}, o.description.replace(/^./, (c) => c.toUpperCase())), input));
  }
  return box;
}

// ---- lobby ---------------------------------------------------------------------------------------
async function lobby(): Promise<void> {
  where.textContent = "";
  turn.textContent = "";
  const all = await games();
  const last = JSON.parse(localStorage.getItem("stich:last-setup") ?? "null") as Setup | null;
  const form = h("form", { id: "lobby" });
  const gameSelect = h("select", { id: "game", name: "game" },
    ...all.map((g) => h("option", { value: g.name, selected: g.name === last?.game }, gameName(g.name)))) as HTMLSelectElement;
  const seatsBox = h("fieldset", { id: "seats" });
  const rulesBox = h("div", {});
  const deals = h("input", { id: "deals", type: "number", min: "1", max: "1000", value: String(last?.deals ?? 1) }) as HTMLInputElement;
  const seedInput = h("input", { id: "seed", type: "number", min: "0", inputmode: "numeric" }) as HTMLInputElement;
  const pace = h("select", { id: "pace" }, h("option", { value: "700", selected: last?.pace !== 0 }, t("pace_calm")),
    h("option", { value: "0", selected: last?.pace === 0 }, t("pace_quick"))) as HTMLSelectElement;
  const daily = h("input", { id: "daily", type: "checkbox" }) as HTMLInputElement;
  const hints = h("input", { id: "hints", type: "checkbox", checked: last?.hints ?? true }) as HTMLInputElement;
  const board = h("div", { id: "lobby-board" });

  function showGame(): void {
    const g = gameInfo.get(gameSelect.value)!;
    currentGame = g.name;
    words = gameWords.get(g.name)!;
    const kinds: [string, string][] = [["me", t("seat_kind_you")], ["open", t("seat_kind_open")], ["bot:easy", t("seat_kind_bot_easy")],
      ["bot:normal", t("seat_kind_bot_normal")], ["bot:hard", t("seat_kind_bot_hard")]];
    seatsBox.replaceChildren(h("legend", {}, t("opponents")),
      ...Array.from({ length: g.seats }, (_, i) => h("label", { class: "field" }, h("span", { class: "label" }, seatNumber(i)),
        h("select", { class: "seat-kind", "data-seat": String(i) },
          ...kinds.map(([v, label]) => h("option", { value: v, selected: i === 0 ? v === "me" : v === "bot:easy" }, label))))));
    rulesBox.replaceChildren(rulesEl(g.name, () => {}));
    board.replaceChildren(leaderboardEl(g.name, ""));
  }
  gameSelect.addEventListener("change", showGame);
  showGame();
  form.append(
    h("h1", {}, t("create_title")),
    h("label", { class: "field" }, h("span", { class: "label" }, t("game")), gameSelect),
    seatsBox,
    h("label", { class: "field" }, h("span", { class: "label" }, t("bot_pace")), pace),
    h("label", { class: "field" }, h("span", { class: "label" }, t("deals_in_match")), deals),
    rulesBox,
    h("details", { id: "more" }, h("summary", {}, t("more_options")),
      h("label", { class: "field" }, h("span", { class: "label" }, t("seed")), seedInput),
      h("label", { class: "check" }, hints, t("hints_on")),
      h("label", { class: "check" }, daily, t("practise_daily"))),
    h("button", { type: "submit", id: "create", class: "primary" }, t("create")),
  );
  const dailyBox = h("section", { id: "daily-deal" },
    h("h2", {}, t("daily_title")), h("p", {}, t("daily_text")),
    h("button", { id: "play-daily", type: "button", onclick: () => void playDaily(gameSelect.value) }, t("daily_play")),
    board);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const kinds = [...form.querySelectorAll<HTMLSelectElement>(".seat-kind")].map((s) => s.value);
    const me = kinds.indexOf("me");
    if (me < 0 || kinds.filter((k) => k === "me").length > 1) return say(t("choose_one_seat"), true);
    const setup: Setup = { game: gameSelect.value, seats: kinds.map((k) => (k === "me" ? "human" : (k as SeatName))), me,
      pace: Number(pace.value), deals: Number(deals.value) || 1, hints: hints.checked };
    try {
      // a day's daily deal is practised once the day is over (UTC): the server refuses today's
      await startTable(setup, daily.checked ? { dailyDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) }
        : seedInput.value ? { seed: BigInt(seedInput.value) } : {});
    } catch (err) {
      sayError(err);
    }
  });
  rerender = () => void lobby();
  app.replaceChildren(form, dailyBox);
}

async function playDaily(game: string): Promise<void> {
  try {
    const d = await client.dailyDeal(game, playerToken());
    localStorage.setItem("stich:player-token", d.playerToken);
    keep({ table: d.tableId, seat: d.seat, token: d.token, daily: { game, date: d.date } });
    await start();
  } catch (err) {
    if (err instanceof StichError && err.reason === "BAD_PLAYER_TOKEN") localStorage.removeItem("stich:player-token");
    sayError(err);
  }
}

function leaderboardEl(game: string, date: string): HTMLElement {
  const box = h("div", { class: "leaderboard", "data-game": game }, h("p", {}, t("loading")));
  client.leaderboard(game, date).then((b) => {
    box.replaceChildren(h("h3", {}, `${t("leaderboard", { game: gameName(b.game), date: b.date })} (${t(b.total === 1 ? "leaderboard_players_one" : "leaderboard_players", { n: b.total })})`),
      b.entries.length
        ? h("table", { class: "board" }, h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("player")), h("th", {}, t("score")))),
          h("tbody", {}, ...b.entries.map((e) => h("tr", { class: "entry" }, h("td", {}, String(e.rank)), h("td", {}, e.nickname), h("td", {}, num(e.score))))))
        : h("p", {}, t("nobody_yet")));
  }, (err) => box.replaceChildren(h("p", {}, t("leaderboard_unavailable", { why: errorText(err) }))));
  return box;
}

function dailySubmitEl(seat: Seat): HTMLElement {
  const d = seat.daily!;
  const nick = h("input", { id: "nickname", maxlength: "24", autocomplete: "nickname", value: localStorage.getItem("stich:nickname") ?? "" }) as HTMLInputElement;
  const box = h("section", { id: "daily-submit" }, h("h2", {}, t("daily_title")));
  const board = h("div", {}, leaderboardEl(d.game, d.date));
  const form = h("form", {}, h("label", { class: "field" }, h("span", { class: "label" }, t("nickname")), nick),
    h("button", { id: "submit-daily", type: "submit", class: "primary" }, t("enter_score")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      localStorage.setItem("stich:nickname", nick.value);
      const r = await client.submitDaily(seat.table, seat.token, nick.value, playerToken());
      const text = t("entered", { score: r.entry!.score, rank: r.rank });
      say(text);
      form.replaceChildren(h("p", { id: "daily-rank" }, text));
      board.replaceChildren(leaderboardEl(d.game, d.date));
    } catch (err) {
      sayError(err);
    }
  });
  box.append(form, board);
  return box;
}

// ---- the table -----------------------------------------------------------------------------------
async function table(seat: Seat): Promise<void> {
  let view = await client.view(seat.table, seat.token);
  await games();
  currentGame = view.game;
  words = gameWords.get(view.game) ?? new GameWords(undefined);
  rerender = () => render(seat, view, true);
  render(seat, view);
  // live: every event of the table from the version this view shows; each one re-reads the
  // seat's own view (what the seat may see is the server's business, not the page's)
  const stop = watching;
  for (;;) {
    try {
      for await (const event of client.watch(seat.table, seat.token, Number(view.version), { signal: stop.signal })) {
        const next = await client.view(seat.table, seat.token);
        if (stop.signal.aborted) return;
        if (event.version >= next.version) {
          view = next;
          render(seat, view);
        }
      }
      return;
    } catch (err) {
      if (stop.signal.aborted) return;
      say(t("stream_lost"), true);
      await new Promise((r) => setTimeout(r, 1000));
      if (stop.signal.aborted) return;
      view = await client.view(seat.table, seat.token);
      render(seat, view);
    }
  }
}

let shownVersion = -1;
let shownTrick = "";                  // the trick's cards last drawn: new ones move in
let showLast = false;                 // the last trick, on demand
const chosen = new Set<string>();     // cards tapped for an exchange (bury, Armut)
let chosenVersion = -1;

/** "You" for the viewer's own seat, "Seat 2" for the others. */
function seatName(view: TableView, s: number): string {
  return s === view.seat ? t("seat_you") : seatNumber(s);
}

function isBot(kind: SeatKind): boolean {
  return kind === SeatKind.BOT || kind === SeatKind.BOT_EASY || kind === SeatKind.BOT_NORMAL || kind === SeatKind.BOT_HARD;
}

function kindText(kind: SeatKind): string {
  if (isBot(kind)) {
    const level = kind === SeatKind.BOT_EASY ? t("bot_easy") : kind === SeatKind.BOT_HARD ? t("bot_hard") : t("bot_normal");
    return `${t("kind_bot")} (${level})`;
  }
  return kind === SeatKind.OPEN ? t("kind_open") : t("kind_human");
}

/** What a seat said, as a sentence: "Seat 1 passes (weiter)", "You play a Wenz". */
function saidText(view: TableView, a: Action): string {
  const name = (s: number) => seatName(view, s);
  return `${name(a.seat)} ${words.call(a, a.seat === view.seat ? "you" : "said", name)}`;
}

function contractText(view: TableView, contract: NonNullable<TableView["contract"]>): string {
  const text = words.contract(toJson(ContractSchema, contract, { useProtoFieldName: true }) as Record<string, unknown>, (s) => seatName(view, s));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Where a seat sits as the viewer looks at the table: 0 is the viewer (bottom), then round
 *  the table in playing order. */
function position(view: TableView, s: number): number {
  const n = view.seats.length;
  return (s - (view.seat ?? 0) + n) % n;
}

/** Card points each seat has taken in the tricks completed so far (the view's card values). */
function pointsWon(view: TableView): number[] {
  const won = view.seats.map(() => 0);
  for (const trick of view.tricks) {
    if (trick.winner === undefined) continue;
    for (const c of trick.cards) won[trick.winner] += view.points[c] ?? 0;
  }
  return won;
}

/** Whose turn it is, in words, for the live region and the status line. */
function turnText(view: TableView): string {
  if (view.toAct === undefined || view.status !== TableStatus.IN_DEAL) return "";
  if (view.toAct === view.seat) return t("your_turn");
  return isBot(view.seats[view.toAct]) ? t("thinking", { seat: seatName(view, view.toAct) }) : t("waiting_for", { seat: seatName(view, view.toAct) });
}

function render(seat: Seat, view: TableView, again = false): void {
  if (view.version < shownVersion || (view.version === shownVersion && !again)) return;
  if (view.version !== chosenVersion) {
    chosen.clear();
    chosenVersion = view.version;
  }
  shownVersion = view.version;
  const mine = view.seat !== undefined;
  const dealLine = view.dealNumber === 0 ? t("waiting_first_deal")
    : view.matchTarget > 0 ? t("deal_to_target", { n: view.dealNumber, m: view.matchTarget })
    : t("deal_of", { n: view.dealNumber, m: view.dealsPerMatch });
  where.textContent = `${gameName(view.game)} · ${dealLine}${mine ? "" : ` · ${t("watching")}`}`;
  const nowTurn = turnText(view);
  if (turn.textContent !== nowTurn) turn.textContent = nowTurn;
  const parts: Child[] = [
    h("p", { id: "status", "data-version": String(view.version), "data-status": String(view.status), "data-phase": view.phase },
      [view.phase && view.phase !== "over" ? words.phase(view.phase).replace(/^./, (c) => c.toUpperCase()) : "", nowTurn].filter(Boolean).join(" · ")),
    tableEl(view),
  ];
  if (view.result) parts.push(resultEl(view));
  // this browser set the table up: it can start the next one the same way
  const setup = JSON.parse(localStorage.getItem(`stich:setup:${view.tableId}`) ?? "null") as Setup | null;
  if (mine && setup && view.status === TableStatus.MATCH_OVER) {
    parts.push(h("section", { class: "actions" }, h("button", { id: "play-again", class: "primary", type: "button",
      onclick: () => void startTable(setup).catch(sayError) }, t("play_again"))));
  }
  if (view.status === TableStatus.WAITING_FOR_DEAL && mine && !view.seats.includes(SeatKind.OPEN)) {
    parts.push(h("section", { class: "actions" }, h("button", { id: "deal", class: "primary", onclick: () => act(seat, () => client.deal(seat.table, seat.token)) },
      view.dealNumber > 0 ? t("next_deal") : t("deal"))));
  }
  if (mine) parts.push(callsEl(seat, view));
  if (mine && view.hand.length) parts.push(handEl(seat, view));
  if (mine && view.toAct === view.seat && view.legal.length && !view.settings?.hintsDisabled && view.status === TableStatus.IN_DEAL) parts.push(hintEl(seat, view));
  parts.push(infoEl(view));
  if (view.dealsCounted > 0 || view.status === TableStatus.MATCH_OVER) parts.push(matchEl(view));
  if (view.result && seat.daily) parts.push(dailySubmitEl(seat));
  parts.push(invitesEl(view));
  // the rules switch where this browser set the table up (it starts the next one the same way)
  if (mine && setup) parts.push(rulesEl(view.game, () => void startTable(setup).catch(sayError), setup.rules));
  // keyboard play: the focus stays on the control it was on, or, if that card has left the
  // hand, moves to a card that may be played now
  const focused = document.activeElement?.id;
  const wasCard = focused?.startsWith("card-");
  app.replaceChildren(...parts.filter((p): p is HTMLElement => p instanceof HTMLElement));
  const refocus = focused ? document.getElementById(focused) : null;
  if (refocus) refocus.focus();
  else if (wasCard) document.querySelector<HTMLElement>("#hand .card.legal, #calls button, #hand .card")?.focus();
}

/** The table: each seat round it (the viewer at the bottom) and the trick in the middle. */
function tableEl(view: TableView): HTMLElement {
  const n = view.seats.length;
  const won = pointsWon(view);
  const partners = new Set(view.sides?.partners ?? []);
  const opponents = new Set(view.sides?.opponents ?? []);
  const team = (s: number) => view.teams?.re.includes(s) ? words.team("re") : view.teams?.kontra.includes(s) ? words.team("kontra") : "";
  const said = (s: number) => view.actions.filter((a) => a.seat === s && a.type !== "play");
  const seats = view.seats.map((kind, s) => {
    const acting = view.toAct === s && view.status === TableStatus.IN_DEAL;
    const calls = said(s);
    const side = s === view.seat ? "" : partners.has(s) ? t("partner") : opponents.has(s) ? t("opponent") : view.sides ? t("side_unknown") : "";
    return h("section", { class: `seat pos-${position(view, s)}${acting ? " to-act" : ""}${partners.has(s) && s !== view.seat ? " partner" : ""}${opponents.has(s) ? " opponent" : ""}`,
      id: `seat-${s}`, "data-seat": String(s), "aria-label": seatName(view, s) },
      h("div", { class: "name" }, h("strong", {}, seatName(view, s)), " ", h("small", {}, kindText(kind)),
        view.dealer === s ? h("span", { class: "badge" }, t("dealer")) : null,
        team(s) ? h("span", { class: "badge team" }, team(s)) : null),
      acting && isBot(kind) ? h("div", { class: "thinking", "aria-hidden": "true" }, h("span", {}), h("span", {}), h("span", {})) : null,
      side ? h("div", { class: "side" }, side) : null,
      view.status !== TableStatus.WAITING_FOR_DEAL || view.result
        ? h("div", { class: "won" }, `${t(view.tricksWon[s] === 1 ? "tricks_one" : "tricks", { n: view.tricksWon[s] ?? 0 })} · ${t("points", { n: won[s] })}`) : null,
      calls.length ? h("div", { class: "said", "data-seat": String(s) }, calls.map((a) => words.call(a, "name")).join(" · ")) : null);
  });
  return h("div", { id: "table", class: `table seats-${n}` }, ...seats, trickEl(view));
}

/** The trick in the middle, each card before the seat that played it; when no card is down
 *  yet, the trick just completed, faded, with who took it. */
/** The seats that played a trick's `n` cards, read from the play actions (`after`: the plays
 * that came after that trick): a seat that sits out the deal plays no card, so the trick's seats
 * are not always the leader and the seats to his left. */
function trickSeats(view: TableView, n: number, after = 0): number[] {
  const plays = view.actions.filter((a) => a.type === "play");
  return plays.slice(plays.length - after - n, plays.length - after).map((a) => a.seat);
}

function trickEl(view: TableView): HTMLElement {
  const current = view.trick && view.trick.cards.length ? view.trick : undefined;
  const done = view.tricks.filter((tr) => tr.winner !== undefined);
  const lastDone = done.at(-1);
  const shown = current ?? (view.status === TableStatus.IN_DEAL || view.result ? lastDone : undefined);
  const box = h("section", { id: "trick", class: `trick${current ? "" : " done"}`, "aria-label": t("trick") });
  if (!shown) {
    box.append(h("p", { class: "empty" }, view.status === TableStatus.IN_DEAL ? t("no_trick_yet") : ""));
    return box;
  }
  const key = `${view.tableId}:${view.dealNumber}:${view.tricks.length}:`;
  const before = shownTrick.startsWith(key) ? Number(shownTrick.slice(key.length)) : 0;
  shownTrick = key + shown.cards.length;
  const seats = trickSeats(view, shown.cards.length);
  box.append(h("div", { class: "cards", "data-leader": String(shown.leader) },
    ...shown.cards.map((c, i) => {
      const s = seats[i];
      return h("figure", { class: `played pos-${position(view, s)}${current && i >= before ? " fresh" : ""}`, "data-seat": String(s) },
        cardEl(c, {}, "span"), h("figcaption", {}, seatName(view, s)));
    })));
  if (!current && lastDone) box.append(h("p", { class: "caption" }, `${t("last_trick")}: ${t("won_by", { seat: seatName(view, lastDone.winner!) })}`));
  return box;
}

function lastTrickEl(view: TableView, trick: Trick): HTMLElement {
  const seats = trickSeats(view, trick.cards.length, view.trick?.cards.length ?? 0);
  return h("div", { id: "last-trick", class: "last" }, h("h3", {}, `${t("last_trick")}, ${t("won_by", { seat: seatName(view, trick.winner!) })}`),
    h("div", { class: "cards" }, ...trick.cards.map((c, i) => h("figure", {}, cardEl(c, {}, "span"),
      h("figcaption", {}, seatName(view, seats[i]))))));
}

/** The contract, the auction history and the last trick on demand. */
function infoEl(view: TableView): HTMLElement {
  const calls = view.actions.filter((a) => a.type !== "play");
  const done = view.tricks.filter((tr) => tr.winner !== undefined);
  const box = h("section", { id: "info" },
    h("div", { id: "contract" }, h("h2", {}, t("contract")), h("p", {}, view.contract ? contractText(view, view.contract) : t("no_contract"))),
    ...(view.shownHands.length ? view.shownHands : view.shown ? [view.shown] : []).map((hand, i) =>
      h("p", { id: i ? `shown-${i}` : "shown", class: "shown" }, t("face_up", { seat: seatName(view, hand.seat), cards: words.cards(hand.cards) }))),
    h("div", { id: "auction" }, h("h2", {}, t("auction")),
      calls.length ? h("ol", {}, ...calls.map((a) => h("li", { "data-seat": String(a.seat), "data-type": a.type }, saidText(view, a)))) : h("p", {}, t("nothing_said"))));
  if (done.length && view.trick?.cards.length) {
    const toggle = h("button", { id: "last-trick-button", type: "button", "aria-expanded": String(showLast),
      onclick: () => { showLast = !showLast; rerender(); } }, showLast ? t("hide_last_trick") : t("show_last_trick"));
    box.append(toggle);
    if (showLast) box.append(lastTrickEl(view, done.at(-1)!));
  }
  return box;
}

/** The viewer's decisions other than a card: bids, calls and announcements as buttons; an
 *  exchange (bury, Armut) by tapping its cards in the hand, then confirming. */
function callsEl(seat: Seat, view: TableView): HTMLElement | null {
  const calls = view.legal.filter((a) => a.type !== "play" && !(a.type === "exchange" && a.cards.length));
  const exchanges = exchangeGroups(view);
  if (!calls.length && !exchanges.size) return null;
  // a seat not to act is offered only what it may say out of turn (a Doppelkopf announcement
  // under "announcements: any_time"): the heading says so
  const outOfTurn = view.toAct !== view.seat;
  const box = h("section", { id: "calls", class: outOfTurn ? "out-of-turn" : "" }, h("h2", {}, t(outOfTurn ? "out_of_turn" : "your_call")));
  if (calls.length) box.append(h("div", { class: "buttons" }, ...calls.map((a) => h("button", {
    class: "call", type: "button", "data-type": a.type, "data-call": a.call, onclick: () => act(seat, () => client.act(seat.table, seat.token, a)),
  }, words.call(a, "name")))));
  for (const [call, actions] of exchanges) {
    const need = actions[0].cards.length;
    const match = actions.find((a) => a.cards.length === chosen.size && a.cards.every((c) => chosen.has(c)));
    const what = words.call({ type: "exchange", call, cards: [...chosen] }, "name");
    box.append(h("div", { class: "exchange", "data-call": call },
      h("p", {}, `${what}: ${t("choose_cards", { n: need })} `, h("span", { class: "count" }, t("chosen", { k: chosen.size, n: need }))),
      h("button", { id: "confirm-exchange", class: "primary", type: "button", "data-call": call, "data-need": String(need), "aria-disabled": String(chosen.size !== need),
        onclick: () => {
          if (chosen.size !== need) return say(t("choose_cards", { n: need }), true);
          // a set the rules refuse goes to the server anyway: its refusal says why, in words
          void act(seat, () => client.exchange(seat.table, seat.token, call, match ? match.cards : [...chosen], { expectedVersion: view.version }));
        } }, t("confirm", { what: chosen.size ? `${t("seat_kind_you")} ${words.call({ type: "exchange", call, cards: [...chosen] }, "you")}` : what }))));
  }
  return box;
}

/** The legal exchanges that move cards, by call. */
function exchangeGroups(view: TableView): Map<string, Action[]> {
  const groups = new Map<string, Action[]>();
  for (const a of view.legal) {
    if (a.type !== "exchange" || !a.cards.length) continue;
    groups.set(a.call, [...(groups.get(a.call) ?? []), a]);
  }
  return groups;
}

let shownHint: { version: number; el: HTMLElement } | null = null;

function hintEl(seat: Seat, view: TableView): HTMLElement {
  if (shownHint && shownHint.version === view.version) return shownHint.el;
  const box = h("section", { id: "hint" });
  const ask = h("button", { id: "hint-button", type: "button" }, t("hint"));
  ask.addEventListener("click", async () => {
    ask.setAttribute("disabled", "");
    ask.textContent = t("hint_thinking");
    try {
      const r = await client.hint(seat.table, seat.token, { timeoutMs: 60_000 });
      if (r.version !== view.version) {
        box.replaceChildren(h("p", {}, t("hint_moved")));
        return;
      }
      box.replaceChildren(h("h2", {}, t("hint")), h("ol", { class: "hints" }, ...r.hints.map((x) =>
        h("li", { class: "hint" }, t("hint_line", { action: x.action!.type === "play" ? cardLabel(x.action!.card) : words.call(x.action!, "name"),
          points: `${x.expected >= 0 ? "+" : ""}${x.expected.toFixed(1)}`, win: (x.win * 100).toFixed(0) })))));
    } catch (err) {
      box.replaceChildren(h("p", {}, t("no_hint", { why: errorText(err) })));
    }
  });
  box.append(ask);
  shownHint = { version: view.version, el: box };
  return box;
}

/** The viewer's hand as the engine sorts it (trumps first), a gap after the trumps; legal
 *  cards raised; a tap on another card asks the engine why not. In an exchange, a tap
 *  chooses or unchooses the card. */
function handEl(seat: Seat, view: TableView): HTMLElement {
  const legal = new Map(view.legal.filter((a) => a.type === "play").map((a) => [a.card, a]));
  const exchanges = exchangeGroups(view);
  const choosable = new Set([...exchanges.values()].flat().flatMap((a) => a.cards));
  const trumps = new Set(view.order?.trump ?? []);
  const lastTrump = view.hand.reduce((k, c, i) => (trumps.has(c) ? i : k), -1);
  const cards = view.hand.map((card, i) => {
    const id = `card-${card}-${i}`;
    const gap = i === lastTrump + 1 && lastTrump >= 0 && lastTrump < view.hand.length - 1 ? " gap" : "";
    if (exchanges.size) {
      const on = chosen.has(card);
      return cardEl(card, { id, class: `choosable${on ? " chosen" : ""}${gap}`, type: "button", "aria-pressed": String(on), "aria-disabled": String(!choosable.has(card)),
        onclick: () => {
          if (!choosable.has(card)) return;
          if (on) chosen.delete(card);
          else chosen.add(card);
          rerender();
        } });
    }
    if (legal.has(card)) return cardEl(card, { id, class: `legal${gap}`, type: "button", onclick: () => act(seat, () => client.play(seat.table, seat.token, card)) });
    // not playable now: the engine says why when it is tapped (the server refuses, nothing changes)
    return cardEl(card, { id, class: gap.trim(), type: "button", "aria-disabled": "true", onclick: () => explain(seat, card) });
  });
  return h("section", { id: "hand", "aria-label": t("your_hand") }, h("h2", { class: "sr-only" }, t("your_hand")),
    h("div", { class: "cards" }, ...cards),
    legal.size ? h("p", { class: "note" }, t("legal_hint")) : null);
}

async function explain(seat: Seat, card: string): Promise<void> {
  try {
    await client.play(seat.table, seat.token, card, { expectedVersion: Number(shownVersion) });
  } catch (err) {
    say(t("why_not", { card: cardLabel(card), why: errorText(err) }), true);
    message.dataset.reason = err instanceof StichError ? err.reason : "";
  }
}

async function act(seat: Seat, run: () => Promise<TableView>): Promise<void> {
  say("");
  try {
    render(seat, await run());
  } catch (err) {
    sayError(err);
  }
}

/** One breakdown item as words: its name and what it counts ("Laufende × 3: 30"). */
function itemText(view: TableView, b: NonNullable<TableView["result"]>["breakdown"][number]): string[] {
  const r = view.result!;
  const detail: string[] = [];
  if (b.count !== undefined) detail.push(t("times", { n: b.count }));
  if (b.factor !== undefined) detail.push(t("factor", { n: b.factor }));
  if (b.team !== undefined) {
    const seats = r.teams[b.team]?.seats ?? [];
    detail.push(seats.length ? seats.map((s) => seatName(view, s)).join(", ") : t("for_side", { n: b.team + 1 }));
  }
  if (b.losers.length) detail.push(b.losers.map((s) => seatName(view, s)).join(", "));
  return [words.item(b.item).replace(/^./, (c) => c.toUpperCase()), detail.join(" · "), b.value !== undefined ? num(b.value) : ""];
}

/** A breakdown row's figures as data attributes, so that what the row says can be checked
 * against the scores beside it (the browser test adds them up). */
function itemData(b: NonNullable<TableView["result"]>["breakdown"][number]): Record<string, string> {
  const data: Record<string, string> = { "data-item": b.item };
  for (const key of ["value", "count", "factor", "team"] as const) {
    if (b[key] !== undefined) data[`data-${key}`] = String(b[key]);
  }
  return data;
}

function resultEl(view: TableView): HTMLElement {
  const r = view.result!;
  return h("section", { id: "result" }, h("h2", {}, t("result_title", { n: view.dealNumber })),
    h("p", { id: "result-contract" }, r.contract ? contractText(view, r.contract) : t("no_contract")),
    r.breakdown.length ? h("table", { id: "breakdown" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("item")), h("th", { scope: "col" }, ""), h("th", { scope: "col" }, t("value")))),
      h("tbody", {}, ...r.breakdown.map((b) => h("tr", itemData(b), ...itemText(view, b).map((x) => h("td", {}, x)))))) : null,
    h("ul", { id: "score-lines" }, ...r.scores.map((s, i) => h("li", { "data-seat": String(i), "data-score": String(s) },
      t(`${s > 0 ? "wins" : s < 0 ? "loses" : "even"}${i === view.seat ? "_you" : ""}`, { seat: seatName(view, i), n: num(Math.abs(s)) })))),
    h("table", { id: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, t("card_points")), h("th", { scope: "col" }, t("this_deal")), h("th", { scope: "col" }, t("match_total")))),
      h("tbody", {}, ...r.scores.map((s, i) => h("tr", { class: "seat-score", "data-seat": String(i) }, h("th", { scope: "row" }, seatName(view, i)),
        h("td", {}, num(r.cardPoints[i] ?? 0)), h("td", { class: "deal-score" }, num(s)), h("td", { class: "match-total" }, num(view.matchScores[i] ?? 0)))))));
}

/** The match so far: deals played (and the target score, when the game's options play to one)
 *  and each seat's total; at the end, who finished first. */
function matchEl(view: TableView): HTMLElement {
  const totals = view.matchScores;
  const best = Math.max(...totals);
  const over = view.status === TableStatus.MATCH_OVER;
  return h("section", { id: "match" }, h("h2", {}, t("match_summary")),
    h("p", { id: "match-length", "data-target": String(view.matchTarget) }, over ? t("match_over")
      : view.matchTarget > 0 ? t("deals_played_target", { n: view.dealsCounted, m: view.matchTarget })
      : t("deals_played", { n: view.dealsCounted, m: view.dealsPerMatch })),
    over ? h("p", { id: "match-winner" }, t("match_winner", {
      seat: totals.map((n, s) => [n, s]).filter(([n]) => n === best).map(([, s]) => seatName(view, s)).join(", "), n: num(best) })) : null);
}

function invitesEl(view: TableView): HTMLElement | null {
  const invites = JSON.parse(sessionStorage.getItem(`stich:invites:${view.tableId}`) ?? "[]") as { seat: number; url: string }[];
  const watch = sessionStorage.getItem(`stich:watch:${view.tableId}`);
  if (!invites.length && !watch) return null;
  const row = (label: string, url: string, id: string) =>
    h("div", { class: "invite" }, h("label", { for: id }, label), h("input", { readonly: true, value: url, id }),
      h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url).then(() => say(t("copied"))) }, t("copy")));
  return h("details", { id: "invites", open: invites.length > 0 && view.seats.includes(SeatKind.OPEN) }, h("summary", {}, t("invite")),
    ...invites.map((i) => row(seatNumber(i.seat), i.url, `invite-${i.seat}`)),
    watch ? row(t("spectators"), watch, "watch-link") : null);
}

// ---- start ----------------------------------------------------------------------------------------
/** The table being watched: a new start (another table, the lobby) stops it. */
let watching = new AbortController();

async function start(): Promise<void> {
  watching.abort();
  watching = new AbortController();
  say("");
  shownVersion = -1;
  showLast = false;
  let seat: Seat | null = null;
  try {
    seat = await seatFromAddress();
  } catch (err) {
    sayError(err);              // e.g. an invite used already: say so, show the lobby
  }
  try {
    if (seat) await table(seat);
    else await lobby();
  } catch (err) {
    sayError(err);
  }
}

setLang(lang, false);
drawControls();
window.addEventListener("hashchange", () => void start());
void start();
