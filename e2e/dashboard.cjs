// End-to-end test of the dashboard in Chromium, driven by playwright-core.
// Run by internal/web's TestDashboardInChromium, which starts the service
// and passes everything through the environment:
//   BASE_URL, OUTBOX (MAIL_OUTBOX folder), REVISIONS_PDF (a PDF with
//   incremental updates), INJECTION_PDF and INJECTION_TEXT (a PDF whose
//   metadata carries markup), PLAYWRIGHT_CORE (module path), CHROMIUM,
//   SCREENSHOT_DIR (optional: save a PNG of each page there).
// It exits non-zero with a message on the first failed expectation.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require(process.env.PLAYWRIGHT_CORE);

const { expect, shot, fits390: fits, consoleClean } = require("./lib.cjs");

const base = process.env.BASE_URL;

// verifyLink reads the newest mail in the outbox and returns its link,
// undoing quoted-printable soft breaks and escapes.
async function verifyLink() {
  for (let i = 0; i < 50; i++) {
    const files = fs.readdirSync(process.env.OUTBOX).filter((f) => f.endsWith(".eml")).sort();
    if (files.length) {
      const raw = fs.readFileSync(path.join(process.env.OUTBOX, files[files.length - 1]), "utf8");
      const text = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16)));
      const m = text.match(/https?:\/\/\S+\/api\/v1\/auth\/verify\?token=[A-Za-z0-9_%-]+/);
      expect(m, "a verification link in the mail");
      return m[0];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("expected a mail in the outbox");
}

const fits390 = (page, name) => fits(page, name, { width: 1100, height: 800 });

async function status(page, sel, re) {
  await page.waitForFunction(([s, r]) => new RegExp(r).test(document.querySelector(s).textContent), [sel, re.source]);
  return page.textContent(sel);
}

async function login(page, email, password) {
  await page.goto(base + "/login");
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await page.click("button[type=submit]");
  await page.waitForURL(base + "/account");
}

