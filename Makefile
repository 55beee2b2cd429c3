# Kudos — the two commands of the README live here.
#   make dev    run the whole product locally (no cloud account needed)
#   make test   run every test against real services it starts itself

.PHONY: dev test build ui migrate clean help

help:
	@echo "make dev    run Kudos locally: Postgres, Temporal (Web UI :8233), api + worker on :8080"
	@echo "make test   every test: go vet, go test -race (with real Postgres and Temporal), UI checks, e2e in Chromium"
	@echo "make build  build the UI and bin/kudos"
	@echo "make clean  remove build output and local state (.data/)"

dev:
	@scripts/dev.sh

test:
	@scripts/test.sh

ui:
	@bash -c 'source scripts/lib.sh && ui_ready'

build: ui
	go build -o bin/kudos ./cmd/kudos

migrate: build
	./bin/kudos migrate

clean:
	rm -rf .data ui/dist bin/kudos
