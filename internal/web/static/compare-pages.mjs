// The compare page's views of the two files, drawn from the files the
// browser already holds (sent once, to /api/v1/compare): the words and
// figures that differ, with before and after, and each page of the
// original beside the candidate's, the differing words boxed on both
// sides and the pixels that differ lit up over the candidate.
import * as view from "./viewer.mjs";

const $ = (id) => document.getElementById(id);
const el = dt.el;

const changeWords = { changed: "changed", added: "added", removed: "removed" };

// generation counts the comparisons shown: one submitted while the last
// still renders stops the older rendering at its next step, so its pages
// never land under the new findings.
let generation = 0;

export async function show(result, originalFile, candidateFile) {
  const mine = ++generation;
  const live = () => mine === generation;
  const items = ((result.pageText || {}).items) || [];
  textTable(result.pageText);
  const section = $("pages-compare"), root = $("compare-pages"), status = $("pages-compare-status");
  root.replaceChildren();
  section.hidden = false;
  section.dataset.state = "rendering";
  dt.status(status, "Rendering both files in this browser…");
  let a, b;
  try {
    a = await view.open(new Uint8Array(await originalFile.arrayBuffer()));
    b = await view.open(new Uint8Array(await candidateFile.arrayBuffer()));
  } catch {
    if (!live()) return;
    dt.status(status, "The files could not be rendered here; the findings above still stand.", true);
    section.dataset.state = "done";
    return;
  }
  const count = Math.min(a.numPages, b.numPages, view.maxPages);
  const width = root.clientWidth < 480 ? Math.max(160, root.clientWidth - 4) : Math.max(160, Math.min(460, (root.clientWidth - 16) / 2));
  const same = [];
  for (let n = 1; n <= count; n++) {
    const left = await view.renderPage(a, n, width);
    const right = await view.renderPage(b, n, width);
    if (!live()) break;
    const diff = view.difference(left.canvas, right.canvas);
    const here = items.filter((x) => x.page === n);
    if (!diff.count && !here.length) { same.push(n); continue; }
    const marks = (side) => here.filter((x) => x[side + "Box"]).map((x) => ({
      signal: 0, severity: x.kind === "figure" ? "medium" : "low", box: x[side + "Box"],
      title: x.change === "changed" ? x.original + " → " + x.candidate : changeWords[x.change] + ": " + (x.original || x.candidate),
    }));
    const row = el("div", "compare-row");
    row.dataset.page = n;
    row.appendChild(el("h3", null, "Page " + n));
    const pair = el("div", "rev-pair");
    const lo = view.blank(left.canvas, "box-canvas");
    const lm = marks("original"), rm = marks("candidate");
    view.drawBoxes(lo, left.viewport, lm, -1);
    view.hover(lo, lm);
    const ro = view.blank(right.canvas, "box-canvas");
    view.drawBoxes(ro, right.viewport, rm, -1);
    view.hover(ro, rm);
    const lf = el("figure", "page");
    lf.appendChild(view.stack(left.canvas, lo));
    lf.appendChild(el("figcaption", "hint", "Original"));
    const rf = el("figure", "page");
    rf.appendChild(view.stack(right.canvas, diff.canvas, view.halo(diff), ro));
    rf.appendChild(el("figcaption", "hint", "Candidate, what differs in magenta (" + dt.count(diff.count, "pixel") + ")"));
    pair.append(lf, rf);
    row.appendChild(pair);
    root.appendChild(row);
  }
  await a.close();
  await b.close();
  if (!live()) return;
  const notes = [];
  if (same.length) notes.push((same.length === count ? "Every page" : "Pages " + same.join(", ")) + " looked the same in both files.");
  if (a.numPages !== b.numPages) notes.push("The original has " + dt.count(a.numPages, "page") + " and the candidate " + b.numPages + "; pages are compared in order.");
  dt.status(status, notes.join(" "));
  section.dataset.state = "done";
}

// textTable lists the differing words and figures, before and after.
function textTable(pt) {
  const box = $("text-box"), root = $("text-changes");
  root.replaceChildren();
  box.hidden = !pt;
  if (!pt) return;
  if (!pt.items.length) {
    root.appendChild(el("p", "hint", "The words of the " + (pt.pagesCompared === 1 ? "page" : dt.count(pt.pagesCompared, "page")) + " compared are the same."));
    return;
  }
  root.appendChild(el("p", null, dt.count(pt.figuresChanged, "figure") + " and " +
    dt.count(pt.wordsChanged, "word") + " differ."));
  const table = el("table", "changes stack");
  const head = el("tr");
  const cols = ["Page", "Kind", "Change", "Original", "Candidate"];
  for (const c of cols) head.appendChild(el("th", null, c));
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const tbody = el("tbody");
  for (const it of pt.items) {
    const tr = el("tr", "text-" + it.kind);
    [it.page, it.kind, changeWords[it.change] || it.change, it.original || "(none)", it.candidate || "(none)"].forEach((v, i) => {
      const td = el("td", i > 2 ? "str mono" : null, v);
      if (i > 0) td.dataset.label = cols[i];
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  }
  table.appendChild(tbody);
  root.appendChild(table);
  if (pt.truncated) root.appendChild(el("p", "hint", "The first " + pt.items.length + " of " + pt.total + " are listed."));
}
