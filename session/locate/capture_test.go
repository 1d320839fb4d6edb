//go:build capture

package locate

// TestCapture regenerates testdata/*.json from the fixture app in a real
// Chromium: go test -tags capture -run TestCapture ./session/locate/
// The snapshots are compacted JSON; the menu and dialog ones are taken after
// opening Alice's row menu (and then its Edit dialog).

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
)

func TestCapture(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	defer srv.Close()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	save := func(name string, s *ax.Snapshot) {
		s.URL = strings.Replace(s.URL, srv.URL, "http://127.0.0.1:18181", 1)
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", name+".json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := func(path string) (*browser.Page, *ax.Snapshot) {
		p, err := b.NewPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Settle(ctx, browser.SettleOptions{}); err != nil {
			t.Fatal(err)
		}
		s, err := p.Snapshot(ctx, browser.SnapshotOptions{Boxes: true})
		if err != nil {
			t.Fatal(err)
		}
		return p, s
	}
	// aliceFirst says Alice's row is the first data row: a shuffle that
	// kept her first is taken again.
	aliceFirst := func(s *ax.Snapshot) bool {
		first := ""
		s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
			if n.Role == "row" && first == "" && !strings.HasPrefix(n.Name, "Name ") {
				first = n.Name
			}
			return true
		})
		return strings.HasPrefix(first, "Alice")
	}
	for name, path := range map[string]string{
		"login": "/login", "login_redesign": "/login?variant=redesign", "users": "/users",
		"users_shuffle": "/users?variant=shuffle", "users_redesign": "/users?variant=redesign",
		"product": "/product", "product_recolor": "/product?variant=recolor", "booking": "/booking",
		"rows20": "/rows?n=20", "actions": "/actions",
	} {
		p, s := open(path)
		for strings.Contains(path, "shuffle") && aliceFirst(s) {
			p.Close()
			p, s = open(path)
		}
		save(name, s)
		p.Close()
	}
	for name, path := range map[string]string{"users_menu": "/users", "users_menu_shuffle": "/users?variant=shuffle"} {
		p, s := open(path)
		for strings.Contains(path, "shuffle") && aliceFirst(s) {
			p.Close()
			p, s = open(path)
		}
		r := Locate(s, "the Menu button in the Alice row")
		if r.Target == nil {
			t.Fatalf("%s: %s", path, r.Detail)
		}
		act := func(ref string) *ax.Snapshot {
			if err := p.Click(ctx, ref, browser.ActOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Settle(ctx, browser.SettleOptions{}); err != nil {
				t.Fatal(err)
			}
			s, err := p.Snapshot(ctx, browser.SnapshotOptions{Boxes: true})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		s = act(r.Target.Node.Ref)
		save(name, s)
		if name == "users_menu" {
			r = Locate(s, "Edit in the row menu")
			if r.Target == nil {
				t.Fatalf("%s: %s", path, r.Detail)
			}
			save("users_edit", act(r.Target.Node.Ref))
		}
		p.Close()
	}
}
