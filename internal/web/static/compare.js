// The compare page: posts the original and the candidate to
// /api/v1/compare with the key typed in (held in this page only) and draws
// the CompareReport: the relationship in words, the findings, the two
// files side by side and what changed. Every string (metadata values and
// font names come from the files) is set with textContent only.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = dt.el;
  const yesNo = (b) => (b ? "yes" : "no");

  const relationships = {
    identical: ["The files are identical", "Same bytes: nothing was changed."],
    "candidate-extends-original": ["The candidate extends the original",
      "The candidate begins with the original's bytes and appends to them: it was saved again on top of the original (an incremental update)."],
    "candidate-truncates-original": ["The candidate is a cut-down original",
      "The original begins with the candidate's bytes: the candidate is an earlier state of the original, or had its last updates removed."],
    rewritten: ["The candidate was rewritten",
      "The candidate does not share the original's bytes: it was saved whole again (by the same program or another). The changes below say how far they differ."],
  };

  $("compare-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = $("compare-status");
    const original = $("original").files[0], candidate = $("candidate").files[0];
    const key = $("compare-key").value.trim();
    if (!original || !candidate) { dt.status(status, "Choose both files first.", true); return; }
    if (!key) { dt.status(status, "Paste one of your API keys first.", true); return; }
    const data = new FormData();
    data.append("original", original);
    data.append("candidate", candidate);
    $("compare-button").disabled = true;
    dt.status(status, "Comparing…");
    try {
      // The key, not the cookie, authenticates /compare (SPEC.md).
      const res = await fetch("/api/v1/compare", { method: "POST", body: data, credentials: "omit",
        headers: { Authorization: "Bearer " + key } });
      let body;
      try { body = await res.json(); } catch { body = {}; }
      if (!res.ok) {
        let text = dt.explain({ body });
        if (body.error === "invalid_api_key") text = "That API key was not recognised or has been revoked. Use a current key: rotating one on the account page shows a new one.";
        dt.status(status, text, true);
        return;
      }
      const left = res.headers.get("x-quota-remaining");
      dt.status(status, left === null ? "" : "2 documents counted; " + left + " left of this month's quota.");
      render(body);
      // The pages are drawn from the files this page holds, never fetched.
      import("/static/compare-pages.mjs").then((m) => m.show(body, original, candidate)).catch(() => {
        dt.status($("pages-compare-status"), "The pages could not be drawn in this browser; the findings above still stand.", true);
      });
    } catch {
      dt.status(status, "The service could not be reached.", true);
    } finally {
      $("compare-button").disabled = false;
    }
  });

  function render(r) {
    const [title, detail] = relationships[r.relationship] || [r.relationship, ""];
    $("relationship").textContent = title;
    const a = r.ancestry;
    let more = "";
    if (a) {
      more = " " + dt.count(a.revisionsAdded || 0, "revision") + " and " +
        dt.count(a.bytesAdded || 0, "byte") + " " + (r.relationship === "candidate-truncates-original" ? "fewer" : "added") +
        "; " + (a.contentTouched ? "page content, pages or images were replaced." : "no page content, page or image was replaced.");
    }
    $("relationship-detail").textContent = detail + more;
    $("compare-caution").textContent = "Not safe for an automated adverse decision. " + ((r.usageCaution || {}).guidance || "");
    $("compare-disclaimer").textContent = r.disclaimer || "";
    findings(r.findings || []);
    sides(r.original || {}, r.candidate || {});
    changes(r.differences);
    $("compare-raw").textContent = JSON.stringify(r, null, 2);
    $("result").hidden = false;
    $("result").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function findings(list) {
    const root = $("findings");
    root.replaceChildren();
    if (!list.length) root.appendChild(el("p", "hint", "No findings."));
    for (const f of list) {
      const art = el("article", "signal finding severity-" + f.severity);
      const h = el("h3", null, f.title || f.id);
      h.appendChild(el("span", "sev sev-" + f.severity, f.severity));
      art.appendChild(h);
      if (f.detail) art.appendChild(el("p", "detail", f.detail));
      root.appendChild(art);
    }
  }

  function sides(o, c) {
    const tbody = $("sides").querySelector("tbody");
    tbody.replaceChildren();
    const rows = [
      ["Size", (x) => dt.count(x.sizeBytes || 0, "byte")],
      ["Revisions", (x) => x.revisions], ["Pages", (x) => x.pages],
      ["Encrypted", (x) => yesNo(x.encrypted)], ["Damaged (rebuilt on reading)", (x) => yesNo(x.damaged)],
    ];
    for (const [label, f] of rows) {
      const tr = el("tr");
      tr.appendChild(el("th", null, label));
      tr.appendChild(el("td", null, f(o)));
      tr.appendChild(el("td", null, f(c)));
      tbody.appendChild(tr);
    }
  }

  // changes lists the rewritten pair's differences: metadata items, the
  // document ID, fonts, page geometry and producer.
  function changes(d) {
    const root = $("changes");
    root.replaceChildren();
    $("changes-box").hidden = !d;
    if (!d) return;
    const words = { added: "added", removed: "removed", changed: "changed" };
    for (const [name, label] of [["info", "Document information"], ["xmp", "XMP metadata"]]) {
      const block = d[name];
      if (!block || !(block.items || []).length) continue;
      root.appendChild(el("h3", null, label + " (" + dt.count(block.total || block.items.length, "change") + ")"));
      // Stacked at 390 px: each cell carries its column's name.
      const table = el("table", "changes stack");
      const thead = el("thead"), head = el("tr"), tbody = el("tbody");
      const cols = ["Key", "Change", "Original", "Candidate"];
      for (const t of cols) head.appendChild(el("th", null, t));
      thead.appendChild(head);
      table.appendChild(thead);
      for (const it of block.items) {
        const tr = el("tr");
        const values = [it.key, words[it.change] || it.change, it.original, it.candidate];
        values.forEach((v, i) => {
          const td = el("td", i === 0 ? "mono" : i > 1 ? "str" : null, v === undefined || v === null ? "(none)" : v);
          if (i > 0) td.dataset.label = cols[i];
          tr.appendChild(td);
        });
        tbody.appendChild(tr);
      }
      table.appendChild(tbody);
      root.appendChild(table);
      if (block.truncated) root.appendChild(el("p", "hint", "Only the first " + block.items.length + " are listed."));
    }
    const facts = el("dl", "facts");
    const add = (k, v) => { if (v === null || v === undefined || v === "") return; facts.appendChild(el("dt", null, k)); facts.appendChild(el("dd", null, v)); };
    const id = d.id;
    if (id) add("Document ID", { "same-document": "same document (permanent half equal)", "different-document": "a different document (both halves differ)", unknown: "unknown (an ID is missing)" }[id.assessment] || id.assessment);
    const fonts = d.fonts;
    if (fonts) {
      add("Fonts added", (fonts.added || []).join(", ") || "none");
      add("Fonts removed", (fonts.removed || []).join(", ") || "none");
    }
    if (d.pageCount) add("Pages", d.pageCount.original + " → " + d.pageCount.candidate);
    if (d.pageGeometry && (d.pageGeometry.items || []).length) add("Page geometry", dt.count(d.pageGeometry.items.length, "page differs", "pages differ"));
    const p = d.producer;
    if (p && p.original && p.candidate) {
      const side = (x) => [x.producer, x.creator].filter(Boolean).join(" / ") || "none";
      add("Producer / creator", side(p.original) + " → " + side(p.candidate));
    }
    if (d.objects) add("Objects in use", d.objects.original + " → " + d.objects.candidate);
    if (d.xrefStyle) add("Cross-reference style", d.xrefStyle.original + " → " + d.xrefStyle.candidate);
    if (facts.children.length) root.appendChild(facts);
  }

  $("compare-raw-toggle").addEventListener("click", () => {
    const raw = $("compare-raw");
    raw.hidden = !raw.hidden;
    $("compare-raw-toggle").textContent = raw.hidden ? "Show the raw JSON" : "Hide the raw JSON";
  });
})();
