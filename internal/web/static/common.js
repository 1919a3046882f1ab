// Shared by every page: JSON calls to the API, form binding, copy buttons
// and logout. Text reaches the page only through textContent.
"use strict";
/* exported dt -- the one name the page scripts and modules read */

const dt = {
  // count says a number with its noun in the number's grammar: count(1,
  // "entry", "entries") is "1 entry", count(2, "file") "2 files". Every
  // counted message on the dashboard goes through it.
  count(n, one, many) {
    const k = Number(n) || 0;
    return k.toLocaleString("en") + " " + (k === 1 ? one : (many || one + "s"));
  },

  // el makes an element with a class and text; text is set with
  // textContent only, never parsed as markup.
  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  },

  // session resolves to whether a dashboard session is open (the header's
  // links and the inspect page's own baselines wait on the same answer).
  session: null,

  // post sends a JSON body (or none) and resolves to {ok, status, body}.
  async post(path, body) {
    const init = { method: "POST", credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data;
    try { data = await res.json(); } catch { data = {}; }
    return { ok: res.ok, status: res.status, body: data };
  },

  // explain turns an API error body into a sentence.
  explain(r) {
    const e = (r.body && r.body.error) || "error";
    const words = {
      invalid_credentials: "Wrong email or password.",
      email_taken: "That address already has an account.",
      invalid_token: "This link is unknown, used or expired.",
      rate_limited: "Too many attempts; try again in " + dt.count(r.body.retryAfterSeconds || 60, "second") + ".",
      not_authenticated: "Please log in first.",
      invalid_api_key: "That API key is not valid.",
      file_too_large: "The file is larger than " + (r.body.maxMb || "the") + " MB allowed.",
      not_a_pdf: "This is not a PDF, Office document or image the service reads.",
      analysis_timeout: "The document took too long to analyse.",
      quota_exceeded: "The monthly quota is used up.",
      invalid_issuer: "An issuer is lower-case letters, digits and hyphens, such as acme-bank.",
      busy: "The service is busy; try again in a few seconds.",
      billing_unavailable: "Billing is not available right now.",
      mail_unavailable: "Mail is not configured on this server.",
    };
    // The server's own message says what to do next (the anonymous limit
    // names the wait and the API key); the table covers bodies without one.
    return (r.body && r.body.message) || words[e] || ("The request failed (" + e + ").");
  },

  status(el, text, bad) {
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("bad", !!bad);
  },

  // bindForm posts a form's named inputs as JSON to its data-api, then
  // runs done(result) or goes to data-next.
  bindForm(form, extra, done) {
    if (!form) return;
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const status = form.querySelector(".status");
      const body = Object.assign({}, extra || {});
      for (const input of form.querySelectorAll("input[name]")) body[input.name] = input.value;
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      dt.status(status, "Working…");
      try {
        const r = await dt.post(form.dataset.api, body);
        if (!r.ok) { dt.status(status, dt.explain(r), true); return; }
        dt.status(status, form.dataset.done || "Done.");
        if (done) done(r);
        else if (form.dataset.next) location.assign(form.dataset.next);
      } catch {
        dt.status(status, "The service could not be reached.", true);
      } finally {
        button.disabled = false;
      }
    });
  },
};

// The header shows what fits the session: Sign up and Log in when signed
// out, Log out when signed in (all three until the answer arrives).
dt.session = (async () => {
  try {
    const res = await fetch("/api/v1/session", { credentials: "same-origin" });
    const signedIn = !!(await res.json()).authenticated;
    for (const el of document.querySelectorAll(signedIn ? ".when-out" : ".when-in")) el.hidden = true;
    return signedIn;
  } catch { return false; /* the links stay */ }
})();

document.addEventListener("click", async (ev) => {
  const copy = ev.target.closest("button.copy");
  if (copy) {
    const text = document.getElementById(copy.dataset.copy).textContent;
    try { await navigator.clipboard.writeText(text); copy.textContent = "Copied"; }
    catch {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(copy.dataset.copy));
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
      copy.textContent = "Selected: press Ctrl+C";
    }
  }
  if (ev.target.id === "logout") {
    await dt.post("/api/v1/auth/logout");
    location.assign("/login");
  }
});
