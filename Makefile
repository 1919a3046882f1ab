# doctrust: `make run` to run, `make test` to pass the tests.
GO      ?= go
PKGS    := ./...
STATICCHECK_VERSION := v0.8.2

.PHONY: run test vet fmt-check lint bench fuzz bench-peers build clean

build:
	$(GO) build -o bin/doctrust ./cmd/doctrust

# Every route on 127.0.0.1:$PORT (default 8080).
run:
	$(GO) run ./cmd/doctrust serve

test: fmt-check vet lint
	$(GO) test -count=1 $(PKGS)

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

# Every fuzz target for FUZZTIME each (not run by CI).
FUZZTIME ?= 60s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

# Timings next to qpdf --check on the same files (installs qpdf if missing).
bench-peers:
	scripts/bench-qpdf.sh

clean:
	rm -rf bin
