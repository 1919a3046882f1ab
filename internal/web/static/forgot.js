"use strict";
dt.bindForm(document.getElementById("forgot-form"), null, () => {});
