// Package browser drives Chromium for e2e: it launches a local browser (never
// a downloaded one) or connects to a running one, opens pages in fresh
// browser contexts, builds accessibility snapshots with an injected script,
// acts on elements by ref after checking they can take the action, and waits
// for pages to settle. It is the only package that imports go-rod.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/proto"
)

// Options say which browser to use and how.
type Options struct {
	// Chrome is the browser binary. Empty means $E2E_CHROME, then the PATH
	// (chromium, chromium-browser, google-chrome, google-chrome-stable).
	Chrome string
	// BrowserURL connects to a running browser (ws://… or http://host:port)
	// instead of launching one; Close then leaves that browser running.
	BrowserURL string
	// Headed shows the browser window instead of running headless.
	Headed bool
	// Viewport of new pages; zero means 1280×720.
	Width, Height int
	// LaunchTimeout bounds starting or connecting; zero means 30s.
	LaunchTimeout time.Duration
}

// Browser is a launched or connected Chromium.
type Browser struct {
	rod      *rod.Browser
	launcher *launcher.Launcher // nil when connected to a running browser
	profile  string
	opts     Options
	version  string
	ws       *cdp.WebSocket // the connection to a browser we did not launch
	// stopEvents ends rod's event hub (see attach).
	stopEvents context.CancelFunc
	// controlURL is the DevTools websocket address.
	controlURL string
}

// ControlURL is the browser's DevTools websocket address, for another
// process (or --browser-url) to connect to.
func (b *Browser) ControlURL() string { return b.controlURL }

// chromeFlags are the flags every launched browser gets: no sandbox (we run
// as root in CI), no GPU, and nothing that reaches out to the network. A
// flag with a value is written name=value.
//
// disable-features keeps rod's defaults (site-per-process, TranslateUI) and
// turns off the omnibox popup's WebUI: headless Chromium builds the full
// browser window for every browser context, and since version ~13x that
// window preloads its address-bar popup as two WebUI pages in a renderer
// process of their own. With a browser context per test, that doubled the
// renderers a test starts and made a page cost ~1.6× as much to open
// (TestNewPageStartsOneRenderer, BenchmarkPageCycle).
var chromeFlags = []string{
	"no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-default-apps", "disable-extensions", "mute-audio", "hide-scrollbars",
	"disable-features=site-per-process,TranslateUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
}

// FindChrome returns the browser binary to launch: explicit when set, else
// $E2E_CHROME, else the first of chromium, chromium-browser, google-chrome
// and google-chrome-stable on the PATH. It returns ErrNoBrowser when none is
// found; it never downloads one.
func FindChrome(explicit string) (string, error) {
	for _, c := range []struct{ path, from string }{{explicit, "--chrome"}, {os.Getenv("E2E_CHROME"), "E2E_CHROME"}} {
		if c.path == "" {
			continue
		}
		p, err := exec.LookPath(c.path)
		if err != nil {
			return "", fmt.Errorf("%w: %s=%s is not an executable", ErrNoBrowser, c.from, c.path)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: none of chromium, chromium-browser, google-chrome on PATH (install it with: apt-get install chromium, or set --chrome / E2E_CHROME)", ErrNoBrowser)
}

// Launch starts a local browser, or connects to opts.BrowserURL. The returned
// Browser must be closed; if this process dies, a guard process kills the
// browser it started. It returns ErrNoBrowser when there is no binary to
// launch, and ErrNoDisplay, without starting one, when opts.Headed asks
// for a window and there is no display.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	if opts.Width == 0 {
		opts.Width = 1280
	}
	if opts.Height == 0 {
		opts.Height = 720
	}
	if opts.LaunchTimeout == 0 {
		opts.LaunchTimeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, opts.LaunchTimeout)
	defer cancel()
	if opts.BrowserURL != "" {
		return connect(ctx, opts)
	}
	bin, err := FindChrome(opts.Chrome)
	if err != nil {
		return nil, err
	}
	if opts.Headed && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		// Chromium would start, print pages of log and exit.
		return nil, fmt.Errorf("launch browser: %w: DISPLAY and WAYLAND_DISPLAY are unset", ErrNoDisplay)
	}
	sweepProfiles()
	profile, err := os.MkdirTemp("", "e2e-chrome-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("launch browser: profile dir: %w", err)
	}
	l := launcher.New().Context(ctx).Bin(bin).Leakless(true).UserDataDir(profile).Headless(!opts.Headed)
	for _, f := range chromeFlags {
		if name, val, ok := strings.Cut(f, "="); ok {
			l.Set(flags.Flag(name), val)
		} else {
			l.Set(flags.Flag(f))
		}
	}
	l.Set("window-size", fmt.Sprintf("%d,%d", opts.Width, opts.Height))
	u, err := l.Launch()
	if err != nil {
		os.RemoveAll(profile)
		return nil, fmt.Errorf("launch browser %s: %w", bin, err)
	}
	b := &Browser{launcher: l, profile: profile, opts: opts, controlURL: u}
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, u, nil); err != nil {
		b.kill()
		return nil, fmt.Errorf("connect to launched browser: %w", err)
	}
	r, stop, err := attach(ctx, ws)
	if err != nil {
		b.kill()
		return nil, fmt.Errorf("connect to launched browser: %w", err)
	}
	b.rod, b.stopEvents = r, stop
	if v, err := (proto.BrowserGetVersion{}).Call(r.Context(ctx)); err == nil {
		b.version = v.Product
	}
	return b, nil
}

