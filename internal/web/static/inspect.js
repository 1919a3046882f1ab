// The inspect page: posts the chosen file to /api/v1/inspect and draws the
// report. Every string from the report (and so from the document) is set
// with textContent or as an SVG attribute value, never parsed as markup.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const form = $("inspect-form"), fileInput = $("file"), drop = $("drop");

  const el = dt.el;
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  fileInput.addEventListener("change", () => {
    const files = Array.from(fileInput.files);
    $("drop-text").textContent = !files.length ? "Drop a file here or choose one (several make a queue)" :
      files.length === 1 ? files[0].name : dt.count(files.length, "file") + " for the queue: " + files.map((f) => f.name).join(", ");
  });
  for (const name of ["dragenter", "dragover"]) drop.addEventListener(name, (ev) => { ev.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("over");
    if (ev.dataTransfer.files.length) { fileInput.files = ev.dataTransfer.files; fileInput.dispatchEvent(new Event("change")); }
  });

  // The issuer field. Built-in baselines come with the page: they answer
  // every caller. The account's own are listed from the API when a session
  // is open, but /inspect reads no session (SPEC.md): an own baseline is
  // found only when the call carries one of the account's keys, so the
  // page asks for one rather than send a call that would not use it.
  const issuerSelect = $("issuer"), otherLabel = $("issuer-other-label"), otherInput = $("issuer-other");
  const slugRule = /^[a-z0-9][a-z0-9-]{0,63}$/;
  let signedIn = false;
  function chosenIssuer() {
    const opt = issuerSelect.selectedOptions[0];
    if (!opt || !opt.value) return { slug: "", source: "" };
    if (opt.dataset.source === "other") return { slug: otherInput.value.trim(), source: "other" };
    return { slug: opt.value, source: opt.dataset.source };
  }
  function issuerNote() {
    const { slug, source } = chosenIssuer();
    otherLabel.hidden = source !== "other";
    let text;
    if (source === "own") {
      text = slug + " is your own baseline: an inspection uses it only with one of your API keys (below), since the inspect call reads no session.";
    } else if (source === "built-in") {
      text = slug + " is built in (public specimens): it answers with or without a key.";
    } else if (source === "other") {
      text = "Your own baselines answer only with one of your API keys; without one, only the built-in ones are found.";
    } else {
      text = signedIn ? "Your own baselines are listed when you have trained some (the baselines page); they need one of your API keys." :
        "Built-in baselines answer everyone. Log in to list your own; an inspection uses them only with one of your API keys.";
    }
    $("issuer-note").textContent = text;
  }
  issuerSelect.addEventListener("change", () => {
    issuerNote();
    if (chosenIssuer().source === "own") $("key-details").open = true;
  });
  (async () => {
    signedIn = await dt.session;
    if (signedIn) {
      try {
        const res = await fetch("/api/v1/baselines", { credentials: "same-origin" });
        const list = res.ok ? ((await res.json()).baselines || []).filter((b) => !b.builtIn) : [];
        if (list.length) {
          const group = document.createElement("optgroup");
          group.id = "issuers-own";
          group.label = "Yours (with one of your API keys)";
          for (const b of list) {
            const o = el("option", null, b.issuer + (b.label ? " · " + b.label : "") + " · " + dt.count(b.sampleCount || 0, "sample"));
            o.value = b.issuer;
            o.dataset.source = "own";
            group.appendChild(o);
          }
          issuerSelect.insertBefore(group, $("issuers-builtin"));
        }
      } catch { /* the built-in ones stay */ }
    }
    issuerNote();
  })();
  issuerNote();

  // send posts one file with the chosen issuer and key; it resolves to
  // {ok, status, body} or {status: 0} when the service was not reached.
  async function send(file, issuer, key) {
    const data = new FormData();
    // The API reads the issuer before the file: append it first.
    if (issuer) data.append("issuer", issuer);
    data.append("file", file);
    const headers = {};
    if (key) headers["Authorization"] = "Bearer " + key;
    try {
      // No cookie: /inspect authenticates by key only (SPEC.md).
      const res = await fetch("/api/v1/inspect", { method: "POST", body: data, headers, credentials: "omit" });
      let body;
      try { body = await res.json(); } catch { body = {}; }
      return { ok: res.ok, status: res.status, body };
    } catch {
      return { ok: false, status: 0, body: {} };
    }
  }

  // open draws a report and, from the file this page holds, its pages
  // (never fetched, never sent again).
  function open(report, file, keyed, heading) {
    $("report-file").hidden = !heading;
    $("report-file").textContent = heading || "";
    render(report, keyed);
    import("/static/inspect-pages.mjs").then((m) => m.show(report, file)).catch(() => {
      dt.status($("pages-status"), "The pages could not be drawn in this browser; the report above still stands.", true);
    });
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = $("inspect-status");
    const files = Array.from(fileInput.files);
    if (!files.length) { dt.status(status, "Choose a file first.", true); return; }
    const key = $("apikey").value.trim();
    const { slug, source } = chosenIssuer();
    if (source === "other" && !slugRule.test(slug)) { dt.status(status, dt.explain({ body: { error: "invalid_issuer" } }), true); return; }
    if (source === "own" && !key) {
      $("key-details").open = true;
      dt.status(status, slug + " is your own baseline: enter one of your API keys below (the inspect call reads no session), or choose a built-in one.", true);
      return;
    }
    $("inspect-button").disabled = true;
    try {
      if (files.length === 1) await single(files[0], slug, key, status);
      else await queue(files, slug, key, status);
    } finally {
      $("inspect-button").disabled = false;
    }
  });

  async function single(file, issuer, key, status) {
    $("queue").hidden = true;
    dt.status(status, "Analysing…");
    const r = await send(file, issuer, key);
    if (r.status === 0) { dt.status(status, "The service could not be reached.", true); return; }
    if (!r.ok) { dt.status(status, dt.explain(r), true); return; }
    dt.status(status, "");
    open(r.body, file, !!key, "");
  }

  // stops are the refusals that would refuse every file after this one.
  const stops = ["rate_limited", "quota_exceeded", "invalid_api_key", "invalid_issuer", "origin_not_allowed", "not_authenticated"];

  // queue inspects the files one after another, one call each, so every
  // file is metered (and refused) exactly as a single inspection is. Each
  // row keeps its file and report in this page; a done row opens them.
  async function queue(files, issuer, key, status) {
    dt.status(status, "");
    const tbody = $("queue-table").querySelector("tbody");
    tbody.replaceChildren();
    $("queue").hidden = false;
    $("report").hidden = true;
    const rows = files.map((file, i) => {
      const tr = el("tr");
      tr.dataset.index = i;
      const name = el("td", "str", file.name);
      name.dataset.label = "File";
      const size = el("td", null, dt.count(file.size, "byte"));
      size.dataset.label = "Size";
      const state = el("td", null);
      state.dataset.label = "State";
      const result = el("td", "result");
      result.dataset.label = "Result";
      const act = el("td", "act");
      tr.append(name, size, state, result, act);
      tbody.appendChild(tr);
      return { file, tr, state, result, act, n: i + 1 };
    });
    const set = (row, state, text) => {
      row.tr.dataset.state = state;
      row.state.className = "state-" + state.replace(" ", "-");
      row.state.textContent = state;
      if (text !== undefined) row.result.textContent = text;
    };
    for (const row of rows) set(row, "queued", "");
    const qs = $("queue-status");
    let done = 0, failed = 0, stopped = "";
    for (const row of rows) {
      if (stopped) { set(row, "not sent", "Not sent: the queue stopped."); continue; }
      set(row, "analysing");
      dt.status(qs, "Analysing " + row.n + " of " + files.length + "…");
      let r = await send(row.file, issuer, key);
      // A busy service says when to try again; the file is retried twice.
      for (let tries = 0; r.status === 503 && r.body.error === "busy" && tries < 2; tries++) {
        await new Promise((ok) => setTimeout(ok, 1000 * Math.min(30, r.body.retryAfterSeconds || 5)));
        r = await send(row.file, issuer, key);
      }
      if (r.ok) {
        done++;
        const s = r.body.summary || {};
        set(row, "done", "");
        const band = el("span", "band-text-" + (s.riskBand || "low"), (s.riskBand || "unknown") + ", score " + (s.riskScore || 0));
        row.result.appendChild(band);
        if (r.body.issuerBaseline) row.result.appendChild(document.createTextNode(" · " + baselineShort(r.body.issuerBaseline)));
        const b = el("button", "small open", "Open");
        b.type = "button";
        b.setAttribute("aria-label", "Open the report of " + row.file.name);
        const report = r.body, keyed = !!key;
        b.addEventListener("click", () => {
          for (const x of tbody.querySelectorAll("tr.current")) x.classList.remove("current");
          row.tr.classList.add("current");
          open(report, row.file, keyed, "Report of " + row.file.name + " (" + row.n + " of " + files.length + " in the queue)");
        });
        row.act.appendChild(b);
        continue;
      }
      failed++;
      const why = r.status === 0 ? "The service could not be reached." : dt.explain(r);
      set(row, "error", why);
      if (r.status === 0 || stops.includes(r.body.error)) stopped = why;
    }
    const parts = [done + " of " + dt.count(files.length, "file") + " done"];
    if (failed) parts.push(failed + " failed");
    if (stopped) {
      const rest = files.length - done - failed;
      dt.status(qs, "Stopped: " + stopped + " " + (rest ? dt.count(rest, "file") + " not sent; " : "") + parts.join(", ") + ".", true);
    } else {
      dt.status(qs, parts.join(", ") + "." + (done ? " Open a row to see its report." : ""), failed > 0);
    }
  }

  // baselineShort is the queue row's word on the issuer baseline.
  function baselineShort(b) {
    if (!b.resolved) return "no baseline " + (b.requested || "");
    if (!b.matchingActive) return b.requested + ": too few samples to match";
    return b.requested + ": " + ((b.divergence || 0) >= 0.2 ? "strays" : "consistent");
  }

  function render(report, keyed) {
    const s = report.summary || {};
    gauge(s.riskScore || 0, s.riskBand || "low");
    const title = $("band-title");
    title.textContent = "Risk band: " + (s.riskBand || "unknown") + " (score " + (s.riskScore || 0) + " of 100)";
    title.className = "band-text-" + (s.riskBand || "low");
    $("summary-line").textContent = [
      (report.mediaType || "document").toUpperCase(),
      dt.count(s.signalCount || 0, "signal") + " above info",
      dt.count(s.revisions || 1, "revision"),
      "engine " + report.engineVersion,
    ].join(" · ");
    facts(report);
    const caution = report.usageCaution || {};
    $("caution").textContent = "Not safe for an automated adverse decision. " + (caution.guidance || "");
    $("disclaimer").textContent = report.disclaimer || "";
    baseline(report.issuerBaseline, keyed);
    signals(report.signals || []);
    timeline(report.signals || []);
    $("raw").textContent = JSON.stringify(report, null, 2);
    $("report").hidden = false;
    $("report").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // baseline says what the issuer baseline answered: which profile, how
  // many samples, whether matching is on, and how far the document strays.
  function baseline(b, keyed) {
    const section = $("baseline-section");
    section.hidden = !b;
    if (!b) return;
    const dl = $("baseline-facts");
    dl.replaceChildren();
    let line;
    if (!b.resolved && b.reason === "not_applicable") {
      line = "Issuer baselines are a PDF feature; this file was not compared" + (b.requested ? " with " + b.requested : "") + ".";
    } else if (!b.resolved) {
      line = "No baseline named " + b.requested + " answered this call" +
        (keyed ? ": neither the key's account nor the built-in ones have it." : ": without an API key only the built-in ones are found.");
    } else if (!b.matchingActive) {
      line = "Compared with " + b.requested + ", but its profile has " + dt.count(b.sampleCount || 0, "sample") +
        ": matching starts at 5, so no deviation is called.";
    } else if ((b.divergence || 0) >= 0.2) {
      line = "This document strays from " + b.requested + "'s genuine documents (" + b.mismatchedDimensions.join(", ") +
        "): see the issuer-mismatch signal.";
    } else if ((b.mismatchedDimensions || []).length) {
      line = "This document differs from " + b.requested + "'s genuine documents only in " + b.mismatchedDimensions.join(", ") +
        ", below the 0.20 divergence a deviation needs.";
    } else {
      line = "This document is consistent with " + b.requested + "'s genuine documents.";
    }
    $("baseline-line").textContent = line;
    const rows = [["Issuer", b.requested]];
    if (b.resolved) {
      rows.push(["Profile", b.source === "customer" ? "your own" : "built-in (public specimens)"],
        ["Samples", dt.count(b.sampleCount || 0, "sample")], ["Matching", b.matchingActive ? "on" : "off (fewer than 5 samples)"]);
      if (typeof b.divergence === "number") rows.push(["Divergence", b.divergence.toFixed(2) + " (weighted share of the issuer's steady habits this document breaks; 0.20 and above is a deviation)"]);
      if ((b.mismatchedDimensions || []).length) rows.push(["Differs in", b.mismatchedDimensions.join(", ")]);
    }
    for (const [k, v] of rows) {
      if (v === undefined || v === null || v === "") continue;
      dl.appendChild(el("dt", null, k));
      dl.appendChild(el("dd", null, v));
    }
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
      ["Revisions", d.revisions], ["Size", d.sizeBytes === undefined ? null : dt.count(d.sizeBytes, "byte")],
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
      d.appendChild(el("summary", null, dt.count(v.length, "entry", "entries")));
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
      grp.appendChild(svg("title", {}, `revision ${r.revision}: ${dt.count(r.objectsWrittenTotal || total(r), "object")} written` +
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
        r.contentTouched ? "content" : dt.count(total(r), "object")));
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
