// The account page: confirms a mailed verification link, takes a new
// password from a reset link, and rotates keys.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  // Stripe sends the browser back to /account?checkout=…; the billing
  // page says what happened.
  if (params.has("checkout")) { location.replace("/billing?checkout=" + encodeURIComponent(params.get("checkout"))); return; }
  // Tokens leave the address bar once read, so they are not bookmarked
  // or shared by accident.
  if (params.has("verify") || params.has("reset")) history.replaceState(null, "", "/account");

  const verify = params.get("verify");
  if (verify) {
    const box = document.getElementById("verify-box");
    const status = document.getElementById("verify-status");
    box.hidden = false;
    dt.status(status, "Checking the link…");
    dt.post("/api/v1/auth/verify", { token: verify }).then((r) => {
      dt.status(status, r.ok ? "Your address is confirmed." : dt.explain(r), !r.ok);
      if (!r.ok) return;
      box.classList.add("done");
      // The plan card was drawn before the link was checked: it shows the
      // one state too.
      const state = document.getElementById("verified-state");
      if (state) { state.textContent = "address confirmed"; state.className = "ok"; }
      const again = document.getElementById("resend");
      if (again) again.remove();
    });
  } else if (params.get("verified") === "0") {
    document.getElementById("verify-box").hidden = false;
    dt.status(document.getElementById("verify-status"), "This link has no token.", true);
  }

  const reset = params.get("reset");
  if (reset) {
    document.getElementById("reset-box").hidden = false;
    dt.bindForm(document.getElementById("reset-form"), { token: reset });
  }

  const resend = document.getElementById("resend");
  if (resend) resend.addEventListener("click", async () => {
    const r = await dt.post("/api/v1/auth/resend-verification");
    dt.status(document.getElementById("plan-status"), r.ok ? resend.dataset.done : dt.explain(r), !r.ok);
  });

  for (const button of document.querySelectorAll("button.rotate")) {
    button.addEventListener("click", async () => {
      if (!confirm("Rotate this key? It stops working at once.")) return;
      const status = document.getElementById("keys-status");
      const r = await dt.post("/api/v1/keys/rotate", { keyId: button.dataset.keyId });
      if (!r.ok) { dt.status(status, dt.explain(r), true); return; }
      const row = button.closest("tr");
      row.querySelector(".key-state").textContent = "revoked";
      button.remove();
      const tbody = row.parentElement;
      const fresh = document.createElement("tr");
      const cells = [r.body.apiKey.preview, "active", "today"];
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        fresh.appendChild(td);
      }
      fresh.appendChild(document.createElement("td"));
      tbody.insertBefore(fresh, tbody.firstChild);
      document.getElementById("rotated-key").textContent = r.body.apiKey.plaintext;
      document.getElementById("rotated").hidden = false;
      dt.status(status, "");
    });
  }

})();
