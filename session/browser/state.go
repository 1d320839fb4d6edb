package browser

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod/lib/proto"
)

// State is what a browser context holds for a signed-in user: its cookies
// (every cookie of the context, HttpOnly ones too) and the local and
// session storage of one origin. It holds credentials: it lives in memory
// only, and its values are to be redacted ([State.Values]).
type State struct {
	// Origin is the origin whose storage the state holds (scheme://host:port).
	Origin  string
	cookies []*proto.NetworkCookie
	local   [][2]string // key, value, in the order the page listed them
	session [][2]string
}

// Values returns every cookie value and storage value of s (no names),
// for a redactor to hide.
func (s *State) Values() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.cookies)+len(s.local)+len(s.session))
	for _, c := range s.cookies {
		out = append(out, c.Value)
	}
	for _, kv := range s.local {
		out = append(out, kv[1])
	}
	for _, kv := range s.session {
		out = append(out, kv[1])
	}
	return out
}

// Size is how many cookies and storage items s holds.
func (s *State) Size() (cookies, local, session int) {
	if s == nil {
		return 0, 0, 0
	}
	return len(s.cookies), len(s.local), len(s.session)
}

// contextID is the browser context of the page ("" for the default one).
func (p *Page) contextID() proto.BrowserBrowserContextID {
	if p.incognito == nil {
		return ""
	}
	return p.incognito.BrowserContextID
}

// SaveState returns the state of the page's browser context: all its
// cookies, and the local and session storage of the document the page
// shows now (its origin is the state's).
func (p *Page) SaveState(ctx context.Context) (*State, error) {
	cctx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	res, err := proto.StorageGetCookies{BrowserContextID: p.contextID()}.Call(p.browser.rod.Context(cctx))
	if err != nil {
		return nil, fmt.Errorf("read cookies: %w", classify(cctx, err))
	}
	var st struct {
		Origin  string      `json:"origin"`
		Local   [][2]string `json:"local"`
		Session [][2]string `json:"session"`
	}
	const js = `() => {
		const all = s => { const out = []; try { for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push([k, s.getItem(k)]); } } catch (e) {} return out; };
		let local = [], session = [];
		try { local = all(window.localStorage); } catch (e) {}
		try { session = all(window.sessionStorage); } catch (e) {}
		return { origin: location.origin, local, session };
	}`
	if err := p.evalJSON(ctx, &st, js); err != nil {
		return nil, fmt.Errorf("read storage: %w", err)
	}
	return &State{Origin: st.Origin, cookies: res.Cookies, local: st.Local, session: st.Session}, nil
}

// LoadState replaces the cookies of the page's browser context with those
// of s, and arranges for the storage of s to be put in place on the next
// documents of its origin that the page loads, before their own scripts
// run, until [Page.StateLoaded] is called: call it once the page has
// loaded a document of the origin. A state loaded before is replaced.
func (p *Page) LoadState(ctx context.Context, s *State) error {
	cctx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	root := p.browser.rod.Context(cctx)
	if err := (proto.StorageClearCookies{BrowserContextID: p.contextID()}).Call(root); err != nil {
		return fmt.Errorf("clear cookies: %w", classify(cctx, err))
	}
	params := make([]*proto.NetworkCookieParam, 0, len(s.cookies))
	for _, c := range s.cookies {
		cp := &proto.NetworkCookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure,
			HTTPOnly: c.HTTPOnly, SameSite: c.SameSite, Priority: c.Priority, SameParty: c.SameParty, SourceScheme: c.SourceScheme}
		if !c.Session {
			cp.Expires = c.Expires
		}
		params = append(params, cp)
	}
	if len(params) > 0 {
		if err := (proto.StorageSetCookies{Cookies: params, BrowserContextID: p.contextID()}).Call(root); err != nil {
			return fmt.Errorf("set cookies: %w", classify(cctx, err))
		}
	}
	if err := p.StateLoaded(ctx); err != nil {
		return err
	}
	if len(s.local) == 0 && len(s.session) == 0 {
		return nil
	}
	data, err := json.Marshal(struct {
		Origin  string      `json:"o"`
		Local   [][2]string `json:"l"`
		Session [][2]string `json:"s"`
	}{s.Origin, s.local, s.session})
	if err != nil {
		return fmt.Errorf("load storage: %w", err)
	}
	// The storage a document of the origin starts with is the state's,
	// whatever an earlier document of this page left.
	src := `(() => { const d = ` + string(data) + `; if (location.origin !== d.o) return;
		try { localStorage.clear(); for (const [k, v] of d.l) localStorage.setItem(k, v); } catch (e) {}
		try { sessionStorage.clear(); for (const [k, v] of d.s) sessionStorage.setItem(k, v); } catch (e) {} })()`
	res, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: src}.Call(p.rod.Context(cctx))
	if err != nil {
		return fmt.Errorf("load storage: %w", classify(cctx, err))
	}
	p.stateMu.Lock()
	p.stateScript = res.Identifier
	p.stateMu.Unlock()
	return nil
}

// StateLoaded stops putting the storage of a loaded state in place on new
// documents (see [Page.LoadState]), so that what the app stores from now
// on stays. It does nothing when no state is waiting to be put in place.
func (p *Page) StateLoaded(ctx context.Context) error {
	p.stateMu.Lock()
	id := p.stateScript
	p.stateScript = ""
	p.stateMu.Unlock()
	if id == "" {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	if err := (proto.PageRemoveScriptToEvaluateOnNewDocument{Identifier: id}).Call(p.rod.Context(cctx)); err != nil {
		return fmt.Errorf("end loading storage: %w", classify(cctx, err))
	}
	return nil
}
