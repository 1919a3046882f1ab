"use strict";
dt.bindForm(document.getElementById("login-form"));
