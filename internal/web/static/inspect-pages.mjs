// The inspect page's views of the document itself, drawn from the file the
// browser already holds (it was sent once, to /api/v1/inspect): every page
// of a PDF with the report's evidence boxes, each earlier revision beside
// the file as it is now with their pixel difference, an image with its
// boxes, and for Office files a table of where each finding sits.
import * as view from "./viewer.mjs";

const $ = (id) => document.getElementById(id);
const el = dt.el;
const rank = { high: 0, medium: 1, low: 2, info: 3 };

// pageWidth is the CSS width pages are drawn at: the card's, at most 760.
function pageWidth(container) {
  return Math.max(200, Math.min(760, container.clientWidth || 760));
}

// held are the documents an earlier inspection left open (the revision
// view keeps "as now" open for its slider); a new inspection closes them.
let held = [];

// generation counts the reports shown: opening another report (a queue's
// next row) while one still renders leaves the older rendering to stop at
// its next step, so that one file's pages never land under another's
// report and its failure is never said of the other.
let generation = 0;

export async function show(report, file) {
  const mine = ++generation;
  const live = () => mine === generation;
  for (const d of held) d.close();
  held = [];
  for (const id of ["pages-section", "revisions-section", "office-where"]) {
    $(id).hidden = true;
    $(id).dataset.state = "";
  }
  $("pages").replaceChildren();
  $("box-signals").replaceChildren();
  $("rev-pages").replaceChildren();
  if (report.mediaType === "office") { officeTable(report); return; }
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!live()) return;
    if (report.mediaType === "image") { await image(report, file, live); return; }
    if (report.mediaType !== "pdf") return;
    const signals = (report.signals || []).map((s, i) => ({ ...s, index: i, boxes: view.boxesOf(s.evidence) }))
      .sort((a, b) => (rank[a.severity] ?? 9) - (rank[b.severity] ?? 9));
    await pages(bytes, signals, live);
    const lengths = (report.document || {}).revisionLengths || [];
    if (lengths.length > 1 && live()) await revisions(bytes, lengths, live);
  } catch (e) {
    if (live()) throw e;
  }
}

// pages renders each page and draws every signal's boxes over it; the list
// of signals with boxes selects one: its boxes are filled and the first is
// scrolled into view.
async function pages(bytes, signals, live) {
  const section = $("pages-section"), root = $("pages"), status = $("pages-status");
  section.hidden = false;
  section.dataset.state = "rendering";
  dt.status(status, "Rendering the pages in this browser…");
  let doc;
  try {
    doc = await view.open(bytes);
  } catch (e) {
    if (!live()) return;
    dt.status(status, "This PDF could not be rendered here (" + (e && e.name || "error") + "); the report above still stands.", true);
    section.dataset.state = "failed";
    return;
  }
  if (!live()) { await doc.close(); return; }
  const withBoxes = signals.filter((s) => s.boxes.length);
  const chips = $("box-signals");
  chips.replaceChildren();
  const views = [];
  let selected = -1;
  const redraw = () => { for (const v of views) view.drawBoxes(v.overlay, v.viewport, v.marks, selected); };
  const select = (index) => {
    selected = index;
    for (const b of chips.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.signal) === index));
    redraw();
    for (const v of views) {
      const m = v.marks.find((x) => x.signal === index);
      if (!m) continue;
      // Scroll so the first box sits a little below the top of the screen.
      const rect = v.overlay.getBoundingClientRect();
      const y = rect.top + window.scrollY + (m.drawn.y0 / v.overlay.height) * rect.height;
      window.scrollTo({ top: Math.max(0, y - 120), behavior: "instant" });
      break;
    }
  };
  for (const s of withBoxes) {
    const b = el("button", "chip sev-border-" + s.severity);
    b.type = "button";
    b.dataset.signal = s.index;
    b.setAttribute("aria-pressed", "false");
    b.appendChild(el("span", "sev sev-" + s.severity, s.severity));
    b.appendChild(document.createTextNode(" " + (s.title || s.id) + " (" + dt.count(s.boxes.length, "box", "boxes") + ")"));
    b.addEventListener("click", () => select(s.index));
    chips.appendChild(b);
  }
  const count = Math.min(doc.numPages, view.maxPages);
  const width = pageWidth(root);
  for (let n = 1; n <= count; n++) {
    const { canvas, viewport } = await view.renderPage(doc, n, width);
    if (!live()) { await doc.close(); return; }
    const overlay = view.blank(canvas, "box-canvas");
    const marks = [];
    for (const s of withBoxes) {
      for (const b of s.boxes) if (b.page === n) marks.push({ signal: s.index, severity: s.severity, title: s.title || s.id, box: b.box });
    }
    const fig = view.stack(canvas, overlay);
    fig.dataset.page = n;
    const wrap = el("figure", "page");
    wrap.appendChild(fig);
    root.appendChild(wrap);
    overlay.addEventListener("click", (ev) => {
      const r = overlay.getBoundingClientRect();
      const i = view.hit(marks, (ev.clientX - r.left) * overlay.width / r.width, (ev.clientY - r.top) * overlay.height / r.height);
      if (i >= 0) select(i);
    });
    view.hover(overlay, marks);
    views.push({ overlay, viewport, marks });
    view.drawBoxes(overlay, viewport, marks, selected);
    wrap.appendChild(caption(n, marks));
  }
  await doc.close();
  if (!live()) return;
  dt.status(status, doc.numPages > count ? "The first " + count + " of " + doc.numPages + " pages are shown." : "");
  if (!withBoxes.length) chips.appendChild(el("p", "hint", "No signal of this report marks a place on a page."));
  section.dataset.state = "done";
}

