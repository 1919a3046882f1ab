// The dashboard's page views in Chromium (playwright-core), run by
// internal/web's TestSeeItInChromium with, in the environment:
//   BASE_URL, PLAYWRIGHT_CORE, CHROMIUM, FORGED_PDF (a statement whose figure
//   an incremental update edited), GENUINE_PDF (its original), REWRITTEN_PDF
//   (the same edit saved whole by a library), PAGE_W and PAGE_H (the page
//   size in points), API_KEY (for /compare), OFFPAGE_PDF (text wholly left of
//   a 612 x 792 page), OFFICE_FILE and IMAGE_FILE (optional: corpus files),
//   SCREENSHOT_DIR (optional).
// Every check reads canvas pixels: boxes where the report puts them, the
// revision view's difference over the edited figure and nowhere far from
// it, the compare overlay likewise; the document's bytes leave the page in
// one request only; the pages work 390 px wide.
"use strict";
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const { expect, shot, fits390 } = require("./lib.cjs");

const base = process.env.BASE_URL;
const PAGE_W = Number(process.env.PAGE_W), PAGE_H = Number(process.env.PAGE_H);
const HIGH = [0xc8, 0x37, 0x2d];
const problems = [];
let current = null; // the page, for the state shown on failure


// boxesOf is the test's own reading of the report: every {page, box}.
function boxesOf(v, out = []) {
  if (!v || typeof v !== "object") return out;
  if (Array.isArray(v)) { v.forEach((x) => boxesOf(x, out)); return out; }
  if (Number.isInteger(v.page) && Array.isArray(v.box) && v.box.length === 4) { out.push(v); return out; }
  for (const k of Object.keys(v)) boxesOf(v[k], out);
  return out;
}

// pixels returns, for the canvas matched by sel, its size and a function
// of its RGBA at canvas pixel (x, y) within the region [x0, y0, x1, y1]
// (the whole canvas when none is given; reading less keeps it quick).
async function pixels(page, sel, region) {
  const { w, h, rx, ry, rw, data } = await page.evaluate(([s, reg]) => {
    const c = document.querySelector(s);
    if (!c) return { w: 0, h: 0, data: "" };
    const [x0, y0, x1, y1] = reg || [0, 0, c.width, c.height];
    const rx = Math.max(0, Math.floor(x0)), ry = Math.max(0, Math.floor(y0));
    const rw = Math.max(1, Math.min(c.width, Math.ceil(x1) + 1) - rx), rh = Math.max(1, Math.min(c.height, Math.ceil(y1) + 1) - ry);
    const d = c.getContext("2d").getImageData(rx, ry, rw, rh).data;
    let bin = "";
    for (let i = 0; i < d.length; i += 8192) bin += String.fromCharCode.apply(null, d.subarray(i, i + 8192));
    return { w: c.width, h: c.height, rx, ry, rw, data: btoa(bin) };
  }, [sel, region || null]);
  expect(w > 0, "a canvas " + sel);
  const bytes = Buffer.from(data, "base64");
  const rh = bytes.length / 4 / rw;
  const at = (x, y) => {
    x = Math.round(x) - rx; y = Math.round(y) - ry;
    if (x < 0 || y < 0 || x >= rw || y >= rh) return [0, 0, 0, 0];
    const i = (y * rw + x) * 4;
    return [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]];
  };
  return { w, h, at, rx, ry, rw, rh };
}

const near = (p, rgb, tol = 40) => p[3] > 200 && Math.abs(p[0] - rgb[0]) + Math.abs(p[1] - rgb[1]) + Math.abs(p[2] - rgb[2]) <= tol;

// toPixels maps a box in points (origin bottom left) onto a canvas w wide.
function toPixels(box, w) {
  const s = w / PAGE_W;
  return { x0: box[0] * s, x1: box[2] * s, y0: (PAGE_H - box[3]) * s, y1: (PAGE_H - box[1]) * s, s };
}

