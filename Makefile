# doctrust: `make run` to run, `make test` to pass the tests.
GO      ?= go
PKGS    := ./...
STATICCHECK_VERSION := v0.8.2

.PHONY: js-lint template-lint sam-check api-fuzz api-clients openapi-lint bench-batch lambda-size run test vet fmt-check lint bench fuzz bench-peers loadtest loadfault tools tools-if-possible pyhanko build clean screenshots

# AWS's DynamoDB Local, run by the store tests on a loopback port; its jar
# ships inside this npm package and runs on Java 17.
DDB_LOCAL_PKG := amplify-dynamodb-simulator@2.9.30
DDB_LOCAL_JAR := .tools/node_modules/amplify-dynamodb-simulator/emulator/DynamoDBLocal.jar

# stripe-mock, Stripe's API stand-in, run by the billing tests on 127.0.0.1
# (internal/stripemock); built from its module at this exact version.
STRIPE_MOCK_VERSION := v0.203.0
STRIPE_MOCK ?= .tools/bin/stripe-mock

# playwright-core drives Debian's chromium in the dashboard's browser test
# (internal/web, e2e/); it downloads no browser of its own.
PLAYWRIGHT_PKG := playwright-core@1.65.1
PLAYWRIGHT := .tools/node_modules/playwright-core/package.json

# ESLint checks the dashboard's scripts and the Chromium scripts with the
# rules and globals in eslint.config.mjs (make js-lint, part of make test).
# All three packages are pinned; the stamp names their versions, so a bump
# here installs again.
ESLINT_VERSION := 10.15.0
ESLINT_JS_VERSION := 10.0.1
GLOBALS_VERSION := 17.14.0
ESLINT := .tools/node_modules/.bin/eslint
ESLINT_STAMP := .tools/eslint-$(ESLINT_VERSION)-js-$(ESLINT_JS_VERSION)-globals-$(GLOBALS_VERSION).installed

# Redocly's CLI lints the OpenAPI description (make openapi-lint, .ci/run).
REDOCLY_PKG := @redocly/cli@2.77.0
REDOCLY := .tools/node_modules/.bin/redocly

# pyHanko, one of the two peer validators (with poppler's pdfsig) that
# TestIntegrityPeers (engine) holds signature integrity verdicts to; test
# only, pinned, from PyPI into .tools/pyhanko.
PYHANKO_VERSION := 0.38.0
PYHANKO_CERTVALIDATOR_VERSION := 0.33.0
PYHANKO := .tools/pyhanko/pyhanko/sign/__init__.py

# doctrust is the one program (serve, admin, inspect, metadata, compare).
build:
	$(GO) build -o bin/doctrust ./cmd/doctrust
	$(GO) build -o bin/doctrust-mcp ./cmd/doctrust-mcp

# Every route on 127.0.0.1:$PORT (default 8080), the store in .data in the
# checkout unless DATA_DIR is set (the binary's own default is the per-user
# data folder). It says it is building: a cold first build takes minutes.
run:
	@echo "building doctrust (go build ./cmd/doctrust; the first build downloads modules and takes a few minutes)..."
	@$(GO) build -o bin/doctrust ./cmd/doctrust
	DATA_DIR=$${DATA_DIR:-.data} bin/doctrust serve

test: fmt-check vet lint js-lint tools-if-possible
	STRIPE_MOCK_BIN=$(abspath $(STRIPE_MOCK)) $(GO) test -count=1 $(PKGS)

tools: $(DDB_LOCAL_JAR) $(STRIPE_MOCK) $(PLAYWRIGHT) $(REDOCLY) $(PYHANKO) $(ESLINT_STAMP)

$(PYHANKO):
	python3 -m pip install --quiet --disable-pip-version-check --target .tools/pyhanko pyHanko==$(PYHANKO_VERSION) pyhanko-certvalidator==$(PYHANKO_CERTVALIDATOR_VERSION)
	@test -f $@
pyhanko: $(PYHANKO)

$(ESLINT_STAMP):
	npm install --prefix .tools --no-audit --no-fund --loglevel=error --save-exact \
	  eslint@$(ESLINT_VERSION) @eslint/js@$(ESLINT_JS_VERSION) globals@$(GLOBALS_VERSION)
	@test -x $(ESLINT)
	@touch $@