// caption names a page's boxes beside the page, not over it: each
// signal's title once, with its severity's swatch and how many boxes it
// has there (and how many lie off the page). n 0 is an image.
function caption(n, marks) {
  const cap = el("figcaption", "hint box-caption", (n ? "Page " + n : "The image") +
    (marks.length ? " · " + dt.count(marks.length, "box", "boxes") + ":" : ""));
  const seen = new Map();
  for (const m of marks) {
    const k = m.signal + "\u0000" + m.title;
    const e = seen.get(k) || { m, n: 0, off: 0 };
    e.n++;
    if (m.off) e.off++;
    seen.set(k, e);
  }
  for (const { m, n: k, off } of seen.values()) {
    const item = el("span", "box-title");
    item.appendChild(el("span", "sw sev-" + m.severity));
    item.appendChild(document.createTextNode(m.title + (k > 1 ? " (" + dt.count(k, "box", "boxes") + ")" : "") +
      (off ? (off === k ? ", off the page" : ", " + off + " off the page") : "")));
    cap.appendChild(item);
  }
  return cap;
}

// revisions shows the file as an earlier revision left it (a prefix of the
// bytes) beside the file as it is now, page by page, with the pixels that
// differ lit up over "as now". The slider steps through the earlier
// revisions; pages that look the same are listed, not drawn.
async function revisions(bytes, lengths, live) {
  const section = $("revisions-section"), slider = $("rev-slider");
  section.hidden = false;
  slider.min = 1;
  slider.max = lengths.length - 1;
  slider.value = 1;
  const now = await view.open(bytes);
  if (!live()) { await now.close(); return; }
  held.push(now);
  let run = 0;
  const draw = async () => {
    const mine = ++run;
    const current = () => mine === run && live();
    const rev = Number(slider.value);
    section.dataset.state = "rendering";
    $("rev-label").textContent = "Revision " + rev + " of " + lengths.length + (rev === 1 ? " (as first saved)" : "") +
      ": the first " + dt.count(lengths[rev - 1], "byte");
    const root = $("rev-pages");
    root.replaceChildren();
    dt.status($("rev-status"), "Rendering revision " + rev + "…");
    let then;
    try {
      then = await view.open(bytes.subarray(0, lengths[rev - 1]));
    } catch {
      if (!current()) return;
      dt.status($("rev-status"), "Revision " + rev + " could not be rendered on its own.", true);
      section.dataset.state = "done";
      return;
    }
    const count = Math.min(now.numPages, view.maxPages);
    // Side by side on a wide screen, one above the other on a phone.
    const width = root.clientWidth < 480 ? Math.max(160, root.clientWidth - 4) : Math.max(160, Math.min(460, (root.clientWidth - 16) / 2));
    const same = [];
    for (let n = 1; n <= count; n++) {
      if (!current()) { await then.close(); return; }
      const after = await view.renderPage(now, n, width);
      const before = n <= then.numPages ? await view.renderPage(then, n, width) : null;
      if (!current()) { await then.close(); return; }
      const diff = view.difference(before && before.canvas, after.canvas);
      if (!diff.count) { same.push(n); continue; }
      const row = el("div", "rev-row");
      row.dataset.page = n;
      row.appendChild(el("h3", null, "Page " + n + (before ? "" : " (added after revision " + rev + ")")));
      const pair = el("div", "rev-pair");
      const left = el("figure", "page");
      if (before) {
        before.canvas.classList.add("rev-before");
        left.appendChild(view.stack(before.canvas));
      }
      left.appendChild(el("figcaption", "hint", rev === 1 ? "As first saved" : "As revision " + rev + " left it"));
      const right = el("figure", "page");
      after.canvas.classList.add("rev-after");
      right.appendChild(view.stack(after.canvas, diff.canvas, view.halo(diff)));
      right.appendChild(el("figcaption", "hint", "As now, what differs in magenta (" + dt.count(diff.count, "pixel") + ")"));
      pair.append(left, right);
      row.appendChild(pair);
      root.appendChild(row);
    }
    await then.close();
    if (!current()) return;
    const note = [];
    if (same.length) note.push((same.length === count ? "Every page" : "Pages " + same.join(", ")) + " looked the same then as now.");
    if (now.numPages > count) note.push("The first " + count + " pages are compared.");
    dt.status($("rev-status"), note.join(" "));
    section.dataset.state = "done";
  };
  slider.oninput = () => { draw(); };
  await draw();
}