// checkBoxes: for each box of the report, the overlay of its page carries
// the signal's colour just outside each of the box's four sides, the
// page drawn beneath has ink inside the box, and the overlay is clear far
// from every box.
async function checkBoxes(page, report, where) {
  let checked = 0;
  for (const sig of report.signals) {
    const colour = { high: HIGH }[sig.severity];
    for (const b of boxesOf(sig.evidence)) {
      const sel = `.page-stack[data-page="${b.page}"] canvas.box-canvas`;
      const ov = await pixels(page, sel);
      const r = toPixels(b.box, ov.w);
      const band = Math.max(6, 5 * r.s);
      const found = (xs, ys) => {
        for (const x of xs) for (const y of ys) if (colour ? near(ov.at(x, y), colour) : ov.at(x, y)[3] > 200) return true;
        return false;
      };
      const range = (a, b) => { const out = []; for (let v = Math.floor(a); v <= Math.ceil(b); v++) out.push(v); return out; };
      const midX = [(r.x0 + r.x1) / 2], midY = [(r.y0 + r.y1) / 2];
      expect(found(range(r.x0 - band, r.x0), midY), `${where}: ${sig.id} box's left edge drawn at ${r.x0.toFixed(1)}`);
      expect(found(range(r.x1, r.x1 + band), midY), `${where}: ${sig.id} box's right edge drawn at ${r.x1.toFixed(1)}`);
      expect(found(midX, range(r.y0 - band, r.y0)), `${where}: ${sig.id} box's top edge drawn at ${r.y0.toFixed(1)}`);
      expect(found(midX, range(r.y1, r.y1 + band)), `${where}: ${sig.id} box's bottom edge drawn at ${r.y1.toFixed(1)}`);
      const pg = await pixels(page, `.page-stack[data-page="${b.page}"] canvas.page-canvas`, [r.x0, r.y0, r.x1, r.y1]);
      let ink = 0;
      for (const x of range(r.x0, r.x1)) for (const y of range(r.y0, r.y1)) { const p = pg.at(x, y); if (p[0] + p[1] + p[2] < 650) ink++; }
      expect(ink > 0, `${where}: the page drawn under ${sig.id}'s box (the figure's ink)`);
      // Far from the box (the page's lower right corner region) nothing is drawn.
      expect(ov.at(ov.w - 5, ov.h - 5)[3] === 0 && ov.at(5, ov.h - 5)[3] === 0, `${where}: the overlay clear far from the boxes`);
      checked++;
    }
  }
  return checked;
}

// checkClear: the overlay of every page paints nothing but the boxes'
// outlines (and a selected box's wash): no label over the page, where it
// hid the line above the figure. Each box's title is in its page's caption.
async function checkClear(page, report, where) {
  const byPage = {};
  for (const sig of report.signals) for (const b of boxesOf(sig.evidence)) (byPage[b.page] = byPage[b.page] || []).push({ sig, b });
  for (const [n, list] of Object.entries(byPage)) {
    const ov = await pixels(page, `.page-stack[data-page="${n}"] canvas.box-canvas`);
    const rects = list.map(({ b }) => {
      const r = toPixels(b.box, ov.w), band = Math.max(6, 5 * r.s);
      return [r.x0 - band, r.y0 - band, r.x1 + band, r.y1 + band];
    });
    let stray = 0;
    for (let y = 0; y < ov.h; y += 2) {
      for (let x = 0; x < ov.w; x += 2) {
        if (ov.at(x, y)[3] === 0) continue;
        if (!rects.some(([x0, y0, x1, y1]) => x >= x0 && x <= x1 && y >= y0 && y <= y1)) stray++;
      }
    }
    expect(stray === 0, `${where}: nothing painted over page ${n} beyond its boxes' outlines (${stray} pixels)`);
    const caption = await page.textContent(`figure.page:has(.page-stack[data-page="${n}"]) figcaption`);
    for (const { sig } of list) expect(caption.includes(sig.title), `${where}: page ${n}'s caption names ${sig.title}, got ${caption}`);
  }
}

