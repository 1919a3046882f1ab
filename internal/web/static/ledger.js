// The supplier ledger page: the forwarding alias (POST /api/v1/ap/alias,
// which creates it on the first call), then the ledger (GET
// /api/v1/ap/ledger): alerts of the last 30 days, newest first, and each
// supplier's payment coordinates with their version chain, and the alert
// webhook (PUT/DELETE /api/v1/ap/webhook: its URL, the secret shown once
// when set, the last delivery's outcome). Strings (sender domains, tax
// ids: attacker-authored) are set with textContent only.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  if (!$("alias-box")) return; // signed out

  const el = dt.el;
  function cell(tr, text, label) {
    const td = el("td", "", text);
    if (label) td.dataset.label = label;
    tr.appendChild(td);
  }
  const when = (iso) => (iso || "").replace("T", " ").slice(0, 16) + (iso ? " UTC" : "");
  const alertWords = {
    "coordinates-changed": "Payment details changed",
    "new-sender-domain": "Mail from a new sender domain",
    "risky-attachment": "Risky attachment",
    "lookalike-domain": "Mail from a domain imitating this supplier's",
  };
  const kindWords = {
    iban: "IBAN", bic: "BIC", "us-aba": "US routing number", "uk-sort-code": "UK sort code",
    "br-bank": "Brazilian bank account", boleto: "Boleto", pix: "PIX key", cnpj: "CNPJ", cpf: "CPF",
    "eu-vat": "EU VAT number", "us-ein": "US EIN", "gb-vat": "UK VAT number", "ch-uid": "Swiss UID",
    "au-abn": "Australian ABN",
  };
  // coord says one masked coordinate in words: "IBAN DE, bank 37040044, account ending 3000".
  function coord(c) {
    const parts = [(kindWords[c.kind] || c.kind) + (c.country ? " " + c.country : "")];
    if (c.bankCode) parts.push("bank " + c.bankCode);
    if (c.branch) parts.push("branch " + c.branch);
    if (c.accountLast4) parts.push("account ending " + c.accountLast4);
    if (c.keyLast4) parts.push("key ending " + c.keyLast4);
    if (c.taxId) parts.push("tax id " + c.taxId);
    return parts.join(", ");
  }
  function coords(list) {
    const ul = el("ul", "coords");
    for (const c of list || []) ul.appendChild(el("li", "", coord(c)));
    if (!ul.children.length) ul.appendChild(el("li", "hint", "no payment details read"));
    return ul;
  }

  // seen is an alert's last cell: when it was acknowledged, or the button
  // that acknowledges it (the alert stays listed either way).
  function seen(al) {
    const td = el("td", "seen");
    td.dataset.label = "Seen";
    if (al.acknowledged) {
      td.textContent = "acknowledged " + when(al.acknowledged);
      return td;
    }
    const b = el("button", "small ack", "Acknowledge");
    b.type = "button";
    b.addEventListener("click", async () => {
      b.disabled = true;
      const r = await dt.post("/api/v1/ap/alerts/" + encodeURIComponent(al.id) + "/acknowledge");
      if (!r.ok) { b.disabled = false; dt.status($("alerts-status"), dt.explain(r), true); return; }
      td.replaceChildren();
      td.textContent = "acknowledged " + when(r.body.acknowledged);
      td.closest("tr").classList.add("acknowledged");
    });
    td.appendChild(b);
    return td;
  }

  // send is a JSON call with any method; dt.post is POST only.
  async function send(method, path, body) {
    const init = { method: method, credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    try {
      const res = await fetch(path, init);
      let data;
      try { data = await res.json(); } catch { data = {}; }
      return { ok: res.ok, status: res.status, body: data };
    } catch {
      return { ok: false, status: 0, body: { message: "The service could not be reached." } };
    }
  }

  const stateWords = { delivered: "delivered", retrying: "not delivered yet, will retry", failed: "given up after " };
  // showWebhook fills the webhook card from the ledger's webhook (or null).
  function showWebhook(h) {
    $("webhook-url").value = h ? h.url : "";
    $("webhook-remove").hidden = !h;
    const last = $("webhook-last");
    last.hidden = !h;
    if (!h) return;
    const d = h.lastDelivery;
    if (!d) { last.textContent = "Set " + when(h.created) + ". Nothing delivered yet: events are posted when an alert is raised."; return; }
    let text = "Last delivery " + when(d.at) + " (event " + d.eventId + "): ";
    if (d.state === "failed") text += stateWords.failed + dt.count(d.attempts, "attempt");
    else text += stateWords[d.state] || d.state;
    if (d.status) text += ", your endpoint answered " + d.status;
    if (d.error && !d.status) text += ", " + d.error;
    if (d.state === "retrying" && d.next) text += "; next attempt " + when(d.next);
    last.textContent = text + ".";
    last.classList.toggle("bad", d.state !== "delivered");
  }

  $("webhook-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("webhook-save");
    button.disabled = true;
    dt.status($("webhook-status"), "Saving…");
    const r = await send("PUT", "/api/v1/ap/webhook", { url: $("webhook-url").value });
    button.disabled = false;
    if (!r.ok) { dt.status($("webhook-status"), dt.explain(r), true); return; }
    $("webhook-secret").textContent = r.body.secret;
    $("webhook-secret-box").hidden = false;
    dt.status($("webhook-status"), "Saved. New alerts are posted to " + r.body.url + ".");
    showWebhook({ url: r.body.url, created: r.body.created });
  });
  $("webhook-remove").addEventListener("click", async () => {
    const r = await send("DELETE", "/api/v1/ap/webhook");
    if (!r.ok) { dt.status($("webhook-status"), dt.explain(r), true); return; }
    $("webhook-secret-box").hidden = true;
    $("webhook-secret").textContent = "";
    dt.status($("webhook-status"), "Removed: alerts are no longer posted.");
    showWebhook(null);
  });

  async function load() {
    const a = await dt.post("/api/v1/ap/alias");
    if (!a.ok) { dt.status($("alias-status"), dt.explain(a), true); return; }
    $("alias").textContent = a.body.address || a.body.alias;
    $("alias-line").hidden = false;
    $("alias-hint").hidden = false;
    dt.status($("alias-status"), a.body.address ? "" :
      "This server has no mail domain (INGEST_MAIL_DOMAIN), so this is the alias alone: its operator sets the domain that receives mail.");

    let r;
    try {
      const res = await fetch("/api/v1/ap/ledger", { credentials: "same-origin" });
      r = { ok: res.ok, status: res.status, body: await res.json() };
    } catch { dt.status($("suppliers-status"), "The service could not be reached.", true); return; }
    if (!r.ok) { dt.status($("suppliers-status"), dt.explain(r), true); return; }
    const v = r.body;
    showWebhook(v.webhook || null);
    $("advisory").textContent = v.advisory || "";
    $("advisory").hidden = !v.advisory;

    const alerts = (v.alerts || []).slice().reverse();
    const tbody = $("alerts").querySelector("tbody");
    tbody.replaceChildren();
    for (const al of alerts) {
      const tr = el("tr", "alert-" + al.kind);
      cell(tr, when(al.at));
      cell(tr, alertWords[al.kind] || al.kind, "Alert");
      cell(tr, al.supplierKey, "Supplier");
      cell(tr, al.senderDomain || "", "Sender");
      cell(tr, al.band || "", "Invoice band");
      tr.dataset.alert = al.id;
      tr.appendChild(seen(al));
      tbody.appendChild(tr);
    }
    $("alerts").hidden = !alerts.length;
    dt.status($("alerts-status"), alerts.length ? dt.count(alerts.length, "alert") + "." :
      "No alerts in the last 30 days.");

    const box = $("suppliers");
    box.replaceChildren();
    for (const s of v.suppliers || []) {
      const card = el("div", "supplier");
      card.dataset.key = s.key;
      card.appendChild(el("h3", "", s.taxId ? "Tax id " + s.taxId : s.key));
      card.appendChild(el("p", "hint", "Mail from " + ((s.domains || []).join(", ") || "unknown domains") +
        " · first seen " + when(s.created) + " · last " + when(s.updated)));
      card.appendChild(el("p", "", "Current payment details:"));
      card.appendChild(coords(s.current));
      const versions = s.versions || [];
      const det = el("details", "versions");
      det.open = versions.length > 1;
      det.appendChild(el("summary", "", versions.length === 1 ? "1 version" : dt.count(versions.length, "version") + ", oldest first"));
      const ol = el("ol", "chain");
      versions.forEach((ver, i) => {
        const li = el("li", i === versions.length - 1 ? "current" : "");
        li.appendChild(el("div", "when", when(ver.firstSeen) + (ver.lastSeen && ver.lastSeen !== ver.firstSeen ? " to " + when(ver.lastSeen) : "") +
          (ver.senderDomain ? " · from " + ver.senderDomain : "") + (ver.band ? " · invoice band " + ver.band : "")));
        li.appendChild(coords(ver.coords));
        ol.appendChild(li);
      });
      det.appendChild(ol);
      card.appendChild(det);
      box.appendChild(card);
    }
    const n = (v.suppliers || []).length;
    dt.status($("suppliers-status"), n ? dt.count(n, "supplier") + "." :
      "No supplier yet: forward an invoice mail to the address above.");
  }
  load();
})();
