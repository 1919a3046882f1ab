// Helpers the Chromium scripts share (dashboard.cjs, seeit.cjs,
// inspect-queue.cjs): expectations, screenshots, the 390 px check and the
// console's verdict.
"use strict";
const path = require("path");

const shots = process.env.SCREENSHOT_DIR || "";

// expect throws with what was expected: the script's one way to fail.
function expect(cond, what) {
  if (!cond) throw new Error("expected " + what);
}

// shot saves the page, or the part of it selector names, when
// SCREENSHOT_DIR is set.
async function shot(page, name, selector) {
  if (!shots) return;
  const p = path.join(shots, name + ".png");
  if (selector) await page.locator(selector).screenshot({ path: p });
  else await page.screenshot({ path: p, fullPage: true });
}

// fits390 checks that the page, as it stands, fits a 390 px phone; with
// back it saves that screenshot and returns to the viewport back names.
async function fits390(page, name, back) {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow <= 0, name + " fits 390 px, overflows by " + overflow + " px");
  if (!back) return;
  await shot(page, name + "-390");
  await page.setViewportSize(back);
}

// consoleClean: the refusals a script provokes are logged by Chromium as
// failed loads; each is taken off once, and anything else fails.
function consoleClean(problems, expectedRefusals) {
  for (const code of expectedRefusals) {
    const i = problems.findIndex((p) => p.includes("status of " + code));
    expect(i >= 0, "the provoked " + code + " in the console");
    problems.splice(i, 1);
  }
  expect(problems.length === 0, "no console errors or CSP violations, got: " + problems.join(" | "));
}

module.exports = { expect, shot, fits390, consoleClean };
