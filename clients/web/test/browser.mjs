// The page in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core), as a
// player uses it: a whole deal of each game by taps against easy bots, each game twice: in its
// own (layout, language) (schafkopf 390x844 English, doppelkopf 1280x800 Urdu, sheepshead
// 390x844 Urdu, klaverjas 1280x800 English), then the same deal in the other layout and language,
// so every game is played at both sizes, in English and in Urdu. Each run asserts the others'
// calls appear in words, the breakdown is in words, its rows' figures are recorded (with the
// server's result, for tests/test_web_page.py to add them up) and the deal's scores add up to
// the match totals, an illegal card is explained (the first game's contract and
// breakdown are read again after switching to German); at 390x844 nothing scrolls
// sideways and every control is at least 44 px; an axe-core scan finds no serious or critical
// violation; the card-pattern switch and the rules switch (a game's presets, named in words)
// survive a reload, the table then plays the preset's options (GetView) and a rules change
// starts a new table. Then a friend joins by invite link and sees the same trick (seats read
// "Seat 1" and up, the viewer "You"); the daily deal is played and entered on the leaderboard.
// Screenshots go to STICH_SCREENSHOTS.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const url = process.env.STICH_URL;
const shots = process.env.STICH_SCREENSHOTS ?? tmpdir();
const only = process.env.STICH_GAMES ? process.env.STICH_GAMES.split(",").filter((g) => g !== "none") : ["schafkopf", "doppelkopf", "sheepshead", "klaverjas"];
assert.ok(url, "STICH_URL must name the server's HTTP door");
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// (layout, language) of each game's run; a game not listed gets the next of these in turn
// and seed: Sheepshead's 4 lets this seat pick (then bury by taps), Doppelkopf's 21 gives it an Armut
const RUNS = { schafkopf: [PHONE, "en-GB", 1], doppelkopf: [DESKTOP, "ur-PK", 21], sheepshead: [PHONE, "ur-PK", 4], klaverjas: [DESKTOP, "en-GB", 1] };
const CYCLE = Object.values(RUNS);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

const notFound = [];
function watchRequests(page) {
  page.on("response", (r) => { if (r.status() === 404) notFound.push(r.url()); });
}

async function version(page) {
  return Number(await page.getAttribute("#status", "data-version"));
}

/** Start a game from the lobby: seat 0 is "you", the others easy bots at the quick pace. */
async function createTable(page, game, others = [], seed = 1, pace = "0") {
  await page.goto(url + "/");
  await page.selectOption("#game", game);
  await page.selectOption("#pace", pace);
  await page.locator("#more summary").click();
  await page.fill("#seed", String(seed));
  const kinds = page.locator(".seat-kind");
  const n = await kinds.count();
  for (let i = 1; i < n; i++) await kinds.nth(i).selectOption(others[i - 1] ?? "bot:easy");
  await page.click("#create");
  await page.waitForSelector("#status", { state: "attached" });
}

/** Everything a player could tap or type in is at least 44 px each way (a checkbox counts by
 *  its label), and nothing scrolls sideways. */
