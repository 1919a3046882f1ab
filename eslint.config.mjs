// ESLint's flat config for the dashboard's scripts (internal/web/static) and
// the Chromium scripts (e2e): `make js-lint`, part of `make test`. ESLint,
// @eslint/js and globals are pinned in the Makefile and installed into
// .tools, so they are loaded from there rather than from a node_modules
// beside this file.
import { createRequire } from "node:module";

const tools = createRequire(new URL("./.tools/", import.meta.url));
const js = tools("@eslint/js");
const globals = tools("globals");

// The recommended rules are the ones that catch bugs (undefined and unused
// names, duplicate keys, unreachable code, ...); eqeqeq holds the code to
// the strict comparisons it already uses everywhere.
const bugs = {
  ...js.configs.recommended.rules,
  eqeqeq: "error",
};

// A page's window has properties named like the locals these scripts use
// (status above all): a missing declaration or a removed helper's variable
// would read window.status and pass no-undef. Spelled window.x when meant.
const pageBugs = {
  ...bugs,
  "no-restricted-globals": ["error", "status", "name", "event", "length", "top", "parent", "self",
    "origin", "close", "open", "print", "stop", "find", "focus", "blur", "scroll", "screen", "frames",
    "external", "closed", "opener"],
};

export default [
  {
    // pdf.js is vendored as its authors built it (pdfjs.sha256 pins it);
    // the rest are the git-ignored folders that tools and runs fill.
    ignores: [
      ".tools/",
      ".aws-sam/",
      ".data/",
      "bin/",
      "internal/web/static/pdf.min.mjs",
      "internal/web/static/pdf.worker.min.mjs",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    // Classic scripts: layout.html loads common.js, then the page's own
    // script, into one global scope. common.js shares exactly one name, dt
    // (it says so with /* exported dt */); every other script reads it and
    // declares nothing global.
    files: ["internal/web/static/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      ...pageBugs,
      "no-implicit-globals": ["error", { lexicalBindings: true }],
    },
  },
  {
    files: ["internal/web/static/*.js"],
    ignores: ["internal/web/static/common.js"],
    languageOptions: { globals: { dt: "readonly" } },
  },
  {
    // The page modules are imported by inspect.js and compare.js, after
    // common.js ran: dt is visible to them as to any script on the page.
    files: ["internal/web/static/*.mjs"],
    languageOptions: {
      sourceType: "module",
      globals: { ...globals.browser, dt: "readonly" },
    },
    rules: pageBugs,
  },
  {
    // The Chromium scripts run in node, started by internal/web's tests.
    // The functions they hand to page.evaluate and page.waitForFunction
    // run in the page instead: the three page names they use are listed
    // here, not the whole browser, so node-side code cannot use the rest
    // (a node-side use of these three is what this cannot see).
    files: ["e2e/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { ...globals.node, document: "readonly", window: "readonly", dt: "readonly" },
    },
    rules: bugs,
  },
];