// checkDiff: the difference canvas lights up pixels, all within `margin`
// points of the edited figure's box and some inside it.
async function checkDiff(page, sel, box, where) {
  const { lit, inside, far } = await page.evaluate(([s, box, W, H]) => {
    const c = document.querySelector(s);
    if (!c) return { lit: -1 };
    const k = c.width / W;
    const r = { x0: box[0] * k, x1: box[2] * k, y0: (H - box[3]) * k, y1: (H - box[1]) * k };
    const m = 6 * k;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let lit = 0, inside = 0, far = 0;
    for (let i = 3, p = 0; i < d.length; i += 4, p++) {
      if (d[i] === 0) continue;
      const x = p % c.width, y = (p / c.width) | 0;
      lit++;
      if (x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1) inside++;
      if (x < r.x0 - m || x > r.x1 + m || y < r.y0 - m || y > r.y1 + m) far++;
    }
    return { lit, inside, far };
  }, [sel, box, PAGE_W, PAGE_H]);
  expect(lit !== -1, "a difference canvas " + sel);
  expect(lit > 10 && inside > 5, `${where}: the difference marks the edited figure (lit ${lit}, inside its box ${inside})`);
  expect(far === 0, `${where}: nothing far from the edited figure marked (${far} of ${lit} pixels)`);
}


