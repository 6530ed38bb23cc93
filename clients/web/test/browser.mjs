// The page in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
// a full deal of each game against bots played by clicks, only legal cards clickable (an
// illegal one explains why and changes nothing), the breakdown shown; then a friend joins by
// invite link in a second browser context and sees the same trick live. Screenshots go to
// STICH_SCREENSHOTS. Run by tests/test_web_page.py against a server it started (STICH_URL).
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import path from "node:path";

const url = process.env.STICH_URL;
const shots = process.env.STICH_SCREENSHOTS ?? tmpdir();
const only = process.env.STICH_GAMES ? process.env.STICH_GAMES.split(",").filter((g) => g !== "none") : ["schafkopf", "doppelkopf", "sheepshead", "klaverjas"];
assert.ok(url, "STICH_URL must name the server's HTTP door");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  // playwright gives every launch a fresh --user-data-dir of its own (it refuses one passed here)
});

async function version(page) {
  return Number(await page.getAttribute("#status", "data-version"));
}

/** Create a table from the lobby: seat 0 is "you", the others as given; a fixed seed, so
 *  every run plays the same deals (and the bots, seeded from the table, the same cards). */
async function createTable(page, game, others, seed = 1) {
  await page.goto(url + "/");
  await page.selectOption("#game", game);
  await page.fill("#seed", String(seed));
  const kinds = page.locator(".seat-kind");
  const n = await kinds.count();
  for (let i = 1; i < n; i++) await kinds.nth(i).selectOption(others[i - 1] ?? "bot:easy");
  await page.click("#create");
  await page.waitForSelector("#status");
}

/** Act once as this page's seat if it is to act: a call button, else a legal card. */
async function actOnce(page, checkLegal) {
  const before = await version(page);
  const calls = page.locator("#calls button.call");
  if (await calls.count()) {
    // name a game rather than pass (an all-pass auction throws the cards in before any play)
    if (!(await page.evaluate(() => {
      const buttons = [...document.querySelectorAll("#calls button.call")];
      const pick = buttons.find((b) => b.dataset.call !== "pass") ?? buttons[0];
      pick?.click();
      return pick !== undefined;
    }))) return false;
  } else {
    const legal = page.locator("#hand button.card.legal");
    if (!(await legal.count())) return false;
    if (checkLegal) {
      // every card in the hand is either legal (highlighted, clickable) or marked not playable
      const disabled = page.locator('#hand button.card[aria-disabled="true"]');
      // to a user (and to playwright's actionability check) only the legal cards are clickable
      // (read in one go: the page re-renders at every event of the table)
      const cards = await page.$$eval("#hand button.card", (bs) => bs.map((b) => [b.classList.contains("legal"), b.getAttribute("aria-disabled") === "true"]));
      for (const [isLegal, isDisabled] of cards) assert.equal(isLegal, !isDisabled);
      // a card marked not playable, clicked in the page itself (no actionability wait: the
      // page re-renders at every event, and playwright would wait for a node that is gone)
      if ((await disabled.count()) && (await page.evaluate(() => {
        const card = document.querySelector('#hand button.card[aria-disabled="true"]');
        card?.click();
        return card !== null;
      }))) {
        // the click asks the engine why: the server refuses, the page shows its reason
        await page.waitForFunction(() => document.getElementById("message").dataset.reason);
        const reason = await page.getAttribute("#message", "data-reason");
        assert.ok(reason && reason !== "INTERNAL", reason);
        // the forced click carries the page's version: if the table moved on meanwhile (bots act
        // off the request path) the server says STALE_VERSION; otherwise the engine's reason
        if (reason !== "STALE_VERSION") checkLegal.explained = (checkLegal.explained ?? 0) + 1;
        else checkLegal.stale = (checkLegal.stale ?? 0) + 1;
        await page.evaluate(() => { document.getElementById("message").dataset.reason = ""; });
      }
    }
    // clicked in the page, like the cards above: a locator would wait for a node the latest
    // render replaced; if the click met a view that was already gone, the loop comes back
    if (!(await page.evaluate(() => {
      const card = document.querySelector("#hand button.card.legal");
      card?.click();
      return card !== null;
    }))) return false;
  }
  try {
    await page.waitForFunction((v) => Number(document.getElementById("status")?.dataset.version) > v, before, { timeout: 60000 });
  } catch {
    return false;           // nothing came of the click (a stale render): the caller tries again
  }
  return true;
}

