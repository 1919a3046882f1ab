// The billing page: each button posts to its billing route and follows
// the https:// URL Stripe's session answers with; a return from checkout
// (forwarded here by the account page) is said in words.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const checkout = params.get("checkout");
  if (checkout) {
    history.replaceState(null, "", "/billing");
    dt.status(document.getElementById("checkout-status"), checkout === "success" ?
      "Payment received. The plan or credits change as soon as Stripe confirms it: reload this page in a minute." :
      "Checkout cancelled: nothing was charged.");
  }
  for (const button of document.querySelectorAll("button.bill")) {
    button.addEventListener("click", async () => {
      const body = button.dataset.field ? { [button.dataset.field]: button.dataset.value } : undefined;
      const status = document.getElementById("billing-status");
      dt.status(status, "Opening…");
      const r = await dt.post(button.dataset.api, body);
      if (r.ok && typeof r.body.url === "string" && /^https:\/\//.test(r.body.url)) location.assign(r.body.url);
      else dt.status(status, r.ok ? "The payment page address was not usable." : dt.explain(r), true);
    });
  }
})();