(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true,
    args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  current = page;
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  // Every request, with its body, to find which carry the document.
  const requests = [];
  page.on("request", (r) => requests.push({ method: r.method(), url: r.url() }));

  const forged = process.env.FORGED_PDF;
  const inspect = async (file = forged, wait = ["#pages-section", "#revisions-section"]) => {
    await page.goto(base + "/");
    await page.setInputFiles("#file", file);
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/inspect"));
    await page.click("#inspect-button");
    const report = await (await answer).json();
    for (const sel of wait) await page.waitForSelector(sel + "[data-state=done]", { state: "attached" });
    return report;
  };

  // Inspect the forged statement: every box drawn where the report says.
  const report = await inspect();
  const numeric = report.signals.find((s) => s.id === "numeric-edits");
  expect(numeric && numeric.severity === "high", "numeric-edits high on the forged statement");
  const figure = boxesOf(numeric.evidence)[0].box;
  expect(await checkBoxes(page, report, "1100 px") > 0, "at least one box checked");
  await checkClear(page, report, "1100 px");
  const titles = await page.textContent("#box-signals");
  expect(titles.includes(numeric.title), "the signal listed by its title, got " + titles);
  // Each chip counts its signal's places once, though evidence may name a
  // box both in a list of all and in each break.
  for (const sig of report.signals) {
    const distinct = new Set(boxesOf(sig.evidence).map((b) => b.page + ":" + b.box.join(","))).size;
    if (!distinct) continue;
    const chip = await page.textContent(`#box-signals button[data-signal="${report.signals.indexOf(sig)}"]`);
    expect(chip.includes("(" + distinct + (distinct === 1 ? " box)" : " boxes)")), sig.id + "'s chip counts " + distinct + ", got " + chip);
  }

  // Selecting the signal fills its box and scrolls to it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click(`#box-signals button:has-text("${numeric.title}")`);
  const ov = await pixels(page, '.page-stack[data-page="1"] canvas.box-canvas');
  const r = toPixels(figure, ov.w);
  const centre = ov.at((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
  expect(centre[3] > 0 && centre[0] > centre[2], "the selected signal's box filled in its colour, got " + centre);
  const seen = await page.evaluate(([y0, y1]) => {
    const c = document.querySelector('.page-stack[data-page="1"] canvas.box-canvas').getBoundingClientRect();
    const k = c.height / document.querySelector('.page-stack[data-page="1"] canvas.box-canvas').height;
    const top = c.top + y0 * k, bottom = c.top + y1 * k;
    return top >= 0 && bottom <= window.innerHeight;
  }, [r.y0, r.y1]);
  expect(seen, "the selected box scrolled into view");
  // The signal's card below selects it too.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.click("#signals button:has-text('Show on the page')");
  expect(await page.getAttribute(`#box-signals button[data-signal="${report.signals.indexOf(numeric)}"]`, "aria-pressed") === "true",
    "the card's button selects the signal");
  await checkClear(page, report, "1100 px, selected");
  // Pointing at the box gives its title as the tooltip.
  const ovBox = await page.locator('.page-stack[data-page="1"] canvas.box-canvas').boundingBox();
  const kx = ovBox.width / PAGE_W;
  await page.mouse.move(ovBox.x + ((figure[0] + figure[2]) / 2) * kx, ovBox.y + (PAGE_H - (figure[1] + figure[3]) / 2) * kx);
  expect((await page.getAttribute('.page-stack[data-page="1"] canvas.box-canvas', "title")) === numeric.title, "the box's title on hover");
  await shot(page, "inspect-evidence", "#pages-section");

  // The revision view: revision 1 rendered beside now, the difference on
  // the edited figure only.
  expect((await page.textContent("#rev-label")).includes("as first saved"), "revision 1 named as first saved");
  expect(await page.locator('.rev-row[data-page="1"] canvas.rev-before').count() === 1, "the earlier revision of page 1 rendered");
  await checkDiff(page, '.rev-row[data-page="1"] canvas.diff-canvas', figure, "revision view");
  await shot(page, "inspect-revisions", "#revisions-section");

  // At 390 px: nothing overflows, and the boxes are still where the report says.
  await page.setViewportSize({ width: 390, height: 844 });
  const report390 = await inspect();
  await fits390(page, "the inspect page with its pages");
  expect(await checkBoxes(page, report390, "390 px") > 0, "boxes checked at 390 px");
  await checkClear(page, report390, "390 px");
  await checkDiff(page, '.rev-row[data-page="1"] canvas.diff-canvas', figure, "revision view at 390 px");
  await shot(page, "inspect-evidence-390", "#pages-section");
  await page.setViewportSize({ width: 1100, height: 900 });

  // Evidence off the page: a band at the edge it lies beyond, in the
  // signal's colour (hidden-text is info here), labelled "off page".
  const off = await inspect(process.env.OFFPAGE_PDF, ["#pages-section"]);
  const hidden = off.signals.find((x) => x.id === "hidden-text");
  const offBox = hidden && boxesOf(hidden.evidence)[0];
  expect(offBox && offBox.box[2] < 0, "hidden-text's box wholly left of the page, got " + JSON.stringify(hidden));
  const ovOff = await pixels(page, '.page-stack[data-page="1"] canvas.box-canvas');
  const k = ovOff.w / 612, INFO = [0x7a, 0x85, 0x94];
  const yMid = (792 - (offBox.box[1] + offBox.box[3]) / 2) * k;
  expect(near(ovOff.at(1, yMid), INFO) && near(ovOff.at(3, yMid), INFO), "the off-page box marked on the left edge in its colour, got " + ovOff.at(1, yMid));
  expect(ovOff.at(ovOff.w - 2, yMid)[3] === 0, "nothing on the right edge");
  await shot(page, "inspect-off-page", "#pages-section");

  // An image is drawn; an Office file gets the table of where each finding sits.
  if (process.env.IMAGE_FILE) {
    await inspect(process.env.IMAGE_FILE, ["#pages-section"]);
    const ink = await page.evaluate(() => {
      const c = document.querySelector("#pages canvas.page-canvas");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 600) n++;
      return n;
    });
    expect(ink > 100, "the image drawn, " + ink + " dark pixels");
  }
  if (process.env.OFFICE_FILE) {
    const rep = await inspect(process.env.OFFICE_FILE, ["#office-where"]);
    expect(await page.isHidden("#pages-section"), "no page rendering for an Office file");
    const rows = await page.locator("#office-where-table tbody tr").count();
    expect(rows === rep.signals.length && rows > 0, "one row per finding, got " + rows + " of " + rep.signals.length);
    await fits390(page, "the Office where-table");
    await page.setViewportSize({ width: 1100, height: 900 });
  }

  // Nothing but the page, its assets, the session check (the header's
  // links) and the inspect calls was requested
  // (the Go test checks, at the server, which requests carried the file).
  const others = requests.filter((x) => !(x.method === "GET" && (x.url === base + "/" || x.url.startsWith(base + "/static/") || x.url === base + "/api/v1/session")) &&
    !(x.method === "POST" && x.url === base + "/api/v1/inspect"));
  expect(others.length === 0, "no request but the page, its assets and the inspect calls, got " + others.map((x) => x.method + " " + x.url).join(", "));
  const inspections = 3 + (process.env.IMAGE_FILE ? 1 : 0) + (process.env.OFFICE_FILE ? 1 : 0);
  expect(requests.filter((x) => x.method === "POST").length === inspections, "one inspect call per inspection");

  await compare(page, requests);

  expect(problems.length === 0, "no console errors or CSP violations, got: " + problems.join(" | "));
  await browser.close();
  console.log("seeit e2e: ok");
})().catch(async (e) => {
  if (current) {
    const state = await current.evaluate(() => ["pages-section", "revisions-section", "pages-status", "rev-status", "inspect-status"]
      .map((id) => { const x = document.getElementById(id); return x ? id + "=" + (x.dataset.state || "") + ":" + x.textContent.slice(0, 200) : ""; })
      .join("; ")).catch(() => "");
    console.error("state: " + state);
  }
  console.error("seeit e2e: " + e.message + (problems.length ? "\nconsole: " + problems.join(" | ") : ""));
  process.exit(1);
});

