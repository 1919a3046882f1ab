// The inspect page: posts the chosen file to /api/v1/inspect and draws the
// report. Every string from the report (and so from the document) is set
// with textContent or as an SVG attribute value, never parsed as markup.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const form = $("inspect-form"), fileInput = $("file"), drop = $("drop");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  fileInput.addEventListener("change", () => {
    $("drop-text").textContent = fileInput.files.length ? fileInput.files[0].name : "Drop a file here or choose one";
  });
  for (const name of ["dragenter", "dragover"]) drop.addEventListener(name, (ev) => { ev.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("over");
    if (ev.dataTransfer.files.length) { fileInput.files = ev.dataTransfer.files; fileInput.dispatchEvent(new Event("change")); }
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = $("inspect-status");
    if (!fileInput.files.length) { dt.status(status, "Choose a file first.", true); return; }
    const file = fileInput.files[0];
    const data = new FormData();
    data.append("file", file);
    const headers = {};
    const key = $("apikey").value.trim();
    if (key) headers["Authorization"] = "Bearer " + key;
    $("inspect-button").disabled = true;
    dt.status(status, "Analysing…");
    try {
      // No cookie: /inspect authenticates by key only (SPEC.md).
      const res = await fetch("/api/v1/inspect", { method: "POST", body: data, headers, credentials: "omit" });
      let body = {};
      try { body = await res.json(); } catch (e) { body = {}; }
      if (!res.ok) { dt.status(status, dt.explain({ body }), true); return; }
      dt.status(status, "");
      render(body);
      // The pages are drawn from the file this page holds, never fetched.
      import("/static/inspect-pages.mjs").then((m) => m.show(body, file)).catch(() => {
        dt.status($("pages-status"), "The pages could not be drawn in this browser; the report above still stands.", true);
      });
    } catch (e) {
      dt.status(status, "The service could not be reached.", true);
    } finally {
      $("inspect-button").disabled = false;
    }
  });

  function render(report) {
    const s = report.summary || {};
    gauge(s.riskScore || 0, s.riskBand || "low");
    const title = $("band-title");
    title.textContent = "Risk band: " + (s.riskBand || "unknown") + " (score " + (s.riskScore || 0) + " of 100)";
    title.className = "band-text-" + (s.riskBand || "low");
    $("summary-line").textContent = [
      (report.mediaType || "document").toUpperCase(),
      (s.signalCount === 1 ? "1 signal" : (s.signalCount || 0) + " signals") + " above info",
      (s.revisions || 1) + (s.revisions === 1 ? " revision" : " revisions"),
      "engine " + report.engineVersion,
    ].join(" · ");
    facts(report);
    const caution = report.usageCaution || {};
    $("caution").textContent = "Not safe for an automated adverse decision. " + (caution.guidance || "");
    $("disclaimer").textContent = report.disclaimer || "";
    signals(report.signals || []);
    timeline(report.signals || []);
    $("raw").textContent = JSON.stringify(report, null, 2);
    $("report").hidden = false;
    $("report").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // gauge draws a half-circle dial: the arc up to the score in the band's
  // colour, thresholds at 30 and 70.
  function gauge(score, band) {
    const g = $("gauge");
    g.replaceChildren();
    const cx = 100, cy = 100, r = 80;
    const point = (v) => {
      const a = Math.PI * (1 - v / 100);
      return [cx + r * Math.cos(a), cy - r * Math.sin(a)];
    };
    const arc = (from, to, cls) => {
      const [x1, y1] = point(from), [x2, y2] = point(to);
      g.appendChild(svg("path", { d: `M ${x1} ${y1} A ${r} ${r} 0 0 1 ${x2} ${y2}`, class: cls }));
    };
    arc(0, 100, "gauge-track");
    if (score > 0) arc(0, Math.min(score, 100), "gauge-" + band);
    g.appendChild(svg("text", { x: cx, y: cy - 10, class: "gauge-score", "text-anchor": "middle" }, score));
    g.appendChild(svg("text", { x: cx, y: cy + 14, class: "gauge-label", "text-anchor": "middle" }, band));
  }

  // facts lists what the report says about the document itself: pages,
  // producer, creator, dates, signed and encrypted, size, and the Office or
  // image block's main facts.
  function facts(report) {
    const d = report.document || {};
    const rows = [
      ["Pages", d.pages], ["Producer", d.producer], ["Creator", d.creator],
      ["Created", d.creationDate], ["Modified", d.modDate],
      ["Signed", d.signed === undefined ? null : (d.signed ? "yes" : "no")],
      ["Encrypted", d.encrypted === undefined ? null : (d.encrypted ? "yes" : "no")],
      ["Revisions", d.revisions], ["Size", d.sizeBytes === undefined ? null : d.sizeBytes.toLocaleString("en") + " bytes"],
    ];
    const o = report.office, im = report.image;
    if (o) rows.push(["Format", o.format], ["Application", [o.application, o.appVersion].filter(Boolean).join(" ") || null], ["Last saved by", o.lastModifiedBy], ["Macros", o.macros === null || o.macros === undefined ? null : (o.macros ? "yes" : "no")]);
    if (im) rows.push(["Format", im.format], ["Dimensions", im.width && im.height ? im.width + " × " + im.height : null], ["Camera", [im.cameraMake, im.cameraModel].filter(Boolean).join(" ") || null]);
    const dl = $("facts");
    dl.replaceChildren();
    for (const [k, v] of rows) {
      if (v === null || v === undefined || v === "") continue;
      dl.appendChild(el("dt", null, k));
      dl.appendChild(el("dd", null, String(v)));
    }
  }

  const order = ["high", "medium", "low", "info"];

  function signals(list) {
    const root = $("signals");
    root.replaceChildren();
    if (!list.length) root.appendChild(el("p", "card", "No signals. A quiet report is not proof that a document is genuine."));
    for (const sev of order) {
      const group = list.filter((x) => x.severity === sev);
      if (!group.length) continue;
      const section = el("section", "card severity-" + sev);
      section.appendChild(el("h2", null, sev[0].toUpperCase() + sev.slice(1) + " (" + group.length + ")"));
      for (const sig of group) {
        const art = el("article", "signal");
        const h = el("h3", null, sig.title || sig.id);
        h.appendChild(el("span", "sev sev-" + sev, sev));
        art.appendChild(h);
        art.appendChild(el("p", "family", sig.id));
        art.appendChild(el("p", "detail", sig.detail));
        if (/"box":\[/.test(JSON.stringify(sig.evidence || {}))) {
          // Its boxes on the drawn pages (inspect-pages.mjs lists it by its index).
          const show = el("button", "small", "Show on the page");
          show.type = "button";
          const index = list.indexOf(sig);
          show.addEventListener("click", () => {
            const chip = document.querySelector('#box-signals button[data-signal="' + index + '"]');
            if (chip) chip.click();
          });
          art.appendChild(show);
        }
        if (sig.evidence && Object.keys(sig.evidence).length) {
          const d = el("details");
          d.appendChild(el("summary", null, "Evidence"));
          d.appendChild(table(sig.evidence, 0));
          art.appendChild(d);
        }
        section.appendChild(art);
      }
      root.appendChild(section);
    }
  }

  // label turns an evidence key into words for a person: "fullPageImagePages"
  // reads "Full page image pages", "idOriginal" "ID original"; the key itself
  // stays in the raw JSON.
  function label(key) {
    const words = String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .split(/[\s_-]+/).filter(Boolean).map((w) => (/^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase()))
      .map((w) => ({ id: "ID", xmp: "XMP", xref: "xref", url: "URL", gps: "GPS", exif: "EXIF" }[w] || w));
    const s = words.join(" ");
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  // table shows an evidence object as nested key/value rows; arrays of
  // objects become rows of their own. Depth is bounded by the report.
  function table(value, depth) {
    const t = el("table", "evidence");
    const body = el("tbody");
    for (const [k, v] of Object.entries(value)) {
      const tr = el("tr");
      tr.appendChild(el("th", null, label(k)));
      const td = el("td");
      td.appendChild(cell(v, depth));
      tr.appendChild(td);
      body.appendChild(tr);
    }
    t.appendChild(body);
    return t;
  }

  function cell(v, depth) {
    if (v === null || typeof v !== "object") return el("span", typeof v === "string" ? "str" : "num", v === null ? "null" : v);
    if (depth > 4) return el("code", null, JSON.stringify(v));
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== "object")) {
        if (v.length <= 12) return el("span", null, v.join(", "));
        // A long list shows its first twelve; the rest opens on demand.
        const d = el("details", "long");
        d.appendChild(el("summary", null, v.slice(0, 12).join(", ") + " … and " + (v.length - 12) + " more"));
        d.appendChild(el("span", null, v.join(", ")));
        return d;
      }
      const list = el("ol");
      for (const x of v) { const li = el("li"); li.appendChild(cell(x, depth + 1)); list.appendChild(li); }
      if (v.length <= 3) return list;
      const d = el("details", "long");
      d.appendChild(el("summary", null, v.length + " entries"));
      d.appendChild(list);
      return d;
    }
    return table(v, depth + 1);
  }

  // timeline draws one column per revision: revision 1 the original save,
  // each later one a stacked bar of its touched counters by kind.
  const kinds = ["pageContent", "pages", "images", "widgetAnnotations", "otherAnnotations", "signatures", "other"];
  function timeline(list) {
    const section = $("timeline-section");
    const inc = list.find((x) => x.id === "incremental-updates");
    const revs = inc && inc.evidence && Array.isArray(inc.evidence.changedPerRevision) ? inc.evidence.changedPerRevision : [];
    section.hidden = revs.length === 0;
    const g = $("timeline");
    g.replaceChildren();
    if (!revs.length) return;
    const col = 90, top = 20, plot = 120, left = 10;
    const width = left + (revs.length + 1) * col + 170, height = top + plot + 50;
    g.setAttribute("viewBox", `0 0 ${width} ${height}`);
    g.setAttribute("width", width);
    g.setAttribute("height", height);
    const total = (r) => kinds.reduce((n, k) => n + ((r.touched || {})[k] || 0), 0);
    const most = Math.max(1, ...revs.map(total));
    g.appendChild(svg("line", { x1: left, y1: top + plot, x2: left + (revs.length + 1) * col, y2: top + plot, class: "axis" }));
    // The original save.
    g.appendChild(svg("circle", { cx: left + col / 2, cy: top + plot - 8, r: 6, class: "rev-origin" }));
    g.appendChild(svg("text", { x: left + col / 2, y: top + plot + 18, "text-anchor": "middle" }, "rev 1"));
    g.appendChild(svg("text", { x: left + col / 2, y: top + plot + 34, "text-anchor": "middle", class: "hint" }, "original"));
    revs.forEach((r, i) => {
      const x = left + (i + 1) * col + 20;
      let y = top + plot;
      const grp = svg("g", { class: "revision" + (r.contentTouched ? " content-touched" : "") });
      grp.appendChild(svg("title", {}, `revision ${r.revision}: ${r.objectsWrittenTotal || total(r)} objects written` +
        kinds.filter((k) => (r.touched || {})[k]).map((k) => `, ${k} ${r.touched[k]}`).join("")));
      for (const k of kinds) {
        const n = (r.touched || {})[k] || 0;
        if (!n) continue;
        const h = Math.max(2, (n / most) * plot);
        y -= h;
        grp.appendChild(svg("rect", { x, y, width: col - 40, height: h, class: "kind-" + k }));
      }
      grp.appendChild(svg("text", { x: x + (col - 40) / 2, y: top + plot + 18, "text-anchor": "middle" }, "rev " + r.revision));
      grp.appendChild(svg("text", { x: x + (col - 40) / 2, y: top + plot + 34, "text-anchor": "middle", class: r.contentTouched ? "warn-text" : "hint" },
        r.contentTouched ? "content" : total(r) + " objects"));
      grp.appendChild(svg("text", { x: x + (col - 40) / 2, y: y - 4, "text-anchor": "middle", class: "hint" }, total(r)));
      g.appendChild(grp);
    });
    // Legend.
    const lx = left + (revs.length + 1) * col + 10;
    kinds.forEach((k, i) => {
      g.appendChild(svg("rect", { x: lx, y: top + i * 18, width: 12, height: 12, class: "kind-" + k }));
      g.appendChild(svg("text", { x: lx + 18, y: top + i * 18 + 10 }, k));
    });
  }
})();