async function checkPhoneLayout(page, where) {
  const [scroll, width, small] = await page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll("button, select, input, summary, a")) {
      const target = el.matches("input[type=checkbox]") ? el.closest("label") : el;
      const r = target.getBoundingClientRect();
      if (r.width && r.height && (r.width < 43.5 || r.height < 43.5)) small.push(`${el.tagName}#${el.id}.${el.className} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
    }
    return [document.documentElement.scrollWidth, window.innerWidth, small];
  });
  assert.ok(scroll <= width, `${where}: the page scrolls sideways (${scroll} > ${width})`);
  assert.deepEqual(small, [], `${where}: tap targets under 44 px`);
}

async function axe(page, where) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  });
  assert.deepEqual(found, [], `${where}: axe-core found serious or critical violations`);
}

/** The contrast of the focus ring against the felt, as the browser computes the colours. */
async function focusRingContrast(page) {
  return page.evaluate(() => {
    const el = document.querySelector("#hand .card, button");
    el.focus();
    const rgb = (s) => s.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
      .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
    const ring = lum(rgb(getComputedStyle(el).outlineColor));
    const felt = lum(rgb(getComputedStyle(document.body).backgroundColor));
    return (Math.max(ring, felt) + 0.05) / (Math.min(ring, felt) + 0.05);
  });
}

/** A screenshot in this run's layout and one in the other (the page re-flows, no reload). */
async function bothLayouts(page, viewport, name, fullPage) {
  for (const v of [viewport, viewport === PHONE ? DESKTOP : PHONE]) {
    await page.setViewportSize(v);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, name.replace("%", v === PHONE ? "phone" : "desktop")), fullPage });
  }
  await page.setViewportSize(viewport);
}

/** Act once as this page's seat if it is to act: a call button (naming a game rather than
 *  passing), an exchange by tapping cards then confirming, else a legal card. */
async function actOnce(page, run) {
  const before = await version(page);
  if (await page.locator("#confirm-exchange").count()) {
    // tap cards until as many are chosen as the exchange takes, then confirm; a set the rules
    // refuse is explained, and the next try starts one card further on
    const need = Number(await page.getAttribute("#confirm-exchange", "data-need"));
    const cards = await page.$$eval("#hand .card.choosable:not([aria-disabled=true])", (bs) => bs.map((b) => b.dataset.card));
    const start = run.exchangeTries = (run.exchangeTries ?? -1) + 1;
    for (let k = 0; k < need; k++) await page.click(`#hand .card[data-card="${cards[(start + k) % cards.length]}"]`);
    await page.click("#confirm-exchange");
    run.exchanged = true;
  } else if (await page.locator("#calls button.call").count()) {
    const picked = await page.evaluate(() => {
      const buttons = [...document.querySelectorAll("#calls button.call")];
      const pick = buttons.find((b) => ["pick", "armut"].includes(b.dataset.call))
        ?? buttons.find((b) => !["pass", "decline"].includes(b.dataset.call)) ?? buttons[0];
      pick?.click();
      return pick?.dataset.call;
    });
    if (!picked) return false;
  } else {
    const legal = page.locator("#hand button.card.legal");
    if (!(await legal.count())) return false;
    if (!run.explained && (await page.locator('#hand button.card[aria-disabled="true"]').count())) {
      const before = await version(page);
      if (await page.evaluate(() => { const c = document.querySelector('#hand button.card[aria-disabled="true"]'); c?.click(); return !!c; })) {
        await page.waitForFunction(() => document.getElementById("message").dataset.reason);
        const reason = await page.getAttribute("#message", "data-reason");
        assert.ok(reason && reason !== "INTERNAL", reason);
        if (reason !== "STALE_VERSION") {
          const text = await page.innerText("#message");
          assert.ok(!text.includes(reason), `the refusal shows its key: ${text}`);
          run.explained = text;
        }
        assert.equal(await version(page), before, "an illegal card changed the table");
        await page.evaluate(() => { document.getElementById("message").dataset.reason = ""; });
      }
    }
    if (!run.keyboard) {
      // keyboard play: focus the first legal card and press Enter
      await page.evaluate(() => document.querySelector("#hand button.card.legal")?.focus());
      await page.keyboard.press("Enter");
      run.keyboard = true;
    } else if (!(await page.evaluate(() => { const c = document.querySelector("#hand button.card.legal"); c?.click(); return !!c; }))) return false;
  }
  try {
    await page.waitForFunction((v) => Number(document.getElementById("status")?.dataset.version) > v || document.getElementById("message")?.dataset.reason, before, { timeout: 20000 });
  } catch {
    return false;
  }
  await page.evaluate(() => { const m = document.getElementById("message"); if (m) m.dataset.reason = ""; });
  return true;
}

const RAW_KEY = /\b[a-z]+_[a-z_]+\b/;     // an engine key such as re_announced, picker_team_wins

