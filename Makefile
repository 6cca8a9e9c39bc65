# Cacao online. `make run` starts the program, `make test` runs every test.
GO ?= go

TEMPL = github.com/a-h/templ/cmd/templ@v0.3.1100

.PHONY: run test test-pg test-long test-short vet check-deps fmt-check generate-check bench fuzz generate screenshots

run:
	$(GO) run ./cmd/cacao

# The static checks, every package's tests with the race detector but the
# browser tests, then the browser tests without it (in Chromium's pace the
# detector finds nothing the handler tests miss, and triples their time).
BROWSER_TESTS = ^(TestBrowser|TestA11y|TestScreenshots)
test: fmt-check vet check-deps generate-check
	$(GO) test -race -count=1 -timeout 20m -skip '$(BROWSER_TESTS)' ./...
	$(GO) test -count=1 -timeout 20m -run '$(BROWSER_TESTS)' ./cmd/cacao/
	@$(MAKE) --no-print-directory test-pg

# The store's and the site's suites again on PostgreSQL (CACAO_TEST_PG, a
# database the tests make schemas in): skipped without one, except in CI.
test-pg:
	@if [ -n "$$CACAO_TEST_PG" ]; then \
	  echo "CACAO_TEST_BACKEND=postgres go test ./models/... ./handlers/..."; \
	  CACAO_TEST_BACKEND=postgres $(GO) test -count=1 -timeout 20m ./models/... ./handlers/...; \
	elif [ "$$CI" = true ]; then echo "test-pg: CI runs the suites on PostgreSQL: set CACAO_TEST_PG"; exit 1; \
	else echo "test-pg: skipped (set CACAO_TEST_PG=postgres://… to run the suites on PostgreSQL)"; fi

# Soaks, crash and load runs, whole browser games: the tests named TestLong
# in files built with the "long" tag.
test-long:
	$(GO) test -tags long -count=1 -timeout 60m -run '^TestLong' ./...

# A quick local loop: no browser, no race detector.
test-short: fmt-check vet
	$(GO) test -count=1 -short ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '_templ\.go$$' || true); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# engine/ imports only the standard library; models/ (autoplay aside) only
# the engine and its own maths of ratings and pairings (models/rating,
# models/pairing: standard library only) of the project's packages, and no
# bot.
check-deps:
	@deps=$$($(GO) list -deps ./engine/... | grep '\.' | grep -v "^$$($(GO) list -m)" || true); \
	if [ -n "$$deps" ]; then echo "engine/ imports outside the standard library:"; echo "$$deps"; exit 1; fi; \
	deps=$$($(GO) list -deps ./models ./models/modeltest | grep "^$$($(GO) list -m)/" | grep -v '^cacao/models$$' | grep -v '^cacao/models/modeltest$$' | grep -v '^cacao/models/rating$$' | grep -v '^cacao/models/pairing$$' | grep -v '^cacao/engine$$' || true); \
	if [ -n "$$deps" ]; then echo "models/ imports project packages besides the engine:"; echo "$$deps"; exit 1; fi; \
	echo "check-deps: engine/ imports only the standard library; models/ only the engine"

# Speed figures reported in README.md (one core, as the targets are stated).
bench:
	$(GO) test -run xxx -bench . -benchmem -cpu 1 -count 5 ./engine/... ./cmd/cacao/

# 60 s fuzz runs: random legal games with invariant checks, records, the
# site's forms (no 5xx, no change on refusal), and mail link tokens.
fuzz:
	$(GO) test -run xxx -fuzz FuzzRandomGame -fuzztime 60s ./engine/
	$(GO) test -run xxx -fuzz FuzzDecodeRecord -fuzztime 60s ./engine/
	$(GO) test -run xxx -fuzz FuzzTurnForm -fuzztime 60s ./handlers/
	$(GO) test -run xxx -fuzz FuzzVerify -fuzztime 60s ./handlers/mail/

generate:
	$(GO) run $(TEMPL) generate
	$(GO) test -count=1 -run TestSpriteFile ./views -update

# Full-page PNGs of the main pages and of every state of a turn at desktop
# (1280x800) and phone (390x844) sizes, light and dark, in each of
# SCREENSHOTS_LANGS, taken with headless Chromium (CHROME_PATH if it is
# elsewhere); and the README's two pictures of a game, kept in
# static/readme/ (not embedded in the binary).
SCREENSHOTS_LANGS ?= en zh-Hant zh-Hans fa
screenshots:
	SCREENSHOTS_DIR=$(CURDIR)/screenshots SCREENSHOTS_LANGS="$(SCREENSHOTS_LANGS)" $(GO) test -count=1 -run 'TestScreenshots' -v ./cmd/cacao/
	cp screenshots/readme-desktop.png static/readme/game-desktop.png
	cp screenshots/readme-phone.png static/readme/game-phone.png
	@echo "screenshots written to $(CURDIR)/screenshots/ (the README's two in static/readme/)"

# The committed *_templ.go files must be what templ generates from the .templ files.
generate-check:
	@tmp=$$(mktemp -d); cp views/*_templ.go $$tmp/; $(GO) run $(TEMPL) generate >/dev/null 2>&1 || { echo "templ generate failed"; exit 1; }; \
	status=0; for f in views/*_templ.go; do cmp -s $$f $$tmp/$$(basename $$f) || { echo "$$f was out of date with its .templ (now regenerated: commit it)"; status=1; }; done; \
	for f in $$tmp/*_templ.go; do [ -f views/$$(basename $$f) ] || { echo "views/$$(basename $$f) has no .templ"; status=1; }; done; \
	rm -rf $$tmp; [ $$status = 0 ] && echo "generate-check: views/*_templ.go match their .templ files"; exit $$status
