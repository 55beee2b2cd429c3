// Command kudos is the single binary of Kudos. Its subcommands run the api,
// the Temporal worker, the database migrations, or (for development) api and
// worker in one process together with the local stand-ins.
//
//	kudos api       serve /v1, the UI and /dev routes (development)
//	kudos worker    run the Temporal worker
//	kudos dev       api + worker in one process
//	kudos migrate   apply the database migrations and exit
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

  api      serve the HTTP api (/v1), the UI and, in development, /dev routes
  worker   run the Temporal worker (workflows and activities)
  dev      api and worker in one process (what make dev runs)
  migrate  apply the database migrations and exit

Configuration comes from environment variables; see README.md.`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	mode := os.Args[1]
	switch mode {
	case "api", "worker", "dev", "migrate":
	case "help", "-h", "--help":
		fmt.Println(usage)
		return
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, mode); err != nil && !errors.Is(err, context.Canceled) {
		slog.Error("kudos stopped", "mode", mode, "err", err)
		os.Exit(1)
	}
}
