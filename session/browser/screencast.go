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
// the newest frames are kept (see StartScreencast). Once the page masks
// values (MaskSecrets), each frame has the places that show them painted
// over: the page is asked at each frame's arrival where it shows them now
// and where it showed them in every state it rendered since the frame
// before, and a frame is masked with what both the take at its arrival and
// the next one say. A frame the page cannot answer for is dropped, never
// kept unmasked.
type Screencast struct {
	page   *Page
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	frames []Frame
	max    int
	stop   sync.Once
	result []Frame

	// Masking (see MaskSecrets), touched by the event loop only, then by
	// Stop once the loop ended.
	quality int
	masking bool       // values have been masked since a frame came
	held    *heldFrame // the newest frame, waiting for the next take
}

// heldFrame is a frame that waits for the boxes of the next take before it
// is masked and kept: the page may have rendered it from a state that only
// the next take reports.
type heldFrame struct {
	f         Frame
	width     float64 // the viewport's width in CSS pixels
	offsetTop float64
	boxes     maskBoxes
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
	s := &Screencast{page: p, cancel: cancel, done: make(chan struct{}), max: o.MaxFrames, quality: o.Quality}
	wait := p.rod.Context(lctx).EachEvent(func(e *proto.PageScreencastFrame) {
		// When the frame arrived: Chrome's own swap timestamps are not
		// always in order.
		at := time.Now()
		s.arrived(lctx, Frame{JPEG: e.Data, At: at}, e.Metadata)
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
		if h := s.held; h != nil {
			s.held = nil
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			if boxes, err := s.page.takeBoxes(ctx, s.page.maskNeedles()); err == nil {
				s.keepMasked(h, boxes)
			}
			cancel()
		}
		s.mu.Lock()
		s.result = s.frames
		s.mu.Unlock()
	})
	return s.result
}

// arrived handles a frame as it comes: kept at once while nothing is
// masked, else held until the next take (see Screencast).
func (s *Screencast) arrived(ctx context.Context, f Frame, md *proto.PageScreencastFrameMetadata) {
	needles := s.page.maskNeedles()
	if needles != nil {
		s.masking = true
	}
	if !s.masking {
		s.keep(f)
		return
	}
	boxes, err := s.page.takeBoxes(ctx, needles)
	if h := s.held; h != nil {
		s.held = nil
		if err == nil {
			s.keepMasked(h, boxes)
		}
	}
	if err != nil {
		return // the page cannot say what this frame shows: dropped
	}
	h := &heldFrame{f: f, boxes: boxes, width: float64(s.page.browser.opts.Width)}
	if md != nil {
		if md.DeviceWidth > 0 {
			h.width = md.DeviceWidth
		}
		h.offsetTop = md.OffsetTop
	}
	s.held = h
}

// keepMasked masks a held frame with its own boxes and those of the take
// after it, and keeps it; a frame that cannot be masked is dropped.
func (s *Screencast) keepMasked(h *heldFrame, next maskBoxes) {
	b, err := maskJPEG(h.f.JPEG, h.width, h.offsetTop, s.quality, h.boxes, next)
	if err != nil {
		return
	}
	s.keep(Frame{JPEG: b, At: h.f.At})
}

func (s *Screencast) keep(f Frame) {
	s.mu.Lock()
	s.frames = append(s.frames, f)
	if len(s.frames) > s.max {
		s.frames = append(s.frames[:0:0], s.frames[len(s.frames)-s.max:]...)
	}
	s.mu.Unlock()
}