// image draws the picture itself (decoded by the browser, no request) and
// any boxes its evidence carries, in pixels.
async function image(report, file, live) {
  const section = $("pages-section"), root = $("pages");
  section.hidden = false;
  $("box-signals").replaceChildren();
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    if (!live()) return;
    dt.status($("pages-status"), "This browser cannot draw this image format; the report above still stands.");
    section.dataset.state = "done";
    return;
  }
  if (!live()) return;
  const scale = Math.min(1, pageWidth(root) * Math.min(window.devicePixelRatio || 1, 2) / bitmap.width);
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.className = "page-canvas";
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const overlay = view.blank(canvas, "box-canvas");
  const marks = [];
  for (const s of report.signals || []) {
    for (const b of view.boxesOf(s.evidence)) marks.push({ signal: 0, severity: s.severity, title: s.title || s.id, box: b.box });
  }
  // Image boxes are pixels from the top left.
  const viewport = { convertToViewportPoint: (x, y) => [x * scale, y * scale] };
  view.drawBoxes(overlay, viewport, marks, -1);
  view.hover(overlay, marks);
  const wrap = el("figure", "page");
  wrap.appendChild(view.stack(canvas, overlay));
  if (marks.length) wrap.appendChild(caption(0, marks));
  root.appendChild(wrap);
  dt.status($("pages-status"), marks.length ? "" : "No signal of this report marks a place in the image.");
  section.dataset.state = "done";
}

// officeTable lists where each finding sits, from the location keys its
// evidence carries (parts, sheets and cells, paragraphs, slides, macro
// modules); an Office file is not rendered.
const whereKeys = ["part", "parts", "sheet", "sheets", "cell", "cells", "range", "paragraph", "paragraphs", "slide", "slides", "location", "locations", "modules", "stream", "streams"];
function officeTable(report) {
  const section = $("office-where"), body = $("office-where-table").querySelector("tbody");
  body.replaceChildren();
  for (const s of report.signals || []) {
    const places = [];
    const walk = (v, depth) => {
      if (!v || typeof v !== "object" || depth > 5 || places.length >= 12) return;
      if (Array.isArray(v)) { v.forEach((x) => walk(x, depth + 1)); return; }
      const here = [];
      for (const k of whereKeys) {
        const x = v[k];
        if (x === undefined || x === null || x === "") continue;
        if (typeof x === "object" && !Array.isArray(x)) continue;
        here.push(k + " " + (Array.isArray(x) ? x.filter((y) => typeof y !== "object").slice(0, 12).join(", ") : x));
      }
      if (here.length) places.push(here.join(", "));
      for (const k of Object.keys(v)) if (!whereKeys.includes(k)) walk(v[k], depth + 1);
    };
    walk(s.evidence, 0);
    const tr = el("tr");
    const sev = el("td");
    sev.dataset.label = "Severity";
    sev.appendChild(el("span", "sev sev-" + s.severity, s.severity));
    const title = el("td", null, s.title || s.id);
    title.dataset.label = "Finding";
    const where = el("td", "str", places.length ? places.join("; ") : "the document as a whole");
    where.dataset.label = "Where";
    tr.append(sev, title, where);
    body.appendChild(tr);
  }
  section.hidden = !(report.signals || []).length;
  section.dataset.state = "done";
}
