package browser

import (
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// Input events are dispatched here rather than through rod's Mouse and
// Keyboard, which keep the context the page was created with: ours carry the
// deadline of the call that sends them.

func mouseMove(rp *rod.Page, x, y float64) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: x, Y: y}.Call(rp)
}

func mouseClick(rp *rod.Page, x, y float64) error {
	if err := mouseMove(rp, x, y); err != nil {
		return err
	}
	down := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1), ClickCount: 1}
	if err := down.Call(rp); err != nil {
		return err
	}
	up := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y,
		Button: proto.InputMouseButtonLeft, Buttons: gson.Int(0), ClickCount: 1}
	return up.Call(rp)
}

// mouseDoubleClick presses and releases the left button twice at x, y, the
// second time with clickCount 2, so the page sees mousedown, mouseup, click,
// mousedown, mouseup, click and dblclick, as from a person.
func mouseDoubleClick(rp *rod.Page, x, y float64) error {
	if err := mouseMove(rp, x, y); err != nil {
		return err
	}
	for n := 1; n <= 2; n++ {
		down := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y,
			Button: proto.InputMouseButtonLeft, Buttons: gson.Int(1), ClickCount: n}
		if err := down.Call(rp); err != nil {
			return err
		}
		up := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y,
			Button: proto.InputMouseButtonLeft, Buttons: gson.Int(0), ClickCount: n}
		if err := up.Call(rp); err != nil {
			return err
		}
	}
	return nil
}

// mouseRightClick presses and releases the right button at x, y, which
// fires mousedown, mouseup (button 2) and contextmenu.
func mouseRightClick(rp *rod.Page, x, y float64) error {
	if err := mouseMove(rp, x, y); err != nil {
		return err
	}
	down := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y,
		Button: proto.InputMouseButtonRight, Buttons: gson.Int(2), ClickCount: 1}
	if err := down.Call(rp); err != nil {
		return err
	}
	up := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y,
		Button: proto.InputMouseButtonRight, Buttons: gson.Int(0), ClickCount: 1}
	return up.Call(rp)
}

// pressChord presses mods in order, types key, and releases mods in reverse.
func pressChord(rp *rod.Page, mods []input.Key, key input.Key) error {
	bits := 0
	for _, m := range mods {
		bits |= m.Modifier()
		if err := m.Encode(proto.InputDispatchKeyEventTypeKeyDown, bits).Call(rp); err != nil {
			return err
		}
	}
	down := key.Encode(proto.InputDispatchKeyEventTypeKeyDown, bits)
	if bits&^input.ModifierShift != 0 { // a shortcut, not text
		down.Text, down.UnmodifiedText = "", ""
		if down.Type == proto.InputDispatchKeyEventTypeKeyDown {
			down.Type = proto.InputDispatchKeyEventTypeRawKeyDown
		}
	}
	err := down.Call(rp)
	if err == nil {
		err = key.Encode(proto.InputDispatchKeyEventTypeKeyUp, bits).Call(rp)
	}
	for i := len(mods) - 1; i >= 0; i-- {
		bits &^= mods[i].Modifier()
		if rerr := mods[i].Encode(proto.InputDispatchKeyEventTypeKeyUp, bits).Call(rp); err == nil {
			err = rerr
		}
	}
	return err
}
