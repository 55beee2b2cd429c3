package api

import (
	"strings"
	"sync"

	"github.com/medama-io/go-useragent"
	"github.com/medama-io/go-useragent/agents"
)

// agentParser is the User-Agent parser of the list of devices, built once
// (its trie takes a moment) at the first list.
var agentParser = sync.OnceValue(useragent.NewParser)

// describeAgent names a device's browser and system from its User-Agent
// (issue 37: "Chrome" on "macOS", "Safari" on "iPhone"), with a kept
// parser rather than guesses of our own; "" for what it does not know. An
// iOS device is named as people call it (iPhone, iPad), macOS as Apple
// writes it.
func describeAgent(ua string) (browser, system string) {
	if ua == "" {
		return "", ""
	}
	a := agentParser().Parse(ua)
	browser, system = string(a.Browser()), string(a.OS())
	switch a.OS() {
	case agents.OSMacOS:
		system = "macOS"
	case agents.OSIOS:
		switch {
		case strings.Contains(ua, "iPad"):
			system = "iPad"
		case strings.Contains(ua, "iPhone"):
			system = "iPhone"
		}
	}
	return browser, system
}