// compare: the genuine statement against its library rewrite; the changed
// figure is reported with before and after and drawn on both sides, and
// the overlay marks it and nothing far from it.
async function compare(page, requests) {
  await page.goto(base + "/compare");
  await page.setInputFiles("#original", process.env.GENUINE_PDF);
  await page.setInputFiles("#candidate", process.env.REWRITTEN_PDF);
  await page.fill("#compare-key", process.env.API_KEY);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/compare"));
  await page.click("#compare-button");
  const result = await (await answer).json();
  await page.waitForSelector("#pages-compare[data-state=done]");
  const text = result.pageText;
  const changed = result.findings.find((f) => f.id === "figures-changed");
  expect(changed && ["medium", "high"].includes(changed.severity), "a changed figure at least medium, got " + JSON.stringify(result.findings));
  expect(text && text.items && text.items.length, "the page text differences listed");
  const item = text.items.find((x) => x.kind === "figure");
  expect(item && item.original === "13,339.86" && item.candidate === "99,339.86", "the figure before and after, got " + JSON.stringify(text.items));
  expect((await page.textContent("#text-changes")).includes("99,339.86"), "the figure shown on the page");
  await checkDiff(page, '.compare-row[data-page="1"] canvas.diff-canvas', item.candidateBox, "compare overlay");
  await shot(page, "compare-text", "#text-box");
  await shot(page, "compare-pages", "#pages-compare");
  await fits390(page, "the compare page with its pages");
  await shot(page, "compare-pages-390", "#pages-compare");
  await page.setViewportSize({ width: 1100, height: 900 });
  const posts = requests.filter((x) => x.method === "POST" && x.url.startsWith(base + "/api/"));
  const last = posts[posts.length - 1];
  expect(last.url === base + "/api/v1/compare" && posts.filter((x) => x.url === last.url).length === 1, "one compare call after the inspections, got " + posts.map((x) => x.url).join(", "));
}
