// The baselines page: lists the account's own and the built-in baselines
// (GET /api/v1/baselines), trains one from the chosen PDFs (POST, multipart:
// issuer, label, then the files) and deletes the account's own. Strings are
// set with textContent only.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("train-form");
  if (!form) return; // signed out

  // cell adds a cell; label names it where the table stacks at 390 px.
  function cell(tr, text, cls, label) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    if (label) td.dataset.label = label;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  async function load() {
    const status = $("list-status");
    let r;
    try {
      const res = await fetch("/api/v1/baselines", { credentials: "same-origin" });
      r = { ok: res.ok, status: res.status, body: await res.json() };
    } catch { dt.status(status, "The service could not be reached.", true); return; }
    if (!r.ok) { dt.status(status, dt.explain(r), true); return; }
    const list = r.body.baselines || [];
    const tbody = $("baseline-table").querySelector("tbody");
    tbody.replaceChildren();
    for (const b of list) {
      const tr = document.createElement("tr");
      tr.dataset.issuer = b.issuer;
      cell(tr, b.issuer, "mono");
      cell(tr, b.label || "", "", "Label");
      const n = b.sampleCount || 0;
      cell(tr, dt.count(n, "sample") +
        (b.matchingActive ? "" : " (matching from " + (b.minSamplesForMatching || 5) + ")"), "", "Samples");
      cell(tr, b.builtIn ? "built-in (public specimens)" : "yours", "", "Source");
      cell(tr, b.updatedAt ? b.updatedAt.slice(0, 10) : "built in", "", "Updated");
      const act = cell(tr, "");
      if (!b.builtIn) {
        const del = document.createElement("button");
        del.type = "button";
        del.className = "small danger delete";
        del.textContent = "Delete";
        del.addEventListener("click", () => remove(b.issuer));
        act.appendChild(del);
      }
      tbody.appendChild(tr);
    }
    $("baseline-table").hidden = list.length === 0;
    const own = list.filter((b) => !b.builtIn).length;
    dt.status(status, list.length === 0 ? "No baselines yet." :
      (own === 0 ? "None of your own yet; " : own + " of your own (up to 25); ") +
      (list.length - own) + " built-in.");
  }

  async function remove(issuer) {
    if (!confirm("Delete the baseline " + issuer + "? Its profile is gone for good.")) return;
    const res = await fetch("/api/v1/baselines/" + encodeURIComponent(issuer), { method: "DELETE", credentials: "same-origin" });
    let body;
    try { body = await res.json(); } catch { body = {}; }
    if (!res.ok) { dt.status($("list-status"), dt.explain({ body }), true); return; }
    await load();
    dt.status($("list-status"), "Deleted " + issuer + ". " + $("list-status").textContent);
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = $("train-status"), files = $("train-files").files;
    if (files.length > 25) { dt.status(status, "At most 25 files per upload; train the rest in a second upload.", true); return; }
    // The API reads the issuer and label before the files: append them first.
    const data = new FormData();
    data.append("issuer", form.elements.issuer.value.trim());
    if (form.elements.label.value.trim()) data.append("label", form.elements.label.value.trim());
    for (const f of files) data.append("file", f);
    $("train-button").disabled = true;
    $("train-skipped").hidden = true;
    dt.status(status, "Training on " + dt.count(files.length, "file") + "…");
    try {
      const res = await fetch("/api/v1/baselines", { method: "POST", body: data, credentials: "same-origin" });
      let body = {};
      try { body = await res.json(); } catch { body = {}; }
      if (!res.ok) {
        let text = dt.explain({ body });
        if (body.error === "plan_required") text += " " + $("plan-next").textContent;
        dt.status(status, text, true);
        return;
      }
      const p = body.profile || {};
      dt.status(status, (body.merged ? "Added to " : "Trained ") + p.issuer + ": " + body.filesUsed + " of " +
        dt.count(body.filesReceived, "file") + " used, " + dt.count(p.sampleCount, "sample") + " in all" +
        (p.matchingActive ? "; matching is on." : "; matching starts at " + dt.count(p.minSamplesForMatching, "sample") + "."));
      const skipped = $("train-skipped");
      skipped.replaceChildren();
      const reasons = { not_a_pdf: "not a PDF", unusable_pdf: "encrypted, damaged or without pages", analysis_timeout: "took too long to read", empty: "empty", duplicate: "the same file as an earlier one, counted once" };
      for (const s of body.skipped || []) {
        const li = document.createElement("li");
        li.textContent = s.filename + ": skipped, " + (reasons[s.reason] || s.reason);
        skipped.appendChild(li);
      }
      skipped.hidden = !(body.skipped || []).length;
      form.reset();
      await load();
    } catch {
      dt.status(status, "The service could not be reached.", true);
    } finally {
      $("train-button").disabled = false;
    }
  });

  load();
})();