# A few seconds, offline once installed. Outside CI a machine without npm
# skips it with a note; with CI set (.ci/run) it cannot be skipped.
js-lint:
	@if [ -f $(ESLINT_STAMP) ] || { command -v npm >/dev/null && $(MAKE) --no-print-directory $(ESLINT_STAMP); }; then \
	  echo "$(ESLINT) ."; $(ESLINT) --max-warnings 0 .; \
	elif [ -n "$$CI" ]; then echo "ESLint could not be installed (make tools)" >&2; exit 1; \
	else echo "note: ESLint could not be installed; the JavaScript lint skipped (make tools installs it)"; fi

$(REDOCLY):
	npm install --prefix .tools --no-audit --no-fund --loglevel=error $(REDOCLY_PKG)
	@test -x $@

# template.yaml checked by AWS's CloudFormation linter (cfn-lint, which
# `sam validate --lint` runs too), pinned, from PyPI into .tools/py.
CFN_LINT_VERSION := 1.51.0
CFN_LINT := .tools/py/bin/cfn-lint
$(CFN_LINT):
	python3 -m pip install --quiet --disable-pip-version-check --target .tools/py cfn-lint==$(CFN_LINT_VERSION)
	@test -x $@
template-lint: $(CFN_LINT)
	PYTHONPATH=.tools/py $(CFN_LINT) template.yaml

# AWS SAM CLI, pinned, from PyPI into .tools/sam: `sam validate --lint`
# (SAM's transform plus cfn-lint) and `sam build` of every function without
# a container, as a user's `sam build && sam deploy --guided` starts. A
# dummy region and no credentials: neither command calls AWS. sam build
# reuses Go's build cache, so after the template test only the links rerun.
# cfn-lint is pinned beside it (the version aws-sam-cli resolved when this
# was set), so `sam validate --lint` does not move with PyPI.
SAM_CLI_VERSION := 1.170.0
SAM_CFN_LINT_VERSION := 1.58.0
SAM := .tools/sam/bin/sam
$(SAM):
	python3 -m pip install --quiet --disable-pip-version-check --target .tools/sam aws-sam-cli==$(SAM_CLI_VERSION) cfn-lint==$(SAM_CFN_LINT_VERSION)
	@test -x $@
sam-check: $(SAM)
	scripts/sam-check.sh

# The API fuzzed from its OpenAPI description by schemathesis (pinned, from
# PyPI into .tools/st) against a running `doctrust serve`: no 5xx, every
# response matches the description. Bounded by MAX_EXAMPLES and TIME_LIMIT.
SCHEMATHESIS_VERSION := 4.32.5
SCHEMATHESIS := .tools/st/bin/schemathesis
$(SCHEMATHESIS):
	python3 -m pip install --quiet --disable-pip-version-check --target .tools/st schemathesis==$(SCHEMATHESIS_VERSION)
	@test -x $@
api-fuzz: $(SCHEMATHESIS)
	scripts/api-fuzz.sh

# Clients generated from the OpenAPI description by two real generators,
# both pinned: openapi-python-client (PyPI, into .tools/gen with the
# generated clients' runtime libraries) and openapi-generator's python
# client (its CLI jar from Maven Central through mvn, on Java 17), run against a
# `doctrust serve`: each answer equal to the CLI's (scripts/api-clients.sh).
OPC_VERSION := 0.29.1
OPC := .tools/gen/bin/openapi-python-client
OAG_VERSION := 7.25.0
OAG_JAR := .tools/openapi-generator-cli-$(OAG_VERSION).jar
$(OPC):
	python3 -m pip install --quiet --disable-pip-version-check --target .tools/gen \
	  openapi-python-client==$(OPC_VERSION) urllib3==2.5.0 pydantic==2.12.3 \
	  python-dateutil==2.9.0.post0 typing-extensions==4.15.0
	@test -x $@
$(OAG_JAR):
	mvn -q -B dependency:copy -Dartifact=org.openapitools:openapi-generator-cli:$(OAG_VERSION) \
	  -DoutputDirectory=$(abspath $(dir $@)) -Dmaven.repo.local=$(abspath .tools/m2)
	@test -f $@
