package browser

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// renderersOf counts the renderer processes of the browser whose profile
// directory is profile.
func renderersOf(t testing.TB, profile string) int {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // gone meanwhile
		}
		// Chromium rewrites its process title: the arguments may be one
		// string separated by spaces.
		args := strings.Fields(strings.ReplaceAll(string(b), "\x00", " "))
		var renderer, ours bool
		for _, a := range args {
			renderer = renderer || a == "--type=renderer"
			ours = ours || a == "--user-data-dir="+profile
		}
		if renderer && ours {
			n++
		}
	}
	return n
}

// targetInfo is what Target.getTargets says of a target.
type targetInfo struct {
	Type             string `json:"type"`
	URL              string `json:"url"`
	BrowserContextID string `json:"browserContextId"`
}

// targetsOf lists every target of b, browser UI included (an empty filter).
func targetsOf(t *testing.T, b *Browser) []targetInfo {
	t.Helper()
	raw, err := b.rod.Call(ctxT(t), "", "Target.getTargets", map[string]any{"filter": []map[string]any{{}}})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res.TargetInfos
}

// TestNewPageStartsOneRenderer: a test's page costs one renderer process.
// Headless Chromium preloads the address bar's popup as WebUI pages, in a
// renderer of their own, in every window, and so in every browser context;
// Launch turns that off, and no browser-UI target or second renderer comes
// with a page.
func TestNewPageStartsOneRenderer(t *testing.T) {
	b, err := Launch(ctxT(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	base := fixtureURL(t)
	for i := range 2 {
		p, err := b.NewPage(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		open(t, p, base+"/login")
		time.Sleep(300 * time.Millisecond) // a preload would have started by now
		for _, ti := range targetsOf(t, b) {
			if ti.Type != "page" && ti.Type != "tab" {
				t.Errorf("page %d: the browser has a %s target %s besides the page", i+1, ti.Type, ti.URL)
			}
		}
		if n := renderersOf(t, b.ProfileDir()); n != 1 {
			t.Errorf("page %d: %d renderer processes, want 1", i+1, n)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkPageCycle is what every test of a suite pays before and after
// its steps: a new browser context and page, loading the fixture's login
// page until it settles, and closing it all. "omnibox-webui" is the
// baseline with rod's default disabled features only, so that the address
// bar popup's WebUI preloads in every new window. Compare within one run:
//
//	go test ./session/browser/ -run '^$' -bench PageCycle -count 3
func BenchmarkPageCycle(b *testing.B) {
	for _, c := range []struct{ name, features string }{
		{"default", ""},
		{"omnibox-webui", "disable-features=site-per-process,TranslateUI"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.features != "" {
				saved := chromeFlags
				chromeFlags = append([]string{}, chromeFlags...)
				for i, f := range chromeFlags {
					if strings.HasPrefix(f, "disable-features=") {
						chromeFlags[i] = c.features
					}
				}
				defer func() { chromeFlags = saved }()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			br, err := Launch(ctx, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			u := fixtureURL(b) + "/login"
			for b.Loop() {
				p, err := br.NewPage(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Navigate(ctx, u); err != nil {
					b.Fatal(err)
				}
				if _, err := p.Settle(ctx, SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
					b.Fatal(err)
				}
				if err := p.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCloseAHungPage: a page whose script never ends (the fixture's /freeze)
// closes at once, and its renderer process goes with it.
func TestCloseAHungPage(t *testing.T) {
	b, err := Launch(ctxT(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	open(t, p, fixtureURL(t)+"/freeze")
	if err := p.Eval(ctxT(t), nil, `() => { document.querySelector('[data-js=freeze]').click(); }`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the loop starts 50 ms after the click
	if err := p.Responsive(ctxT(t), time.Second); !errors.Is(err, ErrRendererGone) {
		t.Fatalf("a frozen page answered: %v", err)
	}
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("closing the frozen page took %s", d)
	}
	deadline := time.Now().Add(5 * time.Second)
	for renderersOf(t, b.ProfileDir()) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the frozen page's renderer still runs 5 s after Close")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
