package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// fileInputJS finds the file input that the element behind ref stands
// for: the element itself, the control of a label, a file input inside it,
// or the one its aria-controls or for names. It returns null when there is
// none, and the string "disabled" when the input is disabled.
const fileInputJS = `(ref) => {
  const el = window.__e2e ? window.__e2e.resolve(ref) : null;
  if (!el) return null;
  const isFile = (e) => e && e.tagName === 'INPUT' && e.type === 'file';
  let input = null;
  if (isFile(el)) input = el;
  else if (el.tagName === 'LABEL' && isFile(el.control)) input = el.control;
  else if (el.querySelector && isFile(el.querySelector('input[type=file]'))) input = el.querySelector('input[type=file]');
  else {
    const id = el.getAttribute('aria-controls') || el.getAttribute('for');
    const byID = id ? el.getRootNode().getElementById?.(id) || document.getElementById(id) : null;
    if (isFile(byID)) input = byID;
    else { const lab = el.closest && el.closest('label'); if (lab && isFile(lab.control)) input = lab.control; }
  }
  if (!input) return null;
  if (input.disabled) return 'disabled';
  return input;
}`

// SetFiles chooses files in the file input behind ref, or in the one that
// ref (a label or button for it) stands for, as a person picking them in
// the file chooser would: the page gets input and change events. Paths are
// made absolute; a path that is not a readable file is an error before the
// page is touched. A hidden input is fine (most are styled away).
func (p *Page) SetFiles(ctx context.Context, ref string, paths []string) error {
	if len(paths) == 0 {
		return fmt.Errorf("upload into %s: no files", ref)
	}
	abs := make([]string, len(paths))
	for i, f := range paths {
		a, err := filepath.Abs(f)
		if err != nil {
			return fmt.Errorf("upload %s: %w", f, err)
		}
		st, err := os.Stat(a)
		if err != nil {
			return fmt.Errorf("upload %s: %w", f, err)
		}
		if st.IsDir() {
			return fmt.Errorf("upload %s: a directory, not a file", f)
		}
		abs[i] = a
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	res, err := rp.Evaluate(rod.Eval(fileInputJS, ref).ByObject())
	if err != nil {
		return fmt.Errorf("upload into %s: %w", ref, classify(ctx, err))
	}
	if res.ObjectID == "" {
		if res.Value.Str() == "disabled" {
			return p.notFit(ctx, "upload into", ref, ReasonDisabled, "its file input is disabled")
		}
		return p.notFit(ctx, "upload into", ref, ReasonNotFit, "it is not a file input, nor a label or button of one")
	}
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: res.ObjectID}.Call(rp) }()
	if err := (proto.DOMSetFileInputFiles{Files: abs, ObjectID: res.ObjectID}).Call(rp); err != nil {
		return fmt.Errorf("upload into %s: %w", ref, classify(ctx, err))
	}
	return nil
}