async function inspect(page, file, key) {
  await page.goto(base + "/");
  await page.setInputFiles("#file", file);
  if (key) {
    await page.click("summary");
    await page.fill("#apikey", key);
  }
  await page.click("#inspect-button");
  await page.waitForSelector("#report:not([hidden])");
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true,
    args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  const problems = [], expectedRefusals = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => d.accept());

  // Sign up: the key is shown once.
  const email = "e2e-" + Date.now() + "@example.com", password = "correct horse battery";
  await page.goto(base + "/signup");
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await shot(page, "signup");
  await page.click("button[type=submit]");
  await page.waitForSelector("#new-key:not([hidden])");
  const firstKey = await page.textContent("#new-key-value");
  expect(/^svc_/.test(firstKey), "the new key shown once, got " + firstKey);

  // Verify from the mailed link: GET redirects to /account?verify=, whose
  // script posts the token.
  await page.goto(await verifyLink());
  await page.waitForFunction(() => /confirmed/.test(document.getElementById("verify-status").textContent));
  expect(new URL(page.url()).search === "", "the token gone from the address bar, got " + page.url());
  // One state on the page: the plan card agrees with the confirmation.
  const card = await page.textContent("#plan");
  expect(card.includes("address confirmed") && !card.includes("not confirmed") && (await page.locator("#resend").count()) === 0,
    "the plan card says confirmed once the link is checked, got " + card);
  expect((await page.textContent("#plan-name")) === "Free", "the plan by its listed name");

  // Log out, then log in again.
  await page.click("#logout");
  await page.waitForURL(base + "/login");
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await shot(page, "login");
  await page.click("button[type=submit]");
  await page.waitForURL(base + "/account");
  expect((await page.textContent("#plan")).includes("address confirmed"), "the address confirmed on the account page");

  // Rotate the key: the replacement is shown once.
  await page.click("button.rotate");
  await page.waitForSelector("#rotated:not([hidden])");
  const newKey = await page.textContent("#rotated-key");
  expect(/^svc_/.test(newKey) && newKey !== firstKey, "a new key after rotation");

  // Inspect a PDF with revisions using the new key: timeline drawn.
  await inspect(page, process.env.REVISIONS_PDF, newKey);
  await page.waitForSelector("#timeline-section:not([hidden])");
  expect(await page.locator("#timeline rect[class^=kind-]").count() > 0, "revision bars in the timeline");
  expect((await page.textContent("#disclaimer")).length > 20, "the disclaimer shown");
  expect((await page.textContent("#caution")).includes("Not safe"), "the usage caution shown");
  const facts = await page.textContent("#facts");
  expect(facts.includes("Pages") && facts.includes("Signed") && facts.includes("Revisions"), "the document facts shown, got " + facts);
  await page.click("#raw-toggle");
  expect((await page.textContent("#raw")).includes("\"engineVersion\""), "raw JSON one click away");
  await shot(page, "inspect-report");

  // Usage shows the keyed call.
  await page.goto(base + "/account");
  expect((await page.textContent("#usage-line")).startsWith("1 document: "), "one document in this month's usage, got " + (await page.textContent("#usage-line")));
  expect(await page.locator("#usage svg rect.band-elevated, #usage svg rect.band-high, #usage svg rect.band-low").count() === 1,
    "one day's bar in the usage chart");
  await shot(page, "account");

  // A report carrying markup renders it as text.
  await inspect(page, process.env.INJECTION_PDF, "");
  const signalsText = await page.textContent("#signals");
  expect(signalsText.includes(process.env.INJECTION_TEXT), "the payload shown as text");
  expect(await page.locator("#report img, #report script, #report iframe").count() === 0, "no element made from the payload");
  expect(await page.evaluate(() => window.__pwned === undefined), "the payload's handler never ran");
  await page.click("#signals details summary");
  await shot(page, "inspect-injection");
  // On a 390 px phone the report, evidence open, stays within the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow <= 0, "the report fits 390 px, overflows by " + overflow + " px");
  await shot(page, "inspect-390");
  await page.setViewportSize({ width: 1100, height: 800 });

  // Compare: a revoked key is refused with what to do next; with the
  // current key, an incremental update is recognised and a rewritten file's
  // metadata change (the markup payload) is listed as text.
  await page.goto(base + "/compare");
  await page.setInputFiles("#original", process.env.COMPARE_ORIGINAL);
  await page.setInputFiles("#candidate", process.env.COMPARE_CANDIDATE);
  await page.fill("#compare-key", firstKey);
  await page.click("#compare-button");
  expectedRefusals.push(401);
  const revoked = await status(page, "#compare-status", /key/);
  expect(/rotating one on the account page/.test(revoked), "the refused key says what to do next, got " + revoked);
  await page.fill("#compare-key", newKey);
  await page.click("#compare-button");
  await page.waitForSelector("#result:not([hidden])");
  expect((await page.textContent("#relationship")) === "The candidate extends the original", "the relationship in words");
  expect((await page.textContent("#relationship-detail")).includes("1 revision and"), "the revisions added");
  expect(await page.locator("#findings .finding").count() > 0, "findings listed");
  expect((await page.textContent("#compare-status")).includes("2 documents counted"), "the cost said");
  expect((await page.textContent("#compare-disclaimer")).length > 20, "the comparison disclaimer shown");
  await shot(page, "compare");
  await fits390(page, "compare");
  await page.setInputFiles("#candidate", process.env.INJECTION_PDF);
  await page.click("#compare-button");
  await page.waitForFunction(() => document.getElementById("relationship").textContent === "The candidate was rewritten");
  expect((await page.textContent("#changes")).includes(process.env.INJECTION_TEXT), "the changed title shown as text");
  expect(await page.locator("#result img").count() === 0 && await page.evaluate(() => window.__pwned === undefined), "no markup made from the title");
  await shot(page, "compare-rewritten");
  await fits390(page, "compare-rewritten");

  // Billing (BILLING_ENABLED, no Stripe key here): the plans and packs are
  // listed, and checkout refused says what to do next.
  await page.goto(base + "/account");
  await page.click("a[href='/billing']");
  await page.waitForURL(base + "/billing");
  expect((await page.textContent("#current-plan")) === "Free", "the current plan named");
  expect(await page.locator("#plans button.bill").count() === 3, "checkout for the three paid plans");
  expect(await page.locator("#packs button.bill").count() === 2, "two credit packs on Free");
  expect(await page.locator("button[data-api='/api/v1/billing/portal']").count() === 0, "no portal before a customer exists");
  await page.click("#plans button[data-value=team]");
  expectedRefusals.push(503);
  const unavailable = await status(page, "#billing-status", /Billing/);
  expect(/operator/.test(unavailable), "the refused checkout says what to do next, got " + unavailable);
  await shot(page, "billing");
  await fits390(page, "billing");
  await page.goto(base + "/account?checkout=cancelled");
  await page.waitForURL(base + "/billing");
  expect((await status(page, "#checkout-status", /cancelled/)).includes("nothing was charged"), "a cancelled checkout said");

  // Baselines on the Free plan: the plan says what it allows, the built-in
  // baselines are listed, and a training attempt says what to do next.
  const pdfs = process.env.BASELINE_PDFS.split(path.delimiter);
  await page.goto(base + "/account");
  await page.click("a[href='/baselines']");
  await page.waitForURL(base + "/baselines");
  expect((await page.textContent("#plan-note")).includes("Growth"), "the plan note names the plan that trains");
  await status(page, "#list-status", /built-in/);
  expect(await page.locator("#baseline-table tbody tr").count() > 0, "built-in baselines listed");
  expect(await page.locator("#baseline-table button.delete").count() === 0, "no delete button on a built-in");
  await page.fill("input[name=issuer]", "acme-bank");
  await page.setInputFiles("#train-files", pdfs);
  await page.click("#train-button");
  expectedRefusals.push(403);
  const refused = await status(page, "#train-status", /plan/);
  expect(/Growth plan/.test(refused) && /billing page/.test(refused), "the plan refusal says what to do next, got " + refused);
  await shot(page, "baselines-free");

  await page.goto(base + "/forgot");
  await shot(page, "forgot");
  await page.goto(base + "/");
  await shot(page, "inspect");

  // On the Team plan: train (one file skipped as not a PDF), list, delete.
  await page.click("#logout");
  await page.waitForURL(base + "/login");
  await login(page, process.env.TEAM_EMAIL, process.env.TEAM_PASSWORD);
  await page.goto(base + "/baselines");
  expect(await page.locator("#plan-note").count() === 0, "no plan note on Team");
  await status(page, "#list-status", /built-in/);
  await page.fill("input[name=issuer]", "acme-bank");
  await page.fill("input[name=label]", "Acme Bank statements");
  await page.setInputFiles("#train-files", pdfs);
  await page.click("#train-button");
  const trained = await status(page, "#train-status", /Trained|failed|not/);
  expect(/^Trained acme-bank: 3 of 4 files used, 3 samples/.test(trained), "training reported, got " + trained);
  expect((await page.textContent("#train-skipped")).includes("notes.pdf: skipped, not a PDF"), "the skipped file named");
  await page.waitForSelector("#baseline-table tr[data-issuer='acme-bank'] button.delete");
  expect((await page.textContent("#baseline-table tr[data-issuer='acme-bank']")).includes("Acme Bank statements"), "the label listed");
  await shot(page, "baselines");
  await fits390(page, "baselines");
  await page.click("#baseline-table tr[data-issuer='acme-bank'] button.delete");
  await status(page, "#list-status", /Deleted acme-bank/);
  expect(await page.locator("#baseline-table tr[data-issuer='acme-bank']").count() === 0, "the deleted baseline gone");

  // The supplier ledger: the alias, one supplier whose bank account changed
  // between two forwarded invoices (the Go test sent them), and its alert.
  await page.goto(base + "/account");
  await page.click("a[href='/ledger']");
  await page.waitForURL(base + "/ledger");
  await status(page, "#suppliers-status", /supplier/);
  expect(/^ap-[a-z0-9]+@in\.example$/.test(await page.textContent("#alias")), "the forwarding address shown");
  const supplier = await page.textContent(".supplier");
  expect(supplier.includes("Tax id DE136695976") && supplier.includes("acme.example"), "the supplier and its domain, got " + supplier);
  expect(await page.locator(".supplier ol.chain > li").count() === 2, "two versions in the chain, got " + supplier);
  expect((await page.textContent(".supplier ol.chain > li.current")).includes("account ending 6819"), "the current version last");
  expect((await page.textContent("#alerts")).includes("Payment details changed"), "the change alert listed");
  // Acknowledge it: the row says so, and still does after a reload.
  await page.click("#alerts tr[data-alert] button.ack");
  await page.waitForSelector("#alerts tr.acknowledged");
  expect(/acknowledged \d{4}-/.test(await page.textContent("#alerts tr[data-alert] td.seen")), "the acknowledgement shown");
  await page.reload();
  await status(page, "#suppliers-status", /supplier/);
  expect((await page.textContent("#alerts tr[data-alert] td.seen")).startsWith("acknowledged"), "the acknowledgement kept");
  expect(await page.locator("#alerts button.ack").count() === 0, "no button on an acknowledged alert");
  expect((await page.textContent("#advisory")).startsWith("Advisory only"), "the advisory shown");

  // The alert webhook: an http URL on loopback is accepted only because
  // this is a local server. Setting it shows the secret once; a new alert
  // (the Go test's third invoice, sent through the ingest route) is
  // posted to the Go test's receiver, and the page shows it delivered.
  expect(await page.isHidden("#webhook-remove"), "no Remove button before a webhook is set");
  await page.fill("#webhook-url", "ftp://example.com/hook");
  await page.click("#webhook-save");
  expect(/https/.test(await status(page, "#webhook-status", /https|Saved/)), "a refused URL explained");
  expectedRefusals.push(400);
  await page.fill("#webhook-url", process.env.WEBHOOK_URL);
  await page.click("#webhook-save");
  await status(page, "#webhook-status", /^Saved/);
  const secret = await page.textContent("#webhook-secret");
  expect(/^whsec_[0-9a-f]{64}$/.test(secret) && await page.isVisible("#webhook-secret-box"), "the signing secret shown, got " + secret);
  expect((await page.textContent("#webhook-last")).includes("Nothing delivered yet"), "no delivery yet");
  const ingest = await fetch(base + "/api/v1/ingest/email", { method: "POST",
    headers: { "Content-Type": "application/json", "x-service-ingest-secret": process.env.INGEST_SECRET },
    body: JSON.stringify({ recipient: await page.textContent("#alias"), rawMessage: process.env.WEBHOOK_MESSAGE }) });
  expect(ingest.ok, "the third invoice ingested, got " + ingest.status);
  await page.reload();
  await status(page, "#suppliers-status", /supplier/);
  expect(await page.isHidden("#webhook-secret-box"), "the secret not shown again");
  expect(await page.inputValue("#webhook-url") === process.env.WEBHOOK_URL, "the URL shown");
  const last = await page.textContent("#webhook-last");
  expect(/^Last delivery .* delivered, your endpoint answered 200\.$/.test(last), "the delivery shown, got " + last);
  expect(!(await page.content()).includes(secret), "the secret gone from the page");
  console.log("webhook secret: " + secret);
  await shot(page, "ledger");
  await fits390(page, "ledger");
  await page.click("#webhook-remove");
  await status(page, "#webhook-status", /^Removed/);
  expect(await page.inputValue("#webhook-url") === "" && await page.isHidden("#webhook-last"), "the webhook removed");

  consoleClean(problems, expectedRefusals);
  await browser.close();
  console.log("dashboard e2e: ok");
})().catch((e) => {
  console.error("dashboard e2e: " + e.message);
  process.exit(1);
});
