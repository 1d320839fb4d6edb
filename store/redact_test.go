package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
)

// TestWithRedactorKeepsSecretsOutOfTheFile: whatever a store method writes
// (a run, a test's error quoting a secret, a cache row whose JSON columns
// hold it, a model call), neither the database file nor its WAL holds any
// form of the secret, and every row still reads back.
func TestWithRedactorKeepsSecretsOutOfTheFile(t *testing.T) {
	ctx := context.Background()
	secret := `hunter2"q pässwörd`
	red := redact.New()
	db := openTest(t, WithRedactor(red))
	red.Add(secret) // learnt after Open, as a run learns its secrets
	run := &session.Run{Project: "p " + secret, Status: "running"}
	if err := db.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	quoted := fmt.Sprintf("expected %q, got page /login?pw=%s", secret, url.QueryEscape(secret))
	res := &session.TestResult{RunID: run.ID, Name: "login", File: "login.e2e.yaml", Status: "failed", Error: quoted,
		Steps: []session.StepResult{{Index: 0, Command: "--step-type TYPE --value " + secret, Status: session.StatusFailed, Error: quoted, Note: secret}}}
	if err := db.SaveTest(ctx, res); err != nil {
		t.Fatal(err)
	}
	e := &session.CacheEntry{Key: "k1", Project: "p", Test: "login", Description: "the field " + secret,
		Selectors: []session.Selector{{Kind: "text", Value: fmt.Sprintf("input[value=%q]", secret)}},
		Node:      session.NodeSnapshot{Tag: "input", Role: "textbox", Name: secret, Attrs: map[string]string{"value": secret}}}
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordModelCall(ctx, &session.ModelCall{RunID: run.ID, Purpose: "locate", Model: secret, Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Cache(ctx, "k1")
	if err != nil || got == nil {
		t.Fatalf("the redacted row does not read back: %v %v", got, err)
	}
	if got.Node.Name != redact.Marker || got.Node.Attrs["value"] != redact.Marker || got.Description != "the field ***" {
		t.Errorf("read back %+v", got)
	}
	for name, b := range storedBytes(t, db) {
		for _, f := range redact.Forms(secret) {
			if strings.Contains(string(b), f) {
				t.Errorf("%s holds %q", name, f)
			}
		}
		for _, part := range []string{"hunter2", "pässwörd", "p%C3%A4ssw"} {
			if strings.Contains(string(b), part) {
				t.Errorf("%s holds %q", name, part)
			}
		}
	}
}

// BenchmarkPutCacheRedacted is BenchmarkPutCache through a redactor that
// knows three nasty secrets (none of which is in the row).
func BenchmarkPutCacheRedacted(b *testing.B) {
	db := openTest(b, WithRedactor(redact.New(`hunter2"q`, "pässwörd✓", "a&b=c d")))
	ctx := context.Background()
	fillCache(b, db, 10_000)
	e := sampleEntry("key-05000")
	for b.Loop() {
		if err := db.PutCache(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveTestRedacted is BenchmarkSaveTest through the same redactor.
func BenchmarkSaveTestRedacted(b *testing.B) {
	db := openTest(b, WithRedactor(redact.New(`hunter2"q`, "pässwörd✓", "a&b=c d")))
	ctx := context.Background()
	r := &session.Run{Project: "bench"}
	if err := db.StartRun(ctx, r); err != nil {
		b.Fatal(err)
	}
	steps := append(sampleSteps(), sampleSteps()[:4]...)
	for i := range steps {
		steps[i].Index = i
	}
	for b.Loop() {
		tr := &session.TestResult{RunID: r.ID, Name: "login", File: "tests/login.e2e", Status: "passed",
			DurationMS: 5000, Steps: steps}
		if err := db.SaveTest(ctx, tr); err != nil {
			b.Fatal(err)
		}
	}
}
