package browser

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Frame is one screencast frame: a JPEG and when it arrived.
type Frame struct {
	JPEG []byte
	At   time.Time
}

// Screencast records the frames Chrome paints for a page (CDP
// Page.startScreencast), acknowledging each so that the next comes. Only
// the newest frames are kept (see StartScreencast).
type Screencast struct {
	page   *Page
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	frames []Frame
	max    int
	stop   sync.Once
	result []Frame
}

// ScreencastOptions shape a screencast.
type ScreencastOptions struct {
	// MaxFrames keeps only the newest frames; zero means 600.
	MaxFrames int
	// MaxWidth and MaxHeight bound the frame size; zero means 640×400.
	MaxWidth, MaxHeight int
	// Quality is the JPEG quality (1–100); zero means 60.
	Quality int
}

// StartScreencast starts recording the page's frames until Stop. Chrome
// sends a frame only when the page paints something new, so an idle page
// adds none.
func (p *Page) StartScreencast(ctx context.Context, o ScreencastOptions) (*Screencast, error) {
	if o.MaxFrames <= 0 {
		o.MaxFrames = 600
	}
	if o.MaxWidth <= 0 {
		o.MaxWidth = 640
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = 400
	}
	if o.Quality <= 0 || o.Quality > 100 {
		o.Quality = 60
	}
	lctx, cancel := context.WithCancel(context.Background())
	s := &Screencast{page: p, cancel: cancel, done: make(chan struct{}), max: o.MaxFrames}
	wait := p.rod.Context(lctx).EachEvent(func(e *proto.PageScreencastFrame) {
		// When the frame arrived: Chrome's own swap timestamps are not
		// always in order.
		at := time.Now()
		s.mu.Lock()
		s.frames = append(s.frames, Frame{JPEG: e.Data, At: at})
		if len(s.frames) > s.max {
			s.frames = append(s.frames[:0:0], s.frames[len(s.frames)-s.max:]...)
		}
		s.mu.Unlock()
		actx, acancel := context.WithTimeout(lctx, 2*time.Second)
		_ = proto.PageScreencastFrameAck{SessionID: e.SessionID}.Call(p.rod.Context(actx))
		acancel()
	})
	go func() { defer close(s.done); wait() }()
	rp, pcancel := p.with(ctx)
	defer pcancel()
	// A page in the background paints no frames.
	_ = proto.PageBringToFront{}.Call(rp)
	q, w, h, n := o.Quality, o.MaxWidth, o.MaxHeight, 1
	err := proto.PageStartScreencast{Format: proto.PageStartScreencastFormatJpeg, Quality: &q, MaxWidth: &w, MaxHeight: &h, EveryNthFrame: &n}.Call(rp)
	if err != nil {
		cancel()
		<-s.done
		return nil, fmt.Errorf("start screencast: %w", classify(ctx, err))
	}
	return s, nil
}

// Stop ends the screencast and returns its frames, oldest first. It may be
// called more than once, and on a page that crashed or closed.
func (s *Screencast) Stop() []Frame {
	s.stop.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = proto.PageStopScreencast{}.Call(s.page.rod.Context(ctx))
		cancel()
		s.cancel()
		<-s.done
		s.mu.Lock()
		s.result = s.frames
		s.mu.Unlock()
	})
	return s.result
}