api-clients: $(OPC) $(OAG_JAR)
	OAG_JAR=$(OAG_JAR) scripts/api-clients.sh

# The OpenAPI description, linted by Redocly's CLI (redocly.yaml; accepted
# problems in .redocly.lint-ignore.yaml). TestOpenAPIMatchesHandlers keeps
# it true to the handlers; this keeps it good OpenAPI.
openapi-lint: $(REDOCLY)
	$(REDOCLY) lint --format=stylish internal/httpapi/openapi.json

$(PLAYWRIGHT):
	npm install --prefix .tools --no-audit --no-fund --loglevel=error $(PLAYWRIGHT_PKG)
	@test -f $@

$(DDB_LOCAL_JAR):
	npm install --prefix .tools --no-audit --no-fund --loglevel=error $(DDB_LOCAL_PKG)
	@test -f $@

$(STRIPE_MOCK):
	GOBIN=$(abspath $(dir $@)) $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)
	@test -x $@

# Outside CI a machine without npm or Java (or without the module proxy)
# still runs every other test; the DynamoDB and stripe-mock tests then say
# they skipped. CI (.ci/run) installs strictly.
tools-if-possible:
	@if [ -f $(DDB_LOCAL_JAR) ]; then :; \
	elif command -v npm >/dev/null && command -v java >/dev/null; then $(MAKE) --no-print-directory $(DDB_LOCAL_JAR); \
	else echo "note: npm or java missing; DynamoDB Local tests will skip (make tools installs it)"; fi
	@[ -f $(PLAYWRIGHT) ] || ! command -v npm >/dev/null || $(MAKE) --no-print-directory $(PLAYWRIGHT) || \
	echo "note: playwright-core could not be installed; the dashboard's browser test will skip (make tools installs it)"
	@[ -x $(STRIPE_MOCK) ] || $(MAKE) --no-print-directory $(STRIPE_MOCK) || \
	echo "note: stripe-mock could not be built; the billing API tests will skip (make tools builds it)"
	@[ -f $(PYHANKO) ] || $(MAKE) --no-print-directory $(PYHANKO) 2>/dev/null || \
	echo "note: pyHanko could not be installed; the signature peer test will skip (make pyhanko installs it)"

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

lint:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) $(PKGS)

# Engine benchmarks over ../shared/corpus (numbers go in docs/performance.md).
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./engine/...

# Every fuzz target for FUZZTIME each (not run by CI). The fuzzer's default
# minimisation of a new input can take a whole short run on this machine
# class; FUZZMINIMIZE bounds it.
FUZZTIME ?= 60s
FUZZMINIMIZE ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZE) $$pkg || exit 1; \
	  done; \
	done

# doctrust timed next to mutool, qpdf and exiftool on the same files with
# hyperfine (installs the peers if missing; QUICK=1 for a short check run).
bench-peers:
	scripts/bench-peers.sh

# doctrust's batch mode over every corpus PDF next to a qpdf --check loop and
# pdfcpu validate given every file (figures in docs/performance.md).
bench-batch:
	scripts/bench-batch.sh

# Bounded load on loopback: the pool answers 503 busy under overload and
# nothing else fails (numbers go in docs/performance.md; not run by CI).
loadtest:
	scripts/loadtest.sh

# Issue 27's figures side by side: memory under concurrent uploads, goodput
# at capacity and under overload, client faults, hostile files and (with
# STORE_FAULT=1) a DynamoDB outage (docs/reliability.md; not run by CI).
loadfault:
	scripts/loadfault.sh

# A PNG of each dashboard page in docs/screenshots/, taken by the browser
# test (needs chromium and playwright-core: make tools).
screenshots: $(PLAYWRIGHT)
	mkdir -p docs/screenshots
	SCREENSHOT_DIR=$(abspath docs/screenshots) CI=true $(GO) test -count=1 -run '^(TestDashboardInChromium|TestSeeItInChromium|TestInspectQueueInChromium)$$' ./internal/web

# Binary sizes, init durations and peak memory of functions/* against a
# Runtime API stand-in (template.yaml's MemorySize rests on it).
lambda-size:
	$(GO) run ./scripts/lambdasize

clean:
	rm -rf bin