const started = Date.now();
const checks = {};
let n = 0;
// each game twice: its own run, then the other layout in the other language (the same deal),
// so that every game is played by taps at 390x844 and at 1280x800, in English and in Urdu
const OTHER_LOCALE = { "en-GB": "ur-PK", "ur-PK": "en-GB" };
const plan = only.flatMap((game) => {
  const [viewport, locale, seed] = RUNS[game] ?? CYCLE[n++ % CYCLE.length];
  return [[game, viewport, locale, seed, true], [game, viewport === PHONE ? DESKTOP : PHONE, OTHER_LOCALE[locale] ?? "en-GB", seed, false]];
});
for (const [game, viewport, locale, seed, first] of plan) {
  const layout = viewport === PHONE ? "phone" : "desktop";
  const context = await browser.newContext({ viewport, locale, reducedMotion: "reduce" });
  const page = await context.newPage();
  watchRequests(page);
  // a trick with two cards or more and not yet done, seen by the page itself: at the quick pace
  // the bots' cards of a trick the player leads can all arrive between two looks of the loop
  // below (one such run saw none in a whole deal), so the loop's look is not the only witness
  await page.addInitScript(() => {
    const look = () => {
      if (document.querySelectorAll("#trick .played").length >= 2 && document.querySelector("#trick:not(.done)")) window.__stichSawTrick = true;
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const run = {};
  await page.goto(url + "/");
  await page.waitForSelector("#lobby");
  const dir = await page.getAttribute("html", "dir");
  assert.equal(dir, locale.startsWith("ur") ? "rtl" : "ltr", `${game}: the language did not follow the browser`);
  if (viewport === PHONE) await checkPhoneLayout(page, `${game} lobby`);
  await createTable(page, game, [], seed);
  await page.click("#deal");
  await page.waitForSelector("#hand .card");
  if (game === only.at(-1) && first) {
    // the card faces: the other pattern, kept over a reload
    const face = () => page.$eval("#hand .card", (c) => c.innerHTML);
    const first = await face();
    const other = (await page.$eval("#hand .card svg", (svg) => svg.innerHTML.includes("#e0a800") || svg.innerHTML.includes("#2e7d32") || svg.innerHTML.includes("#a0622a"))) ? "french" : "german";
    await page.selectOption("#pattern", other);
    await page.waitForFunction((f) => document.querySelector("#hand .card").innerHTML !== f, first);
    await page.reload();
    await page.waitForSelector("#hand .card");
    assert.equal(await page.inputValue("#pattern"), other, "the card pattern was not kept");
    assert.notEqual(await face(), first, "the kept pattern is not drawn");
    const ring = await focusRingContrast(page);
    assert.ok(ring >= 3, `focus ring contrast ${ring.toFixed(2)} < 3`);
  }
  const until = Date.now() + 60_000;
  let turnSaid = "";
  for (let i = 0; Date.now() < until && !(await page.locator("#result").count()); i++) {
    turnSaid ||= await page.innerText("#turn");
    if (!run.mid && (await page.locator("#trick .played").count()) >= 2 && (await page.locator("#trick:not(.done)").count())) {
      if (first) await bothLayouts(page, viewport, `${game}-%-playing.png`, false);
      if (viewport === PHONE) await checkPhoneLayout(page, `${game} mid-deal`);
      await axe(page, `${game} mid-deal`);
      run.mid = true;
    }
    if (game === only[0] && first && !run.hinted && (await page.locator("#hint-button").count()) && (await page.locator("#hand button.card.legal").count())) {
      // the hard bot's evaluation of every legal card, from this seat's view
      await page.click("#hint-button");
      await page.waitForSelector("#hint li.hint, #hint p", { timeout: 60000 });
      // a card held twice (Doppelkopf) is one action: the hint lists each legal action once
      const [hints, legal, calls] = await page.$$eval("#app", ([app]) => [app.querySelectorAll("#hint li.hint").length,
        new Set([...app.querySelectorAll("#hand button.card.legal")].map((b) => b.getAttribute("data-card"))).size,
        app.querySelectorAll("#calls button.call").length]);
      if (hints) {
        assert.equal(hints, legal + calls);
        await page.screenshot({ path: path.join(shots, "hint.png") });
        run.hinted = true;
      }
    }
    if (!checks.gap && (await page.locator("#hand .card.gap").count())) {
      // once the card order is fixed, a hand of trumps and other cards shows a gap between them
      checks.gap = game;
    }
    // the bots may end the deal (and the button go) while it is tapped: then a later deal shows it
    if (!checks.lastTrick && (await page.locator("#last-trick-button").count())
        && (await page.click("#last-trick-button", { timeout: 3000 }).then(() => page.waitForSelector("#last-trick .card", { timeout: 3000 })).then(() => true, () => false))) {
      assert.equal(await page.locator("#last-trick figure").count(), await page.locator("#seat-list, #table .seat").count());
      checks.lastTrick = game;
      await page.click("#last-trick-button", { timeout: 3000 }).catch(() => {});
    }
    if (!checks.still) {
      // this context prefers reduced motion: the card does not move in (read in one step: the
      // bots' next card may replace the element between a count and a read)
      const animation = await page.evaluate(() => {
        const f = document.querySelector("#trick .played.fresh");
        return f?.isConnected ? getComputedStyle(f).animationName : null;
      });
      if (animation !== null) {
        assert.equal(animation, "none");
        checks.still = game;
      }
    }
    if (!(await actOnce(page, run))) await page.waitForTimeout(30);
  }
  if (game === only[0] && first) assert.ok(run.hinted, "no hint was ever shown");
  await page.waitForSelector("#result #scores tbody tr", { timeout: 30000 });
  assert.ok(run.mid || (await page.evaluate(() => window.__stichSawTrick === true)), `${game}: never saw a trick in play`);
  assert.ok(turnSaid, `${game}: the live region never said whose turn it is`);
  // the others' calls, in words, each shown by its seat and in the history
  const me = 0;
  const said = await page.$$eval("#auction li", (lis) => lis.map((li) => [Number(li.dataset.seat), li.textContent]));
  assert.ok(said.some(([s]) => s !== me), `${game}: no other seat's call shown: ${JSON.stringify(said)}`);
  for (const [, text] of said) assert.ok(!RAW_KEY.test(text), `${game}: a call reads as a key: ${text}`);
  assert.ok(await page.locator(`#table .seat:not(#seat-${me}) .said`).count(), `${game}: no seat shows what it said`);
  // the breakdown in words, the scores consistent with the match totals (a one-deal match)
  const items = await page.$$eval("#breakdown tbody tr", (rows) => rows.map((r) => [r.dataset.item, r.cells[0].textContent]));
  assert.ok(items.length, `${game}: no itemised breakdown`);
  for (const [key, text] of items) assert.ok(!RAW_KEY.test(text) && (text.toLowerCase() !== key || !key.includes("_")), `${game}: breakdown item ${key} reads ${text}`);
  const scores = await page.$$eval("#scores tbody tr", (rows) => rows.map((r) => [r.querySelector(".deal-score").textContent, r.querySelector(".match-total").textContent].map((x) => Number(x.replace(/[^\d-]/g, "")))));
  const lines = await page.$$eval("#score-lines li", (lis) => lis.map((li) => Number(li.dataset.score)));
  assert.deepEqual(scores.map(([d]) => d), lines, `${game}: the score lines and the table disagree`);
  for (const [deal, total] of scores) assert.equal(deal, total, `${game}: a one-deal match total is not the deal's score`);
  // what the rows say and the scores beside them, with the server's result of the same deal:
  // tests/test_web_page.py adds the rows up by the game's rules (tests/breakdown.py)
  const rows = await page.$$eval("#breakdown tbody tr", (trs) => trs.map((r) => {
    const row = { item: r.dataset.item };
    for (const key of ["value", "count", "factor", "team"]) if (r.dataset[key] !== undefined) row[key] = Number(r.dataset[key]);
    return row;
  }));
  if (process.env.STICH_BREAKDOWNS) {
    const seat = await page.evaluate(() => JSON.parse(localStorage.getItem(`stich:${decodeURIComponent(location.hash.slice("#table=".length))}`)));
    const server = (await rpc("GetView", { tableId: seat.table, token: seat.token })).view.result;
    appendFileSync(process.env.STICH_BREAKDOWNS, JSON.stringify({ game, rows, scores: lines, server }) + "\n");
  }
  const contract = await page.innerText("#result-contract");
  assert.ok(!/[a-z]+ [a-zA-Z]+ (true|false)\b|·.*\b\w+ \d+$/.test(contract), `${game}: the contract reads as keys: ${contract}`);
  assert.ok(!(await page.innerText("header")).match(/ 0 of /), `${game}: the header says deal 0`);
  if (first) await bothLayouts(page, viewport, `${game}-%-breakdown.png`, true);
  await axe(page, `${game} breakdown`);
  if (viewport === PHONE) await checkPhoneLayout(page, `${game} breakdown`);
  if (game === only[0] && first) {
    // the game's own words follow the language switch: the same contract and breakdown in German
    await page.selectOption("#lang", "de");
    await page.waitForFunction(() => document.documentElement.lang === "de");
    const german = await page.$$eval("#breakdown tbody tr", (rows) => rows.map((r) => [r.dataset.item, r.cells[0].textContent]));
    const contractDe = await page.innerText("#result-contract");
    assert.deepEqual(german.map(([key]) => key), items.map(([key]) => key), `${game}: the breakdown changed with the language`);
    assert.notDeepEqual(german.map(([, text]) => text), items.map(([, text]) => text), `${game}: the breakdown is not in German: ${JSON.stringify(german)}`);
    assert.notEqual(contractDe, contract, `${game}: the contract is not in German: ${contractDe}`);
    for (const [key, text] of german) if (key === "total") assert.equal(text, "Summe");
    console.log(`${game} in German: ${contractDe} · ${german.map(([, text]) => text).join(" · ")}`);
  }
  if (game === "sheepshead" || game === "doppelkopf") assert.ok(run.exchanged, `${game}: the exchange was not made by tapping cards`);
  assert.equal(await page.locator("#play-again").count(), 1, `${game}: no way to play again after the match`);
  console.log(`${game} (${layout}, ${locale}): played by taps; illegal card: ${run.explained ? "explained" : "not met"}; exchange: ${run.exchanged ? "by tapping" : "none"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await context.close();
}

if (only.length === 4) {
  assert.ok(checks.gap, "no hand ever showed the gap after its trumps");
  assert.ok(checks.lastTrick, "the last trick was never shown on demand");
  assert.ok(checks.still, "no card came into a trick");
}

// the rules switch: a game's presets (named in words) and its options; a choice is kept on the
// device over a reload, the table started then plays its options (the view says so), and a
// change at the table starts a new game with the new rules
async function rpc(method, body) {
  const r = await fetch(`${url}/stich.v1.StichService/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await r.text();
  assert.equal(r.status, 200, `${method}: ${text}`);
  return JSON.parse(text);
}
/** The options of the table the page shows, as GetView gives them to its seat. */
async function tableOptions(page) {
  const seat = await page.evaluate(() => JSON.parse(localStorage.getItem(`stich:${decodeURIComponent(location.hash.slice("#table=".length))}`)));
  return (await rpc("GetView", { tableId: seat.table, token: seat.token })).view.options;
}
{
  // STICH_RULES_GAME picks another game for this part (each game declares presets)
  const game = process.env.STICH_RULES_GAME ?? ["klaverjas", "doppelkopf", "schafkopf", "sheepshead"].find((g) => only.includes(g)) ?? "klaverjas";
  const began = Date.now();
  const info = (await rpc("ListGames", {})).games.find((g) => g.name === game);
  const defaults = Object.fromEntries(info.options.map((o) => [o.name, o.defaultValue ?? null]));
  const context = await browser.newContext({ viewport: DESKTOP, locale: "nl-NL" });
  const page = await context.newPage();
  watchRequests(page);
  await page.goto(url + "/");
  await page.selectOption("#game", game);
  await page.locator("#rules summary").click();
  const offered = await page.locator("#preset option").evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(offered.map(([v]) => v), ["", ...info.presets.map((p) => p.name)], `${game}: the presets offered`);
  for (const [value, text] of offered.slice(1)) assert.equal(text, info.words.nl.presets[value], `${game}: preset ${value} is not named in Dutch`);
  const preset = info.presets[0];
  await page.selectOption("#preset", preset.name);
  // the options below follow the preset
  for (const [name, value] of Object.entries(preset.options)) {
    const box = page.locator(`#rule-${name}`);
    if (!(await box.count())) continue;
    if ((await box.getAttribute("type")) === "checkbox") assert.equal(await box.isChecked(), value, `${game}: ${name} did not follow the preset`);
    else assert.equal(await box.inputValue(), JSON.stringify(value), `${game}: ${name} did not follow the preset`);
  }
  await page.reload();
  await page.selectOption("#game", game);
  assert.equal(await page.inputValue("#preset"), preset.name, "the preset was not kept over a reload");
  assert.equal(await page.getAttribute("html", "lang"), "nl");
  await page.selectOption("#lang", "de");
  await page.reload();
  await page.waitForSelector("#lobby");
  assert.equal(await page.getAttribute("html", "lang"), "de", "the chosen language was not kept");
  assert.equal(await page.innerText("#create"), "Spiel starten");
  await createTable(page, game);
  // the new table plays the preset's options, and its rules switch names it
  const playing = await tableOptions(page);
  for (const [name, value] of Object.entries(preset.options)) assert.deepEqual(playing[name], value, `${game}: the table does not play ${preset.name}'s ${name}`);
  assert.equal(await page.getAttribute("#rules", "data-preset"), preset.name);
  assert.ok((await page.innerText("#rules summary")).includes(info.words.de.presets[preset.name]), "the table's rules switch does not name its preset");
  // at the table: back to the standard rules starts a new game with the game's defaults
  const table = page.url();
  await page.locator("#rules summary").click();
  await page.selectOption("#preset", "");
  await page.waitForFunction((t) => location.href !== t, table);
  await page.waitForSelector("#status", { state: "attached" });
  assert.equal(await page.inputValue("#preset"), "");
  const standard = await tableOptions(page);
  for (const name of Object.keys(preset.options)) assert.deepEqual(standard[name], defaults[name], `${game}: ${name} is not the default again`);
  // one option on its own is still a choice, and starts a new game with it
  await page.locator("#rules summary").click();
  const option = page.locator("#rules [data-option]").first();
  const name = await option.getAttribute("data-option");
  const next = page.url();
  if ((await option.getAttribute("type")) === "checkbox") await option.click();
  else {
    const values = await option.locator("option").evaluateAll((os) => os.map((o) => o.value));
    await option.selectOption(values.find((v) => v !== JSON.stringify(defaults[name])));
  }
  await page.waitForFunction((t) => location.href !== t, next);
  await page.waitForSelector("#status", { state: "attached" });
  assert.notDeepEqual((await tableOptions(page))[name], defaults[name], `${game}: the option ${name} was not played`);
  // a preset that plays the match to a target score (Klaverjas's to_1500): the header names the
  // target the server sends (TableView.match_target), not a number of deals
  const toTarget = info.presets.find((p) => p.options.match_target);
  if (toTarget) {
    await page.goto(url + "/");
    await page.selectOption("#game", game);
    await page.locator("#rules summary").click();
    await page.selectOption("#preset", toTarget.name);
    await createTable(page, game);
    await page.click("#deal");
    await page.waitForSelector("#hand .card");
    const target = String(toTarget.options.match_target);
    const header = await page.innerText("#where");
    assert.ok(header.includes(target), `${game}: the header "${header}" does not name the target ${target}`);   // no match has 1500 deals
    console.log(`rules switch (${game}): preset ${toTarget.name} plays to ${target}: "${header}"`);
  }
  await context.close();
  console.log(`rules switch (${game}): preset ${preset.name} kept over a reload and played; the standard rules and the option ${name} each started a new game (${((Date.now() - began) / 1000).toFixed(1)} s)`);
}

// a friend joins by invite link and sees the same trick live
const host = await (await browser.newContext({ viewport: DESKTOP })).newPage();
// at the calm pace (0.7 s before each bot action), so the thinking bot is seen
await createTable(host, "schafkopf", ["open", "bot:easy", "bot:easy"], 1, "700");
const invite = await host.inputValue("#invite-1");
// seats are counted from 1 for people (the protocol's seat 1 is "Seat 2"), the viewer is "You"
assert.equal(await host.innerText('label[for="invite-1"]'), "Seat 2");
assert.equal(await host.innerText("#seat-1 .name strong"), "Seat 2");
assert.equal(await host.innerText("#seat-0 .name strong"), "You");
assert.match(invite, /\/#join=iv_[^&]+$/);
assert.match(await host.inputValue("#watch-link"), /\/#watch=sp_/);
const friend = await (await browser.newContext({ viewport: PHONE })).newPage();
await friend.goto(invite);
await friend.waitForSelector("#status", { state: "attached" });
assert.ok(!friend.url().includes("join="), "the invite code stayed in the address bar");
const late = await (await browser.newContext()).newPage();
await late.goto(invite);
await late.waitForSelector("#lobby");
const refusal = await late.innerText("#message");
assert.ok(refusal && !/INVITE_USED|JoinTable/.test(refusal), `the spent invite reads: ${refusal}`);
await host.waitForSelector("#deal");
await host.click("#deal");
let thinking = false;
for (const until = Date.now() + 60_000; Date.now() < until;) {
  thinking ||= (await host.locator("#table .seat.to-act .thinking").count()) > 0 && /…/.test(await host.innerText("#turn"));
  if (thinking && (await host.locator("#trick:not(.done) .played").count()) >= 2) break;
  const acted = (await actOnce(host, { explained: true, keyboard: true })) || (await actOnce(friend, { explained: true, keyboard: true }));
  if (!acted) await host.waitForTimeout(30);
}
const shown = async (p) => p.evaluate(() => [document.getElementById("status")?.dataset.version,
  [...document.querySelectorAll("#trick .played")].map((f) => `${f.dataset.seat}:${f.querySelector(".card").dataset.card}`).join(" ")]);
let settled = null;
for (const until = Date.now() + 30_000; Date.now() < until;) {
  const [h1, f1] = [await shown(host), await shown(friend)];
  await host.waitForTimeout(200);
  const [h2, f2] = [await shown(host), await shown(friend)];
  if (JSON.stringify([h1, f1, h2]) === JSON.stringify([h2, f2, f2])) { settled = h2; break; }
}
assert.ok(thinking, "a bot's turn never showed it thinking");
assert.ok(settled && settled[1], `the friend's page never showed what the host's showed: ${JSON.stringify(settled)}`);
await friend.screenshot({ path: path.join(shots, "friend-same-trick.png"), fullPage: true });
console.log(`friend joined by invite link and saw the same trick (${((Date.now() - started) / 1000).toFixed(1)} s)`);

// announcements out of turn (Doppelkopf's DDV preset, option announcements "any_time"): while
// the friend is to act, the host's page offers the host's team announcement and makes it; the
// friend stays to act and both pages show the new version
{
  const began = Date.now();
  const host = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchRequests(host);
  await host.goto(url + "/");
  await host.selectOption("#game", "doppelkopf");
  await host.locator("#rules summary").click();
  await host.selectOption("#preset", "ddv");
  await createTable(host, "doppelkopf", ["open", "bot:easy", "bot:easy"], 2, "700");
  assert.equal((await tableOptions(host)).announcements, "any_time", "the DDV preset did not reach the table");
  const friend = await (await browser.newContext({ viewport: PHONE })).newPage();
  watchRequests(friend);
  await friend.goto(await host.inputValue("#invite-1"));
  await friend.waitForSelector("#status", { state: "attached" });
  await host.waitForSelector("#deal");
  await host.click("#deal");
  /** The page's own turn, played plainly: no reservation, no Armut, a legal card. */
  const ownTurn = async (page) => {
    const before = await version(page);
    const tapped = await page.evaluate(() => {
      const pick = document.querySelector('#calls button.call[data-call="healthy"], #calls button.call[data-call="decline"], #hand button.card.legal');
      pick?.click();
      return !!pick;
    });
    if (!tapped) return false;
    await page.waitForFunction((v) => Number(document.getElementById("status")?.dataset.version) > v, before, { timeout: 20000 });
    return true;
  };
  let made = null;
  for (const until = Date.now() + 90_000; Date.now() < until && !made;) {
    const offer = host.locator('#calls button.call[data-type="announce"]');
    if ((await host.locator("#seat-1.to-act").count()) && (await offer.count())) {
      assert.equal(await host.innerText("#calls.out-of-turn h2"), "You may announce now, before your turn");
      const call = await offer.first().getAttribute("data-call");
      const before = await version(host);
      await offer.first().click();
      await host.waitForFunction((v) => Number(document.getElementById("status")?.dataset.version) > v, before, { timeout: 20000 });
      const seat = await host.evaluate(() => JSON.parse(localStorage.getItem(`stich:${decodeURIComponent(location.hash.slice("#table=".length))}`)));
      const view = (await rpc("GetView", { tableId: seat.table, token: seat.token })).view;
      const last = view.actions.at(-1);
      assert.deepEqual([last.seat ?? 0, last.type, last.call], [0, "announce", call], `the out-of-turn ${call} is not the table's last action`);
      assert.equal(view.toAct, 1, "an out-of-turn announcement moved the turn");
      assert.equal(await host.locator("#seat-1.to-act").count(), 1, "the host's page lost the friend's turn");
      await friend.waitForFunction((v) => Number(document.getElementById("status")?.dataset.version) >= v, before + 1, { timeout: 20000 });
      assert.ok((await friend.locator("#hand button.card.legal").count()) > 0, "the friend is no longer offered a card");
      made = call;
    } else if (!(await ownTurn(host)) && !(await ownTurn(friend))) await host.waitForTimeout(30);
  }
  assert.ok(made, "the host was never offered an announcement while the friend was to act");
  await host.screenshot({ path: path.join(shots, "out-of-turn-announcement.png"), fullPage: true });
  await host.context().close();
  await friend.context().close();
  console.log(`announcement out of turn: the host said ${made} while the friend was to act (${((Date.now() - began) / 1000).toFixed(1)} s)`);
}

// the daily deal: played by taps against the day's bots, the engine's score on the board
const player = await (await browser.newContext({ viewport: DESKTOP })).newPage();
await player.goto(url + "/");
await player.selectOption("#game", "klaverjas");
await player.click("#play-daily");
await player.waitForSelector("#status", { state: "attached" });
for (const until = Date.now() + 60_000; Date.now() < until && !(await player.locator("#result").count());) {
  if (!(await actOnce(player, { explained: true, keyboard: true }))) await player.waitForTimeout(30);
}
await player.waitForSelector("#daily-submit #nickname", { timeout: 30000 });
assert.equal(await player.locator("#hint-button").count(), 0, "the daily deal gives no hints");
await player.fill("#nickname", "browser test");
await player.click("#submit-daily");
await player.waitForSelector("#daily-rank");
await player.waitForFunction(() => [...document.querySelectorAll("#daily-submit .board tr.entry")].some((r) => r.textContent.includes("browser test")), null, { timeout: 30000 });
await player.screenshot({ path: path.join(shots, "daily-leaderboard.png"), fullPage: true });
console.log("daily deal played and entered on the leaderboard");
assert.deepEqual(notFound, [], "requests answered 404 (a missing icon?)");
console.log(`all browser checks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await browser.close();
