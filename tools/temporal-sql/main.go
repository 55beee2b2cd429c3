// Command temporal-sql is a single-node Temporal server that keeps its state
// in PostgreSQL (the postgres12 SQL plugin, with SQL advanced visibility),
// built from go.temporal.io/server at the version the pinned CLI embeds. It
// stands in for a production Temporal where Docker, and so
// docker-compose.temporal.yml, is not available: scripts/lib.sh
// temporal_sql_setup and temporal_sql_start use it, and the fault tests run
// on it with KUDOS_TEMPORAL_PERSISTENCE=postgres (docs/scaling.md).
//
//	temporal-sql sql-tool ARGS...   the server's temporal-sql-tool (create
//	                                databases, setup-schema, update-schema)
//	temporal-sql start CONFIGDIR    start every service with CONFIGDIR/development.yaml
//
// The server's own cmd/server is a main package; this is its start command
// without the authorizer and claim mappers, which a loopback development
// server does not configure.
package main

import (
	"fmt"
	"os"

	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql" // the postgres12 plugin
	"go.temporal.io/server/temporal"
	"go.temporal.io/server/tools/sql"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "sql-tool":
		// RunTool reads its flags from args[1:], as if it were its own binary.
		if err := sql.RunTool(append([]string{"temporal-sql-tool"}, os.Args[2:]...)); err != nil {
			os.Exit(1)
		}
	case "start":
		if len(os.Args) != 3 {
			usage()
		}
		if err := start(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "temporal-sql:", err)
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: temporal-sql sql-tool ARGS... | temporal-sql start CONFIGDIR")
	os.Exit(2)
}

// start runs the server until SIGINT or SIGTERM.
func start(configDir string) error {
	cfg, err := config.LoadConfig("development", configDir, "")
	if err != nil {
		return fmt.Errorf("load config: %w", err)
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	var dc dynamicconfig.Client = dynamicconfig.NewNoopClient()
	if cfg.DynamicConfigClient != nil {
		if dc, err = dynamicconfig.NewFileBasedClient(cfg.DynamicConfigClient, logger, temporal.InterruptCh()); err != nil {
			return fmt.Errorf("dynamic config: %w", err)
		}
	}
	s, err := temporal.NewServer(
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithConfig(cfg),
		temporal.WithDynamicConfigClient(dc),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
	)
	if err != nil {
		return fmt.Errorf("create server: %w", err)
	}
	return s.Start()
}