const started = Date.now();
const checks = {};
let itemised = 0;
for (const game of only) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await createTable(page, game, []);
  await page.click("#deal");
  await page.waitForSelector("#hand");
  // bounded by time, not by a count of tries: a try returns at once when it is not this seat's
  // turn, so a count would run out while the bots think on a loaded machine
  const until = Date.now() + 180_000;
  for (let i = 0; Date.now() < until && !(await page.locator("#result").count()); i++) {
    if (i === 6) await page.screenshot({ path: path.join(shots, `${game}-playing.png`) });
    if (game === "schafkopf" && !checks.hinted && (await page.locator("#hint-button").count()) && (await page.locator("#hand button.card.legal").count())) {
      // the hard bot's evaluation of every legal card, from this seat's view
      await page.click("#hint-button");
      await page.waitForSelector("#hint li.hint", { timeout: 60000 });
      // read in one go: the hint section belongs to one version of the view (a re-render for a
      // newer version drops it), so its entries are that view's legal actions, one each
      const [hints, legal, calls] = await page.$$eval("#app", ([app]) => [
        app.querySelectorAll("#hint li.hint").length, app.querySelectorAll("#hand button.card.legal").length,
        app.querySelectorAll("#calls button.call").length]);
      if (hints) {
        assert.equal(hints, legal + calls);
        await page.screenshot({ path: path.join(shots, "hint.png") });
        checks.hinted = true;
      }
    }
    if (!(await actOnce(page, checks))) await page.waitForTimeout(50);
  }
  await page.waitForSelector("#result #scores tr td", { timeout: 60000 });
  assert.equal(await page.locator("#scores tr").count(), 1 + (await page.locator("#seat-list tr.seat").count()));
  itemised += (await page.locator("#breakdown tr td").count()) > 0 ? 1 : 0;
  await page.screenshot({ path: path.join(shots, `${game}-breakdown.png`), fullPage: true });
  console.log(`${game}: full deal played by clicks, breakdown shown`);
  await page.close();
}
if (only.length) {
  assert.ok(checks.explained > 0, `no illegal card was ever tried (${JSON.stringify(checks)})`);
  if (only.includes("schafkopf")) assert.ok(checks.hinted, "no hint was ever shown");
  assert.ok(itemised > 0, "no deal showed an itemised breakdown");
}

// a friend joins by invite link and sees the same trick live
const host = await browser.newPage();
await createTable(host, "schafkopf", ["open", "bot:easy", "bot:easy"]);
const invite = await host.inputValue("#invite-1");
assert.match(invite, /\/#join=iv_[^&]+$/);
assert.match(await host.inputValue("#watch-link"), /\/#watch=sp_/);
const friendContext = await browser.newContext();
const friend = await friendContext.newPage();
await friend.goto(invite);
await friend.waitForSelector("#status");
assert.ok(!friend.url().includes("join="), "the invite code stayed in the address bar");
assert.match(friend.url(), /#table=t_/);
// the invite is spent: a third browser gets the engine's reason and the lobby
const late = await (await browser.newContext()).newPage();
await late.goto(invite);
await late.waitForSelector("#lobby");
assert.match(await late.innerText("#message"), /INVITE_USED/);
await host.click("#deal");
const trickText = (p) => p.locator("#trick .cards").innerText();
// play on until a trick in play shows at least two cards (looked at before each action: the
// card that completes a trick clears it), bounded by time
for (const until = Date.now() + 120_000; Date.now() < until;) {
  if ((await host.locator("#trick .cards button").count()) >= 2) break;
  const acted = (await actOnce(host, null)) || (await actOnce(friend, null));
  if (!acted) await host.waitForTimeout(50);
}
// the table stops at the next person's turn; then both pages show the same version, the same
// trick in play and the same last trick (compared once both have settled, not while bots play)
const shown = async (p) => p.evaluate(() => [document.getElementById("status")?.dataset.version,
  document.querySelector("#trick .cards")?.innerText ?? "", document.querySelector("#last-trick .cards")?.innerText ?? "",
  document.querySelectorAll("#trick .cards button, #last-trick .cards button").length]);
let settled = null;
for (const until = Date.now() + 60_000; Date.now() < until;) {
  const [h1, f1] = [await shown(host), await shown(friend)];
  await host.waitForTimeout(300);
  const [h2, f2] = [await shown(host), await shown(friend)];
  if (JSON.stringify(h1) === JSON.stringify(h2) && JSON.stringify(h2) === JSON.stringify(f2) && JSON.stringify(f1) === JSON.stringify(f2)) {
    settled = h2;
    break;
  }
}
assert.ok(settled, "the friend's page never showed what the host's showed");
assert.ok(settled[3] >= 2, `no cards to compare: ${JSON.stringify(settled)}`);
await friend.screenshot({ path: path.join(shots, "friend-same-trick.png"), fullPage: true });
// a reload resumes the seat (the token was kept in the browser, not the address)
await friend.reload();
await friend.waitForSelector("#status");
await friend.waitForFunction(() => /1\s+human \(you\)/.test(document.getElementById("seat-list")?.innerText ?? ""), null, { timeout: 60000 });
console.log(`friend joined by invite link, saw the same trick live, resumed after reload (${((Date.now() - started) / 1000).toFixed(1)} s)`);

// the daily deal: played by clicks against the day's bots, the engine's score on the board
const player = await (await browser.newContext()).newPage({ viewport: { width: 1100, height: 900 } });
await player.goto(url + "/");
await player.selectOption("#game", "klaverjas");
await player.click("#play-daily");
await player.waitForSelector("#status");
for (const until = Date.now() + 180_000; Date.now() < until && !(await player.locator("#result").count());) {
  if (!(await actOnce(player, null))) await player.waitForTimeout(50);
}
await player.waitForSelector("#daily-submit #nickname", { timeout: 60000 });
assert.equal(await player.locator("#hint-button").count(), 0, "the daily deal gives no hints");
await player.fill("#nickname", "browser test");
await player.click("#submit-daily");
await player.waitForSelector("#daily-rank");
await player.waitForFunction(() => [...document.querySelectorAll("#daily-submit .board tr.entry")].some((r) => r.textContent.includes("browser test")), null, { timeout: 60000 });
await player.screenshot({ path: path.join(shots, "daily-leaderboard.png"), fullPage: true });
console.log("daily deal played and entered on the leaderboard");
await browser.close();
