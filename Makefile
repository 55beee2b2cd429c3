# Kudos — the two commands of the README live here.
#   make dev    run the whole product locally (no cloud account needed)
#   make test   run every test against real services it starts itself

.PHONY: dev test build ui migrate clean help

help:
	@echo "make dev    run Kudos locally: Postgres, Temporal (Web UI :8233), api + worker on :8080"
	@echo "make test   every test: go vet, go test -race (with real Postgres and Temporal), UI checks, e2e in Chromium"
	@echo "make bench  benchmarks beside baselines, table + bench/results/latest.json (flags: make bench ARGS='-accounts 10000')"
	@echo "make fuzz   every Go fuzz target in turn, 60 s each (make fuzz FUZZTIME=300)"
	@echo "make chaos  fault tests with issue 8's full outages (Temporal 30 s, SMTP 2 min), then make fuzz"
	@echo "make audit  govulncheck and npm audit (fails when their databases are unreachable), CycloneDX SBOMs in audit/"
	@echo "make build  build the UI and bin/kudos"
	@echo "make clean  remove build output and local state (.data/)"

dev:
	@scripts/dev.sh

test:
	@scripts/test.sh

.PHONY: chaos
chaos:
	@scripts/faults.sh long
	@scripts/fuzz.sh $(or $(FUZZTIME),60)

.PHONY: fuzz
fuzz:
	@scripts/fuzz.sh $(or $(FUZZTIME),60)

# bench/ is also a folder: without .PHONY make would call the target up to date.
.PHONY: bench
bench:
	@bench/run.sh $(ARGS)

.PHONY: audit
audit:
	@scripts/audit.sh

ui:
	@bash -c 'source scripts/lib.sh && ui_ready'

build: ui
	go build -o bin/kudos ./cmd/kudos

migrate: build
	./bin/kudos migrate

clean:
	rm -rf .data ui/dist bin/kudos
