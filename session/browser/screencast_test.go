package browser

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"
)

func TestScreencastRecordsFramesOfAChangingPage(t *testing.T) {
	p := newPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := p.Navigate(ctx, fixtureURL(t)+"/login"); err != nil {
		t.Fatal(err)
	}
	sc, err := p.StartScreencast(ctx, ScreencastOptions{MaxFrames: 5})
	if err != nil {
		t.Fatal(err)
	}
	// The page changes every 50 ms for ever: frames keep coming.
	if _, err := p.Navigate(ctx, fixtureURL(t)+"/settle/never"); err != nil {
		t.Fatal(err)
	}
	var frames []Frame
	for ctx.Err() == nil {
		sc.mu.Lock()
		n := len(sc.frames)
		sc.mu.Unlock()
		if n >= 5 {
			break
		}
		_, _ = p.Settle(ctx, SettleOptions{Quiet: 20 * time.Millisecond, Max: 100 * time.Millisecond})
	}
	frames = sc.Stop()
	if len(frames) != 5 {
		t.Fatalf("%d frames, want the newest 5", len(frames))
	}
	for i, f := range frames {
		if !bytes.HasPrefix(f.JPEG, []byte{0xff, 0xd8}) {
			t.Errorf("frame %d is not a JPEG", i)
		}
		if i > 0 && f.At.Before(frames[i-1].At) {
			t.Errorf("frame %d is older than frame %d", i, i-1)
		}
	}
	if again := sc.Stop(); len(again) != 5 {
		t.Errorf("a second Stop returned %d frames", len(again))
	}
}

func TestCrashedRendererIsReportedAndOthersLive(t *testing.T) {
	p := newPage(t)
	other := newPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := fixtureURL(t)
	for _, pg := range []*Page{p, other} {
		if _, err := pg.Navigate(ctx, base+"/login"); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Responsive(ctx, 0); err != nil {
		t.Fatalf("a live page: %v", err)
	}
	if err := p.Crash(ctx); err != nil {
		t.Fatal(err)
	}
	err := p.Responsive(ctx, time.Second)
	if !errors.Is(err, ErrRendererGone) || !errors.Is(err, ErrPageClosed) {
		t.Fatalf("after the crash: %v", err)
	}
	if err := other.Responsive(ctx, 0); err != nil {
		t.Errorf("the other browser context: %v", err)
	}
	if _, err := other.Snapshot(ctx, SnapshotOptions{}); err != nil {
		t.Errorf("the other browser context: %v", err)
	}
}