func connect(ctx context.Context, opts Options) (*Browser, error) {
	u := opts.BrowserURL
	if !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
		resolved, err := launcher.ResolveURL(u)
		if err != nil {
			return nil, fmt.Errorf("connect to browser %s: %w", u, err)
		}
		u = resolved
	}
	// Our own websocket, so that Close can drop the connection without
	// closing a browser that is not ours.
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, u, nil); err != nil {
		return nil, fmt.Errorf("connect to browser %s: %w", opts.BrowserURL, err)
	}
	r, stop, err := attach(ctx, ws)
	if err != nil {
		return nil, fmt.Errorf("connect to browser %s: %w", opts.BrowserURL, err)
	}
	b := &Browser{rod: r, stopEvents: stop, opts: opts, controlURL: u, ws: ws}
	if v, err := (proto.BrowserGetVersion{}).Call(r.Context(ctx)); err == nil {
		b.version = v.Product
	}
	return b, nil
}

// attach starts rod on a connected websocket. Rod's event hub lives as
// long as the context rod connects with, so that one is not ctx (a launch
// deadline would silence every event after it) but one that Close cancels;
// ctx bounds only the connecting. On failure the websocket is closed.
func attach(ctx context.Context, ws *cdp.WebSocket) (*rod.Browser, context.CancelFunc, error) {
	life, stop := context.WithCancel(context.Background())
	r := rod.New().Client(cdp.New().Start(ws)).NoDefaultDevice().Context(life)
	done := make(chan error, 1)
	go func() { done <- r.Connect() }()
	select {
	case err := <-done:
		if err != nil {
			stop()
			ws.Close()
			return nil, nil, err
		}
		return r, stop, nil
	case <-ctx.Done():
		stop()
		ws.Close() // fails the pending call
		<-done
		return nil, nil, ctx.Err()
	}
}

// Version is the browser's product string, e.g. "Chrome/156.0.8078.108".
func (b *Browser) Version() string { return b.version }

// PID is the launched browser's process id, 0 when connected.
func (b *Browser) PID() int {
	if b.launcher == nil {
		return 0
	}
	return b.launcher.PID()
}

// ProfileDir is the launched browser's temporary profile directory.
func (b *Browser) ProfileDir() string { return b.profile }

// Close ends the browser: a launched one exits and its profile directory is
// removed; a connected one only loses this connection.
func (b *Browser) Close() error {
	if b.rod == nil {
		return nil
	}
	defer b.stopEvents()
	if b.launcher == nil {
		return b.ws.Close()
	}
	done := make(chan struct{})
	go func() {
		_ = b.rod.Close()
		b.launcher.Cleanup()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		b.kill()
	}
	return nil
}

// kill ends the browser process group the hard way and removes the profile.
func (b *Browser) kill() {
	if pid := b.launcher.PID(); pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	// Cleanup waits for exit, then removes the profile directory.
	done := make(chan struct{})
	go func() { b.launcher.Cleanup(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	os.RemoveAll(b.profile)
}

// sweepProfiles removes profile directories left by e2e processes that were
// killed before they could clean up (their Chromium was reaped by the guard).
func sweepProfiles() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "e2e-chrome-*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), "e2e-chrome-")
		pidStr, _, ok := strings.Cut(rest, "-")
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}

// NewPage opens a page in a fresh browser context (its own cookies and
// storage), with the e2e page script installed in every frame.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	inc, err := b.rod.Context(ctx).Incognito()
	if err != nil {
		return nil, fmt.Errorf("new browser context: %w", err)
	}
	rp, err := b.openTarget(ctx, inc)
	if err != nil {
		_ = disposeContext(b.rod, inc)
		return nil, fmt.Errorf("new page: %w", err)
	}
	p := &Page{rod: rp.Context(context.Background()), browser: b, incognito: inc}
	p.answerDialogs()
	if err := p.init(ctx); err != nil {
		_ = p.Close()
		return nil, err
	}
	return p, nil
}

func disposeContext(root *rod.Browser, inc *rod.Browser) error {
	if inc.BrowserContextID == "" {
		return nil
	}
	return proto.TargetDisposeBrowserContext{BrowserContextID: inc.BrowserContextID}.Call(root)
}
