// Command kudos is the single binary of Kudos. Its subcommands run the api,
// the Temporal worker, the database migrations, or (for development) api and
// worker in one process together with the local stand-ins; and the
// operator's tools.
//
//	kudos api                      serve /v1, the UI and /dev routes (development)
//	kudos worker                   run the Temporal worker
//	kudos dev                      api + worker in one process
//	kudos migrate                  apply the database migrations and exit
//	kudos temporal setup           register the namespace and search attributes
//	kudos ops account <id|e-mail>  everything about one account (--json)
//	kudos ops refund-made <refund id> <provider refund id>
//	                               record a refused refund made by hand
//	kudos ops refund <invoice id|number> [--amount 12.34] --reason "…"
//	kudos ops refund --failed <refund id> [--amount 12.34] --reason "…"
//	kudos ops promo create|list|deactivate
//	                               promotion codes (issue 38)
//	kudos ops reconcile-provider   compare the ledger with the provider's (--json)
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: kudos <api|worker|dev|migrate>
       kudos temporal setup
       kudos ops account <accountId|email> [--json]
       kudos ops refund-made <refundId> <providerRefundId>
       kudos ops refund <invoiceId|number> [--amount 12.34] --reason "…"
       kudos ops refund --failed <refundId> [--amount 12.34] --reason "…"
       kudos ops promo create CODE --percent N | --amount X --duration once|forever|years:N
                 [--max-redemptions N] [--expires YYYY-MM-DD] [--plans team,pro]
       kudos ops promo list | deactivate CODE
       kudos ops reconcile-provider [--json]

  api            serve the HTTP api (/v1), the UI and, in development, /dev routes
  worker         run the Temporal worker (workflows and activities)
  dev            api and worker in one process (what make dev runs)
  migrate        apply the database migrations and exit
  temporal setup register TEMPORAL_NAMESPACE and Kudos's search attributes on a
                 self-hosted Temporal cluster (idempotent; Temporal Cloud: see README)
  ops account    the read model, workflows, pending activities, outbox entries,
                 payment events and billing timeline of one account
                 (docs/runbook-payments.md); --json for scripts
  ops refund-made record that a refund the provider refused (or deferred) was made by hand
                 (its refund row, its checkout and the customer's timeline)
  ops refund     refund an invoice's payment at the provider, all of what is left or --amount
                 (major units); the subscription workflow books it: a credit note for the
                 refunded part, the refund_issued mail, the timeline's refund event. Prints the
                 refund and the credit note's number; the same command twice refunds once.
                 Never more than the invoice has left to credit (its total less its credit notes).
                 --failed: refund again a refund that failed at the provider, from its own
                 payment (no credit note when it had none), settling it; refused when a lost
                 dispute or the bank's return of that payment gave the customer the money back
  ops promo      create, list and deactivate promotion codes (docs/runbook-payments.md)
  ops reconcile-provider
                 compare the ledger with the payment provider's lists since the last
                 run, record the events never delivered, print what differs ("no
                 difference" when they agree); the daily Schedule does the same

Configuration comes from environment variables; see README.md.`

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch mode := args[0]; {
	case len(args) == 1 && (mode == "api" || mode == "worker" || mode == "dev" || mode == "migrate"):
		err = run(ctx, mode)
	case mode == "help" || mode == "-h" || mode == "--help":
		fmt.Println(usage)
		return
	case mode == "temporal" || mode == "ops":
		err = runTool(ctx, args, os.Stdout)
		if errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, usage)
			os.Exit(2)
		}
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		slog.Error("kudos stopped", "args", args, "err", err)
		os.Exit(1)
	}
}
