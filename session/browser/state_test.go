package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestStateMovesBetweenContexts: the state of one browser context (an
// HttpOnly cookie, a cookie with an expiry, local and session storage)
// is loaded into a fresh context: the server gets the cookies, and the
// page's first script, which runs before any other, finds the storage.
// Once StateLoaded, what the app stores stays across a navigation. The
// first context's cookies are not in the second until it loads them.
func TestStateMovesBetweenContexts(t *testing.T) {
	browserTest(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "tok-7f3a9c21e4", Path: "/", HttpOnly: true})
			http.SetCookie(w, &http.Cookie{Name: "pref", Value: "wide-layout", Path: "/", MaxAge: 3600})
		}
		sid, pref := "", ""
		if c, err := r.Cookie("sid"); err == nil {
			sid = c.Value
		}
		if c, err := r.Cookie("pref"); err == nil {
			pref = c.Value
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>s</title><script>
window.seen = { local: localStorage.getItem('theme'), session: sessionStorage.getItem('tab') };
if (location.pathname === '/set') { localStorage.setItem('theme', 'dark-theme-1'); sessionStorage.setItem('tab', 'tab-token-2'); }
if (location.pathname === '/change') { localStorage.setItem('theme', 'changed-by-app'); }
</script><p id="c">%s|%s</p>`, sid, pref)
	}))
	t.Cleanup(srv.Close)

	a := newPage(t)
	open(t, a, srv.URL+"/set")
	st, err := a.SaveState(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if c, l, s := st.Size(); c != 2 || l != 1 || s != 1 || st.Origin != srv.URL {
		t.Fatalf("saved %d cookies, %d local and %d session items of %s", c, l, s, st.Origin)
	}
	vals := st.Values()
	for _, v := range []string{"tok-7f3a9c21e4", "wide-layout", "dark-theme-1", "tab-token-2"} {
		if !slices.Contains(vals, v) {
			t.Errorf("Values lacks %q: %v", v, vals)
		}
	}

	b := newPage(t)
	open(t, b, srv.URL+"/")
	var text string
	if err := b.Eval(ctxT(t), &text, `() => document.getElementById('c').textContent`); err != nil || text != "|" {
		t.Fatalf("a fresh context has cookies %q (%v)", text, err)
	}
	if err := b.LoadState(ctxT(t), st); err != nil {
		t.Fatal(err)
	}
	open(t, b, srv.URL+"/")
	var seen struct{ Local, Session string }
	if err := b.Eval(ctxT(t), &text, `() => document.getElementById('c').textContent`); err != nil || text != "tok-7f3a9c21e4|wide-layout" {
		t.Errorf("the server got cookies %q (%v)", text, err)
	}
	if err := b.Eval(ctxT(t), &seen, `() => window.seen`); err != nil || seen.Local != "dark-theme-1" || seen.Session != "tab-token-2" {
		t.Errorf("the page's first script found %+v (%v)", seen, err)
	}
	if err := b.StateLoaded(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	open(t, b, srv.URL+"/change")
	open(t, b, srv.URL+"/")
	if err := b.Eval(ctxT(t), &seen, `() => window.seen`); err != nil || seen.Local != "changed-by-app" {
		t.Errorf("after StateLoaded the app's own storage is overwritten: %+v (%v)", seen, err)
	}
}
