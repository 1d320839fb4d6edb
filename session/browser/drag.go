package browser

import (
	"context"
	"fmt"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// html5DragJS plays an HTML5 drag and drop from the element behind one ref
// onto the one behind another, with one DataTransfer carried through
// dragstart, drag, dragenter, dragover, drop and dragend, at the given
// points. The source is HTML5-draggable when it or an ancestor, also a
// shadow host it is inside, has draggable="true". It returns "" when the source is not HTML5-draggable (the caller
// then drags with the mouse), "dropped", or "refused" when the target
// never accepted the drop (no dragover handler called preventDefault).
const html5DragJS = `(from, to, fx, fy, tx, ty) => {
  const r = window.__e2e;
  const src = r && r.resolve(from), dst = r && r.resolve(to);
  if (!src || !dst) return 'detached';
  // The draggable element is the source or its nearest draggable ancestor,
  // out through shadow roots (a row's host is draggable, the control under
  // the pointer is inside its shadow root), as a browser finds it.
  let drag = null;
  for (let n = src; n && !drag; n = n.parentNode || n.host) {
    if (n.nodeType === 1 && n.getAttribute('draggable') === 'true') drag = n;
  }
  if (!drag) return '';
  const dt = new DataTransfer();
  const ev = (type, target, x, y) => {
    const e = new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt });
    target.dispatchEvent(e);
    return e;
  };
  if (ev('dragstart', drag, fx, fy).defaultPrevented) return 'refused';
  ev('drag', drag, fx, fy);
  const over = document.elementFromPoint(tx, ty) || dst;
  const target = dst.contains(over) ? over : dst;
  ev('dragenter', target, tx, ty);
  const accepted = ev('dragover', target, tx, ty).defaultPrevented;
  if (accepted) ev('drop', target, tx, ty); else ev('dragleave', target, tx, ty);
  ev('dragend', drag, tx, ty);
  return accepted ? 'dropped' : 'refused';
}`

// dragSteps is how many mouse moves a pointer drag makes between its ends,
// so that libraries that need movement past a threshold see it.
const dragSteps = 10

// Drag drags the element behind from onto the element behind to, once both
// are actionable. A source that is HTML5-draggable (draggable="true", or
// inside such an element, also through open shadow roots) gets the HTML5 drag events with one DataTransfer,
// as a browser sends them; any other source is dragged with real pointer
// events: the left button pressed on its centre, moves to the target's
// centre, and released there. A target that refuses an HTML5 drop is an
// *ActionError.
func (p *Page) Drag(ctx context.Context, from, to string, opts ActOptions) error {
	a, err := p.wait(ctx, "drag", from, readiness{Enabled: true, Hit: true}, opts)
	if err != nil {
		return err
	}
	b, err := p.wait(ctx, "drag onto", to, readiness{Hit: true}, opts)
	if err != nil {
		return err
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	res, err := rp.Evaluate(rod.Eval(html5DragJS, from, to, a.X, a.Y, b.X, b.Y))
	if err != nil {
		return fmt.Errorf("drag %s: %w", from, classify(ctx, err))
	}
	switch res.Value.Str() {
	case "dropped":
		return mouseMove(rp, b.X, b.Y)
	case "refused":
		return p.notFit(ctx, "drag onto", to, ReasonNotFit, "it does not accept the drop")
	case "detached":
		return &ActionError{Action: "drag", Ref: from, Reason: ReasonDetached}
	}
	if err := mouseDrag(rp, a.X, a.Y, b.X, b.Y); err != nil {
		return fmt.Errorf("drag %s: %w", from, classify(ctx, err))
	}
	return nil
}

// mouseDrag presses the left button at (x0, y0), moves to (x1, y1) in
// dragSteps moves with the button held, and releases it there.
func mouseDrag(rp *rod.Page, x0, y0, x1, y1 float64) error {
	if err := mouseMove(rp, x0, y0); err != nil {
		return err
	}
	down := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x0, Y: y0,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1), ClickCount: 1}
	if err := down.Call(rp); err != nil {
		return err
	}
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		mv := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved,
			X: x0 + (x1-x0)*f, Y: y0 + (y1-y0)*f, Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1)}
		if err := mv.Call(rp); err != nil {
			return err
		}
	}
	up := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x1, Y: y1,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(0), ClickCount: 1}
	return up.Call(rp)
}
