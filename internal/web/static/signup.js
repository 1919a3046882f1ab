"use strict";
dt.bindForm(document.getElementById("signup-form"), null, (r) => {
  document.getElementById("signup-form").hidden = true;
  document.getElementById("new-key-value").textContent = r.body.apiKey.plaintext;
  document.getElementById("new-key").hidden = false;
});
