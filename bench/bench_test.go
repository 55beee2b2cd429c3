package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := percentile(lat, c.p); got != c.want {
			t.Errorf("percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

func TestRunNCountsEveryOperationOnce(t *testing.T) {
	seen := make([]int, 50)
	l := RunN(context.Background(), 7, len(seen), func(_ context.Context, i int) error {
		seen[i]++ // each i goes to exactly one goroutine
		if i%10 == 0 {
			return errors.New("boom")
		}
		return nil
	})
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("operation %d ran %d times", i, n)
		}
	}
	if l.Ops != 50 || l.Errors != 5 || l.FirstError != "boom" {
		t.Fatalf("ops %d errors %d first %q", l.Ops, l.Errors, l.FirstError)
	}
}

func TestRunForStopsAtTheDeadline(t *testing.T) {
	start := time.Now()
	l := RunFor(context.Background(), 4, 50*time.Millisecond, func(context.Context, int) error {
		time.Sleep(time.Millisecond)
		return nil
	})
	if took := time.Since(start); took > time.Second || l.Ops == 0 || l.Rate() <= 0 {
		t.Fatalf("took %v for %d ops", took, l.Ops)
	}
}

func TestReportWritesTableJSONAndMarkdown(t *testing.T) {
	r := NewReport(Options{Duration: time.Second})
	r.Add("read", map[string]int{"x": 1}, []Row{
		compared("read path", "requests/s", "/s", 50, 100).target("ratio ≥ 0.5", true),
		figure("read path", "p99", "ms", 12.345),
	}, nil)
	var table strings.Builder
	r.PrintTable(&table)
	if !strings.Contains(table.String(), "0.50") || !strings.Contains(table.String(), "12.3 ms") {
		t.Fatalf("table:\n%s", table.String())
	}
	dir := t.TempDir()
	if err := r.WriteJSON(filepath.Join(dir, "sub", "r.json")); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(dir, "sub", "r.md")
	if err := r.WriteMarkdown(md); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(md)
	if !strings.Contains(string(b), "| read path | requests/s | 50 /s | 100 /s | 0.50 | ✅ ratio ≥ 0.5 |") {
		t.Fatalf("markdown:\n%s", b)
	}
}

func TestArgonParameters(t *testing.T) {
	c, err := parseArgon("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$a2V5")
	if err != nil || c.memoryKiB != 19456 || c.time != 2 || c.threads != 1 {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := parseArgon("$2a$10$bcrypt"); err == nil {
		t.Fatal("a bcrypt hash parsed as argon2id")
	}
}
