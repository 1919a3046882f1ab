// The page viewer shared by the inspect and compare pages: pdf.js renders
// the file the browser already holds (nothing is fetched or sent), evidence
// boxes are drawn over each page on a canvas of their own, and two
// renderings of a page are compared pixel by pixel. Strings from the report
// reach the page only as textContent or canvas text.
import * as pdfjs from "./pdf.min.mjs";

// The worker comes from this origin (CSP worker-src 'self').
pdfjs.GlobalWorkerOptions.workerSrc = "/static/pdf.worker.min.mjs";

// Severity colours, those of app.css (--high, --elevated, --low, --info).
export const colours = { high: "#c8372d", medium: "#e0a100", low: "#3a9d5d", info: "#7a8594" };

// Rendering is bounded: a long document shows its first pages.
export const maxPages = 30;

// open loads PDF bytes; pdf.js takes the buffer it is given, so it gets a
// copy and the caller's bytes stay usable.
// close() ends the document's worker side.
export async function open(bytes) {
  const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, enableXfa: false, stopAtErrors: false });
  const doc = await task.promise;
  doc.close = () => task.destroy();
  return doc;
}

// renderPage draws page n at cssWidth CSS pixels wide into a new canvas.
export async function renderPage(doc, n, cssWidth) {
  const page = await doc.getPage(n);
  const unit = page.getViewport({ scale: 1 });
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const viewport = page.getViewport({ scale: (cssWidth / unit.width) * dpr });
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(viewport.width));
  canvas.height = Math.max(1, Math.round(viewport.height));
  canvas.className = "page-canvas";
  await page.render({ canvas, viewport }).promise;
  page.cleanup();
  return { canvas, viewport };
}

// boxesOf finds every {page, box: [x0, y0, x1, y1]} in a signal's evidence
// (hidden text, overlays, redactions, changed figures ... all use it), at
// any depth, so a family that adds boxes is drawn without a change here.
export function boxesOf(evidence) {
  const out = [];
  const seen = new Set(); // evidence may name a box twice (a list of all, and each break's own)
  const walk = (v, depth) => {
    if (!v || typeof v !== "object" || depth > 6) return;
    if (Array.isArray(v)) { v.forEach((x) => walk(x, depth + 1)); return; }
    if (Number.isInteger(v.page) && Array.isArray(v.box) && v.box.length === 4 && v.box.every((x) => typeof x === "number")) {
      const k = v.page + ":" + v.box.join(",");
      if (!seen.has(k)) {
        seen.add(k);
        out.push({ page: v.page, box: v.box });
      }
      return;
    }
    for (const k of Object.keys(v)) walk(v[k], depth + 1);
  };
  walk(evidence, 0);
  return out;
}

