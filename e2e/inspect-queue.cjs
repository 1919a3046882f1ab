// The inspect page's issuer field and multi-file queue in Chromium
// (playwright-core), run by internal/web's TestInspectQueueInChromium with,
// in the environment:
//   BASE_URL, PLAYWRIGHT_CORE, CHROMIUM; TEAM_EMAIL, TEAM_PASSWORD and
//   TEAM_KEY (an account on Team whose own baseline OWN_ISSUER is trained
//   and matching), OWN_PDF (a document like its samples); QUEUE_PDFS (three
//   files for a queue that completes) and LIMITED_PDFS (three more, of
//   which only the first fits the ANON_LIMIT anonymous allowance left);
//   QUOTA_KEY (a key of an account whose monthly quota is 2, no buffer)
//   and QUOTA_PDFS (four files); SCREENSHOT_DIR (optional).
// It exits non-zero with a message on the first failed expectation.
"use strict";
const path = require("path");
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const { expect, shot, fits390: fits, consoleClean } = require("./lib.cjs");

const base = process.env.BASE_URL;

const fits390 = (page, name) => fits(page, name, { width: 1100, height: 900 });

// issuers lists the issuer field's options by group: [{group, value, text}].
async function issuers(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll("#issuer option")).map((o) => ({
    group: o.parentElement.tagName === "OPTGROUP" ? o.parentElement.id : "", value: o.value, text: o.textContent,
  })));
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true,
    args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems = [], expectedRefusals = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  const requests = [];
  page.on("request", (r) => requests.push({ method: r.method(), url: r.url() }));
  const inspectCalls = () => requests.filter((x) => x.method === "POST" && x.url === base + "/api/v1/inspect").length;
  // Every inspect answer, in order, as the page received it.
  const pending = [];
  page.on("response", (r) => {
    if (r.url() === base + "/api/v1/inspect") pending.push(r.json().catch(() => ({})).then((body) => ({ status: r.status(), body })));
  });
  const answers = async () => Promise.all(pending);

  // Anonymous: the built-in baselines are listed with the page, no own
  // group, and the page asks the API for no list it could not get.
  await page.goto(base + "/");
  await page.waitForFunction(() => document.getElementById("issuer-note").textContent.length > 0);
  let opts = await issuers(page);
  const builtIn = opts.filter((o) => o.group === "issuers-builtin").map((o) => o.value);
  expect(builtIn.includes("public-x-ray-pdftk") && builtIn.includes("public-esig-dss-libreoffice"),
    "the built-in baselines listed anonymously, got " + JSON.stringify(opts));
  expect(!opts.some((o) => o.group === "issuers-own"), "no own baselines listed anonymously");
  expect(/Log in to list your own/.test(await page.textContent("#issuer-note")), "the note says how to see your own");
  expect(!requests.some((x) => x.url.includes("/api/v1/baselines")), "no baselines call without a session");
  const allowance = await page.textContent("#key-details .hint");
  expect(allowance.includes("(" + process.env.ANON_LIMIT + " documents an hour per address)"), "the service's own anonymous allowance stated, got " + allowance);

  // An anonymous inspection with a built-in issuer: the report's baseline
  // block is drawn, in words that agree with it.
  const queueFiles = process.env.QUEUE_PDFS.split(path.delimiter);
  await page.setInputFiles("#file", queueFiles[0]);
  await page.selectOption("#issuer", "public-x-ray-pdftk");
  expect((await page.textContent("#issuer-note")).includes("built in"), "the built-in issuer's note");
  await page.click("#inspect-button");
  await page.waitForSelector("#report:not([hidden])");
  await page.waitForFunction(() => !document.getElementById("baseline-section").hidden);
  let report = (await answers()).at(-1).body;
  let b = report.issuerBaseline;
  expect(b && b.resolved && b.source === "public-specimen" && b.requested === "public-x-ray-pdftk", "a resolved built-in baseline, got " + JSON.stringify(b));
  let line = await page.textContent("#baseline-line");
  const facts = await page.textContent("#baseline-facts");
  expect(facts.includes("built-in (public specimens)") && facts.includes(b.sampleCount + " samples"), "the profile and its samples, got " + facts);
  if (b.matchingActive && b.divergence >= 0.2) {
    expect(line.includes("strays") && b.mismatchedDimensions.every((d) => line.includes(d)), "the deviation in words, got " + line);
    expect(report.signals.some((s) => s.id === "issuer-mismatch"), "the issuer-mismatch signal the line points to");
  } else {
    expect(/consistent|below the 0.20|matching starts/.test(line), "the baseline's answer in words, got " + line);
  }
  expect(await page.isHidden("#queue") && await page.isHidden("#report-file"), "a single file shows no queue");
  await shot(page, "inspect-baseline", "#baseline-section");

  // A queue of three: one row each, one inspect call each, every row done
  // with its band and score; one opened shows its report and pages.
  const before = inspectCalls();
  await page.goto(base + "/");
  await page.setInputFiles("#file", queueFiles);
  expect((await page.textContent("#drop-text")).startsWith("3 files for the queue"), "the three files named");
  await page.click("#inspect-button");
  await page.waitForFunction(() => {
    const rows = document.querySelectorAll("#queue-table tbody tr");
    return rows.length === 3 && Array.from(rows).every((r) => r.dataset.state === "done");
  }, null, { timeout: 60000 });
  expect(inspectCalls() - before === 3, "one inspect call per file, got " + (inspectCalls() - before));
  const queued = (await answers()).slice(-3).map((a) => a.body);
  for (let i = 0; i < 3; i++) {
    const row = page.locator(`#queue-table tbody tr[data-index="${i}"]`);
    const text = await row.textContent();
    const s = queued[i].summary;
    expect(text.includes(path.basename(queueFiles[i])) && text.includes(s.riskBand + ", score " + s.riskScore),
      "row " + (i + 1) + " names its file and its band and score, got " + text);
    expect(/\d bytes/.test(text), "row " + (i + 1) + " gives the size");
  }
  expect((await page.textContent("#queue-status")).startsWith("3 of 3 files done"), "the queue's outcome, got " + (await page.textContent("#queue-status")));
  expect(await page.isHidden("#report"), "no report until a row is opened");
  await shot(page, "inspect-queue", "#queue");
  const callsBeforeOpen = inspectCalls();
  await page.click('#queue-table tbody tr[data-index="1"] button.open');
  await page.waitForSelector("#report:not([hidden])");
  await page.waitForSelector("#pages-section[data-state=done]", { state: "attached" });
  expect((await page.textContent("#report-file")).includes(path.basename(queueFiles[1]) + " (2 of 3 in the queue)"), "the opened file named");
  const s1 = queued[1].summary;
  expect((await page.textContent("#band-title")).includes(s1.riskBand + " (score " + s1.riskScore), "the opened row's report drawn");
  expect(await page.locator("#pages canvas.page-canvas").count() > 0, "its pages drawn");
  expect(await page.locator('#queue-table tbody tr.current[data-index="1"]').count() === 1, "the opened row marked");
  // Another row opens its own report, still without a call.
  await page.click('#queue-table tbody tr[data-index="0"] button.open');
  await page.waitForFunction(([t]) => document.getElementById("band-title").textContent.includes(t),
    [queued[0].summary.riskBand + " (score " + queued[0].summary.riskScore]);
  await page.waitForFunction(() => ["done", "failed"].includes(document.getElementById("pages-section").dataset.state) ||
    /could not be drawn/.test(document.getElementById("pages-status").textContent));
  expect(!/could not be drawn/.test(await page.textContent("#pages-status")) && await page.locator("#pages canvas.page-canvas").count() > 0,
    "the second row opened draws its pages too, got: " + await page.textContent("#pages-status"));
  // A row opened while another still renders: only its own pages show,
  // and the older rendering's end says nothing of it.
  const last = queued[0];
  await page.click('#queue-table tbody tr[data-index="1"] button.open');
  await page.click('#queue-table tbody tr[data-index="0"] button.open');
  await page.waitForFunction(([t]) => document.getElementById("band-title").textContent.includes(t) &&
    document.getElementById("pages-section").dataset.state === "done",
    [last.summary.riskBand + " (score " + last.summary.riskScore]);
  await page.waitForTimeout(500); // let the superseded rendering run out
  const drawn = await page.locator("#pages canvas.page-canvas").count();
  expect(drawn === last.document.pages, "the last opened row's " + last.document.pages + " page(s) alone, got " + drawn);
  expect(!/could not be drawn/.test(await page.textContent("#pages-status")), "no failure said of the row opened last");
  expect(inspectCalls() === callsBeforeOpen, "opening rows sends nothing");
  // Counted messages agree with their number (common.js's dt.count).
  const counted = await page.evaluate(() => [dt.count(1, "entry", "entries"), dt.count(2, "entry", "entries"),
    dt.count(0, "file"), dt.count(1, "box", "boxes"), dt.count(12345, "byte")]);
  expect(JSON.stringify(counted) === JSON.stringify(["1 entry", "2 entries", "0 files", "1 box", "12,345 bytes"]), "dt.count's grammar, got " + counted);
  const summary = await page.textContent("#summary-line");
  expect(/\b1 revision\b/.test(summary) && !/\b1 revisions\b/.test(summary) && /\b0 signals above info/.test(summary),
    "the summary line counted in words, got " + summary);
  await fits390(page, "inspect-queue");

  // A queue past the anonymous allowance: the first file fits, the second
  // is refused with the server's message, the third is not sent.
  const limited = process.env.LIMITED_PDFS.split(path.delimiter);
  await page.goto(base + "/");
  await page.setInputFiles("#file", limited);
  await page.click("#inspect-button");
  expectedRefusals.push(429);
  await page.waitForFunction(() => /^Stopped/.test(document.getElementById("queue-status").textContent), null, { timeout: 60000 });
  const states = await page.evaluate(() => Array.from(document.querySelectorAll("#queue-table tbody tr")).map((r) => r.dataset.state));
  expect(JSON.stringify(states) === JSON.stringify(["done", "error", "not sent"]), "done, error, not sent, got " + states);
  const refusal = (await answers()).at(-1);
  expect(refusal.status === 429 && refusal.body.error === "rate_limited", "the anonymous limit refused the second, got " + JSON.stringify(refusal));
  const errorRow = await page.textContent('#queue-table tbody tr[data-index="1"]');
  expect(errorRow.includes(refusal.body.message), "the row says the server's message, got " + errorRow);
  const stopped = await page.textContent("#queue-status");
  expect(stopped.includes(refusal.body.message) && stopped.includes("1 file not sent") && stopped.includes("1 of 3 files done"),
    "the queue says why it stopped and what was not sent, got " + stopped);
  expect((await page.textContent('#queue-table tbody tr[data-index="2"]')).includes("Not sent"), "the third row not sent");
  await shot(page, "inspect-queue-stopped", "#queue");

  // A keyed queue past the account's quota: two done, the third refused
  // (quota_exceeded, its message), the fourth not sent.
  await page.goto(base + "/");
  await page.setInputFiles("#file", process.env.QUOTA_PDFS.split(path.delimiter));
  await page.click("#key-details summary");
  await page.fill("#apikey", process.env.QUOTA_KEY);
  await page.click("#inspect-button");
  expectedRefusals.push(429);
  await page.waitForFunction(() => /^Stopped/.test(document.getElementById("queue-status").textContent), null, { timeout: 60000 });
  const quotaStates = await page.evaluate(() => Array.from(document.querySelectorAll("#queue-table tbody tr")).map((r) => r.dataset.state));
  expect(JSON.stringify(quotaStates) === JSON.stringify(["done", "done", "error", "not sent"]), "done, done, error, not sent, got " + quotaStates);
  const overQuota = (await answers()).at(-1);
  expect(overQuota.status === 429 && overQuota.body.error === "quota_exceeded", "the quota refused the third, got " + JSON.stringify(overQuota));
  const quotaStatus = await page.textContent("#queue-status");
  expect(quotaStatus.includes(overQuota.body.message) && quotaStatus.includes("1 file not sent") && quotaStatus.includes("2 of 4 files done"),
    "the queue says the quota stopped it, got " + quotaStatus);

  // Signed in on Team: the own baseline is listed above the built-in ones;
  // without a key the page says the inspection needs one and sends
  // nothing; with the key the report says it matched the own profile.
  await page.goto(base + "/login");
  await page.fill("input[name=email]", process.env.TEAM_EMAIL);
  await page.fill("input[name=password]", process.env.TEAM_PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(base + "/account");
  await page.goto(base + "/");
  const ownIssuer = process.env.OWN_ISSUER;
  await page.waitForSelector(`#issuers-own option[value="${ownIssuer}"]`, { state: "attached" });
  opts = await issuers(page);
  const ownOpt = opts.find((o) => o.group === "issuers-own" && o.value === ownIssuer);
  expect(ownOpt && ownOpt.text.includes("Acme Bank statements") && ownOpt.text.includes("5 samples"), "the own baseline listed, got " + JSON.stringify(opts));
  expect(opts.filter((o) => o.group === "issuers-builtin").length === builtIn.length, "the built-in ones still listed");
  await page.setInputFiles("#file", process.env.OWN_PDF);
  await page.selectOption("#issuer", ownIssuer);
  expect((await page.textContent("#issuer-note")).includes("only with one of your API keys"), "the own issuer's note");
  expect(await page.evaluate(() => document.getElementById("key-details").open), "the key field opened");
  expect(await page.isHidden("#issuer-other-label"), "no slug field for a listed issuer");
  const callsBeforeKey = inspectCalls();
  await page.click("#inspect-button");
  const needKey = await page.textContent("#inspect-status");
  expect(/enter one of your API keys/.test(needKey), "the page asks for a key, got " + needKey);
  expect(inspectCalls() === callsBeforeKey, "nothing sent without the key");
  await page.fill("#apikey", process.env.TEAM_KEY);
  await page.click("#inspect-button");
  await page.waitForFunction(() => /your own/.test(document.getElementById("baseline-facts").textContent));
  b = (await answers()).at(-1).body.issuerBaseline;
  expect(b && b.resolved && b.source === "customer" && b.matchingActive, "the own profile answered, got " + JSON.stringify(b));
  line = await page.textContent("#baseline-line");
  expect(line === "This document is consistent with " + ownIssuer + "'s genuine documents.", "consistent with the own baseline, got " + line);
  await shot(page, "inspect-issuer", "#inspect-form");

  // A typed issuer that is not a slug is refused before any call.
  await page.selectOption("#issuer", "+other");
  expect(await page.isVisible("#issuer-other-label"), "the slug field for another issuer");
  await page.fill("#issuer-other", "Acme Bank");
  const callsBeforeTyped = inspectCalls();
  await page.click("#inspect-button");
  expect(/lower-case letters/.test(await page.textContent("#inspect-status")), "the slug rule said");
  expect(inspectCalls() === callsBeforeTyped, "nothing sent for a bad slug");
  // A typed slug no profile has: the call is made, and the block says so.
  await page.fill("#issuer-other", "no-such-bank");
  await page.click("#inspect-button");
  await page.waitForFunction(() => /no-such-bank/.test(document.getElementById("baseline-line").textContent));
  b = (await answers()).at(-1).body.issuerBaseline;
  expect(b && !b.resolved && b.reason === "no_profile", "no profile for the typed slug, got " + JSON.stringify(b));
  line = await page.textContent("#baseline-line");
  expect(line.includes("neither the key's account nor the built-in ones have it"), "the unresolved issuer in words, got " + line);

  consoleClean(problems, expectedRefusals);
  await browser.close();
  console.log("inspect-queue e2e: ok");
})().catch((e) => {
  console.error("inspect-queue e2e: " + e.message);
  process.exit(1);
});
