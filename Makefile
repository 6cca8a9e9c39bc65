# Cacao online. `make run` starts the program, `make test` runs every test.
GO ?= go

.PHONY: run test vet check-deps fmt-check bench fuzz test-long generate

run:
	$(GO) run ./cmd/cacao

# Every test, with the race detector, plus the static checks CI relies on.
test: fmt-check vet check-deps
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '_templ\.go$$' || true); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# engine/ must import only the standard library.
check-deps:
	@deps=$$($(GO) list -deps ./engine/... | grep '\.' | grep -v "^$$($(GO) list -m)" || true); \
	if [ -n "$$deps" ]; then echo "engine/ imports outside the standard library:"; echo "$$deps"; exit 1; fi; \
	echo "check-deps: engine/ imports only the standard library"

# Speed figures reported in README.md (one core, as the targets are stated).
bench:
	$(GO) test -run xxx -bench . -benchmem -cpu 1 -count 5 ./engine/... ./cmd/cacao/

# A 60 s fuzz run of random legal games with invariant checks, then of records.
fuzz:
	$(GO) test -run xxx -fuzz FuzzRandomGame -fuzztime 60s ./engine/
	$(GO) test -run xxx -fuzz FuzzDecodeRecord -fuzztime 60s ./engine/

generate:
	$(GO) run github.com/a-h/templ/cmd/templ@v0.3.1100 generate