// place turns a box in page space (points, origin bottom left) into canvas
// pixels, and says where it lies when it is off the canvas.
export function place(viewport, canvas, box) {
  const [a, b] = viewport.convertToViewportPoint(box[0], box[1]);
  const [c, d] = viewport.convertToViewportPoint(box[2], box[3]);
  const r = { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
  r.off = r.x1 < 0 || r.y1 < 0 || r.x0 > canvas.width || r.y0 > canvas.height;
  return r;
}

// drawBoxes paints the marks of one page on its overlay canvas: each box
// outlined in its signal's colour just outside the box, the selected
// signal's boxes filled with a wash of it. No label is painted: a label
// over the page hid the line above the box, so a box's title is said
// beside the page (the figure's caption), in its tooltip (point at it,
// see hover) and by the signal list's selection. Evidence off the page
// becomes a band on the nearest edge.
export function drawBoxes(overlay, viewport, marks, selected) {
  const g = overlay.getContext("2d");
  g.clearRect(0, 0, overlay.width, overlay.height);
  const unit = Math.max(1, overlay.width / 600);
  // Graver boxes are drawn last, so one figure boxed by several signals
  // shows the gravest colour.
  const rank = { info: 0, low: 1, medium: 2, high: 3 };
  const order = [...marks].sort((a, b) => (rank[a.severity] ?? 0) - (rank[b.severity] ?? 0));
  for (const m of order) {
    const colour = colours[m.severity] || colours.info;
    const on = m.signal === selected;
    let r = place(viewport, overlay, m.box);
    m.off = r.off;
    if (r.off) {
      const band = 6 * unit, W = overlay.width, H = overlay.height;
      const cx = Math.min(Math.max(r.x0, 0), W - band), cy = Math.min(Math.max(r.y0, 0), H - band);
      if (r.x1 < 0) r = { x0: 0, x1: band, y0: cy, y1: Math.min(H, cy + Math.max(band, r.y1 - r.y0)) };
      else if (r.x0 > W) r = { x0: W - band, x1: W, y0: cy, y1: Math.min(H, cy + Math.max(band, r.y1 - r.y0)) };
      else if (r.y1 < 0) r = { x0: cx, x1: Math.min(W, cx + Math.max(band, r.x1 - r.x0)), y0: 0, y1: band };
      else r = { x0: cx, x1: Math.min(W, cx + Math.max(band, r.x1 - r.x0)), y0: H - band, y1: H };
      g.fillStyle = colour;
      g.fillRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      m.drawn = r;
      continue;
    }
    const pad = 2 * unit;
    m.drawn = { x0: r.x0 - pad, y0: r.y0 - pad, x1: r.x1 + pad, y1: r.y1 + pad };
    if (on) {
      g.globalAlpha = 0.22;
      g.fillStyle = colour;
      g.fillRect(m.drawn.x0, m.drawn.y0, m.drawn.x1 - m.drawn.x0, m.drawn.y1 - m.drawn.y0);
      g.globalAlpha = 1;
    }
    g.strokeStyle = colour;
    g.lineWidth = (on ? 3 : 2) * unit;
    g.strokeRect(m.drawn.x0, m.drawn.y0, m.drawn.x1 - m.drawn.x0, m.drawn.y1 - m.drawn.y0);
  }
}

// markAt returns the mark under (x, y) in canvas pixels, or null.
export function markAt(marks, x, y) {
  const grace = 4;
  for (const m of marks) {
    const r = m.drawn;
    if (r && x >= r.x0 - grace && x <= r.x1 + grace && y >= r.y0 - grace && y <= r.y1 + grace) return m;
  }
  return null;
}

// hit returns the signal of the mark under (x, y) in canvas pixels.
export function hit(marks, x, y) {
  const m = markAt(marks, x, y);
  return m ? m.signal : -1;
}

// hover gives an overlay the title of the box under the pointer as its
// tooltip (the browser's own, outside the page).
export function hover(overlay, marks) {
  overlay.addEventListener("mousemove", (ev) => {
    const r = overlay.getBoundingClientRect();
    const m = markAt(marks, (ev.clientX - r.left) * overlay.width / r.width, (ev.clientY - r.top) * overlay.height / r.height);
    const title = m ? (m.off ? "off page: " : "") + m.title : "";
    if (overlay.title !== title) overlay.title = title;
  });
}

// difference compares two renderings of a page and returns a canvas the
// size of `after` where differing pixels are opaque magenta and the rest is
// transparent, with the count and bounding box of what differs. `before`
// is scaled onto `after` when the page size changed.
export function difference(before, after) {
  const W = after.width, H = after.height;
  const scaled = document.createElement("canvas");
  scaled.width = W;
  scaled.height = H;
  const sg = scaled.getContext("2d");
  sg.fillStyle = "#fff";
  sg.fillRect(0, 0, W, H);
  if (before) sg.drawImage(before, 0, 0, W, H);
  const a = sg.getImageData(0, 0, W, H).data;
  const b = after.getContext("2d").getImageData(0, 0, W, H).data;
  const out = document.createElement("canvas");
  out.width = W;
  out.height = H;
  out.className = "diff-canvas";
  const og = out.getContext("2d");
  const img = og.createImageData(W, H);
  const d = img.data;
  let count = 0, x0 = W, y0 = H, x1 = -1, y1 = -1;
  for (let i = 0, p = 0; i < a.length; i += 4, p++) {
    // Anti-aliasing differs by a few levels; a changed glyph by far more.
    const delta = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
    if (delta < 48) continue;
    d[i] = 230; d[i + 1] = 0; d[i + 2] = 200; d[i + 3] = 255;
    count++;
    const x = p % W, y = (p / W) | 0;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  og.putImageData(img, 0, 0);
  return { canvas: out, count, bbox: count ? { x0, y0, x1, y1 } : null };
}

// stack puts a page canvas and the canvases drawn over it in one figure.
export function stack(base, ...overlays) {
  const fig = document.createElement("div");
  fig.className = "page-stack";
  fig.appendChild(base);
  for (const o of overlays) {
    o.classList.add("over");
    fig.appendChild(o);
  }
  return fig;
}

// blank is an overlay canvas the size of c.
export function blank(c, cls) {
  const o = document.createElement("canvas");
  o.width = c.width;
  o.height = c.height;
  o.className = cls;
  return o;
}

// halo rings what differs, on a canvas of its own over the difference, so
// a few changed glyphs on a whole page catch the eye; nothing when the
// difference spreads over a quarter of the page or more.
export function halo(diff) {
  const c = blank(diff.canvas, "halo-canvas");
  const r = diff.bbox;
  if (!r || (r.x1 - r.x0) * (r.y1 - r.y0) > c.width * c.height / 4) return c;
  const g = c.getContext("2d");
  const pad = Math.max(6, c.width / 60);
  g.strokeStyle = "rgb(230, 0, 200)";
  g.lineWidth = Math.max(2, c.width / 300);
  g.strokeRect(r.x0 - pad, r.y0 - pad, r.x1 - r.x0 + 2 * pad, r.y1 - r.y0 + 2 * pad);
  return c;
}
