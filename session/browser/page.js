// The in-page half of the browser package: accessibility snapshots with
// stable refs, actionability checks and the settle tracker. It is installed
// at document start in every frame (Page.addScriptToEvaluateOnNewDocument)
// and lazily into pages that were open before; installing twice is a no-op.
if (!window.__e2e) window.__e2e = (() => {
  'use strict';
  const now = () => performance.now();

  // ---- settle tracking -------------------------------------------------------
  // A page is busy while the DOM changes, a fetch/XHR is in flight, a short
  // one-shot timer (a debounce, a delayed render) is pending, the user just
  // typed or clicked, or a navigation has started.
  const setT = window.setTimeout.bind(window), clearT = window.clearTimeout.bind(window);
  const SHORT_TIMER_MS = 500, NAV_GRACE_MS = 5000;
  const track = { last: now(), mutations: 0, inflight: 0, pending: new Map(), seq: 0, timers: new Set(), navSince: 0 };
  const touch = () => { track.last = now(); };
  // A change that repeats is motion, not work: a progress bar's width, a
  // clock's or a counter's text, an attribute that blinks. Once one node's
  // attribute or text (text nodes only: no element comes or goes) has
  // changed CHURN_AFTER times, each no more than CHURN_GAP_MS after the one
  // before, its further changes no longer count as the page changing; a
  // pause longer than the gap starts its count again. Elements added or
  // removed always count. A page that only animates so settles, and an
  // action on it is not held back (issue 29, class 5).
  const CHURN_AFTER = 3, CHURN_GAP_MS = 2000;
  const churn = new WeakMap(); // node → Map(attribute or '#text' → { n, at })
  const textOnly = (nodes) => { for (const n of nodes) if (n.nodeType !== 3) return false; return true; };
  const repeats = (r, t) => {
    let what;
    if (r.type === 'attributes') what = '@' + r.attributeName;
    else if (r.type === 'characterData') what = '#text';
    else if (textOnly(r.addedNodes) && textOnly(r.removedNodes)) what = '#text';
    else return false;
    let m = churn.get(r.target);
    if (!m) churn.set(r.target, m = new Map());
    const c = m.get(what);
    if (!c || t - c.at > CHURN_GAP_MS) { m.set(what, { n: 1, at: t }); return false; }
    c.n++; c.at = t;
    return c.n > CHURN_AFTER;
  };
  try {
    new MutationObserver((records) => {
      track.mutations += records.length;
      const t = now();
      let changed = false;
      for (const r of records) if (!repeats(r, t)) changed = true;
      if (changed) touch();
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  } catch (e) { /* document not observable: settle falls back to the other signals */ }
  window.addEventListener('load', touch, { capture: true, passive: true }); // frames and images loading count as change
  for (const type of ['input', 'change', 'keydown', 'click', 'submit']) {
    window.addEventListener(type, touch, { capture: true, passive: true });
  }
  window.addEventListener('beforeunload', () => { track.navSince = now(); }, { capture: true });
  if (window.navigation && window.navigation.addEventListener) {
    window.navigation.addEventListener('navigate', (e) => { if (!e.hashChange && !e.downloadRequest) track.navSince = now(); });
    const done = () => { track.navSince = 0; touch(); };
    window.navigation.addEventListener('navigatesuccess', done);
    window.navigation.addEventListener('navigateerror', done);
  }
  // A short timer is work to wait for, unless its function arms it again
  // from its own run: that is a loop (an animation, a poll), which never
  // ends; what the loop changes on the page is judged as change is.
  let running = null; // the function of the tracked timer running now
  window.setTimeout = function (fn, delay) {
    const d = Number(delay) || 0;
    if (typeof fn !== 'function' || d > SHORT_TIMER_MS) return setT.apply(null, arguments);
    const rest = Array.prototype.slice.call(arguments, 2);
    const loop = running === fn;
    let id = 0;
    id = setT(function () {
      track.timers.delete(id);
      const outer = running;
      running = fn;
      try { return fn.apply(this, rest); } finally { running = outer; if (!loop) touch(); }
    }, d);
    if (!loop) track.timers.add(id);
    return id;
  };
  window.clearTimeout = function (id) { track.timers.delete(id); return clearT(id); };
  // A request counts as busy while it is in flight, and its start and end
  // count as change, except for a poll: a request to the same method and
  // path as one whose answer changed nothing (no DOM mutation from its end
  // to this start). A page that polls with its DOM unchanged still settles.
  const answered = new Map(); // method and path → track.mutations when its last answer came
  const begin = (what) => {
    const key = what.split('?')[0];
    const poll = answered.get(key) === track.mutations;
    const id = ++track.seq; track.inflight++; track.pending.set(id, { what, key, poll });
    if (!poll) touch();
    return id;
  };
  const end = (id) => {
    const r = track.pending.get(id);
    if (!r) return;
    track.pending.delete(id); track.inflight--;
    if (answered.size > 256) answered.clear();
    answered.set(r.key, track.mutations);
    if (!r.poll) touch();
  };
  if (window.fetch) {
    const origFetch = window.fetch;
    window.fetch = function (input, init) {
      const id = begin('fetch ' + (typeof input === 'string' ? input : (input && input.url) || ''));
      let p;
      try { p = origFetch.apply(this, arguments); } catch (e) { end(id); throw e; }
      p.then(() => end(id), () => end(id));
      return p;
    };
  }
  if (window.XMLHttpRequest) {
    const proto = XMLHttpRequest.prototype, open = proto.open, send = proto.send;
    proto.open = function (method, url) { this.__e2eWhat = 'xhr ' + method + ' ' + url; return open.apply(this, arguments); };
    proto.send = function () {
      const id = begin(this.__e2eWhat || 'xhr');
      this.addEventListener('loadend', () => end(id), { once: true });
      try { return send.apply(this, arguments); } catch (e) { end(id); throw e; }
    };
  }

  function busy(t) {
    if (track.navSince && t - track.navSince > NAV_GRACE_MS) track.navSince = 0; // a navigation that never left (204, download)
    return track.inflight > 0 || track.timers.size > 0 || track.navSince > 0 || document.readyState === 'loading' || framesLoading();
  }

  // framesLoading says whether a same-origin iframe is still loading (its
  // document not complete, or still the initial about:blank of a src).
  function framesLoading() {
    for (const f of document.getElementsByTagName('iframe')) {
      let doc = null;
      try { doc = f.contentDocument; } catch (e) { continue; } // cross-origin: not ours to wait for
      if (!doc) continue;
      if (doc.readyState !== 'complete') return true;
      const src = f.getAttribute('src');
      if (src && src !== 'about:blank' && doc.URL === 'about:blank') return true;
      const inner = f.contentWindow && f.contentWindow.__e2e;
      if (inner && inner.track && (inner.track.inflight > 0 || inner.track.timers.size > 0)) return true;
    }
    return false;
  }

  function settle(quiet, max) {
    const start = now(), mutations = track.mutations;
    return new Promise((resolve) => {
      const tick = () => {
        const t = now(), idle = t - track.last;
        if (!busy(t) && idle >= quiet) {
          resolve({ settled: true, waited: t - start });
          return;
        }
        if (t - start >= max) {
          resolve({ settled: false, waited: t - start, mutations: track.mutations - mutations, inflight: track.inflight,
            timers: track.timers.size, navigating: track.navSince > 0,
            pending: Array.from(track.pending.values(), (r) => r.what).slice(0, 3), readyState: document.readyState });
          return;
        }
        const wait = busy(t) ? 20 : Math.max(quiet - idle, 5);
        setT(tick, Math.min(wait, 50, Math.max(max - (t - start), 1)));
      };
      tick();
    });
  }

  // ---- roles ----------------------------------------------------------------
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox',
    'listbox', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider',
    'spinbutton', 'treeitem']);
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading',
    'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader',
    'switch', 'tab', 'tooltip', 'treeitem', 'caption', 'legend', 'generic_clickable']);
  const KNOWN_ROLES = new Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote',
    'button', 'caption', 'cell', 'checkbox', 'code', 'columnheader', 'combobox', 'complementary',
    'contentinfo', 'definition', 'deletion', 'dialog', 'directory', 'document', 'emphasis', 'feed',
    'figure', 'form', 'generic', 'grid', 'gridcell', 'group', 'heading', 'img', 'image', 'insertion', 'link',
    'list', 'listbox', 'listitem', 'log', 'main', 'marquee', 'math', 'menu', 'menubar', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'meter', 'navigation', 'note', 'option', 'paragraph',
    'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup', 'rowheader', 'scrollbar',
    'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong', 'subscript',
    'superscript', 'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer',
    'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem']);
  // Roles the outline passes through: their children join the parent.
  const PASS_THROUGH = new Set(['generic', 'rowgroup', 'presentation', 'none']);
  const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base']);
  const LANDMARK_SCOPE = 'article,aside,main,nav,section';

  function inputRole(el) {
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    switch (t) {
      case 'hidden': return null;
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color': return 'button';
      case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'email': case 'tel': case 'text': case 'url': case 'password': case '':
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      default: return 'textbox';
    }
  }

  // noGrids is set while a snapshot runs on a page without ARIA grids, so
  // that a cell need not look for its table.
  let noGrids = false;
  function implicitRole(el) {
    switch (el.localName) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'button': return 'button';
      case 'input': return inputRole(el);
      case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'optgroup': return 'group';
      case 'textarea': return 'textbox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img':
        // alt="" makes an image decoration, unless it is named after all
        return el.getAttribute('alt') !== '' || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title') ? 'img' : null;
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': {
        if (noGrids && el.ownerDocument === document) return 'cell';
        const t = el.closest('table'); const r = t && t.getAttribute('role'); return r === 'grid' || r === 'treegrid' ? 'gridcell' : 'cell';
      }
      case 'th': {
        const scope = el.getAttribute('scope');
        if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
        if (scope === 'col' || scope === 'colgroup' || (el.parentElement && el.parentElement.parentElement && el.parentElement.parentElement.localName === 'thead')) return 'columnheader';
        const row = el.parentElement;
        if (row && Array.prototype.every.call(row.children, (c) => c.localName === 'th')) return 'columnheader';
        return 'rowheader';
      }
      case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'aside': return 'complementary';
      case 'header': return el.parentElement && el.parentElement.closest(LANDMARK_SCOPE) ? null : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest(LANDMARK_SCOPE) ? null : 'contentinfo';
      case 'form': return 'form';
      case 'section': return (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) ? 'region' : null;
      case 'article': return 'article';
      case 'dialog': return 'dialog';
      case 'fieldset': return 'group';
      case 'details': return 'group';
      case 'summary': return 'button';
      case 'p': return 'paragraph';
      case 'hr': return 'separator';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'output': return 'status';
      case 'iframe': return 'iframe';
      case 'figure': return 'figure';
      case 'blockquote': return 'blockquote';
      case 'search': return 'search';
      case 'dl': return 'list';
      case 'caption': return 'caption';
      case 'legend': return 'legend';
      case 'svg': return (childTagged(el, 'title') || el.hasAttribute('aria-label')) ? 'img' : null;
      default: return null;
    }
  }

  // Controls named from their content: an element inside one has no line
  // of its own for a name (it is part of the control's).
  const LEAF_CONTROLS = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'treeitem', 'generic_clickable']);

  // namedRole is the line a role-less element (or one of a role that
  // passes through) has when an author named it: aria-label,
  // aria-labelledby, or the title of an <abbr> or <kbd>. It is the row
  // group, term, definition or math it is, else 'generic_named' (a
  // generic line with a name); null when it is not named.
  function namedRole(el) {
    const tag = el.localName;
    if (tag === 'slot' || tag === 'label' || tag === 'body' || tag === 'html') return null;
    const al = el.getAttribute('aria-label');
    let named = !!al && !isBlankASCII(al);
    if (!named && el.hasAttribute('aria-labelledby')) named = byIdList(el, 'aria-labelledby').length > 0;
    if (!named && (tag === 'abbr' || tag === 'kbd')) { const t = el.getAttribute('title'); named = !!t && !isBlankASCII(t); }
    if (!named) return null;
    const r = (el.getAttribute('role') || '').trim().toLowerCase();
    if (r === 'rowgroup' || tag === 'thead' || tag === 'tbody' || tag === 'tfoot') return 'rowgroup';
    if (tag === 'dt') return 'term';
    if (tag === 'dd') return 'definition';
    if (tag === 'math') return 'math';
    return 'generic_named';
  }

  // inLeafControlOf says el is inside a control named from its content (its
  // nearest ancestor with a role is one of LEAF_CONTROLS).
  function inLeafControlOf(el) {
    for (let a = el.parentElement || (el.parentNode && el.parentNode.host) || null; a; a = a.parentElement || (a.parentNode && a.parentNode.host) || null) {
      const r = roleOf(a);
      if (r && !PASS_THROUGH.has(r)) return LEAF_CONTROLS.has(r);
    }
    return false;
  }

  function isFocusable(el) {
    return el.hasAttribute('tabindex') && el.tabIndex >= 0;
  }

  // roleOf returns the element's role, or null for elements that only pass
  // their children through.
  function roleOf(el) {
    const attr = el.hasAttributes() ? el.getAttribute('role') : null;
    if (attr) {
      for (const r of attr.trim().toLowerCase().split(/\s+/)) {
        if (r === 'none' || r === 'presentation') {
          if (isFocusable(el)) break; // a focusable element keeps its implicit role
          return null;
        }
        if (KNOWN_ROLES.has(r)) return r === 'image' ? 'img' : r;
      }
    }
    const r = implicitRole(el);
    if (r) return r;
    // An element without attributes has no role of its own: it is not
    // focusable, has no click handler, and is not where editing starts
    // (its parent is editable whenever it is). isContentEditable is not
    // asked here: Chrome answers it in time proportional to the depth.
    if (!el.hasAttributes()) return null;
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return 'textbox';
    if (el.hasAttribute('onclick') || (isFocusable(el) && el.localName !== 'body')) return 'generic_clickable';
    return null;
  }

  // ---- role-less clickables -------------------------------------------------
  // Many pages build controls of <div>s and <span>s with a click listener and
  // no role. Such an element has no line of its own in Chrome's tree (a
  // generic, unnamed), but a person sees it is clickable, and so does the
  // snapshot: it gets a line of its own, role generic, no name, the state
  // clickable and a ref. Click listeners added with addEventListener cannot
  // be seen (and frameworks delegate them to the root), so the signals are
  // the ones a page shows: a pointer cursor where its parent has none (the
  // cursor inherits, so only the top of a chain of pointer elements counts),
  // an onclick property (an onclick attribute or tabindex >= 0 already make
  // it generic_clickable, see roleOf). A <label> is left out (a click on it
  // is a click on its control, which has a line of its own). Inside a
  // clickable, a role-less element drawn as a checkbox (a small near-square
  // bordered box with no text) or a switch (a pill holding a knob) is
  // clickable too, with looks=checkbox or looks=switch: the box a person
  // means by "the Weekly digest checkbox" in a clickable row.

  // clickRoot says whether el, a role-less element shown, starts a clickable:
  // ptr is its cursor is pointer, upPtr its parent's.
  function clickRoot(el, ptr, upPtr) {
    const tag = el.localName;
    if (tag === 'label' || tag === 'body' || tag === 'html') return false;
    return (ptr && !upPtr) || el.onclick !== null;
  }

  // looksOf says what control a role-less element inside a clickable is
  // drawn as: 'checkbox' (a 10–32px near-square with a border, no text, at
  // most one element inside, no rounder than a rounded square), 'switch' (a
  // pill 1.4–2.8 times as wide as high holding a knob: a square child or a
  // pseudo-element), or ''. cs is its computed style.
  function looksOf(el, cs) {
    if (el.childElementCount > 1 || el.shadowRoot) return '';
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && !isBlank(c.data)) return '';
    const kid = el.firstElementChild;
    if (kid && (kid.childElementCount > 0 || !isBlank(kid.textContent))) return '';
    const r = el.getBoundingClientRect(), w = r.width, h = r.height;
    if (h < 10 || h > 32 || w < 10 || w > 3 * h) return '';
    const ratio = w / h, radius = parseFloat(cs.borderTopLeftRadius) || 0;
    if (ratio >= 0.8 && ratio <= 1.25) {
      const bw = parseFloat(cs.borderTopWidth) || 0, bs = cs.borderTopStyle;
      return bw > 0 && bs !== 'none' && bs !== 'hidden' && radius < h / 3 ? 'checkbox' : '';
    }
    if (ratio < 1.4 || ratio > 2.8 || radius < h / 2 - 1) return '';
    if (kid) {
      const k = kid.getBoundingClientRect();
      return k.height > 0 && k.height <= h && Math.abs(k.width - k.height) <= 2 && k.left >= r.left - 1 && k.right <= r.right + 1 ? 'switch' : '';
    }
    return getComputedStyle(el, '::before').content !== 'none' || getComputedStyle(el, '::after').content !== 'none' ? 'switch' : '';
  }

  // clickOf is what the snapshot would say of el on its own, for the element
  // cache (describeNode): null when el is no role-less clickable, else
  // { looks }. It reads el's and its ancestors' cursors as the snapshot's
  // walk does.
  function clickOf(el) {
    const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' && cs.visibility !== 'hidden') return null;
    const ptr = cs.cursor === 'pointer';
    const p = up(el);
    const upPtr = !!p && getComputedStyle(p).cursor === 'pointer';
    if (clickRoot(el, ptr, upPtr)) return { looks: '' };
    if (!ptr || !upPtr) return null;
    // inside a clickable: the chain of role-less pointer ancestors must
    // start at one
    for (let a = p; a; a = up(a)) {
      const r = roleOf(a);
      if (r === 'generic_clickable') break;
      if (r && !PASS_THROUGH.has(r)) return null;
      const ap = up(a);
      const apPtr = !!ap && getComputedStyle(ap).cursor === 'pointer';
      if (clickRoot(a, true, apPtr)) break;
      if (!apPtr) return null;
    }
    const looks = looksOf(el, cs);
    return looks ? { looks } : null;
  }

  // ---- visibility -----------------------------------------------------------
  function hiddenSelf(el) {
    if (!el.hasAttributes()) return false;
    if (el.hidden && el.localName !== 'details') return true; // cheap check before style
    return el.getAttribute('aria-hidden') === 'true';
  }

  function isVisibleForName(el) {
    if (hiddenSelf(el)) return false;
    if (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true })) return true;
    // an element drawn as display: contents has no box of its own, yet its
    // content shows when its parent does (as the snapshot reads it)
    const cs = getComputedStyle(el);
    if (cs.display !== 'contents' || cs.visibility === 'hidden') return false;
    const p = el.parentElement || (el.getRootNode().host) || null;
    return !p || isVisibleForName(p);
  }

  // ---- hover-revealed controls -------------------------------------------
  // A control hidden (display: none, visibility: hidden) only until its
  // container is hovered, by a rule like `.row:hover .destroy {display:
  // block}`, is one a person reveals by pointing at the row. The snapshot
  // keeps it, with the state hv (not in Chrome's accessibility tree: it is
  // not rendered), and an action on it first hovers the container.
  //
  // The rules that can reveal something are gathered from a root's style
  // sheets (the document's, a shadow root's <style> and adopted sheets):
  // those whose selector holds :hover and whose declarations set display
  // (not none) or visibility: visible. Each is kept as the selector without
  // :hover (the element it reveals must match it) and the selector of the
  // hovered part. A sheet's rules are read once while its rule count stays.
  const hoverSheets = new WeakMap(); // CSSStyleSheet -> { n, rules }
  const HOVER = /:hover(?![-\w])/g;

  // compounds splits a complex selector into its compound selectors, each
  // with the combinator before it (' ', '>', '+', '~'; '' for the first).
  function compounds(sel) {
    const out = [];
    let cur = '', comb = '', depth = 0, quote = '';
    for (let i = 0; i < sel.length; i++) {
      const c = sel[i];
      if (quote) { cur += c; if (c === '\\') { cur += sel[++i] || ''; } else if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") { quote = c; cur += c; continue; }
      if (c === '\\') { cur += c + (sel[++i] || ''); continue; }
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~' || c === '\n' || c === '\t')) {
        if (cur) { out.push({ comb, text: cur }); cur = ''; comb = ' '; }
        if (c !== ' ' && c !== '\n' && c !== '\t') comb = c;
        continue;
      }
      cur += c;
    }
    if (cur) out.push({ comb, text: cur });
    return out;
  }

  // splitList splits a selector list at its top-level commas.
  function splitList(sel) {
    const out = [];
    let cur = '', depth = 0;
    for (const c of sel) {
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      if (c === ',' && depth === 0) { out.push(cur); cur = ''; continue; }
      cur += c;
    }
    out.push(cur);
    return out;
  }

  function unhover(text) {
    const t = text.replace(/:host\(:hover\)/g, ':host').replace(HOVER, '');
    return t === '' ? '*' : t;
  }
  function joinCompounds(cs) {
    let s = '';
    for (const c of cs) s += (s ? (c.comb === ' ' ? ' ' : ' ' + c.comb + ' ') : '') + unhover(c.text);
    return s;
  }

  function collectHover(rules, out, depth) {
    for (const r of rules) {
      const sel = r.selectorText;
      if (sel === undefined) {
        // @media, @supports, @layer, @container: their rules count as well
        if (r.cssRules && depth < 4) { try { collectHover(r.cssRules, out, depth + 1); } catch (e) { /* unreadable */ } }
        continue;
      }
      if (sel.indexOf(':hover') < 0 || !r.style) continue;
      const d = r.style.getPropertyValue('display'), v = r.style.getPropertyValue('visibility'), op = r.style.getPropertyValue('opacity');
      const display = d !== '' && d !== 'none', visibility = v === 'visible', opacity = op !== '' && parseFloat(op) > 0;
      if (!display && !visibility && !opacity) continue;
      for (const one of splitList(sel)) {
        const cs = compounds(one.trim());
        let k = -1;
        for (let i = 0; i < cs.length; i++) if (cs[i].text.indexOf(':hover') >= 0) k = i;
        if (k < 0 || k === cs.length - 1) continue; // the control itself hovered: it cannot be while hidden
        const rule = { subject: joinCompounds(cs), anchor: joinCompounds(cs.slice(0, k + 1)), comb: cs[k + 1].comb, display, visibility, opacity };
        try { document.createDocumentFragment().querySelector(rule.subject); document.createDocumentFragment().querySelector(rule.anchor); } catch (e) { continue; }
        out.push(rule);
      }
    }
  }

  function hoverRulesOfSheet(sheet) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { return []; } // a cross-origin sheet
    if (!rules) return [];
    const c = hoverSheets.get(sheet);
    if (c && c.n === rules.length) return c.rules;
    const out = [];
    collectHover(rules, out, 0);
    hoverSheets.set(sheet, { n: rules.length, rules: out });
    return out;
  }

  // hoverRulesOf lists the reveal rules of a document or shadow root; memo,
  // when given, keeps the answer per root for the length of one snapshot.
  function hoverRulesOf(root, memo) {
    if (memo) { const m = memo.get(root); if (m) return m; }
    let out = [];
    const sheets = [];
    if (root.styleSheets) for (const s of root.styleSheets) sheets.push(s);
    if (root.adoptedStyleSheets) for (const s of root.adoptedStyleSheets) sheets.push(s);
    for (const s of sheets) {
      if (s.disabled) continue;
      const r = hoverRulesOfSheet(s);
      if (r.length) out = out.concat(r);
    }
    if (memo) memo.set(root, out);
    return out;
  }

  function matches(el, sel) { try { return el.matches(sel); } catch (e) { return false; } }

  // hoverAnchor is the element whose hover the rule needs for el, or null.
  function hoverAnchor(el, rule) {
    if (rule.anchor === ':host') { const r = el.getRootNode(); return r && r.host ? r.host : null; }
    if (rule.comb === '+' || rule.comb === '~') {
      for (let a = el; a; a = a.parentElement) {
        for (let s = a.previousElementSibling; s; s = s.previousElementSibling) {
          if (matches(s, rule.anchor)) return s;
          if (rule.comb === '+') break;
        }
      }
      return null;
    }
    for (let a = el.parentElement; a; a = a.parentElement) if (matches(a, rule.anchor)) return a;
    return null;
  }

  // hoverReveals returns the container whose hover would show el, hidden by
  // display: none (display true) or visibility: hidden (display false), or
  // by opacity: 0 (display 'opacity'), or null when no rule of its root
  // would.
  function hoverReveals(el, display, memo) {
    const root = el.getRootNode ? el.getRootNode() : el.ownerDocument;
    const rules = hoverRulesOf(root, memo);
    if (rules.length === 0) return null;
    for (const r of rules) {
      if (display === 'opacity' ? !r.opacity : display ? !r.display : !r.visibility) continue;
      if (!matches(el, r.subject)) continue;
      const a = hoverAnchor(el, r);
      if (a) return a;
    }
    return null;
  }

  // hoverContainer is, for an element that is not shown, the container
  // whose hover shows it: the element itself or its nearest ancestor that
  // is display: none (or, for itself, visibility: hidden) must be revealed
  // by a :hover rule. It is null when the element is hidden for another
  // reason.
  function hoverContainer(el) {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none') {
        const a = hoverReveals(e, true, null);
        if (!a) return null;
        // the container itself must be shown
        return a.checkVisibility({ visibilityProperty: true }) ? a : null;
      }
      if (e.hidden || e.getAttribute('aria-hidden') === 'true') return null;
    }
    if (getComputedStyle(el).visibility === 'hidden') {
      const a = hoverReveals(el, false, null);
      return a && a.checkVisibility({ visibilityProperty: true }) ? a : null;
    }
    // shown, but see-through until a container is hovered (row actions at
    // opacity: 0 until the row is pointed at)
    const t = transparentOne(el);
    if (t !== null) {
      const a = hoverReveals(t, 'opacity', null);
      return a && a.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ? a : null;
    }
    return null;
  }

  const CONTAINER_WORDS = { listitem: 'item', row: 'row', cell: 'cell', gridcell: 'cell', article: 'card', option: 'option',
    treeitem: 'item', menuitem: 'menu item', tab: 'tab', group: 'group', region: 'region' };
  // containerWords says a container the way a description would: its name
  // or its text, and its role as a word ("bread", "item").
  function containerWords(el) {
    let role = roleOf(el);
    if (role === 'generic_clickable') role = 'generic';
    let name = role && !PASS_THROUGH.has(role) ? accName(el, role === 'generic' ? 'generic_clickable' : role, null) : '';
    if (!name) name = norm(hasShadowBelow(el) ? composedInnerText(el) : el.innerText || '');
    return { text: cutText(name, 60), word: CONTAINER_WORDS[role] || (role && !PASS_THROUGH.has(role) ? role : 'container') };
  }

  // ---- accessible names -----------------------------------------------------
  // norm collapses whitespace; most strings need nothing, and a test is
  // cheaper than a replace.
  const NEEDS_NORM = /^\s|\s$|[\t\n\r\f\v\u00a0\x00-\x1f]|\s\s/;
  // isBlank says whether s is only whitespace, without allocating.
  function isBlank(s) {
    for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c > 32 && c !== 160) return false; }
    return true;
  }
  // A run of whitespace becomes one space; a lone space is already one, and
  // leaving it alone keeps ordinary text (a 20 MB paragraph) from being
  // rebuilt one match at a time.
  const WS_RUN = /[\s\u00a0\x00-\x1f]{2,}|(?! )[\s\u00a0\x00-\x1f]/g;
  const norm = (s) => (!s ? '' : NEEDS_NORM.test(s) ? s.replace(WS_RUN, ' ').trim() : s);
  const BLOCKISH = new Set(['div', 'p', 'li', 'td', 'th', 'tr', 'table', 'ul', 'ol', 'section', 'article',
    'header', 'footer', 'nav', 'main', 'aside', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'form', 'fieldset',
    'dl', 'dt', 'dd', 'br', 'blockquote', 'figure', 'figcaption', 'legend', 'option', 'label_block']);
  const INLINE = new Set(['span', 'b', 'i', 'em', 'strong', 'a', 'small', 'code', 'abbr', 'mark', 'sup', 'sub', 'u', 's', 'label', 'kbd', 'time', 'img', 'svg']);

  function isBlock(el) {
    if (BLOCKISH.has(el.localName)) return true;
    if (INLINE.has(el.localName)) return false;
    const d = getComputedStyle(el).display;
    return !d.startsWith('inline') && d !== 'contents';
  }

  function childNodesOf(el) {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.localName === 'slot') {
      const a = el.assignedNodes({ flatten: true });
      return a.length ? a : el.childNodes;
    }
    return el.childNodes;
  }

  function rootOf(el) { return el.getRootNode ? el.getRootNode() : el.ownerDocument; }

  function byIdList(el, attr) {
    const ids = (el.getAttribute(attr) || '').trim().split(/\s+/).filter(Boolean);
    const root = rootOf(el);
    return ids.map((id) => (root.getElementById ? root.getElementById(id) : null) || el.ownerDocument.getElementById(id)).filter(Boolean);
  }

  // ---- the name machine (accname 1.2, HTML-AAM) ------------------------------
  // One explicit stack computes text alternatives, so that no depth of
  // nesting (elements, shadow roots) overflows the call stack. A frame
  // gathers the text of one element's content (its ::before, children or
  // slotted nodes, aria-owns'd elements, ::after: F_CONTENT), of a list of
  // elements joined by spaces (aria-labelledby's: F_LB; a listbox's chosen
  // options: F_LIST), or of a visibility: hidden element's children (which
  // may be visible again: F_VIS). The bottom frame (F_ROOT) is the answer.
  //
  // Flags: IN_LB, inside an aria-labelledby traversal (a nested
  // aria-labelledby is not followed); WITH_HIDDEN, the traversal's root is
  // hidden, so hidden nodes count (as the spec says of referenced hidden
  // labels).
  const IN_LB = 1, WITH_HIDDEN = 2;
  const F_ROOT = 0, F_CONTENT = 1, F_LB = 2, F_LIST = 3, F_VIS = 4;
  const SHOWN = 1, GONE = 0, VIS_HIDDEN = 2;
  const RANGE_ROLES = new Set(['progressbar', 'scrollbar', 'slider', 'spinbutton', 'meter']);

  // shownState says whether el counts for a name: SHOWN, GONE (not
  // rendered, hidden, aria-hidden: nor anything inside), or VIS_HIDDEN
  // (laid out with visibility: hidden: its own text does not count, a
  // descendant made visible again does).
  function shownState(el) {
    if (hiddenSelf(el)) return GONE;
    if (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true })) return SHOWN;
    const cs = getComputedStyle(el);
    if (cs.display === 'contents') {
      if (cs.visibility !== 'visible') return VIS_HIDDEN;
      const p = el.parentElement || (el.getRootNode().host) || null;
      return !p || isVisibleForName(p) ? SHOWN : GONE;
    }
    return el.checkVisibility() ? VIS_HIDDEN : GONE;
  }

  // hiddenRef says whether an element a relation references is hidden (then
  // its hidden content counts).
  function hiddenRef(el) {
    if (shownState(el) !== SHOWN) return true;
    const h = el.closest('[aria-hidden="true"]');
    return h !== null;
  }

  // padOf says whether el's text is set apart by spaces in a name: any
  // display but inline (and contents, which adds no box), and <br>.
  function padOf(el) {
    if (el.localName === 'br') return true;
    const d = getComputedStyle(el).display;
    return d !== 'inline' && d !== 'contents';
  }

  // isBlankASCII says whether s holds only ASCII whitespace (U+00A0 is text).
  function isBlankASCII(s) {
    for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c !== 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) return false; }
    return true;
  }

  // ---- CSS generated content ----
  // getComputedStyle(el, '::before') is costly, so it is asked only of
  // elements a same-origin style sheet of their root gives ::before or
  // ::after content with text (a string or attr()), found by the rules'
  // subjects bucketed by the id, class or tag of their last compound.
  const pseudoSheets = new WeakMap(); // CSSStyleSheet -> { n, sels }
  const PSEUDO_SEL = /::?(?:before|after)(?![-\w])/gi;
  const PSEUDO_TEXT = /"[^"]|'[^']|attr\(|var\(/;
  function collectPseudo(rules, out, depth) {
    for (const r of rules) {
      const sel = r.selectorText;
      if (sel === undefined) {
        if (r.cssRules && depth < 4) { try { collectPseudo(r.cssRules, out, depth + 1); } catch (e) { /* unreadable */ } }
        continue;
      }
      PSEUDO_SEL.lastIndex = 0;
      if (!PSEUDO_SEL.test(sel) || !r.style) continue;
      if (!PSEUDO_TEXT.test(r.style.getPropertyValue('content'))) continue;
      for (const one of splitList(sel)) {
        PSEUDO_SEL.lastIndex = 0;
        if (!PSEUDO_SEL.test(one)) continue;
        let s = one.replace(PSEUDO_SEL, '').trim();
        if (!s || /[>+~]$/.test(s)) s += '*';
        try { document.createDocumentFragment().querySelector(s); } catch (e) { continue; }
        out.push(s);
      }
    }
  }
  function pseudoSelsOfSheet(sheet) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { return []; } // a cross-origin sheet
    if (!rules) return [];
    const c = pseudoSheets.get(sheet);
    if (c && c.n === rules.length) return c.sels;
    const out = [];
    collectPseudo(rules, out, 0);
    pseudoSheets.set(sheet, { n: rules.length, sels: out });
    return out;
  }
  // pseudoIndexOf is the bucketed subjects of a document's or shadow root's
  // generated-content rules, or null when it has none; memo keeps it per
  // root for one computation.
  const pseudoRoots = new WeakMap(); // root -> { sig, idx }
  function pseudoIndexOf(root, memo) {
    if (memo) { const m = memo.get(root); if (m !== undefined) return m; }
    const sheets = [];
    if (root.styleSheets) for (const s of root.styleSheets) if (!s.disabled) sheets.push(s);
    if (root.adoptedStyleSheets) for (const s of root.adoptedStyleSheets) if (!s.disabled) sheets.push(s);
    let sig = '', all = [];
    for (const s of sheets) {
      const sels = pseudoSelsOfSheet(s);
      sig += sels.length + ',';
      if (sels.length) all = all.concat(sels);
    }
    const old = pseudoRoots.get(root);
    let idx = null;
    if (old && old.sig === sig && old.n === sheets.length) idx = old.idx;
    else {
      if (all.length) {
        idx = { ids: new Map(), classes: new Map(), tags: new Map(), any: [] };
        const add = (m, k, s) => { const a = m.get(k); if (a) a.push(s); else m.set(k, [s]); };
        for (const s of all) {
          const cs = compounds(s), last = cs.length ? cs[cs.length - 1].text : '';
          let m;
          if ((m = /#((?:[\w-]|\\.)+)/.exec(last))) add(idx.ids, m[1].replace(/\\/g, ''), s);
          else if ((m = /\.((?:[\w-]|\\.)+)/.exec(last))) add(idx.classes, m[1].replace(/\\/g, ''), s);
          else if ((m = /^([a-zA-Z][\w-]*)/.exec(last))) add(idx.tags, m[1].toLowerCase(), s);
          else idx.any.push(s);
        }
      }
      pseudoRoots.set(root, { sig, n: sheets.length, idx });
    }
    if (memo) memo.set(root, idx);
    return idx;
  }
  // mayPseudo says whether el may have ::before or ::after content with text.
  function mayPseudo(el, memo) {
    const idx = pseudoIndexOf(rootOf(el), memo);
    return idx !== null && pseudoIn(el, idx);
  }
  // pseudoIn is mayPseudo with the rules of el's root at hand.
  function pseudoIn(el, idx) {
    let c = idx.any.length ? idx.any.slice() : null;
    const take = (a) => { if (a) c = c ? c.concat(a) : a.slice(); };
    if (el.id) take(idx.ids.get(el.id));
    if (el.classList && el.classList.length) for (const k of el.classList) take(idx.classes.get(k));
    take(idx.tags.get(el.localName));
    return c !== null && matches(el, c.join(','));
  }
  // pseudoOf is the text el's ::before or ::after adds to a name: its
  // content's strings and attr() values (its alternative text after "/"
  // when it has one), set apart by spaces unless it is inline.
  function pseudoOf(el, which, memo) {
    if (!mayPseudo(el, memo)) return '';
    const cs = getComputedStyle(el, which);
    const c = cs.content;
    if (!c || c === 'none' || c === 'normal' || cs.display === 'none' || cs.visibility === 'hidden') return '';
    const t = contentString(el, c);
    if (!t) return '';
    return cs.display !== 'inline' ? ' ' + t + ' ' : t;
  }
  // contentString reads a computed content value: strings and attr(name),
  // after a "/" when there is one; '' for anything else (images, counters).
  function contentString(el, c) {
    const parts = [];
    let i = 0, alt = false;
    while (i < c.length) {
      const ch = c[i];
      if (ch === ' ') { i++; continue; }
      if (ch === '"' || ch === "'") {
        let s = '';
        for (i++; i < c.length && c[i] !== ch; i++) { if (c[i] === '\\' && i + 1 < c.length) i++; s += c[i]; }
        i++;
        parts.push(s);
        continue;
      }
      if (ch === '/') { parts.length = 0; alt = true; i++; continue; }
      const m = /^attr\(\s*([\w-]+)\s*\)/.exec(c.slice(i));
      if (m) { parts.push(el.getAttribute(m[1]) || ''); i += m[0].length; continue; }
      // something else (an image, a counter): only an alternative text
      // after it counts
      const slash = c.indexOf('/', i);
      if (slash < 0) return alt ? parts.join('') : '';
      parts.length = 0; alt = true; i = slash + 1;
    }
    return parts.join('');
  }

  // ---- the steps ----
  // pushContent starts the content frame of el (name from content).
  function pushContent(stack, el, fl, visited, kind, memo) {
    let kids = childNodesOf(el);
    if (el.hasAttribute('aria-owns')) kids = Array.from(kids).concat(byIdList(el, 'aria-owns').filter((o) => o !== el && !o.contains(el)));
    stack.push({ of: el, kids, i: 0, out: pseudoOf(el, '::before', memo), fl, visited, kind, n: 0 });
  }

  // selectedOf lists the chosen options of a combobox or listbox el, or
  // null for a combobox with none (it then gives what its field shows).
  function selectedOf(el, role) {
    if (el.localName === 'select') {
      const s = Array.from(el.selectedOptions || []);
      if (!s.length && el.options.length) s.push(el.options[0]);
      return s;
    }
    let box = el;
    if (role === 'combobox') {
      box = null;
      const cands = Array.from(el.querySelectorAll('*')).concat(byIdList(el, 'aria-owns'), byIdList(el, 'aria-controls'));
      for (const c of cands) if (roleOf(c) === 'listbox') { box = c; break; }
    }
    if (!box) return null;
    const out = [];
    const pick = (root) => { for (const o of root.querySelectorAll('[aria-selected="true"]')) if (roleOf(o) === 'option') out.push(o); };
    pick(box);
    for (const o of byIdList(box, 'aria-owns')) { if (o.getAttribute('aria-selected') === 'true' && roleOf(o) === 'option') out.push(o); pick(o); }
    if (!out.length && role === 'combobox') return null;
    return out;
  }

  // embeddedOf is what a control embedded in a name gives (its value, its
  // chosen options' element list, '' for a menu), or null for no control.
  function embeddedOf(el, role) {
    if (role === 'textbox' || role === 'searchbox') {
      if (el.localName === 'input' || el.localName === 'textarea') return el.type === 'password' ? '' : el.value;
      return el.textContent;
    }
    if (role === 'combobox' || role === 'listbox') {
      const s = selectedOf(el, role);
      // a combobox with no chosen option: what its field shows
      return s !== null ? s : el.localName === 'input' ? el.value : el.textContent;
    }
    if (RANGE_ROLES.has(role)) {
      const vt = el.getAttribute('aria-valuetext');
      if (vt !== null) return vt;
      const vn = el.getAttribute('aria-valuenow');
      if (vn !== null) return vn;
      if (el.localName === 'input') return el.value;
      return el.getAttribute('value') || '';
    }
    if (role === 'menu') return '';
    return null;
  }

  // stepOf is the text alternative of el met inside a name (a child, a
  // referenced or owned element): a string, or null after pushing the frame
  // that computes it. noLB skips its aria-labelledby (already tried).
  function stepOf(stack, el, fl, visited, noLB, memo) {
    if (visited.has(el) || SKIP_TAGS.has(el.localName)) return '';
    if (!(fl & WITH_HIDDEN)) {
      const st = shownState(el);
      if (st === GONE) return '';
      if (st === VIS_HIDDEN) {
        visited.add(el);
        stack.push({ of: el, kids: childNodesOf(el), i: 0, out: '', fl, visited, kind: F_VIS, n: 0 });
        return null;
      }
    }
    const attrs = el.hasAttributes();
    if (attrs && !noLB && !(fl & IN_LB) && el.hasAttribute('aria-labelledby')) {
      const refs = byIdList(el, 'aria-labelledby');
      if (refs.length) {
        stack.push({ of: el, kids: refs, i: 0, out: '', fl: fl | IN_LB, visited, kind: F_LB, n: 0 });
        return null;
      }
    }
    visited.add(el);
    const role = roleOf(el);
    const ev = role && el !== naming ? embeddedOf(el, role) : null;
    if (ev !== null) {
      if (typeof ev === 'string') return ev;
      stack.push({ of: el, kids: ev, i: 0, out: '', fl, visited, kind: F_LIST, n: 0 });
      return null;
    }
    if (attrs && el.localName !== 'slot') {
      const al = el.getAttribute('aria-label');
      if (al && !isBlankASCII(al)) return al;
    }
    const pres = attrs && role === null && presentational(el);
    if (!pres) {
      const host = hostText(el, true);
      if (host !== null) return host;
    }
    pushContent(stack, el, fl, visited, F_CONTENT, memo);
    stack[stack.length - 1].pres = pres;
    return null;
  }

  // presentational says el's role attribute makes it none or presentation
  // (and it is not focusable, which would keep its role).
  function presentational(el) {
    const r = el.getAttribute('role');
    if (!r) return false;
    const first = r.trim().toLowerCase().split(/\s+/)[0];
    return (first === 'none' || first === 'presentation') && !isFocusable(el);
  }

  // hostText is the host language's text alternative of el (HTML-AAM)
  // where it has one that is not its content: null to go on.
  function hostText(el, inner) {
    switch (el.localName) {
      case 'img': case 'area': {
        const a = el.getAttribute('alt');
        return a && !isBlankASCII(a) ? a : el.getAttribute('title') || '';
      }
      case 'input': {
        const t = el.type;
        if (t === 'submit' || t === 'reset' || t === 'button') return inputButtonName(el) || el.getAttribute('title') || '';
        if (t === 'image') {
          const a = el.getAttribute('alt');
          if (a && !isBlankASCII(a)) return a;
          const ti = el.getAttribute('title');
          return ti && !isBlankASCII(ti) ? ti : 'Submit';
        }
        return inner ? el.getAttribute('title') || '' : null;
      }
      case 'select': case 'textarea':
        return inner ? el.getAttribute('title') || '' : null;
      case 'svg': {
        const t = childTagged(el, 'title');
        return t ? t.textContent : inner ? '' : null;
      }
      default: return null;
    }
  }

  // naming is the element whose name is being computed: referenced from
  // its own aria-labelledby it gives its own text, not its value.
  let naming = null;

  // altRun runs the machine until its bottom frame is done, and returns
  // that frame's text.
  function altRun(stack, memo) {
    for (;;) {
      const f = stack[stack.length - 1];
      if (f.i < f.kids.length) {
        const c = f.kids[f.i++];
        if (f.kind === F_LB || f.kind === F_LIST) {
          // one element of a list, named on its own (referenced hidden
          // elements with their hidden content)
          const lb = f.kind === F_LB;
          // (a listbox's chosen options count though its popup is closed)
          const fl = lb ? (IN_LB | (hiddenRef(c) ? WITH_HIDDEN : 0)) : f.fl | (f.of !== null ? WITH_HIDDEN : 0);
          const t = stepOf(stack, c, fl, f.visited, false, memo);
          if (t === null) stack[stack.length - 1].pad = false;
          else if (t) f.out += (f.n++ ? ' ' : '') + t;
          continue;
        }
        if (c.nodeType === 3) { if (f.kind !== F_VIS) f.out += c.data; continue; }
        if (c.nodeType !== 1) continue;
        const t = stepOf(stack, c, f.fl, f.visited, false, memo);
        if (t === null) stack[stack.length - 1].pad = padOf(c);
        else f.out += padOf(c) ? ' ' + t + ' ' : t;
        continue;
      }
      stack.pop();
      let t = f.out;
      if (f.kind === F_CONTENT || f.kind === F_ROOT) t += pseudoOf(f.of, '::after', memo);
      if (stack.length === 0) return t;
      if (f.kind === F_CONTENT) {
        if (isBlankASCII(t) && !f.pres) { const ti = f.of.getAttribute('title'); if (ti && !isBlankASCII(ti)) t = ti; }
      } else if (f.kind === F_LB && isBlank(t)) {
        // nothing from aria-labelledby: the element's other sources
        const pad = f.pad;
        const r = stepOf(stack, f.of, f.fl & ~IN_LB, f.visited, true, memo);
        if (r === null) { stack[stack.length - 1].pad = pad; continue; }
        t = r;
      }
      const p = stack[stack.length - 1];
      if (p.kind === F_LB || p.kind === F_LIST) { if (t) p.out += (p.n++ ? ' ' : '') + t; } else p.out += f.pad ? ' ' + t + ' ' : t;
    }
  }

  // textContent is the text of el's content as a name takes it (a label's,
  // a legend's, a caption's): its descendants' text alternatives, CSS
  // generated content and embedded controls' values. includeHidden counts
  // hidden descendants (el is hidden itself); visited holds the elements
  // that count no more (the element being named).
  function textContent(el, includeHidden, visited) {
    const memo = new Map(), stack = [];
    pushContent(stack, el, includeHidden ? WITH_HIDDEN : 0, visited, F_ROOT, memo);
    return altRun(stack, memo);
  }

  // listText is the text of els named one by one and joined by spaces (the
  // elements aria-labelledby references, with lb; an element met inside a
  // name, without).
  function listText(els, lb, visited) {
    const memo = new Map();
    return altRun([{ of: null, kids: els, i: 0, out: '', fl: 0, visited, kind: lb ? F_LB : F_LIST, n: 0 }], memo);
  }

  // embeddedValue is what a control embedded in a name gives, or null.
  function embeddedValue(el, role) {
    const ev = embeddedOf(el, role);
    return ev === null || typeof ev === 'string' ? ev : listText(ev, false, new Set([el]));
  }

  function inputButtonName(el) {
    if (el.hasAttribute('value')) return el.value;
    if (el.type === 'submit') return 'Submit';
    if (el.type === 'reset') return 'Reset';
    return '';
  }

  // labelsText is the text of el's <label>s, each a hidden one's with its
  // hidden content.
  function labelsText(el) {
    // a label names el by its id (for=) or by holding it: most controls
    // have neither, and el.labels searches the document
    if (!el.id && !el.closest('label')) return '';
    const ls = el.labels;
    if (!ls || !ls.length) return '';
    const labels = Array.from(ls);
    const prev = naming;
    naming = el;
    try {
      const visited = new Set([el]);
      return labels.map((l) => nameNorm(textContent(l, hiddenRef(l), visited))).filter(Boolean).join(' ');
    } finally { naming = prev; }
  }

  // nameNorm normalizes a name: runs of whitespace other than U+00A0 become
  // one space, and the ends are trimmed (of U+00A0 too). attrNorm, for an
  // author's attribute (aria-label), keeps U+00A0 at the ends, as Chrome does.
  // (As norm, a lone space is left alone.)
  const NAME_WS = /[\x00-\x20\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]{2,}|(?! )[\x00-\x20\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;
  const NAME_NEEDS = /^\s|\s$|[\x00-\x1f]|[\x20\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]{2}/;
  function nameNorm(s) { return !s ? '' : NAME_NEEDS.test(s) ? s.replace(NAME_WS, ' ').trim() : s; }
  function attrNorm(s) { return !s ? '' : NAME_NEEDS.test(s) ? s.replace(NAME_WS, ' ').replace(/^ +| +$/g, '') : s; }

  // childTagged is el's first child element named tag (a walk of the
  // children, not a selector: ':scope > caption' walks a whole table).
  function childTagged(el, tag) {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === tag) return c;
    return null;
  }

  // accName computes el's accessible name (accname 1.2 with HTML-AAM's
  // host language rules) for role. content, when not null, is the text of
  // its subtree already gathered by the snapshot walk, exactly as
  // textContent would give it.
  function accName(el, role, content) {
    if (role === null) return '';
    const bare = !el.hasAttributes();
    if (bare && NAME_FROM_CONTENT.has(role) && content !== null && content !== undefined) return nameNorm(content) || pseudoName(el, role);
    return accNameOf(el, role, content, bare);
  }

  function accNameOf(el, role, content, bare) {
    if (!bare) {
      if (el.hasAttribute('aria-labelledby')) {
        const refs = byIdList(el, 'aria-labelledby');
        if (refs.length) {
          const prev = naming;
          naming = el;
          let s;
          try { s = nameNorm(listText(refs, true, new Set())); } finally { naming = prev; }
          if (s) return s;
        }
      }
      const al = el.getAttribute('aria-label');
      if (al && !isBlankASCII(al)) return attrNorm(al);
    }
    const tag = el.localName;
    const native = (child) => {
      const c = childTagged(el, child);
      return c ? nameNorm(textContent(c, hiddenRef(c), new Set([el]))) : '';
    };
    switch (tag) {
      case 'input': {
        const l = labelsText(el);
        if (l) return l;
        const t = el.type;
        if (t === 'submit' || t === 'reset' || t === 'button') { const v = nameNorm(inputButtonName(el)); if (v) return v; }
        else if (t === 'image') return nameNorm(hostText(el, false));
        break;
      }
      case 'button': case 'select': case 'textarea': case 'meter': case 'progress': case 'output': {
        const l = labelsText(el);
        if (l) return l;
        break;
      }
      case 'img': case 'area': {
        const a = el.getAttribute('alt');
        if (a && !isBlankASCII(a)) return nameNorm(a);
        break;
      }
      case 'fieldset': { const s = native('legend'); if (s) return s; break; }
      case 'figure': { const s = native('figcaption'); if (s) return s; break; }
      case 'table': {
        const s = native('caption');
        if (s) return s;
        const sum = nameNorm(el.getAttribute('summary'));
        if (sum) return sum;
        break;
      }
      case 'option': { const l = el.getAttribute('label'); if (l && !isBlankASCII(l)) return nameNorm(l); break; }
      case 'optgroup': { const s = nameNorm(el.getAttribute('label')); if (s) return s; break; }
      case 'svg': {
        const t = childTagged(el, 'title');
        if (t && nameNorm(t.textContent)) return nameNorm(t.textContent);
        break;
      }
    }
    // a form control has no content to name it (a checkbox drawn with
    // ::before included)
    if (NAME_FROM_CONTENT.has(role) && tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
      const s = nameNorm(content === null || content === undefined ? textContent(el, false, new Set([el])) : content) || pseudoName(el, role);
      if (s) return s;
    }
    const title = nameNorm(el.getAttribute('title'));
    if (title) return title;
    if (tag === 'input' || tag === 'textarea') {
      const ph = nameNorm(el.getAttribute('placeholder'));
      if (ph) return ph;
    }
    const aph = nameNorm(el.getAttribute('aria-placeholder'));
    if (aph) return aph;
    return '';
  }

  // pseudoName is the name CSS generated content gives an interactable
  // element whose content has no text, as Chrome computes it: the ::before
  // and ::after strings of the element and its visible descendants (not
  // under aria-hidden), a content's alt text (after "/") in its place.
  // Elements with text never ask, so the cost falls on icon-only controls.
  function pseudoName(el, role) {
    if (!INTERACTIVE.has(role) && role !== 'generic_clickable') return '';
    const tag = el.localName;
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return ''; // no name from content
    let out = contentText(el, '::before');
    const all = el.querySelectorAll('*');
    for (let k = 0; k < all.length && k < 32; k++) {
      const d = all[k];
      const h = d.closest('[aria-hidden="true"]');
      if ((h && el.contains(h)) || !d.checkVisibility()) continue;
      out += contentText(d, '::before') + contentText(d, '::after');
    }
    return norm(out + contentText(el, '::after'));
  }

  // contentText is the string of el's ::before or ::after content (its alt
  // text when it has one), '' for none, images and counters.
  const CONTENT_STR = /"((?:[^"\\]|\\.)*)"/g;
  function contentText(el, which) {
    const c = getComputedStyle(el, which).content;
    if (!c || c.charCodeAt(0) !== 34) return '';
    const alt = c.search(/"\s*\/\s*"/);
    const part = alt >= 0 ? c.slice(c.indexOf('"', alt + 1)) : c;
    let out = '';
    for (const m of part.matchAll(CONTENT_STR)) out += m[1].replace(/\\(.)/g, '$1');
    return out;
  }

  // ---- states ---------------------------------------------------------------
  function deepActive() {
    let a = document.activeElement;
    while (a) {
      if (a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a.localName === 'iframe') { try { const d = a.contentDocument; if (d && d.activeElement && d.activeElement !== d.body) { a = d.activeElement; continue; } } catch (e) { /* cross-origin */ } break; }
      else break;
    }
    return a;
  }

  function linkURL(el) {
    const href = el.getAttribute('href');
    if (href === null) return '';
    try {
      const u = new URL(el.href);
      if (u.origin === location.origin) return u.pathname + u.search + u.hash;
      return u.href;
    } catch (e) { return href; }
  }

  function statesOf(el, role, name, active) {
    const st = {};
    if (!el.hasAttributes() && (role === 'row' || role === 'cell' || role === 'columnheader' || role === 'rowheader' || role === 'listitem' || role === 'paragraph' || role === 'list' || role === 'table')) {
      if (el === active) st.focused = true;
      return st;
    }
    const aria = (k) => el.getAttribute(k);
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
      if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) st.checked = el.indeterminate ? 'mixed' : String(el.checked);
      else st.checked = aria('aria-checked') === 'true' ? 'true' : aria('aria-checked') === 'mixed' ? 'mixed' : 'false';
    }
    if ((typeof el.disabled === 'boolean' && el.matches(':disabled')) || aria('aria-disabled') === 'true') st.disabled = true;
    const ex = aria('aria-expanded');
    if (ex === 'true' || ex === 'false') st.expanded = ex;
    else if (el.localName === 'select' && role === 'combobox') st.expanded = 'false';
    if (role === 'option' || role === 'tab' || role === 'row' || role === 'gridcell' || role === 'treeitem' || role === 'cell') {
      if (aria('aria-selected') === 'true' || (el.localName === 'option' && el.selected)) st.selected = true;
    }
    const pr = aria('aria-pressed');
    if (pr === 'true' || pr === 'false' || pr === 'mixed') st.pressed = pr;
    if (role === 'heading') {
      const l = parseInt(aria('aria-level'), 10);
      st.level = l > 0 ? l : (/^h[1-6]$/.test(el.localName) ? parseInt(el.localName[1], 10) : 2);
    } else if (aria('aria-level')) {
      const l = parseInt(aria('aria-level'), 10);
      if (l > 0) st.level = l;
    }
    if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || role === 'combobox' || role === 'slider') {
      let v = '';
      if (el.localName === 'select') v = Array.from(el.selectedOptions || []).map((o) => o.label || o.text).join(', ');
      else if (el.localName === 'input' || el.localName === 'textarea') v = el.type === 'password' ? '' : el.value;
      else if (el.isContentEditable) v = el.innerText;
      else v = aria('aria-valuetext') || aria('aria-valuenow') || '';
      v = norm(v);
      if (v && v !== name) st.value = v;
      const ph = norm(el.getAttribute('placeholder') || aria('aria-placeholder'));
      if (ph && ph !== name) st.placeholder = ph; // kept when filled: "the \"What needs to be done?\" field" still names it
    }
    if (role === 'link') { const u = linkURL(el); if (u) st.url = u; }
    if (el === active) st.focused = true;
    return st;
  }

  function colorOf(el, cs) {
    cs = cs || getComputedStyle(el);
    const bg = cs.backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(\d+, \d+, \d+, 0\)/.test(bg)) return bg;
    return cs.color;
  }

  // ---- secondary evidence ---------------------------------------------------
  // An interactable element whose accessible name is empty or has no letter
  // or digit (an icon button, a checkbox whose label is a sibling) gets a
  // hint: what a person would know it by that is not its accessible name.
  // A hint is never a name (the snapshot's names stay what Chrome's
  // accessibility tree says). Its parts, most telling first, are joined by
  // " · ": the text next to an unlabelled form field, the aria-label or title
  // of a wrapper around the element alone, its own title, CSS generated
  // content and aria-hidden icon text, then one part of words: icon words
  // (data-icon, an SVG <use> fragment, icon classes, an icon file's name),
  // test ids and the words of its class and id. Generated names
  // (css-1x2y3z, sc-aBcD, jss12) and noise words (root, wrapper, btn, …) are
  // left out; no other data-* attribute is read. Only elements with a weak name
  // are asked, so named pages pay one test per interactable element.
  const HINT_FIELDS = new Set(['checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton']);
  const HINT_TEXT_MAX = 80, HINT_WORDS_MAX = 12, HINT_ICONS_MAX = 16, HINT_PARTS_MAX = 6;
  const HINT_STOP = new Set(('root container wrapper wrap base inner outer btn button icon icons ico svg img mui css jss sc ' +
    'private size small medium large sm md lg xs xl primary secondary default contained outlined filled text label input ' +
    'control component el is has js ui flex inline block hidden visible active focus focused hover checked selected disabled ' +
    'elevation paper ripple native fa fas far fal fab fad bi mdi material symbols glyphicon lucide feather heroicon ionicon ' +
    'octicon iconify solid regular light duotone switch checkbox radio select textbox textfield thumb track').split(' '));
  // CONTROL_SEL finds elements a person operates (a wrapper or a neighbour
  // holding one belongs to that control, not to ours).
  const CONTROL_SEL = 'a[href],button,input:not([type=hidden]),select,textarea,[contenteditable=""],[contenteditable=true],' +
    '[role=button],[role=checkbox],[role=switch],[role=radio],[role=textbox],[role=combobox],[role=link],[role=slider],' +
    '[role=spinbutton],[role=menuitem],[role=tab],[tabindex]:not([tabindex="-1"])';
  const HAS_WORD = /[\p{L}\p{N}]/u;
  const PRIVATE_USE = /[\ue000-\uf8ff\u{f0000}-\u{ffffd}\u{100000}-\u{10fffd}]/gu;

  // weakName says whether a name gives a reader no word: empty, or only
  // symbols ("×", "⋯", "+").
  function weakName(s) {
    if (s === '') return true;
    const c = s.charCodeAt(0) | 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return false;
    return !HAS_WORD.test(s);
  }

  // unreadName says whether the name of a checkbox, radio or switch input
  // is one nobody can read on screen: it comes from its <label>s and every
  // one of them draws its text at font-size 0 or clips it to a pixel (the
  // label draws an icon, "❯", and keeps the words for screen readers). A
  // person knows such a control as one with a weak name: by what is drawn
  // and the author's class and id words (its hint).
  function unreadName(el, role) {
    if (el.localName !== 'input' || (role !== 'checkbox' && role !== 'radio' && role !== 'switch')) return false;
    if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return false;
    const ls = el.labels;
    if (!ls || ls.length === 0) return false;
    for (const l of ls) {
      const cs = getComputedStyle(l);
      if (cs.fontSize === '0px') continue;
      const r = l.getBoundingClientRect();
      if (cs.overflow === 'hidden' && (r.width <= 1 || r.height <= 1)) continue;
      return false;
    }
    return true;
  }

  // generatedName says whether a class or id looks made by a build (CSS in
  // JS hashes, scoped styles) rather than by a person.
  function generatedName(v) {
    return isRandom(v) || /^(css|sc|jss|emotion|styled|svelte|astro|makeStyles)[-_]/i.test(v) || /^jss\d/i.test(v) ||
      /[a-z][A-Z][a-z][A-Z]/.test(v);
  }

  // addWords adds the words of v (kebab, snake and camelCase split, lower
  // case) to out, leaving out noise words, numbers and duplicates.
  function addWords(v, out) {
    if (!v || out.length >= HINT_WORDS_MAX) return;
    const s = v.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
    for (const w of s.split(/[^\p{L}\p{N}]+/u)) {
      const lw = w.toLowerCase();
      if ((lw.length < 2 && lw !== 'x') || HINT_STOP.has(lw) || /^\d+$/.test(lw) || out.includes(lw)) continue;
      out.push(lw);
      if (out.length >= HINT_WORDS_MAX) return;
    }
  }

  function classWords(el, out) {
    const id = el.getAttribute('id');
    if (id && !generatedName(id)) addWords(id, out);
    const cl = el.getAttribute('class');
    if (cl) for (const c of cl.trim().split(/\s+/)) if (c && !generatedName(c)) addWords(c, out);
  }

  // pseudoText is the text of el's ::before and ::after content, icon-font
  // glyphs (private use characters) left out.
  function pseudoText(el, push) {
    push(contentText(el, '::before').replace(PRIVATE_USE, ''));
    push(contentText(el, '::after').replace(PRIVATE_USE, ''));
  }

  // iconEvidence gathers what the icons inside el say.
  function iconEvidence(el, out, push) {
    pseudoText(el, push);
    const icons = (el.shadowRoot || el).querySelectorAll('svg,use,i,img,span,[data-icon]');
    for (let k = 0; k < icons.length && k < HINT_ICONS_MAX; k++) {
      const d = icons[k], tag = d.localName;
      addWords(d.getAttribute('data-icon'), out);
      if (tag === 'use') {
        const href = d.getAttribute('href') || d.getAttribute('xlink:href') || '';
        addWords(href.slice(href.indexOf('#') + 1), out);
      } else if (tag === 'img' && !d.getAttribute('alt')) {
        const src = (d.getAttribute('src') || '').split(/[?#]/)[0];
        if (!src.startsWith('data:')) addWords(src.slice(src.lastIndexOf('/') + 1).replace(/\.\w+$/, ''), out);
      }
      const textless = isBlank(d.textContent);
      if (tag === 'svg' || tag === 'use' || tag === 'i' || (tag === 'span' && textless)) classWords(d, out);
      if (d.getAttribute('aria-hidden') === 'true' && !textless) { const t = norm(d.textContent); if (t.length <= 40) push(t); }
      if ((tag === 'i' || tag === 'span') && textless) pseudoText(d, push);
    }
  }

  // alone says whether el is the only control inside p.
  function alone(el, p) {
    for (const c of p.querySelectorAll(CONTROL_SEL)) if (c !== el && !el.contains(c)) return false;
    return true;
  }

  // wrapperEvidence reads the aria-label, aria-labelledby and title of the
  // role-less wrappers around el alone (component libraries put them there).
  function wrapperEvidence(el, push) {
    let cur = el;
    for (let depth = 0; depth < 3; depth++) {
      const p = cur.parentElement;
      if (!p) return;
      const r = roleOf(p);
      if ((r && !PASS_THROUGH.has(r)) || !alone(el, p)) return;
      if (p.hasAttributes()) {
        push(p.getAttribute('aria-label'));
        if (p.hasAttribute('aria-labelledby')) push(byIdList(p, 'aria-labelledby').map((l) => textContent(l, true, new Set())).join(' '));
        push(p.getAttribute('title'));
      }
      cur = p;
    }
  }

  // nearbyText is the text next to an unlabelled form field: a sibling
  // <label> not tied to another control, or the adjacent text (after a
  // checkbox, radio or switch first; before other fields first), looked for
  // around el and around the role-less wrappers that hold el alone.
  function nearbyText(el, role) {
    const after = role === 'checkbox' || role === 'radio' || role === 'switch';
    let cur = el;
    for (let depth = 0; depth < 4; depth++) {
      for (const next of after ? [true, false] : [false, true]) {
        let s = next ? cur.nextElementSibling : cur.previousElementSibling;
        for (let k = 0; s && k < 2; k++, s = next ? s.nextElementSibling : s.previousElementSibling) {
          if (SKIP_TAGS.has(s.localName) || !s.checkVisibility()) continue;
          if (s.matches(CONTROL_SEL) || s.querySelector(CONTROL_SEL)) break;
          if (s.localName === 'label' && s.control && s.control !== el) break;
          const t = norm(s.textContent);
          if (!t) continue;
          return t.length <= HINT_TEXT_MAX ? t : '';
        }
      }
      const p = cur.parentElement;
      if (!p) return '';
      const r = roleOf(p);
      if ((r && !PASS_THROUGH.has(r)) || !alone(el, p)) return '';
      cur = p;
    }
    return '';
  }

  // hintOf is el's secondary evidence (see above), or ''.
  function hintOf(el, role, name) {
    const parts = [];
    const push = (s) => {
      s = norm(s);
      if (!s || s === name || s.length > HINT_TEXT_MAX || parts.length >= HINT_PARTS_MAX || parts.includes(s)) return;
      parts.push(s);
    };
    if (HINT_FIELDS.has(role)) push(nearbyText(el, role));
    wrapperEvidence(el, push);
    push(el.getAttribute('title'));
    const words = [];
    iconEvidence(el, words, push);
    addWords(el.getAttribute('data-icon'), words);
    for (const a of TEST_ATTRS) addWords(el.getAttribute(a), words);
    classWords(el, words);
    if (words.length) push(words.join(' '));
    return parts.join(' · ');
  }

  // ---- class words of text and boxes; file inputs -----------------------------
  // A run of text owned by a role-less element carries that element's class
  // and id words as its hint (textHint: generated names and noise words left
  // out, at most TEXT_HINT_WORDS), and "status" or "alert" when it or one of
  // its two nearest ancestors is a polite or assertive aria-live region: a
  // person knows a status line classed "s-msg" by them. A role-less element
  // laid out over the page (position fixed or absolute) whose class or id
  // words say modal, dialog, overlay, popup, popover, lightbox, menu or dropdown, and that
  // holds text, is a box: a line of its own (role "generic", never
  // interactable, no name) with those words as its hint. A file input is
  // marked file and always carries a hint (fileHint: the text beside it, a
  // wrapper's label, its title, class words); one that is not rendered
  // (display: none) is stood for by its visible label or the nearest of its
  // three nearest ancestors that is visible and holds no other control,
  // which is marked file with a hint of its own (its text too), and, when it
  // has no role, gets a line like a box's.
  const TEXT_HINT_WORDS = 6;
  const BOX_PREFILTER = /modal|dialog|overlay|popup|popover|lightbox|menu|dropdown/i;
  const BOX_WORDS = new Set(['modal', 'dialog', 'overlay', 'popup', 'popover', 'lightbox', 'menu', 'dropdown']);

  function textHint(el) {
    const words = [];
    for (let e = el, k = 0; e && k < 3; e = e.parentElement, k++) {
      if (!e.hasAttributes()) continue;
      const live = e.getAttribute('aria-live');
      if (live === 'polite') { words.push('status'); break; }
      if (live === 'assertive') { words.push('alert'); break; }
    }
    if (el.hasAttributes()) classWords(el, words);
    return words.slice(0, TEXT_HINT_WORDS).join(' ');
  }

  // boxWords are the class and id words of a box (see above), or ''.
  function boxWords(el, cs) {
    if (cs.position !== 'fixed' && cs.position !== 'absolute') return '';
    const cl = (el.getAttribute('class') || '') + ' ' + (el.getAttribute('id') || '');
    if (!BOX_PREFILTER.test(cl)) return '';
    const words = [];
    classWords(el, words);
    if (!words.some((w) => BOX_WORDS.has(w)) || isBlank(el.textContent)) return '';
    return words.slice(0, TEXT_HINT_WORDS).join(' ');
  }

  // fileStandIns maps the elements that stand for a file input that is not
  // rendered to it (see above); null when the document has none.
  function fileStandIns() {
    // (the document's live list of inputs, not a selector walk of it all)
    const all = document.getElementsByTagName('input');
    let out = null;
    for (let i = 0; i < all.length; i++) {
      const inp = all[i];
      if (inp.type !== 'file') continue;
      if (inp.checkVisibility({ visibilityProperty: true })) continue; // it has a line of its own
      let s = null;
      const lab = inp.labels && inp.labels[0];
      if (lab && lab.checkVisibility({ visibilityProperty: true })) s = lab;
      else {
        for (let p = inp.parentElement, k = 0; p && k < 3; p = p.parentElement, k++) {
          if (!alone(inp, p)) break;
          if (p.checkVisibility({ visibilityProperty: true }) && p.getBoundingClientRect().width > 1) { s = p; break; }
        }
      }
      if (s) { if (!out) out = new Map(); out.set(s, inp); }
    }
    return out;
  }

  // fileHint is the hint of a file input or of an element standing for one.
  function fileHint(el, name) {
    const parts = [];
    const push = (s) => {
      s = norm(s);
      if (!s || s === name || s.length > HINT_TEXT_MAX || parts.length >= HINT_PARTS_MAX || parts.includes(s)) return;
      parts.push(s);
    };
    push(nearbyText(el, 'textbox'));
    wrapperEvidence(el, push);
    push(el.getAttribute('title'));
    if (el.localName !== 'input') { const t = norm(el.textContent); if (t.length <= 40) push(t); }
    const words = [];
    classWords(el, words);
    if (words.length) push(words.join(' '));
    return parts.join(' · ');
  }

  // ---- refs -----------------------------------------------------------------
  // Each element remembers its ref under a symbol; the ref→element map holds
  // strong references and drops elements that left the document.
  const REF = Symbol('e2eRef');
  const refs = { seq: 0, byRef: new Map(), lastPrune: 0 };
  refs.byEl = { get: (el) => el[REF], set: (el, v) => { el[REF] = v; } };

  function refFor(el, role, name) {
    const rec = el[REF];
    if (rec && rec.role === role && rec.name === name) return rec.ref;
    const ref = 'e' + (++refs.seq);
    el[REF] = { ref, role, name };
    refs.byRef.set(ref, el);
    return ref;
  }

  // A text run's ref is the ref of its owner, the deepest element that holds
  // the whole run: the owner's own ref when it has a role (a line of its
  // own), else a text ref kept on the element under its own symbol, stable
  // for as long as the element lives, whatever its text says.
  const TREF = Symbol('e2eTextRef');
  function textRefFor(el) {
    let ref = el[TREF];
    if (!ref) { ref = 'e' + (++refs.seq); el[TREF] = ref; }
    if (refs.byRef.get(ref) !== el) refs.byRef.set(ref, el);
    return ref;
  }

  function resolve(ref) {
    return refs.byRef.get(ref) || null;
  }

  // scopeMissing says why ref names no element: it was never handed out on
  // this page (refs are e1 up to the last one issued), or it was and its
  // element has gone.
  function scopeMissing(ref) {
    const m = /^e([1-9][0-9]*)$/.exec(ref);
    if (!m || Number(m[1]) > refs.seq) {
      const upTo = refs.seq > 0 ? 'refs go up to e' + refs.seq : 'it has no refs yet';
      return 'no element ' + ref + " in this page's outline (" + upTo + ')';
    }
    return 'ref ' + ref + ' is not on the page any more; take a new snapshot';
  }

  function pruneRefs() {
    if (refs.byRef.size < 2 * refs.lastPrune + 1000) return;
    for (const [k, el] of refs.byRef) {
      const rec = el[REF];
      if (!el.isConnected || ((!rec || rec.ref !== k) && el[TREF] !== k)) refs.byRef.delete(k);
    }
    refs.lastPrune = refs.byRef.size;
  }

  // frameOffset is the position of el's frame viewport in the top viewport.
  function frameOffset(el) {
    let x = 0, y = 0;
    let win = el.ownerDocument.defaultView;
    while (win && win !== window.top && win.frameElement) {
      const f = win.frameElement, r = f.getBoundingClientRect();
      x += r.left + f.clientLeft; y += r.top + f.clientTop;
      win = f.ownerDocument.defaultView;
    }
    return { x, y };
  }

  function boxOf(el, off) {
    const r = el.getBoundingClientRect();
    const q = (v) => Math.round(v * 10) / 10;
    return { x: q(r.left + off.x), y: q(r.top + off.y), w: q(r.width), h: q(r.height) };
  }

  // ---- text caps ------------------------------------------------------------
  // A snapshot's text is bounded: every name, text run, value, placeholder
  // and URL is cut to a per-field limit, and the whole snapshot to a text
  // budget, past which fields are cut shorter or to nothing. A cut string
  // ends in "… N more characters", N counting the characters (code points)
  // left out. Limits count UTF-16 code units, as JavaScript strings do. A
  // cut never splits a surrogate pair and ends on a space when one is near,
  // so that what is kept is whole words of the original.
  const DEFAULT_MAX_TEXT = 4096;
  const CUT_WORD_BACK = 32;
  const CUT_MARK = /… (\d+) more characters$/;

  // codePointsFrom counts the code points of s from index from on.
  function codePointsFrom(s, from) {
    let n = s.length - from;
    for (let i = from; i < s.length - 1; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) { const d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; } }
    }
    return n;
  }

  // cutHead is the head of s kept when s is cut to at most limit code units.
  function cutHead(s, limit) {
    let end = limit > 0 ? limit : 0;
    if (end > 0) { const c = s.charCodeAt(end - 1); if (c >= 0xd800 && c <= 0xdbff) end--; }
    if (end > 0) { const sp = s.lastIndexOf(' ', end); if (sp >= 0 && end - sp <= CUT_WORD_BACK) end = sp; }
    return s.slice(0, end).trimEnd();
  }

  const cutMark = (head, n) => head + '… ' + n + ' more characters';

  // cutText returns s when it has at most limit code units, else its head
  // followed by the marker.
  function cutText(s, limit) {
    if (s.length <= limit) return s;
    const head = cutHead(s, limit);
    return cutMark(head, codePointsFrom(s, head.length));
  }

  // cutStates cuts the text-valued states of st to limit; it says whether
  // any was cut.
  function cutStates(st, limit) {
    let cut = false;
    if (st.value && st.value.length > limit) { st.value = cutText(st.value, limit); cut = true; }
    if (st.placeholder && st.placeholder.length > limit) { st.placeholder = cutText(st.placeholder, limit); cut = true; }
    if (st.url && st.url.length > limit) { st.url = cutText(st.url, limit); cut = true; }
    if (st.hint && st.hint.length > limit) { st.hint = cutText(st.hint, limit); cut = true; }
    return cut;
  }

  // ---- snapshot -------------------------------------------------------------
  // One pass over the DOM writes the snapshot straight into its line format
  // (see encode below); children come before their parent's name, so a
  // node's name from content is the text its visible subtree contributed on
  // the way up and no subtree is walked twice. A node's line is reserved
  // before its children and filled in after them. The pass keeps its own
  // stack of elements, so that no depth of nesting overflows the call stack.
  //
  // Line format (fields split by TAB, states by \x1f):
  //   depth, role, name-or-text, ref, states (k=v…), box (x,y,w,h), color, more
  // The first line is a JSON header. The state cu says that a field of the
  // line was cut by the text caps.
  const STATE_ABBR = { checked: 'ck', disabled: 'ds', expanded: 'ex', selected: 'sl', pressed: 'pr', level: 'lv',
    value: 'va', placeholder: 'ph', url: 'ur', focused: 'fo', interactive: 'in', cut: 'cu', hint: 'hi', hover: 'hv', file: 'fi', clickable: 'cl', looks: 'lk' };
  const TABLIKE = /[\t\n\r\x1f]/g;

  function statesField(st) {
    let out = '';
    for (const k in st) {
      const v = st[k];
      if (v === false || v === '' || v === 0 || v === undefined) continue;
      const a = STATE_ABBR[k];
      if (!a) continue;
      out += (out ? '\x1f' : '') + (v === true ? a : a + '=' + (k === 'url' ? String(v).replace(TABLIKE, ' ') : v));
    }
    return out;
  }

  function boxField(el, off) {
    const r = el.getBoundingClientRect();
    const q = (v) => Math.round(v * 10) / 10;
    return q(r.left + off.x) + ',' + q(r.top + off.y) + ',' + q(r.width) + ',' + q(r.height);
  }

  // Kinds of walk frames: the root's children, an element without a role
  // (its children join its parent), an element with a role (its own line).
  const F_TOP = 0, F_PLAIN = 1, F_ROLE = 2;

  // ---- repeated items ------------------------------------------------------
  // Lists, tables and card grids built of role-less elements (<div
  // class="row">, a custom element host per entry) have no container in the
  // accessibility tree. The snapshot gives such an element a line of its own,
  // role "item", no name and no states, when it is evidently one of a run of
  // entries: its parent has at least two element children of its shape (tag
  // and class list, state classes left out; a custom element by its name),
  // the element is laid out as a box (not inline, not display: contents), it
  // holds two controls, or one and text, or a field (its value is text: an
  // entry edited in place is still an entry); a wrapper around one icon
  // button, a bar of clickable words, a paragraph and most cells of a row
  // are not items. It holds no item of its own at the next level (a column
  // of cards is not an item, its cards are). It is never interactive.
  const STATE_CLASS = /^(?:is|has|Mui)-|^(?:active|checked|completed|complete|current|disabled|done|editing|even|expanded|collapsed|first|focused|hover|last|odd|on|off|open|selected|highlighted)$/;
  const CLASS_SEP = /\s+/;
  function shapeOf(e) {
    const name = e.localName;
    if (name.indexOf('-') > 0) return name;
    const cn = e.getAttribute('class');
    if (!cn) return name;
    let k = name;
    for (const c of cn.split(CLASS_SEP)) if (c && !STATE_CLASS.test(c)) k += '.' + c;
    return k;
  }
  // shapeCounts are the shape counts of parent's element children; memo
  // keeps each parent's counts, shapes each child's shape, for one snapshot.
  function shapeCounts(parent, memo, shapes) {
    let counts = memo.get(parent);
    if (!counts) {
      counts = new Map();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        if (SKIP_TAGS.has(c.localName)) continue;
        const k = shapeOf(c);
        shapes.set(c, k);
        counts.set(k, (counts.get(k) || 0) + 1);
      }
      memo.set(parent, counts);
    }
    return counts;
  }
  // repeated says el's parent node has another element child of its shape,
  // or el is the lone entry of a collection like a cousin's (see lone).
  function repeated(el, memo, shapes) {
    const parent = el.parentNode;
    if (!parent || parent.nodeType === 9) return false;
    if (parent.childElementCount >= 2 && (shapeCounts(parent, memo, shapes).get(shapes.get(el)) || 0) >= 2) return true;
    return lone(el, parent, memo, shapes);
  }
  // lone says el, the only child of its shape, is still one entry of a
  // collection: its parent p has a cousin of p's shape that holds two or
  // more elements of el's shape, a sibling of p or the same child of a
  // sibling of p's parent that has the parent's shape (the one card left in
  // a section's grid, when the next section's grid holds cards like it).
  // At most eight such siblings are looked at.
  function lone(el, p, memo, shapes) {
    const a = p.parentNode;
    if (p.nodeType !== 1 || !a || a.nodeType === 9) return false;
    const s = shapes.get(el) || shapeOf(el);
    const sp = shapes.get(p) || (shapeCounts(a, memo, shapes), shapes.get(p));
    const holds = (q) => (shapeCounts(q, memo, shapes).get(s) || 0) >= 2;
    let n = 0;
    if ((shapeCounts(a, memo, shapes).get(sp) || 0) >= 2) {
      for (let q = a.firstElementChild; q && n < 8; q = q.nextElementSibling) {
        if (q === p || shapes.get(q) !== sp) continue;
        n++;
        if (holds(q)) return true;
      }
    }
    const g = a.parentNode;
    if (a.nodeType !== 1 || !g || g.nodeType === 9) return false;
    const gc = shapeCounts(g, memo, shapes), sa = shapes.get(a);
    if ((gc.get(sa) || 0) < 2) return false;
    n = 0;
    for (let b = g.firstElementChild; b && n < 8; b = b.nextElementSibling) {
      if (b === a || shapes.get(b) !== sa) continue;
      n++;
      if (!shapeCounts(b, memo, shapes).get(sp)) continue;
      for (let q = b.firstElementChild; q; q = q.nextElementSibling) if (shapes.get(q) === sp && holds(q)) return true;
    }
    return false;
  }

  // modalOf is the open modal <dialog> of the document, or null: while one
  // is open the rest of the page is inert and out of the accessibility tree.
  const dialogs = document.getElementsByTagName('dialog');
  function modalOf() {
    for (let i = 0; i < dialogs.length; i++) {
      const d = dialogs[i];
      try { if (d.open && d.matches(':modal')) return d; } catch (e) { return null; }
    }
    return null;
  }

  function snapshotText(opts) {
    opts = opts || {};
    const max = opts.maxNodes > 0 ? opts.maxNodes : Infinity;
    const fieldCap = opts.maxText > 0 ? opts.maxText : Infinity;
    const budget = opts.maxTotalText > 0 ? opts.maxTotalText : Infinity;
    let shown = 0, more = 0, rootMore = 0;
    let textTotal = 0; // code units of the text written so far (an over-estimate: markers count)
    const active = deepActive();
    const hoverMemo = new Map(); // root -> its hover reveal rules, read once a snapshot
    const shapeMemo = new Map(), shapes = new Map(); // parent node -> its children's shape counts; child -> shape
    const fileStands = fileStandIns(); // element -> the hidden file input it stands for
    // While a modal dialog is open, only it and the elements on the way to it
    // are walked (a frame's inm says it is the dialog or inside it). A scoped
    // snapshot walks its scope as asked.
    const modal = opts.scope ? null : modalOf();
    let modalPath = null;
    if (modal) {
      modalPath = new Set();
      for (let e = modal.parentNode; e; e = e.parentNode || e.host) if (e.nodeType === 1) modalPath.add(e);
    }
    pruneRefs();
    // lines holds node lines (strings), text runs ({d, t}) and removed slots (null).
    const lines = [];
    const mores = new Map(); // line index -> nodes the cap left out under it

    function countRest(node) {
      let n = 0;
      const stack = [node];
      while (stack.length) {
        const e = stack.pop();
        if (e.nodeType !== 1 || SKIP_TAGS.has(e.localName) || hiddenSelf(e)) continue;
        const r = roleOf(e);
        if (r && !PASS_THROUGH.has(r)) n++;
        for (const c of childNodesOf(e)) stack.push(c);
      }
      return n;
    }

    // pushText adds a text run at depth d, joining the run just before it
    // unless a block boundary lies between them (blk counts the boundaries
    // passed). A run remembers its owner, the deepest element that holds all
    // of it: the element of the outermost frame walked since the run began
    // (lowSp, lowered as frames end).
    let blk = 0, lowSp = 0;
    function pushText(d, text) {
      const t = norm(text);
      if (!t) return;
      const last = lines[lines.length - 1];
      if (last && typeof last === 'object' && last.d === d && last.b === blk) {
        last.t += ' ' + t;
        if (lowSp < last.lo) { const o = frames[lowSp]; last.lo = lowSp; last.el = o.el; last.k = o.kind; last.off = o.off; last.c = o.contents; }
      } else {
        const o = frames[sp];
        lowSp = sp;
        lines.push({ d, t, b: blk, lo: sp, el: o.el, k: o.kind, off: o.off, c: o.contents });
        shown++;
      }
    }

    // runLine is the line of text run l: its owner's ref follows the text
    // (none for the body of a frame), and its box when boxes are asked for
    // (measuring forces layout, which a page may have spared itself). An
    // owner without a box of its own (display: contents, a slot) gives way
    // to the nearest ancestor with one.
    function runLine(l, t, st) {
      let el = l.el, ref = '';
      if (l.k === F_ROLE) {
        const rec = el.localName === 'iframe' ? null : el[REF];
        if (rec) ref = rec.ref;
        // a repeated element that was no item after all, in an item (a
        // cell of a role-less row: see finishItem), owns its text as a
        // plain element does
        else if (el.localName !== 'iframe' && inItem(el)) ref = textRefFor(el);
      } else {
        if (l.c) {
          let up = el;
          while (up && up.nodeType === 1 && getComputedStyle(up).display === 'contents') up = up.parentElement || (up.parentNode && up.parentNode.host) || null;
          if (up && up.nodeType === 1) el = up;
        }
        const rec = el !== l.el ? el[REF] : null, r = rec ? roleOf(el) : null;
        ref = r && !PASS_THROUGH.has(r) ? rec.ref : textRefFor(el);
        if (l.k === F_PLAIN) {
          const hi = textHint(el);
          if (hi && hi.length <= fieldCap) { st = st ? st + '\x1fhi=' + hi : 'hi=' + hi; textTotal += hi.length; }
        }
      }
      const box = ref && (opts.boxes || opts.textBoxes) ? boxField(el, l.off) : '';
      l.el = null; l.off = null;
      return l.d + '\ttext\t' + t + (box ? '\t' + ref + '\t' + st + '\t' + box : ref ? '\t' + ref + (st ? '\t' + st : '') : st ? '\t\t' + st : '');
    }

    // inItem says the nearest ancestor of el with a line is an item.
    function inItem(el) {
      for (let a = el.parentElement || (el.parentNode && el.parentNode.host) || null; a; a = a.parentElement || (a.parentNode && a.parentNode.host) || null) {
        const rec = a[REF];
        if (rec) return rec.role === 'item';
      }
      return false;
    }

    let capped = false;
    let textNeed = 0;

    // frames[0..sp] are the elements whose children are being walked, the
    // innermost last. A frame walks the children of its parent node (the
    // element itself, or an iframe's body), at depth d, under line pidx;
    // acc gathers the text they contribute when an ancestor's name needs it
    // (gather). Frame objects are reused.
    const frames = [];
    let sp = -1;
    function push(kind, el, parent, d, off, skipText, pidx) {
      let f = frames[++sp];
      if (!f) {
        f = { kind: 0, el: null, kids: null, i: 0, next: null, d: 0, off: null, skipText: false, pidx: -1, gather: false, acc: '',
          block: false, pad: false, dirty0: 0, named: null, proot: null, doc: null, contents: false, role: null, outRole: null, box: '', idx: 0, wasCapped: false, dec: false, saved: -1, cs: null, hv: false, hvRoot: false, shut: false, inm: false, ctl0: 0, field0: 0, up: -1, ptr: false, clk: false, looks: '' };
        frames[sp] = f;
      }
      f.kind = kind; f.el = el; f.d = d; f.off = off; f.skipText = skipText; f.pidx = pidx; f.acc = ''; f.i = 0;
      f.saved = -1; f.dec = false; f.named = null; f.contents = false; f.hvRoot = false; f.ptr = false; f.clk = false; f.looks = ''; f.shut = false;
      f.hv = sp > 0 && frames[sp - 1].hv;
      f.inm = modal !== null && (el === modal || (sp > 0 && frames[sp - 1].inm));
      if (parent === null) { f.kids = null; f.next = null; } else if (parent.shadowRoot || parent.localName === 'slot') { f.kids = childNodesOf(parent); f.next = null; } else { f.kids = null; f.next = parent.firstChild; }
      f.gather = textNeed > 0;
      // the generated-content rules of the root the children live in: a
      // shadow root's, a frame's document's, else the parent frame's (a
      // slot's assigned nodes are looked up one by one)
      // (read when first needed: proot is the root, pidx its rules once read)
      if (parent === null) { f.proot = null; f.doc = null; }
      else {
        f.doc = parent.ownerDocument;
        if (parent.shadowRoot) f.proot = parent.shadowRoot;
        else if (parent.localName === 'slot') f.proot = undefined;
        else if (sp === 0 || f.doc !== frames[sp - 1].doc) f.proot = rootOf(parent);
        else f.proot = frames[sp - 1].proot;
      }
      return f;
    }

    // ptrOf says the element of frame f has a pointer cursor, read once,
    // when a child asks (an iframe's body does not inherit it).
    function ptrOf(f) {
      if (f.ptr === null) f.ptr = f.kind !== F_TOP && f.el !== null && f.el.nodeType === 1 && f.el.localName !== 'iframe' && (f.cs || getComputedStyle(f.el)).cursor === 'pointer';
      return f.ptr;
    }

    // enter starts on element el: it returns what el contributes to its
    // parent's text when that is known at once, or null after pushing a
    // frame for it.
    function enter(el, d, off, skipText, parentIdx, parentHv) {
      if (SKIP_TAGS.has(el.localName) || hiddenSelf(el)) return '';
      // inert content and what a closed <details> hides (all but its
      // summary) are out of the accessibility tree, and out of reach
      if (el.inert) return '';
      if (sp >= 0 && frames[sp].shut && (el.localName !== 'summary' || frames[sp].el.querySelector(':scope > summary') !== el)) return '';
      if (modal !== null && el !== modal && !frames[sp].inm && !modalPath.has(el)) return '';
      const cs = getComputedStyle(el);
      const display = cs.display;
      // hvRoot: el is not shown, but hovering a container would show it
      let hvRoot = false;
      if (display === 'none') {
        if (parentHv || !hoverReveals(el, true, hoverMemo)) return '';
        hvRoot = true;
      }
      const block = display !== 'contents' && !display.startsWith('inline');
      let visible = cs.visibility === 'visible' && !(el.localName === 'input' && el.type === 'hidden');
      if (!visible && !parentHv && el.localName !== 'input' && cs.visibility === 'hidden' && hoverReveals(el, false, hoverMemo)) hvRoot = true;
      if (parentHv || hvRoot) visible = visible || cs.visibility === 'hidden';
      let role = visible ? roleOf(el) : null;
      if (role && PASS_THROUGH.has(role)) role = null;
      // ptr: el's cursor is a pointer (read for role-less elements only,
      // and for a parent when a child asks, see ptrOf); clk: el is a
      // role-less clickable (see clickRoot), or inside one and drawn as a
      // control (looksOf)
      const up = frames[sp];
      let clk = false, looks = '', ptr = false, known = false;
      // the way to an open modal dialog is inert too: its children join
      let box = '';
      if (modal !== null && el !== modal && !frames[sp].inm) role = null;
      else if (!role && visible && !hvRoot && !parentHv &&
          ((fileStands !== null && fileStands.has(el)) || (el.hasAttributes() && (box = boxWords(el, cs)) !== ''))) {
        role = box ? 'generic_box' : 'generic_file';
        blk++;
      } else if (!role && visible) {
        ptr = cs.cursor === 'pointer'; known = true;
        if (clickRoot(el, ptr, ptr && ptrOf(up))) clk = true;
        else if (ptr && up.clk && (looks = looksOf(el, cs))) clk = true;
        if (!hvRoot && !parentHv && display !== 'inline' && display !== 'contents' && repeated(el, shapeMemo, shapes)) {
          role = 'item';
          blk++;
        } else if (clk) {
          role = 'generic_pointer';
        }
      }
      // a role-less element an author named (or a row group, term,
      // definition or math, which pass through unnamed) has a line of its
      // own, except inside a control named from its content
      if (!role && visible && !hvRoot && !parentHv && el.hasAttributes() && (modal === null || el === modal || frames[sp].inm)) {
        const nr = namedRole(el);
        if (nr && !inLeafControl()) role = nr;
      }
      // the name machine (textContent) gives the text of a subtree the walk
      // cannot gather exactly: CSS generated content, aria-labelledby and
      // aria-owns inside it, visibility: hidden around visible content
      // a scoped walk's first element has no parent frame: its own root's rules
      const upRoot = up ? up.proot : rootOf(el);
      let own = 0;
      if ((textNeed > 0 || (role !== null && NAME_FROM_CONTENT.has(role) && el.localName !== 'input')) &&
          (!visible || (el.hasAttributes() && (el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-owns'))) || (upRoot !== null && (upRoot === undefined ? mayPseudo(el, pseudoMemo) : pseudoAt(el, upRoot))))) {
        dirtySeq++;
        own = 1;
      }
      const pad = (display !== 'inline' && display !== 'contents') || el.localName === 'br';
      if (!role) {
        if (block || el.localName === 'br') blk++;
        const pf = push(F_PLAIN, el, el, d, off, !visible, parentIdx);
        pf.block = block; pf.pad = pad; pf.contents = display === 'contents';
        if (el.localName === 'details' && !el.open) { pf.skipText = true; pf.shut = true; }
        pf.ptr = known ? ptr : null; pf.clk = ptr && up.clk;
        if (hvRoot) { pf.hv = true; pf.hvRoot = true; }
        return null;
      }
      const idx = lines.length;
      lines.push('');
      shown++;
      const wasCapped = capped;
      capped = false;
      let f;
      if (el.localName === 'iframe') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.body) {
          const r = el.getBoundingClientRect();
          const inner = { x: off.x + r.left + el.clientLeft, y: off.y + r.top + el.clientTop };
          const saved = textNeed;
          textNeed = 0;
          f = push(F_ROLE, el, doc.body, d + 1, inner, false, idx);
          f.saved = saved;
        } else {
          f = push(F_ROLE, el, null, d + 1, off, false, idx);
        }
      } else if (el.localName === 'select') {
        // the options of a closed <select> are listed so a reader sees the choices
        for (const o of el.options) {
          if (shown >= max) { more++; mores.set(idx, (mores.get(idx) || 0) + 1); continue; }
          const full = o.hasAttributes() ? accName(o, 'option', o.text) : nameNorm(o.text);
          const on = full.length > fieldCap ? cutText(full, fieldCap) : full;
          textTotal += on.length;
          const st = 'in' + (o.selected ? '\x1fsl' : '') + (o.disabled ? '\x1fds' : '') + (on !== full ? '\x1fcu' : '');
          lines.push((d + 1) + '\toption\t' + on + '\t' + refFor(o, 'option', on) + '\t' + st);
          shown++;
        }
        f = push(F_ROLE, el, null, d + 1, off, false, idx);
      } else if (el.localName !== 'textarea') {
        const nfc = NAME_FROM_CONTENT.has(role);
        if (nfc) textNeed++;
        f = push(F_ROLE, el, el, d + 1, off, false, idx);
        f.dec = nfc;
      } else {
        f = push(F_ROLE, el, null, d + 1, off, false, idx);
      }
      f.block = block; f.pad = pad; f.dirty0 = dirtySeq - own; f.role = role; f.idx = idx; f.wasCapped = wasCapped; f.cs = cs; f.ctl0 = ctlSeq; f.field0 = fieldSeq; f.up = parentIdx;
      f.box = box;
      // a closed <details>: only its summary is walked (see enter)
      if (el.localName === 'details' && !el.open) { f.skipText = true; f.shut = true; }
      if (el.localName !== 'iframe') { f.ptr = known ? ptr : null; f.clk = clk || role === 'generic_clickable'; f.looks = looks; }
      if (hvRoot) { f.hv = true; f.hvRoot = true; }
      return null;
    }

    // finish completes the element of frame f once its children are done
    // and returns what it contributes to its parent's text.
    function finish(f) {
      if (f.kind === F_TOP) return '';
      const el = f.el;
      if (f.kind === F_PLAIN) {
        if (f.block) blk++;
        if (textNeed === 0 || f.hvRoot) return '';
        // as stepOf names a role-less element met inside a name
        const al = el.hasAttributes() && el.localName !== 'slot' ? el.getAttribute('aria-label') : null;
        let t = al && !isBlankASCII(al) ? al : f.acc;
        if (t !== al && isBlankASCII(t) && el.hasAttributes() && !presentational(el)) { const ti = el.getAttribute('title'); if (ti && !isBlankASCII(ti)) t = ti; }
        return f.pad ? ' ' + t + ' ' : t;
      }
      if (f.saved >= 0) textNeed = f.saved;
      if (f.dec) textNeed--;
      const idx = f.idx, d = f.d - 1, content = f.acc;
      if (f.role === 'item') {
        const t = finishItem(f, idx, d, content);
        if (t !== null) return t;
        f.role = f.named || 'generic_pointer'; // a clickable or named entry that is no item
      }
      const role = f.role;
      if (role === 'generic_pointer' && ctlSeq > f.ctl0) {
        // a clickable around a control is that control's wrapper: no line
        capped = f.wasCapped || capped;
        unnest(idx, d, f.up, el);
        if (textNeed === 0 || f.hvRoot) return '';
        const t = contribution(el, role, content);
        return f.pad ? ' ' + t + ' ' : t;
      }
      const clickable = role === 'generic_pointer' || role === 'generic_clickable';
      const interactive = clickable || INTERACTIVE.has(role);
      const own = role === 'generic_box' || role === 'generic_file'; // a line of the snapshot's own, no name
      const outRole = clickable || own || role === 'generic_named' ? 'generic' : role;
      const cut = capped;
      capped = f.wasCapped || cut;
      // A subtree the cap cut short is named the slow, complete way.
      // A subtree the walk could not gather exactly is named by the machine.
      const fromContent = NAME_FROM_CONTENT.has(role) ? (cut || dirtySeq > f.dirty0 ? textContent(el, false, new Set([el])) : content) : null;
      const full = own ? '' : accName(el, role, fromContent);
      // text already said by a name from content is not repeated below it
      if (full && fromContent !== null && lines.length > idx + 1 && nameNorm(fromContent) === full) {
        for (let i = idx + 1; i < lines.length; i++) {
          const l = lines[i];
          if (l !== null && typeof l === 'object' && l.d === d + 1) { lines[i] = null; shown--; }
        }
      }
      const st = statesOf(el, role, full, active);
      if (f.hv) st.hover = true;
      if (clickable) { st.clickable = true; if (f.looks) st.looks = f.looks; }
      let box = '', color = '';
      if (interactive) {
        // a role-less clickable does not make its entry an item (a table's
        // header row with a sort span is no entry)
        if (role !== 'generic_pointer') ctlSeq++;
        if (role === 'textbox' || role === 'searchbox' || role === 'combobox') fieldSeq++;
        st.interactive = true;
        if (el.localName === 'input' && el.type === 'file') { st.file = true; const hi = fileHint(el, full); if (hi) st.hint = hi; }
        else if (fileStands !== null && fileStands.has(el)) { st.file = true; const hi = fileHint(el, full); if (hi) st.hint = hi; }
        // a clickable drawn as a checkbox reads the text beside it as one;
        // one with words of its own ("Copy link") is known by them, as a
        // name would know it
        else if (weakName(role === 'generic_pointer' ? norm(el.textContent) : full) || unreadName(el, role)) { const hi = hintOf(el, f.looks || role, full); if (hi) st.hint = hi; }
        color = colorOf(el, f.cs);
        box = boxField(el, f.off);
      } else {
        if (role === 'generic_box') st.hint = f.box;
        else if (role === 'generic_file' || (fileStands !== null && fileStands.has(el))) { st.file = true; const hi = fileHint(el, full); if (hi) st.hint = hi; }
        if (opts.boxes) box = boxField(el, f.off);
      }
      // The states field holds the text-valued states, so no state needs
      // cutting when it is within the cap (and st, whose shape varies, is
      // not read again); the budget counts it whole, an over-estimate.
      let name = full, sf = statesField(st);
      if (full.length > fieldCap || sf.length > fieldCap) {
        const textCut = cutStates(st, fieldCap);
        if (full.length > fieldCap) name = cutText(full, fieldCap);
        if (textCut || name !== full) { st.cut = true; sf = statesField(st); }
      }
      textTotal += name.length + sf.length;
      // trailing empty fields are left out (the decoder pads them); a cap
      // count, when there is one, is appended after all eight
      lines[idx] = d + '\t' + outRole + '\t' + name + '\t' + refFor(el, outRole, name) +
        (box || color ? '\t' + sf + '\t' + box + '\t' + color + '\t' : sf ? '\t' + sf : '');
      if (textNeed === 0 || f.hvRoot) return '';
      const t = contribution(el, role, content);
      return f.pad ? ' ' + t + ' ' : t;
    }

    // finishItem completes a repeated item (see repeated): its line, or, when
    // it holds neither two controls nor one and text or a field, or holds
    // items, no line and its descendants' lines one level up (but one that
    // holds items under a title is a section); or null for an entry that is
    // no item but is clickable (see clickRoot), whose line finish writes.
    //
    // An item that holds only a field (an entry edited in place) is one
    // only on its own: in an item of its own it is that item's cell being
    // edited (a row's name cell turned into a field), and it dissolves
    // into the row (fieldItems holds the lines of such items).
    let ctlSeq = 0, fieldSeq = 0, dirtySeq = 0;
    const pseudoMemo = new Map(); // root -> its generated-content rules, read once a snapshot
    // pseudoAt is mayPseudo for an element of root.
    function pseudoAt(el, root) {
      const idx = pseudoIndexOf(root, pseudoMemo);
      return idx !== null && pseudoIn(el, idx);
    }

    // inLeafControl says the element being entered is inside a control
    // whose content is its name (a button, a link): no line of its own.
    function inLeafControl() {
      for (let k = sp; k >= 0; k--) {
        const f = frames[k];
        if (f.kind === F_ROLE) return f.role !== null && LEAF_CONTROLS.has(f.role);
      }
      return false;
    }
    const fieldItems = new Set();
    function finishItem(f, idx, d, content) {
      blk++;
      const cut0 = capped;
      capped = f.wasCapped || capped;
      const ctls = ctlSeq - f.ctl0;
      const field = fieldSeq > f.field0;
      let runs = false, holds = false, fieldSub = false, titled = false;
      if (ctls > 0) {
        const sub = (d + 1) + '\titem\t', subSec = (d + 1) + '\tsection\t';
        for (let i = idx + 1; i < lines.length && !holds; i++) {
          const l = lines[i];
          if (l === null) continue;
          if (typeof l === 'object') runs = true;
          else if (l.startsWith(sub)) { if (fieldItems.has(i)) fieldSub = true; else holds = true; }
          else if (l.startsWith(subSec)) holds = true;
        }
        if (holds) {
          let i = idx + 1;
          while (i < lines.length && lines[i] === null) i++;
          const l = lines[i];
          titled = typeof l === 'object' ? l.d === d + 1 : l.startsWith((d + 1) + '\theading\t');
        }
      }
      const keep = !holds && (ctls >= 2 || (ctls === 1 && (runs || field)));
      // A run of wrappers each holding a title (a heading, or text before
      // anything else) and items is a run of sections: a line of its own,
      // role "section", no name, known by its title.
      const section = holds && titled;
      if (!keep && !section && f.clk) {
        capped = cut0;
        return null; // finish makes it a clickable's line
      }
      if (!keep && !section && f.el.hasAttributes()) {
        const nr = namedRole(f.el);
        if (nr && !inLeafControl()) {
          capped = cut0;
          f.named = nr;
          return null; // finish makes it a named line
        }
      }
      if (keep || section) {
        const r = keep ? 'item' : 'section';
        lines[idx] = d + '\t' + r + '\t\t' + refFor(f.el, r, '') + (opts.boxes ? '\t\t' + boxField(f.el, f.off) : '');
        if (keep && fieldSub) {
          const sub = (d + 1) + '\titem\t';
          for (let i = idx + 1; i < lines.length; i++) {
            const l = lines[i];
            if (typeof l === 'string' && l.startsWith(sub) && fieldItems.has(i)) unnest(i, d + 1, idx);
          }
        }
        if (keep && ctls === 1 && field && !runs) fieldItems.add(idx);
      } else {
        unnest(idx, d, f.up);
      }
      if (textNeed === 0) return '';
      const el = f.el, al = el.hasAttributes() ? el.getAttribute('aria-label') : null;
      return ' ' + (al && norm(al) ? al : content) + ' ';
    }

    // unnest removes the item line at idx (depth d) and moves its
    // descendants' lines one level up; the cap count under it goes to the
    // line at up (the root's with none). With plain (an element), the text
    // runs it owned are owned as a role-less element's are.
    function unnest(idx, d, up, plain) {
      lines[idx] = null;
      shown--;
      fieldItems.delete(idx);
      for (let i = idx + 1; i < lines.length; i++) {
        const l = lines[i];
        if (l === null) continue;
        if (typeof l === 'object') { if (l.d <= d) break; l.d--; if (plain && l.el === plain) l.k = F_PLAIN; continue; }
        const tab = l.indexOf('\t'), ld = +l.slice(0, tab);
        if (ld <= d) break;
        lines[i] = (ld - 1) + l.slice(tab);
      }
      const m = mores.get(idx);
      if (m) { mores.delete(idx); if (up >= 0) mores.set(up, (mores.get(up) || 0) + m); else rootMore += m; }
    }

    // run walks until the frame stack is empty.
    function run() {
      let f = frames[sp];
      for (;;) {
        let c;
        if (f.kids !== null) c = f.i < f.kids.length ? f.kids[f.i++] : null;
        else { c = f.next; if (c !== null) f.next = c.nextSibling; }
        if (c !== null) {
          let t;
          const type = c.nodeType;
          if (type === 3) {
            if (f.skipText || (modal !== null && !f.inm)) t = '';
            else { t = c.data; if (!f.hv && !isBlank(t)) pushText(f.d, t); }
          } else if (type !== 1) {
            t = '';
          } else if (shown >= max) {
            const n = countRest(c);
            capped = true;
            if (n) {
              more += n;
              if (f.pidx >= 0) mores.set(f.pidx, (mores.get(f.pidx) || 0) + n);
              else rootMore += n;
            }
            t = '';
          } else {
            t = enter(c, f.d, f.off, f.skipText, f.pidx, f.hv);
            if (t === null) { f = frames[sp]; continue; }
          }
          if (f.gather) f.acc += t;
          continue;
        }
        sp--;
        if (sp < lowSp) lowSp = sp;
        const t = finish(f);
        f.el = null; f.kids = null; f.off = null; f.cs = null; f.acc = '';
        if (sp < 0) return;
        f = frames[sp];
        if (f.gather) f.acc += t;
      }
    }

    // contribution is what el adds to an ancestor's name from content.
    function contribution(el, role, content) {
      if (!el.hasAttributes() && (role === 'row' || role === 'cell' || role === 'columnheader' || role === 'listitem' || role === 'paragraph')) return content;
      // as stepOf names an element met inside a name
      const ev = embeddedValue(el, role);
      if (ev !== null) return ev;
      const al = el.localName !== 'slot' ? el.getAttribute('aria-label') : null;
      if (al && !isBlankASCII(al)) return al;
      const host = hostText(el, true);
      if (host !== null) return host;
      if (!isBlankASCII(content)) return content;
      const ti = el.getAttribute('title');
      return ti && !isBlankASCII(ti) ? ti : content;
    }

    // overBudget keeps the fields of out (lines) in document order while
    // the text budget lasts and cuts the rest, shorter or to nothing. A
    // field the per-field cap cut already keeps the count its marker gave.
    // It returns the characters it left out.
    function overBudget(out) {
      let left = budget, dropped = 0;
      const take = (s, wasCut) => {
        if (s === '') return s;
        let head = s, extra = 0;
        if (wasCut) { const m = CUT_MARK.exec(s); if (m) { head = s.slice(0, m.index); extra = +m[1]; } }
        if (head.length <= left) { left -= head.length; return s; }
        const kept = cutHead(head, left);
        const n = codePointsFrom(head, kept.length);
        dropped += n;
        left = 0;
        return cutMark(kept, n + extra);
      };
      for (let i = 1; i < out.length; i++) {
        const p = out[i].split('\t');
        const wasCut = p.length > 4 && /(^|\x1f)cu(\x1f|$)/.test(p[4]);
        let changed = false;
        const name = take(p[2], wasCut);
        if (name !== p[2]) { p[2] = name; changed = true; }
        if (p.length > 4 && p[4]) {
          const st = p[4].split('\x1f');
          let stChanged = false;
          for (let j = 0; j < st.length; j++) {
            const k = st[j].slice(0, 3);
            if (k !== 'va=' && k !== 'ph=' && k !== 'ur=' && k !== 'hi=') continue;
            const v = st[j].slice(3), nv = take(v, wasCut);
            if (nv !== v) { st[j] = k + nv; stChanged = true; }
          }
          if (stChanged) { p[4] = st.join('\x1f'); changed = true; }
        }
        if (!changed) continue;
        while (p.length < 5) p.push('');
        if (!wasCut) p[4] = p[4] ? p[4] + '\x1fcu' : 'cu';
        out[i] = p.join('\t');
      }
      return dropped;
    }

    const rootEl = document.body || document.documentElement;
    noGrids = !document.querySelector('table[role=grid],table[role=treegrid]');
    try {
      walkRoot();
    } finally {
      noGrids = false;
      sp = -1;
    }
    function walkRoot() {
      if (!opts.scope) {
        if (rootEl) { push(F_TOP, rootEl, rootEl, 0, { x: 0, y: 0 }, false, -1); run(); }
        return;
      }
      const el = resolve(opts.scope);
      if (el && el.isConnected && enter(el, 0, frameOffset(el), false, -1, false) === null) run();
    }
    if (opts.scope) {
      const el = resolve(opts.scope);
      if (!el || !el.isConnected) return JSON.stringify({ error: scopeMissing(opts.scope) });
    }
    const outLines = [''];
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l === null) continue;
      if (typeof l === 'object') {
        // a run carries its owner's ref and box, so that it can be read,
        // acted on and placed like an element
        let t = l.t, st = '';
        if (t.length > fieldCap) { t = cutText(t, fieldCap); st = 'cu'; }
        textTotal += t.length;
        outLines.push(runLine(l, t, st));
        continue;
      }
      const m = mores.get(i);
      if (!m) { outLines.push(l); continue; }
      let full = l;
      for (let n = l.split('\t').length; n < 8; n++) full += '\t';
      outLines.push(full + m);
    }
    const header = { url: cutText(location.href, fieldCap), title: cutText(document.title, fieldCap), total: shown + more, shown, more: rootMore };
    if (textTotal > budget) {
      const dropped = overBudget(outLines);
      if (dropped > 0) { header.textMore = dropped; header.textCap = budget; }
    }
    outLines[0] = JSON.stringify(header);
    return outLines;
  }

  // ---- transfer ----------------------------------------------------------
  // Large results cross CDP far faster in pieces (a 1 MB string costs ~20x a
  // 100 KB one), so a snapshot is kept here and read in chunks.
  let outbox = '';

  // Snapshots are gzipped and base64-encoded in the page when the browser
  // can (CompressionStream): the repetitive outline shrinks ~8x, and bytes
  // through CDP cost far more than compressing them.
  const CS = window.CompressionStream, Resp = window.Response;
  async function gzipBase64(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CS('gzip'));
    const blob = await new Resp(stream).blob();
    // FileReader encodes base64 natively, far faster than btoa over chunks.
    const url = await new Promise((resolve, reject) => {
      const fr = new FileReader();
      fr.onload = () => resolve(fr.result);
      fr.onerror = () => reject(fr.error);
      fr.readAsDataURL(blob);
    });
    return url.slice(url.indexOf(',') + 1);
  }

  // The last snapshot sent, so that the next one can be sent as a change to
  // it: an agent snapshots after every action and most of a page stays the
  // same. docID tells this document from the one before a navigation.
  const docID = Math.random().toString(36).slice(2);
  let sent = { gen: 0, key: '', lines: null };

  // snapshotEncoded builds a snapshot and keeps it for reading in chunks.
  // since = {doc, gen} names the snapshot the caller holds: when it is the
  // last one sent here (same options), only the lines between the common
  // head and tail are sent, with the header saying how many lines of the
  // old snapshot to keep before and after them.
  async function snapshotEncoded(opts, chunk, since) {
    const all = snapshotText(opts);
    if (typeof all === 'string') { outbox = all; return { len: outbox.length, gz: false, head: outbox.slice(0, chunk) }; }
    const header = JSON.parse(all[0]);
    const lines = all.slice(1);
    const key = JSON.stringify([opts.maxNodes || 0, opts.scope || '', !!opts.boxes, !!opts.textBoxes, opts.maxText || 0, opts.maxTotalText || 0]);
    let body = lines;
    if (since && since.doc === docID && since.gen === sent.gen && sent.key === key && sent.lines) {
      const old = sent.lines;
      let pre = 0;
      const n = Math.min(old.length, lines.length);
      while (pre < n && old[pre] === lines[pre]) pre++;
      let post = 0;
      while (post < n - pre && old[old.length - 1 - post] === lines[lines.length - 1 - post]) post++;
      header.keepHead = pre;
      header.keepTail = post;
      header.base = since.gen;
      body = lines.slice(pre, lines.length - post);
    }
    sent = { gen: sent.gen + 1, key, lines };
    header.doc = docID;
    header.gen = sent.gen;
    const text = body.length ? JSON.stringify(header) + '\n' + body.join('\n') : JSON.stringify(header);
    let gz = false;
    outbox = text;
    if (CS && Resp && text.length > 4096 && !opts.raw) {
      try { outbox = await gzipBase64(text); gz = true; } catch (e) { outbox = text; }
    }
    return { len: outbox.length, gz, head: outbox.slice(0, chunk) };
  }

  function readOut(from, n) { return outbox.slice(from, from + n); }

  // ---- element cache: capture and resolve ----------------------------------
  // A located element is remembered by several unique selectors of different
  // kinds. On replay they are all evaluated here in one round trip and vote.
  const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
  const KEY_ATTRS = ['id', 'name', 'type', 'href', 'placeholder', 'title', 'alt', 'aria-label', 'role', 'for', 'value'].concat(TEST_ATTRS);

  // isRandom says whether a class name or id looks generated (hashes, build
  // ids): such values change between builds and must not identify anything.
  function isRandom(v) {
    if (!v) return false;
    if (/^(css|sc|jsx|emotion|styled|svelte|tw|el|ember|react|radix|mui)[-_]/i.test(v) && /\d/.test(v)) return true;
    for (const seg of v.split(/[-_:.]/)) {
      if (seg.length >= 4 && /\d/.test(seg) && /[a-z]/i.test(seg)) return true;
      if (seg.length >= 6 && /^[0-9a-f]+$/i.test(seg) && /\d/.test(seg)) return true;
    }
    return false;
  }

  const q = (v) => '"' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';

  function textOfEl(el) { return norm(el.textContent).slice(0, 200); }

  // match returns the elements a selector finds under root.
  function match(root, sel) {
    try {
      if (sel.kind === 'text') {
        const i = sel.value.indexOf('|');
        const tag = sel.value.slice(0, i), text = sel.value.slice(i + 1);
        return Array.from(root.querySelectorAll(tag)).filter((e) => textOfEl(e) === text);
      }
      if (sel.kind === 'label') {
        const out = [];
        for (const l of root.querySelectorAll('label')) {
          if (norm(textContent(l, false, new Set())) !== sel.value) continue;
          const c = l.control;
          if (c && !out.includes(c)) out.push(c);
        }
        return out;
      }
      // A structural path recorded in a shadow root starts at the root's
      // top level (see structuralPath); a document has no such level: read
      // there unanchored, it would name whatever first-of-type chain the
      // document happens to have. A document's own paths start at the
      // body (or html), an id or a test id.
      if (sel.kind === 'structural' && root.nodeType === 9 && !/^(?:[#[]|body:|html:)/.test(sel.value)) return [];
      const m = Array.from(root.querySelectorAll(sel.value));
      if (sel.kind === 'structural' && root.nodeType === 11 && m.length > 1 && !/^[#[]/.test(sel.value)) {
        // A structural path in a shadow root starts at the root's top
        // level (see structuralPath), which no selector can say: keep the
        // matches whose path starts there.
        const up = sel.value.split(' > ').length - 1;
        return m.filter((e) => { let a = e; for (let k = 0; k < up && a; k++) a = a.parentElement; return a !== null && a.parentNode === root; });
      }
      return m;
    } catch (e) { return []; }
  }

  function structuralPath(el, root, banned) {
    const parts = [];
    for (let e = el; e && e !== root && e.nodeType === 1; e = e.parentElement) {
      const id = e.id;
      if (e !== el && id && !banned.has('id') && !isRandom(id)) {
        const sel = '#' + CSS.escape(id);
        if (root.querySelectorAll(sel).length === 1) { parts.unshift(sel); break; }
      }
      // a test id anchors the path only where it is unique: a list's
      // items often share one (data-testid="todo-item")
      const tid = e !== el && !banned.has('data-testid') && e.getAttribute('data-testid');
      if (tid && !isRandom(tid) && root.querySelectorAll('[data-testid=' + q(tid) + ']').length === 1) { parts.unshift('[data-testid=' + q(tid) + ']'); break; }
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) i++;
      parts.unshift(e.localName + ':nth-of-type(' + i + ')');
      if (e.localName === 'body') break;
    }
    return parts.join(' > ');
  }

  function captureElement(ref, bannedList) {
    const el = resolve(ref);
    if (!el || !el.isConnected) return { error: 'detached' };
    const banned = new Set(bannedList || []);
    const root = el.getRootNode();
    const tag = el.localName;
    const out = [];
    const add = (kind, value) => {
      const sel = { kind, value };
      const m = match(root, sel);
      if (m.length === 1 && m[0] === el && !out.some((o) => o.value === value)) out.push(sel);
    };
    const usable = (a, v) => v && !banned.has(a) && !isRandom(v);
    if (usable('id', el.id)) add('id', '#' + CSS.escape(el.id));
    for (const a of TEST_ATTRS) { const v = el.getAttribute(a); if (usable(a, v)) add('testid', '[' + a + '=' + q(v) + ']'); }
    for (const a of ['aria-label', 'name', 'placeholder', 'title', 'alt', 'href']) {
      const v = el.getAttribute(a);
      if (usable(a, v)) add(a === 'aria-label' ? 'aria' : 'attr', tag + '[' + a + '=' + q(v) + ']');
    }
    const txt = textOfEl(el);
    if (txt && txt.length <= 80 && !banned.has('text')) add('text', tag + '|' + txt);
    if (el.labels && el.labels.length) {
      const lt = norm(textContent(el.labels[0], false, new Set([el])));
      if (lt) add('label', lt);
    }
    add('structural', structuralPath(el, root, banned));
    // In an open shadow root the selectors above are the root's own: the
    // path of its hosts from the document (outermost first) says which
    // root they are read in (see hostRoot), where many roots look alike.
    if (out.length && root instanceof ShadowRoot) {
      const parts = [];
      for (let h = root.host; h; ) {
        const hr = h.getRootNode();
        const p = structuralPath(h, hr, banned);
        if (!p || match(hr, { kind: 'css', value: p }).length !== 1) { parts.length = 0; break; }
        parts.unshift(p);
        if (!(hr instanceof ShadowRoot)) break;
        h = hr.host;
      }
      if (parts.length) out.push({ kind: 'host', value: parts.join(HOST_SEP) });
    }
    // In a frame, the frames from the top document down say which document
    // the selectors above are read in (see frameDoc): the page around a
    // frame has its own first paragraph, its own Save button.
    if (out.length && el.ownerDocument !== document) {
      const fp = framePath(el, banned, true);
      if (fp.parts) out.push({ kind: 'frame', value: fp.parts.join(HOST_SEP) });
    }
    let role = roleOf(el), accRole = role, nr = null;
    if (role === 'generic_clickable') role = 'generic';
    else if (!role && describeClickable(el)) { role = 'generic'; accRole = 'generic_pointer'; }
    else if ((!role || PASS_THROUGH.has(role)) && el.hasAttributes() && (nr = namedRole(el)) && !inLeafControlOf(el)) { accRole = nr; role = nr === 'generic_named' ? 'generic' : nr; }
    const name = cutText(accName(el, role === 'generic' && accRole !== 'generic_pointer' && accRole !== 'generic_named' ? 'generic_clickable' : accRole, null), DEFAULT_MAX_TEXT);
    const attrs = {};
    for (const a of KEY_ATTRS) {
      const v = el.getAttribute(a);
      if (v !== null && !banned.has(a) && !isRandom(v)) attrs[a] = v.slice(0, 200);
    }
    // the class names a person wrote, for re-identification
    const cls = ownClasses(el);
    if (cls && !banned.has('class')) attrs.class = cls;
    const off = frameOffset(el);
    const b = boxOf(el, off);
    return { selectors: out, node: { tag, role: role || '', name, text: txt, attrs, box: [b.x, b.y, b.w, b.h], color: colorOf(el) }, context: nodeContext(el) };
  }

  // ownClasses is el's class names a person wrote (generated ones left
  // out), as recorded with a cache row's node.
  function ownClasses(el) {
    const cls = (el.getAttribute('class') || '').trim().split(/\s+/).filter((c) => c && !generatedName(c));
    return cls.join(' ').slice(0, 200);
  }

  // roots lists the document, same-origin frame documents and open shadow
  // roots, where cached selectors are looked for when the document alone
  // has no match.
  function otherRoots() {
    // depth first, each root before the roots inside it, with an explicit
    // stack so that no depth of nesting overflows the call stack
    const out = [];
    const stack = [{ els: document.querySelectorAll('*'), i: 0 }];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.els.length) { stack.pop(); continue; }
      const e = f.els[f.i++];
      if (e.shadowRoot) { out.push(e.shadowRoot); stack.push({ els: e.shadowRoot.querySelectorAll('*'), i: 0 }); continue; }
      if (e.localName === 'iframe') { try { const d = e.contentDocument; if (d) { out.push(d); stack.push({ els: d.querySelectorAll('*'), i: 0 }); } } catch (x) { /* cross-origin */ } }
    }
    return out;
  }

  // describeNode is what the snapshot says of el (null when it has no line
  // of its own); memo holds the document's file input stand-ins, looked up
  // once for a chain of calls.
  function describeNode(el, memo) {
    let role = roleOf(el);
    // a focusable or onclick role-less element is a generic clickable with
    // a name, as the snapshot has it, not an element that passes through
    const focusable = role === 'generic_clickable';
    if (focusable) role = 'generic';
    if (!focusable && (!role || PASS_THROUGH.has(role))) {
      // a box or a file input's stand-in has a line of its own (see boxWords)
      const box = el.hasAttributes() && BOX_PREFILTER.test((el.getAttribute('class') || '') + ' ' + (el.getAttribute('id') || '')) ? boxWords(el, getComputedStyle(el)) : '';
      if (box) return { role: 'generic', name: '', full: '', el, cut: false, own: true, hint: box };
      if (memo.stands === undefined) memo.stands = fileStandIns();
      if (memo.stands !== null && memo.stands.has(el)) return { role: 'generic', name: '', full: '', el, cut: false, own: true, file: true, hint: fileHint(el, '') };
      const c = role ? null : describeClickable(el);
      if (c) return c;
      const nr = el.hasAttributes() ? namedRole(el) : null;
      if (!nr || inLeafControlOf(el)) return null;
      const full = accName(el, nr, null);
      const name = cutText(full, DEFAULT_MAX_TEXT);
      return { role: nr === 'generic_named' ? 'generic' : nr, name, full, el, cut: name !== full };
    }
    const full = accName(el, role === 'generic' ? 'generic_clickable' : role, null);
    const name = cutText(full, DEFAULT_MAX_TEXT);
    return { role, name, full, el, cut: name !== full, clickable: role === 'generic' };
  }

  // describeClickable is describeNode for a role-less element: a generic
  // clickable as the snapshot has it (see clickOf; one around a control is
  // that control's wrapper, no line), or null.
  function describeClickable(el) {
    if (el.nodeType !== 1 || SKIP_TAGS.has(el.localName)) return null;
    const c = clickOf(el);
    if (!c || (!c.looks && el.querySelector(CONTROL_SEL))) return null;
    const full = accName(el, 'generic_pointer', null);
    const name = cutText(full, DEFAULT_MAX_TEXT);
    return { role: 'generic', name, full, el, cut: name !== full, clickable: true, looks: c.looks };
  }

  // itemLike says whether the snapshot would give el, an element without a
  // role, a line of its own as an `item` (see "repeated items"): one of a
  // run of entries of its shape, laid out as a box, holding two controls,
  // or one and text, or a field. It lets a cached item be checked as the
  // item it was recorded as without a snapshot; it walks el's subtree (and
  // its open shadow roots) once.
  function itemLike(el) {
    if (!el.isConnected || roleOf(el)) return false;
    const display = getComputedStyle(el).display;
    if (display === 'none' || display === 'contents' || display.startsWith('inline')) return false;
    if (!repeated(el, new Map(), new Map())) return false;
    let ctls = 0, text = false;
    const walk = (n, inCtl) => {
      for (const c of childNodesOf(n)) {
        if (c.nodeType === 3) { if (!inCtl && !text && norm(c.data)) text = true; continue; }
        if (c.nodeType !== 1 || SKIP_TAGS.has(c.localName)) continue;
        const r = roleOf(c);
        const ctl = r !== null && INTERACTIVE.has(r);
        if (ctl) { ctls++; if (r === 'textbox' || r === 'searchbox') text = true; }
        walk(c, inCtl || ctl);
        if (ctls >= 2) return;
      }
    };
    walk(el, false);
    return ctls >= 2 || (ctls === 1 && text);
  }

  // entryRole is the line the snapshot gives el, an element without a role,
  // as a repeated entry (see finishItem): 'item' for one that itemLike
  // accepts and that holds no such entry itself, 'section' for one that
  // holds entries under a title (a heading, or text before anything else),
  // '' for any other (no line of its own). It lets a cached element and its
  // containers be checked as the snapshot reads them without a snapshot.
  function entryRole(el) {
    if (!itemLike(el)) return '';
    let holds = false, looked = 0;
    const walk = (n) => {
      for (const c of childNodesOf(n)) {
        if (holds || looked > 400) return;
        if (c.nodeType !== 1 || SKIP_TAGS.has(c.localName)) continue;
        looked++;
        if (!roleOf(c) && itemLike(c)) { holds = true; return; }
        walk(c);
      }
    };
    walk(el);
    if (!holds) return 'item';
    let titled = null;
    const first = (n) => {
      for (const c of childNodesOf(n)) {
        if (titled !== null) return;
        if (c.nodeType === 3) { if (norm(c.data)) titled = true; continue; }
        if (c.nodeType !== 1 || SKIP_TAGS.has(c.localName)) continue;
        const r = roleOf(c);
        if (r && !PASS_THROUGH.has(r)) { titled = r === 'heading'; return; }
        first(c);
      }
    };
    first(el);
    return titled ? 'section' : '';
  }

  // HOST_SEP joins the hosts of a 'host' selector, outermost first.
  const HOST_SEP = ' >>> ';

  // hostRoot is the open shadow root a 'host' selector names in doc, or
  // null when one of its hosts is gone, not unique in its root, or has no
  // open root.
  function hostRoot(value, doc) {
    let r = doc;
    for (const part of value.split(HOST_SEP)) {
      const m = match(r, { kind: 'css', value: part });
      if (m.length !== 1 || !m[0].shadowRoot) return null;
      r = m[0].shadowRoot;
    }
    return r === doc ? null : r;
  }

  // frameByPlace says whether a 'frame' selector knows one of its frames
  // only by a structural path (no title, name, test id, id or src named it).
  function frameByPlace(value) {
    return value.split(HOST_SEP).some((part) => !/^(?:i?frame\[|\[|#[^\s>]+$)/.test(part));
  }

  // frameDoc is the document of the frame a 'frame' selector names, or null
  // when one of its frames is gone, not unique in its document, or not
  // readable (cross-origin).
  function frameDoc(value) {
    let d = document;
    for (const part of value.split(HOST_SEP)) {
      const m = match(d, { kind: 'css', value: part });
      if (m.length !== 1 || m[0].localName !== 'iframe' && m[0].localName !== 'frame') return null;
      try { d = m[0].contentDocument; } catch (e) { return null; }
      if (!d) return null;
    }
    return d === document ? null : d;
  }

  // firstCellOf is the name of row's first cell, as the snapshot makes the
  // row's children: its first child with a cell role, looking through
  // role-less wrappers; '' when there is none or its name was cut.
  const CELL_ROLES = new Set(['cell', 'gridcell', 'rowheader', 'columnheader']);
  function firstCellOf(row, memo) {
    const walk = (el, depth) => {
      for (const c of el.children) {
        const d = describeNode(c, memo);
        if (d) {
          if (CELL_ROLES.has(d.role)) return d.cut ? null : d.name;
          continue; // another of the row's children: not a cell
        }
        if (depth < 3) { const r = walk(c, depth + 1); if (r !== undefined) return r; }
      }
      return undefined;
    };
    return walk(row, 0) || '';
  }

  // resolveCached evaluates every selector, lets them vote, and describes the
  // winner with its ancestors so that the intent can be checked without a
  // full snapshot. Reasons: no-match, selector-conflict.
  // MANY stands, in resolveCached's tally, for a selector that found
  // several elements.
  const MANY = {};
  function resolveCached(selectors) {
    const tally = (root) => {
      const votes = new Map();
      const found = []; // per selector: its one element, or null
      let matched = 0;
      for (const sel of selectors) {
        if (sel.kind === 'host' || sel.kind === 'frame') continue;
        const m = match(root, sel);
        found.push(m.length === 1 ? m[0] : m.length > 1 ? MANY : null);
        if (m.length !== 1) continue;
        matched++;
        votes.set(m[0], (votes.get(m[0]) || 0) + 1);
      }
      return { votes, matched, found };
    };
    const host = selectors.find((sel) => sel.kind === 'host');
    const frame = selectors.find((sel) => sel.kind === 'frame');
    const total = selectors.length - (host ? 1 : 0) - (frame ? 1 : 0);
    // The root the element was recorded in, when it is still there, is the
    // only root read: a look-alike the same selectors find in the document
    // (the same text, a first button in a first div) or in another root
    // that looks like it is no hit. A frame's document is such a root, and
    // a shadow root in a frame is looked for in that frame.
    const doc = (frame && frameDoc(frame.value)) || document;
    let t = { votes: new Map(), matched: 0 }, inHost = false;
    if (host) {
      const hr = hostRoot(host.value, doc);
      if (hr) { t = tally(hr); inHost = true; }
    }
    if (!inHost) t = tally(doc);
    if (doc !== document && t.votes.size && !inHost && frameByPlace(frame.value)) {
      // A frame known only by its place may be another frame now (frames
      // swapped, one inserted before it): a frame elsewhere that holds an
      // element the selectors find as well makes the vote a conflict,
      // never a hit on the element in the frame now in that place.
      const best = Math.max(...t.votes.values());
      for (const r of otherRoots()) {
        if (r === doc || r.nodeType !== 9) continue;
        const u = tally(r);
        if (u.votes.size && Math.max(...u.votes.values()) >= best) return { reason: 'selector-conflict', total, votes: best };
      }
    }
    if (t.votes.size === 0 && !inHost && doc === document) {
      // Not in the page, nor in its recorded root: the one other root (a
      // frame or shadow root) whose elements the selectors find. Two
      // roots that the selectors find as well are a conflict, never the
      // first of them (look-alike widgets and frames).
      let best = 0, tie = false;
      for (const r of otherRoots()) {
        const u = tally(r);
        if (!u.votes.size) continue;
        const top = Math.max(...u.votes.values());
        if (top > best) { t = u; best = top; tie = false; } else if (top === best) tie = true;
      }
      if (tie) return { reason: 'selector-conflict', total, votes: best };
    }
    if (t.votes.size === 0) return { reason: 'no-match', total };
    const ranked = Array.from(t.votes.entries()).sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1 && ranked[0][1] === ranked[1][1]) return { reason: 'selector-conflict', total, votes: ranked[0][1] };
    // A winner found by its structural path alone, while a selector that
    // named it (its id, test id, label, attributes or text) now finds
    // another element, or several, is only in the recorded element's
    // place: another element may have taken it (a section with its own
    // Save inserted above). One that finds nothing says only that the
    // element changed (a counter's text), which the check judges.
    const winner = ranked[0][0];
    let byPlace = true, named = false, k = 0;
    for (const sel of selectors) {
      if (sel.kind === 'host' || sel.kind === 'frame') continue;
      const f = t.found[k++];
      if (f === winner && sel.kind !== 'structural') byPlace = false;
      if (f !== null && f !== winner && sel.kind !== 'structural') named = true;
    }
    if (byPlace && named) return Object.assign(describeCached(winner), { reason: 'place-only', votes: ranked[0][1], matched: t.matched, total });
    const out = Object.assign(describeCached(winner), { votes: ranked[0][1], matched: t.matched, total });
    if (byPlace) {
      // found by its place alone: what the runner compares with the
      // recorded node (its tag and the class names a person wrote)
      out.place = { tag: winner.localName, class: ownClasses(winner) };
    }
    return out;
  }

  // describeCached describes an element the cache found (by its selectors or
  // by re-identification) as the snapshot would, with its ancestors, so that
  // the intent can be checked without a full snapshot.
  function describeCached(el, memo) {
    // An element without a role is known by its text, as the snapshot's
    // text runs it owns are (under the same ref).
    memo = memo || {};
    // (an entry the snapshot makes an item is one even when it is clickable)
    let d = describeNode(el, memo);
    if (!d || d.clickable) { const er = entryRole(el); if (er) d = { role: er, name: '' }; }
    if (!d) d = { role: 'text', name: '', plain: true };
    const ref = d.plain ? textRefFor(el) : refFor(el, d.role, d.name);
    const visible = el.checkVisibility({ visibilityProperty: true }) && !hiddenAncestor(el);
    const hover = !visible && !hiddenAncestor(el) && hoverContainer(el) !== null;
    const node = { role: d.role, name: d.name, ref, states: statesOf(el, d.role, d.full !== undefined ? d.full : d.name, deepActive()), box: boxOf(el, frameOffset(el)) };
    node.states.color = colorOf(el);
    node.states.interactive = INTERACTIVE.has(d.role) || d.role === 'generic';
    if (d.clickable) { node.states.clickable = true; if (d.looks) node.states.looks = d.looks; }
    if (d.own) {
      node.states.interactive = false;
      if (d.hint) node.states.hint = d.hint;
      if (d.file) node.states.file = true;
    } else if (el.localName === 'input' && el.type === 'file') {
      node.states.file = true;
      const hi = fileHint(el, d.full);
      if (hi) node.states.hint = hi;
    } else if (node.states.interactive && (weakName(d.looks !== undefined ? norm(el.textContent) : d.full !== undefined ? d.full : d.name) || unreadName(el, d.role))) {
      const hi = hintOf(el, d.looks || (d.role === 'generic' ? 'generic_clickable' : d.role), d.full !== undefined ? d.full : d.name);
      if (hi) node.states.hint = hi;
    }
    if (d.cut || cutStates(node.states, DEFAULT_MAX_TEXT)) node.cut = true;
    if (hover) node.states.hoverOnly = true;
    const text = norm(hasShadowBelow(el) ? composedInnerText(el) || composedTextContent(el) : el.innerText || el.textContent || '').slice(0, 500);
    if (text && text !== d.name) node.text = text;
    const ancestors = [];
    for (let a = el.parentElement || (el.getRootNode().host) || null; a; a = a.parentElement || (a.getRootNode && a.getRootNode().host) || (a.ownerDocument.defaultView.frameElement) || null) {
      let ad = describeNode(a, memo);
      // a repeated entry is known by its text: passed with no name, it
      // makes the check read it in a snapshot (see locate.NeedsPage)
      if (!ad || ad.clickable) { const er = entryRole(a); if (er) ad = { role: er, name: '' }; }
      if (ad) {
        const an = ad.cut ? { role: ad.role, name: ad.name, ref: refFor(a, ad.role, ad.name), cut: true } : { role: ad.role, name: ad.name, ref: refFor(a, ad.role, ad.name) };
        // a row's name joins its cells: its first cell says where the
        // first ends ("Cara Diaz" or "Cara Diaz 2"), as the snapshot's does
        if (ad.role === 'row') { const fc = firstCellOf(a, memo); if (fc) an.cell = fc; }
        ancestors.unshift(an);
      }
      if (a.localName === 'body' && !a.ownerDocument.defaultView.frameElement) break;
    }
    return { ref, node, ancestors, visible, hover };
  }

  // ---- re-identification ----------------------------------------------------
  // When the cached selectors find nothing (a new id, regenerated classes, a
  // wrapper added, the element moved), the element may still be there.
  // reidentify scores the page's candidates against the node recorded with
  // the cache row, as Similo does (tag, id, name, class, text, href,
  // position, size, neighbouring text) and more (role, accessible name,
  // label, placeholder, test id, containers with their names), and answers
  // the best two: the caller accepts the best only when it is clearly ahead
  // and still fits the step's description. Two passes keep it cheap on big
  // pages: the cheap features (tag, role, attributes, class words, text,
  // entry text, box) rank every candidate, then the 8 best are scored again
  // with their accessible names, neighbour text and containers.

  const REID_TOP = 8, REID_WIDE = 32, REID_ALL_BOXES = 256;
  const REID_HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'legend', 'caption']);
  // REID_DEBUG.on makes reidentify answer each top candidate's features (tests)
  const REID_DEBUG = { on: false };
  const REID_MEMO_MAX = 4096;
  const REID_NEAR_MAX = 6, REID_PATH_MAX = 8, REID_TEXT_MAX = 120;
  // the tags a control of a role may be built from, besides its own tag
  // the elements a recorded node of each group may have become: tags (read
  // as the document's live lists, cheap) and the rest (one selector walk)
  const REID_KIND = {
    press: { tags: ['button', 'a', 'summary'], inputs: ['button', 'submit', 'reset', 'image'], rest: '[role],[onclick],[tabindex]' },
    field: { tags: ['input', 'textarea', 'select'], rest: '[contenteditable],[role]' },
    choice: { tags: ['input'], rest: '[role]' },
  };
  const REID_GROUP = { button: 'press', link: 'press', menuitem: 'press', menuitemcheckbox: 'press', menuitemradio: 'press',
    tab: 'press', option: 'press', treeitem: 'press', generic: 'press', generic_clickable: 'press', columnheader: 'press',
    textbox: 'field', searchbox: 'field', combobox: 'field', spinbutton: 'field', listbox: 'field', slider: 'field',
    checkbox: 'choice', radio: 'choice', switch: 'choice' };
  const ENTRY_SEL = 'tr,li,[role=row],[role=listitem],[role=option],[role=treeitem],article,[role=article]';

  // wordSet is the lower-case words of s.
  function wordSet(s) {
    const out = new Set();
    if (s) for (const w of s.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) out.add(w);
    return out;
  }

  // textSim is how alike two texts are: 1 when equal (case and spacing
  // aside), else the Dice coefficient of their word sets.
  function textSim(a, b) {
    if (!a && !b) return 1;
    if (!a || !b) return 0;
    const x = norm(a).toLowerCase(), y = norm(b).toLowerCase();
    if (x === y) return 1;
    const wa = wordSet(x), wb = wordSet(y);
    if (!wa.size || !wb.size) return 0;
    let both = 0;
    for (const w of wa) if (wb.has(w)) both++;
    return (2 * both) / (wa.size + wb.size);
  }

  // classSet is el's id and class words a person wrote (generated ones out).
  function classSet(el) {
    const out = [];
    classWords(el, out);
    return new Set(out);
  }

  function setSim(a, b) {
    if (!a.size && !b.size) return 1;
    if (!a.size || !b.size) return 0;
    let both = 0;
    for (const w of a) if (b.has(w)) both++;
    return both / (a.size + b.size - both);
  }

  // spacedText is el's text with a space between elements (a table row's
  // cells read "Cara Diaz cara@…", not "Cara Diazcara@…"), skip's subtree
  // left out, cut at REID_TEXT_MAX; cheap (no styles read).
  function spacedText(el, skip) {
    const parts = [];
    let len = 0;
    const stack = [el];
    while (stack.length && len < REID_TEXT_MAX * 2) {
      const n = stack.pop();
      if (n.nodeType === 3) { parts.push(n.data); len += n.data.length; continue; }
      if (n.nodeType !== 1 || n === skip || SKIP_TAGS.has(n.localName)) continue;
      parts.push(' ');
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
    return norm(parts.join('')).slice(0, REID_TEXT_MAX);
  }

  // entryText is the text of the entry (row, item, option, card) el is in,
  // el's own text left out, cut short; '' when it is in none.
  function entryText(el) {
    const e = el.parentElement && el.parentElement.closest(ENTRY_SEL);
    return e ? spacedText(e, el) : '';
  }

  // entryTitle is what names the entry el is in, apart from el: a row's
  // first cell, else the entry's first run of text outside el ('' when it
  // is in none). Two look-alike rows ("Cara Diaz", "Cara Diaz-Ortega")
  // differ there as a whole phrase.
  function entryTitle(el) {
    const e = el.parentElement && el.parentElement.closest(ENTRY_SEL);
    if (!e) return '';
    if (e.localName === 'tr' || e.getAttribute('role') === 'row') {
      const c = e.querySelector('td,th,[role=cell],[role=gridcell],[role=rowheader]');
      if (c && !c.contains(el)) return spacedText(c, null);
    }
    const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = w.nextNode(), k = 0; t && k < 50; t = w.nextNode(), k++) {
      if (el.contains(t)) continue;
      const v = norm(t.data);
      if (v) return v.slice(0, REID_TEXT_MAX);
    }
    return '';
  }

  // nearTexts is the text nearest el, closest first: its label, the text
  // beside it (siblings, or its parents' siblings), its entry's text, the
  // heading of its section. Each is cut short; secret values are redacted
  // where they leave the process.
  function nearTexts(el) {
    const out = [];
    const push = (t) => { t = norm(t).slice(0, REID_TEXT_MAX); if (t && out.length < REID_NEAR_MAX && !out.includes(t)) out.push(t); };
    if (el.labels && el.labels.length) push(textContent(el.labels[0], false, new Set([el])));
    const lb = el.getAttribute('aria-labelledby');
    if (lb) for (const id of lb.split(/\s+/)) { const l = el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : null; if (l) push(l.textContent); }
    for (let e = el, up = 0; e && up < 3 && out.length < 3; e = e.parentElement, up++) {
      const prev = e.previousElementSibling, next = e.nextElementSibling;
      const before = prev ? spacedText(prev, null) : '', after = next ? spacedText(next, null) : '';
      if (before || after) { push(before); push(after); break; }
    }
    push(entryText(el));
    push(entryTitle(el));
    // the heading of its section: a heading, legend or caption among the
    // first children of one of its containers
    outer: for (let e = el.parentElement; e && e.localName !== 'body'; e = e.parentElement) {
      let k = 0;
      for (let h = e.firstElementChild; h && k < 8; h = h.nextElementSibling, k++) {
        if (REID_HEADING.has(h.localName) && !h.contains(el)) { push(h.textContent); break outer; }
      }
    }
    return out;
  }

  // pathOf is el's containers that have a role or make an entry, with their
  // names, outermost first (the nearest REID_PATH_MAX).
  function pathOf(el, memo) {
    const out = [];
    memo = memo || {};
    for (let a = el.parentElement || (el.getRootNode().host) || null; a && out.length < REID_PATH_MAX; a = a.parentElement || (a.getRootNode && a.getRootNode().host) || null) {
      if (a.localName === 'body' || a.localName === 'html') break;
      // A container named by its content (a row, a cell, an item) is named
      // by its text here: the same words, without weighing each child's
      // style as its accessible name does. The candidates of one
      // re-identification share their outer containers: each is described
      // once (memo.path).
      if (!memo.path) memo.path = new Map();
      let d = memo.path.get(a);
      if (d === undefined) {
        const r0 = roleOf(a);
        d = r0 && NAME_FROM_CONTENT.has(r0) && !a.hasAttribute('aria-label') && !a.hasAttribute('aria-labelledby') ? { role: r0, name: spacedText(a, null) } : describeNode(a, memo);
        if (!d || d.clickable) { const er = entryRole(a); if (er) d = { role: er, name: '' }; }
        memo.path.set(a, d);
      }
      if (!d) continue;
      const n = { tag: a.localName, role: d.role };
      const name = norm(d.name || '').slice(0, REID_TEXT_MAX);
      if (name) n.name = name;
      out.unshift(n);
    }
    return out;
  }

  // nodeContext is where el stands, for the cache row (session.NodeContext).
  function nodeContext(el) {
    return { near: nearTexts(el), path: pathOf(el) };
  }

  // nearSim is how much of the recorded neighbour text is near the
  // candidate, the closest counting most.
  function nearSim(rec, cand) {
    let sum = 0, wsum = 0;
    rec.forEach((t, i) => {
      const w = 1 / (i + 1);
      let best = 0;
      for (const c of cand) best = Math.max(best, textSim(t, c));
      sum += w * best; wsum += w;
    });
    return wsum ? sum / wsum : 0;
  }

  // pathSim is how much of the recorded containers the candidate is in: a
  // named one counts four times an unnamed one and must keep its name.
  function pathSim(rec, cand) {
    let sum = 0, wsum = 0;
    for (const r of rec) {
      const w = r.name ? 1 : 0.25;
      wsum += w;
      let best = 0;
      for (const c of cand) {
        if (c.role !== r.role && c.tag !== r.tag) continue;
        const s = r.name ? textSim(r.name, c.name || '') : 1;
        if (s > best) best = s;
      }
      sum += w * best;
    }
    return wsum ? sum / wsum : 1;
  }

  // hrefPath is an href without its origin and query (a fragment routes
  // many apps, so it stays).
  function hrefPath(v) {
    try { const u = new URL(v, location.href); return u.pathname + u.hash; } catch (e) { return v; }
  }

  // reidentify answers the best two candidates for the recorded node rec
  // (session.NodeSnapshot) and its context ctx (session.NodeContext, maybe
  // empty), each described as resolveCached describes its winner, with its
  // score (0..1) and what scored, or { reason: 'no-candidate' }.
  function reidentify(rec, ctx) {
    const recRole = rec.role || '';
    const group = REID_GROUP[recRole] || '';
    const tag = /^[a-z][a-z0-9-]*$/.test(rec.tag || '') ? rec.tag : '';
    const kind = group ? REID_KIND[group] : null;
    const tags = [...new Set([tag].concat(kind ? kind.tags : []).filter(Boolean))];
    const rest = kind ? kind.rest : recRole && recRole !== 'text' ? '[role]' : '';
    if (!tags.length && !rest) return { reason: 'no-candidate' };
    const tagSet = new Set(tags);
    const inputs = kind && kind.inputs && !tagSet.has('input') ? new Set(kind.inputs) : null;
    const inputSel = inputs ? [...inputs].map((t) => `input[type=${t}]`) : [];
    // parts answers root's candidates as lists, each in document order: a
    // document's tags from its live lists, then what only the rest selects
    // (a shadow root has no such lists: one selector walk).
    const parts = (root) => {
      if (!root.getElementsByTagName) return [root.querySelectorAll(tags.concat(inputSel, rest ? [rest] : []).join(','))];
      const out = tags.map((t) => root.getElementsByTagName(t));
      const typed = (el) => inputs && el.localName === 'input' && inputs.has(el.type);
      if (inputs) out.push(Array.prototype.filter.call(root.getElementsByTagName('input'), typed));
      if (rest) out.push(Array.prototype.filter.call(root.querySelectorAll(rest), (el) => !tagSet.has(el.localName) && !typed(el)));
      return out;
    };
    const attrs = rec.attrs || {};
    const attrKeys = Object.keys(attrs).filter((a) => a !== 'id' && a !== 'class' && a !== 'role' && KEY_ATTRS.includes(a));
    const rc = [];
    if (attrs.id && !generatedName(attrs.id)) addWords(attrs.id, rc);
    if (attrs.class) for (const c of attrs.class.trim().split(/\s+/)) if (c && !generatedName(c)) addWords(c, rc);
    const recWords = new Set(rc);
    const recText = norm(rec.text || '');
    const recNear = (ctx && ctx.near) || [];
    const box = rec.box || [0, 0, 0, 0];
    const hasBox = box[2] > 0 || box[3] > 0;
    const cx = box[0] + box[2] / 2, cy = box[1] + box[3] / 2;
    // Pass 1, level 1 (every candidate, a few reads each): tag, role, the
    // recorded attributes, text, place. Level 2 (the REID_WIDE best): class
    // words, the entry's text, size.
    const attrW = attrKeys.map((a) => (TEST_ATTRS.includes(a) ? 1.5 : a === 'href' ? 1 : 0.5));
    const attrAnchor = attrKeys.map((a) => a === 'href' || a === 'name' || a === 'for' || TEST_ATTRS.includes(a));
    const recHref = attrs.href !== undefined ? hrefPath(attrs.href) : '';
    // place scores a candidate's box against the recorded one (once).
    const place = (c) => {
      if (c.r) return true;
      const el = c.el, r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0 && !el.getClientRects().length) return false;
      c.r = r;
      if (hasBox) {
        const off = el.ownerDocument === document ? null : frameOffset(el);
        c.x = off ? r.left + off.x : r.left; c.y = off ? r.top + off.y : r.top;
        const v = 1 / (1 + Math.hypot(c.x + r.width / 2 - cx, c.y + r.height / 2 - cy) / 32);
        c.sum += v;
        if (c.dbg) c.dbg.pos = [1, Math.round(v * 100) / 100];
      }
      c.cheap = c.sum / (c.wsum || 1);
      return true;
    };
    const textMemo = new Map();
    const level1 = (roots) => {
      const out = [];
      for (const root of roots) for (const part of parts(root)) {
        const list = [];
        for (let i = 0; i < part.length; i++) {
          const el = part[i];
          if (SKIP_TAGS.has(el.localName)) continue;
          const dbg = REID_DEBUG.on ? {} : null;
          let sum = 0, wsum = hasBox ? 1 : 0; // (the place's weight; its score comes with the box)
          const note = dbg ? (k, w, v) => { dbg[k] = [w, Math.round(v * 100) / 100]; } : null;
          const tagSim = el.localName === rec.tag ? 1 : 0;
          sum += tagSim; wsum += 1;
          if (dbg) note('tag', 1, tagSim);
          let role = roleOf(el);
          if (role === 'generic_clickable') role = 'generic';
          if (recRole && recRole !== 'text') {
            const v = role === recRole ? 1 : role && group && REID_GROUP[role] === group ? 0.5 : 0;
            sum += 1.5 * v; wsum += 1.5;
            if (dbg) note('role', 1.5, v);
          }
          let anchored = !!attrs.id && el.id === attrs.id;
          for (let k = 0; k < attrKeys.length; k++) {
            const a = attrKeys[k], v = el.getAttribute(a);
            // anchored: something other than its text says it is the same
            // element (an id, test id, name, for or href kept; the same place)
            const same = v !== null && (a === 'href' ? hrefPath(v) === recHref : v === attrs[a]);
            if (same) { sum += attrW[k]; if (attrAnchor[k]) anchored = true; }
            wsum += attrW[k];
            if (dbg) note(a, attrW[k], same ? 1 : 0);
          }
          const raw = el.textContent;
          if (recText || raw) {
            // (a container's whole text is not read word by word: it is no
            // match; the same text, a column of "Delete", is read once)
            let v = raw === recText ? 1 : textMemo.get(raw);
            if (v === undefined) {
              v = raw.length > 4 * recText.length + 400 ? 0 : textSim(recText, norm(raw).slice(0, 500));
              if (textMemo.size < REID_MEMO_MAX) textMemo.set(raw, v);
            }
            sum += 1.5 * v; wsum += 1.5;
            if (dbg) note('text', 1.5, v);
          }
          list.push({ el, r: null, x: 0, y: 0, role, anchored, sum, wsum, cheap: sum / wsum, dbg });
        }
        if (list.length <= REID_ALL_BOXES || !hasBox) {
          for (const c of list) if (place(c)) out.push(c);
          continue;
        }
        // Many candidates (a long table): boxes are read only around the
        // recorded place, found by bisecting the candidates in document
        // order by their top (a list or table runs top to bottom); the
        // others score no place (they are far, or out of order).
        let lo = 0, hi = list.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          const r = list[mid].el.getBoundingClientRect();
          if (r.top + r.height / 2 < cy) lo = mid + 1; else hi = mid;
        }
        const from = Math.max(0, lo - REID_ALL_BOXES / 2), to = Math.min(list.length, lo + REID_ALL_BOXES / 2);
        for (let k = 0; k < list.length; k++) {
          const c = list[k];
          if (k >= from && k < to) { if (place(c)) out.push(c); } else out.push(c);
        }
      }
      return out;
    };
    let cands = level1([document].concat(frameDocs()));
    // Open shadow roots are walked for only when the document has nothing
    // like the node: finding them means visiting every element.
    if (!cands.some((c) => c.cheap >= 0.5)) cands = cands.concat(level1(otherRoots().filter((r) => r instanceof ShadowRoot)));
    if (!cands.length) return { reason: 'no-candidate' };
    cands.sort((a, b) => b.cheap - a.cheap);
    // the best, their boxes read (a candidate with none is not shown)
    const wide = [];
    for (let k = 0; k < cands.length && wide.length < REID_WIDE; k++) if (place(cands[k])) wide.push(cands[k]);
    if (!wide.length) return { reason: 'no-candidate' };
    for (const c of wide) {
      const f = (w, v, k) => { c.sum += w * v; c.wsum += w; if (c.dbg) c.dbg[k] = [w, Math.round(v * 100) / 100]; };
      if (recWords.size) f(1, setSim(recWords, classSet(c.el)), 'class');
      if (recNear.length) { const et = entryText(c.el); f(1, et ? nearSim(recNear, [et]) : 0, 'entry'); }
      if (hasBox) {
        const r = c.r;
        f(0.5, (Math.min(r.width, box[2]) / (Math.max(r.width, box[2]) || 1)) * (Math.min(r.height, box[3]) / (Math.max(r.height, box[3]) || 1)), 'size');
        if (Math.abs(c.x - box[0]) <= 4 && Math.abs(c.y - box[1]) <= 4 && Math.abs(r.height - box[3]) <= 2) c.anchored = true;
      }
      c.cheap = c.sum / (c.wsum || 1);
    }
    wide.sort((a, b) => b.cheap - a.cheap);
    // Pass 2: names, neighbours, containers of the best few. The context's
    // words are weighed by how much they tell the candidates apart: a word
    // every candidate has near it (a column's header, "More actions" in
    // every row) says nothing; the row's own name does.
    const top = wide.slice(0, REID_TOP);
    const recCtx = new Set();
    if (ctx) {
      for (const t of recNear) for (const w of wordSet(t)) recCtx.add(w);
      for (const n of ctx.path || []) for (const w of wordSet(n.name)) recCtx.add(w);
    }
    const memo = {};
    for (const c of top) {
      c.near = nearTexts(c.el);
      c.path = pathOf(c.el, memo);
      c.words = new Set();
      for (const t of c.near) for (const w of wordSet(t)) c.words.add(w);
      for (const n of c.path) for (const w of wordSet(n.name)) c.words.add(w);
    }
    // a context word counts by how few of the candidates have it near them
    const telling = new Map();
    for (const w of recCtx) {
      const df = top.reduce((k, c) => k + (c.words.has(w) ? 1 : 0), 0);
      const weight = top.length < 2 ? 1 : 1 - (df - 1) / (top.length - 1);
      if (weight > 0) telling.set(w, weight);
    }
    let tellingSum = 0;
    for (const v of telling.values()) tellingSum += v;
    // the recorded neighbour phrases, whole (case aside), that only one of
    // the candidates has near it: a row's own first cell
    const lower = (list) => list.map((t) => t.toLowerCase());
    for (const c of top) c.phrases = new Set(lower(c.near));
    const phrases = [];
    let phraseSum = 0;
    for (const p of new Set(lower(recNear))) {
      const df = top.reduce((k, c) => k + (c.phrases.has(p) ? 1 : 0), 0);
      if (df === 1 && top.length > 1) { phrases.push([p, 1]); phraseSum += 1; }
    }
    const recPath = ((ctx && ctx.path) || []).map((n) => ({ tag: n.tag, role: n.role }));
    for (const c of top) {
      const f = (w, v, k) => { c.sum += w * v; c.wsum += w; if (c.dbg) c.dbg[k] = [w, Math.round(v * 100) / 100]; };
      const d = describeNode(c.el, {});
      const name = d ? norm(d.full !== undefined ? d.full : d.name) : '';
      if (rec.name || name) f(2, textSim(rec.name || '', name), 'name');
      if (tellingSum > 0) {
        let got = 0;
        for (const [w, v] of telling) if (c.words.has(w)) got += v;
        f(4, got / tellingSum, 'context');
      }
      if (phraseSum > 0) {
        let got = 0;
        for (const [p, w] of phrases) if (c.phrases.has(p)) got += w;
        f(3, got / phraseSum, 'phrases');
      }
      if (recPath.length) f(0.5, pathSim(recPath, c.path), 'path');
      if (rec.color) f(0.25, colorOf(c.el) === rec.color ? 1 : 0, 'color');
      c.score = c.sum / (c.wsum || 1);
      if (c.dbg) c.dbg = { name, near: c.near, f: c.dbg };
    }
    top.sort((a, b) => b.score - a.score);
    const out = { candidates: cands.length };
    if (REID_DEBUG.on) out.debug = top.map((c) => Object.assign({ score: c.score }, c.dbg));
    out.best = Object.assign(describeCached(top[0].el, { stands: memo.stands }), { score: Math.round(top[0].score * 1000) / 1000, anchored: top[0].anchored });
    if (top.length > 1) {
      // the runner-up is only named: its role and name
      const el = top[1].el;
      let d = describeNode(el, {});
      if (!d || d.clickable) { const er = entryRole(el); if (er) d = { role: er, name: '' }; }
      if (!d) d = { role: 'text', name: '' };
      out.second = { ref: '', node: { role: d.role, name: d.name, ref: '', states: {} }, ancestors: [], visible: true, score: Math.round(top[1].score * 1000) / 1000 };
    }
    return out;
  }

  // frameDocs lists the documents of same-origin frames, nested ones too.
  function frameDocs() {
    const out = [];
    const stack = [document];
    while (stack.length) {
      const doc = stack.pop();
      for (const t of ['iframe', 'frame']) {
        for (const f of doc.getElementsByTagName(t)) {
          try { const d = f.contentDocument; if (d) { out.push(d); stack.push(d); } } catch (e) { /* cross-origin */ }
        }
      }
    }
    return out;
  }

  // ---- describing elements for errors ---------------------------------------
  const CONTAINERS = new Set(['dialog', 'alertdialog', 'menu', 'listbox', 'banner', 'navigation', 'region', 'form', 'complementary', 'contentinfo', 'toolbar', 'tooltip', 'alert', 'status']);
  function describe(el, under) {
    // over, when el lies over the element under: the outermost of el's
    // ancestors that does not hold under too (the layer on top)
    let over = el;
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null) {
      if (e.nodeType !== 1) continue;
      if (under && composedContains(e, under)) break;
      over = e;
      let r = roleOf(e);
      if (r && !PASS_THROUGH.has(r)) {
        if (r === 'generic_clickable') r = 'generic';
        const n = cutText(accName(e, r === 'generic' ? 'generic_clickable' : r), DEFAULT_MAX_TEXT);
        const rec = refs.byEl.get(e);
        const out = { role: r, name: n, ref: rec ? rec.ref : '' };
        if (!CONTAINERS.has(r)) {
          for (let a = e.parentElement || (e.getRootNode && e.getRootNode().host) || null; a; a = a.parentElement || (a.getRootNode && a.getRootNode().host) || null) {
            const ar = roleOf(a);
            if (CONTAINERS.has(ar)) { const an = cutText(accName(a, ar), DEFAULT_MAX_TEXT); if (an) { out.in = { role: ar, name: an }; break; } }
          }
        }
        return out;
      }
    }
    el = over;
    let s = el.localName;
    if (el.id) s += '#' + el.id;
    else if (el.classList && el.classList.length) s += '.' + Array.from(el.classList).slice(0, 2).join('.');
    const out = { role: '', name: '', tag: s };

    // A role-less layer on top is most often a modal's backdrop: name the modal.
    const doc = el.ownerDocument;
    for (const m of doc.querySelectorAll('[aria-modal="true"], dialog[open]')) {
      if (m.checkVisibility && m.checkVisibility()) {
        const r = roleOf(m) || 'dialog';
        out.modal = { role: r, name: cutText(accName(m, r), DEFAULT_MAX_TEXT) };
        break;
      }
    }
    if (under && !out.modal) { const t = cutText(norm(el.innerText || el.textContent || ''), 60); if (t) out.text = t; }
    return out;
  }

  // ---- actionability --------------------------------------------------------
  function composedContains(parent, node) {
    for (let n = node; n; n = n.parentNode || n.host || null) if (n === parent) return true;
    return false;
  }

  function deepHit(x, y) {
    let doc = document, ox = 0, oy = 0;
    for (let guard = 0; guard < 20; guard++) {
      let el = doc.elementFromPoint(x - ox, y - oy);
      if (!el) return null;
      while (el.shadowRoot) {
        const inner = el.shadowRoot.elementFromPoint(x - ox, y - oy);
        if (!inner || inner === el) break;
        el = inner;
      }
      if (el.localName === 'iframe') {
        let d = null;
        try { d = el.contentDocument; } catch (e) { d = null; }
        if (d) {
          const r = el.getBoundingClientRect();
          ox += r.left + el.clientLeft; oy += r.top + el.clientTop;
          doc = d;
          continue;
        }
      }
      return el;
    }
    return null;
  }

  function inViewport(el) {
    const r = el.getBoundingClientRect();
    const win = el.ownerDocument.defaultView;
    return r.top >= 0 && r.left >= 0 && r.bottom <= win.innerHeight && r.right <= win.innerWidth;
  }

  // inBoxes says el's box lies inside the visible part of every scroll box
  // around it in its document (a box smaller than el: el's centre).
  function inBoxes(el) {
    const r = el.getBoundingClientRect();
    const doc = el.ownerDocument;
    for (let a = flatParent(el); a && a !== doc.documentElement && a !== doc.body; a = flatParent(a)) {
      if (a.scrollHeight <= a.clientHeight && a.scrollWidth <= a.clientWidth) continue;
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      const x0 = ar.left + a.clientLeft, y0 = ar.top + a.clientTop, x1 = x0 + a.clientWidth, y1 = y0 + a.clientHeight;
      if (r.width <= a.clientWidth ? r.left < x0 - 0.5 || r.right > x1 + 0.5 : (r.left + r.right) / 2 < x0 || (r.left + r.right) / 2 > x1) return false;
      if (r.height <= a.clientHeight ? r.top < y0 - 0.5 || r.bottom > y1 + 0.5 : (r.top + r.bottom) / 2 < y0 || (r.top + r.bottom) / 2 > y1) return false;
    }
    return true;
  }

  // SCROLL_ALIGN are the places a retry scrolls an element to when
  // something (a sticky header) lies over it where the last one put it.
  const SCROLL_ALIGN = ['center', 'end', 'start', 'nearest'];

  // scrollIntoViewDeep scrolls every scroll box around el, the page and the
  // frames around it, as a person would, until el is in view; force (a
  // retry number) scrolls even an element in view, to another place.
  function scrollIntoViewDeep(el, force) {
    const align = SCROLL_ALIGN[(force || 0) % SCROLL_ALIGN.length];
    if (force || !inViewport(el) || !inBoxes(el)) el.scrollIntoView({ block: align, inline: align, behavior: 'instant' });
    let win = el.ownerDocument.defaultView;
    while (win && win !== window.top && win.frameElement) {
      const f = win.frameElement;
      if (!inViewport(f) || !inBoxes(f)) f.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      win = f.ownerDocument.defaultView;
    }
  }

  // Two animation frames: the first can fire within the frame whose time the
  // previous measurement already used.
  const oneFrame = () => new Promise((r) => { requestAnimationFrame(() => r()); setT(r, 1000); });
  // animated says whether a CSS animation or transition runs on el or an
  // ancestor (which would move it).
  function animated(el) {
    const doc = el.ownerDocument;
    if (!doc.getAnimations) return true;
    for (const a of doc.getAnimations()) {
      if (a.playState !== 'running') continue;
      const t = a.effect && a.effect.target;
      if (t && (t === el || (t.contains && t.contains(el)))) return true;
    }
    return false;
  }
  const frame = () => new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(() => r())); setT(r, 1000); });

  function isDisabled(el) {
    if (typeof el.disabled === 'boolean' && el.matches(':disabled')) return true;
    for (let e = el; e; e = e.parentElement) if (e.getAttribute('aria-disabled') === 'true') return true;
    return false;
  }

  // actionable waits until the element behind ref can take the action.
  // o: {timeout ms, enabled, editable, hit, scroll, hovered}. It answers
  // {ok, x, y} or {ok:false, reason, detail, coveredBy}. An element hidden
  // only until a container is hovered (see hoverContainer) answers at once,
  // unless o.hovered says the caller already did: {ok:false, reason:
  // 'hover', x, y, over: {text, word}} with the point to move the mouse to.
  async function actionable(ref, o) {
    const deadline = now() + (o.timeout || 5000);
    let last = null, info = null, covers = 0;
    for (;;) {
      const el = resolve(ref);
      if (el) { const rec = refs.byEl.get(el); if (rec) info = { role: rec.role, name: rec.name }; }
      const fail = (reason, detail, extra) => Object.assign({ ok: false, reason, detail: detail || '' }, info || {}, extra || {});
      if (!el) return fail('detached', 'the element is no longer known; take a new snapshot');
      let why = '';
      if (!el.isConnected) { last = fail('detached', 'the element was removed from the page'); }
      else if (!el.checkVisibility({ visibilityProperty: true }) || hiddenAncestor(el)) {
        const a = o.hovered ? null : hoverContainer(el);
        if (a) {
          if (o.scroll !== false) scrollIntoViewDeep(a);
          const r = a.getBoundingClientRect(), off = frameOffset(a);
          if (r.width > 0 && r.height > 0) return Object.assign(fail('hover', ''), { x: off.x + r.left + r.width / 2, y: off.y + r.top + r.height / 2, over: containerWords(a) });
        }
        last = fail('hidden', hiddenWhy(el));
      }
      else if ((why = unseenWhy(el, true))) last = fail('hidden', why);
      else {
        // a retry after something covered it scrolls it elsewhere, as a
        // person scrolls a field out from under a sticky header
        if (o.scroll !== false) scrollIntoViewDeep(el, covers < SCROLL_ALIGN.length ? covers : 0);
        const r1 = el.getBoundingClientRect();
        // A see-through control drawn by its label (TodoMVC's toggle all)
        // is acted on where it is drawn, below; its own opacity is not the
        // person's view of it.
        if ((why = opacityWhy(el)) && !(o.hit && (drawnLabel(el, r1) || labelDrawn(el)))) {
          // see-through until a container is hovered: hover it first
          const a = o.hovered ? null : hoverContainer(el);
          const r = a && a.getBoundingClientRect(), off = a && frameOffset(a);
          if (a && r.width > 0 && r.height > 0) return Object.assign(fail('hover', ''), { x: off.x + r.left + r.width / 2, y: off.y + r.top + r.height / 2, over: containerWords(a) });
          last = fail('hidden', why);
        }
        else if (r1.width === 0 || r1.height === 0) last = fail('hidden', 'the element has no size');
        else if (o.enabled && isDisabled(el)) last = fail('disabled', 'the element is disabled');
        else if (o.editable && (el.readOnly || el.getAttribute('aria-readonly') === 'true')) last = fail('readonly', 'the element is read-only');
        else {
          // Still over two frame pairs: one pair can straddle the turn of a
          // back-and-forth animation and see the same position twice.
          const same = (a, b) => Math.abs(a.left - b.left) <= 0.5 && Math.abs(a.top - b.top) <= 0.5 && Math.abs(a.width - b.width) <= 0.5 && Math.abs(a.height - b.height) <= 0.5;
          // Without a CSS animation or transition on the element or around
          // it, one frame tells: script-driven movement runs before our frame
          // callback. Animated elements get the slower two-pair check.
          let still = false, r2 = r1;
          if (!animated(el)) {
            await oneFrame();
            if (el.isConnected) { r2 = el.getBoundingClientRect(); still = same(r1, r2); }
          } else {
            await frame();
            if (el.isConnected) {
              const rm = el.getBoundingClientRect();
              r2 = rm;
              if (same(r1, rm)) { await frame(); if (el.isConnected) { r2 = el.getBoundingClientRect(); still = same(rm, r2); } }
            }
          }
          if (!el.isConnected) last = fail('detached', 'the element was removed from the page');
          else if (!still) last = fail('moving', 'the element is still moving (animating)');
          else {
            const off = frameOffset(el);
            const x = off.x + r2.left + r2.width / 2, y = off.y + r2.top + r2.height / 2;
            if (!o.hit) return { ok: true, x, y };
            // A control a person cannot see or click (a pixel wide, clipped
            // away) is acted on where it is drawn: its label.
            const drawn = drawnLabel(el, r2);
            if (drawn) {
              const rl = drawn.getBoundingClientRect(), offl = frameOffset(drawn);
              const lx = offl.x + rl.left + rl.width / 2, ly = offl.y + rl.top + rl.height / 2;
              const lh = deepHit(lx, ly);
              if (lh && composedContains(drawn, lh)) return { ok: true, x: lx, y: ly, standIn: 'its label' };
            }
            const hit = deepHit(x, y);
            if (hit && (composedContains(el, hit) || (el.labels && Array.from(el.labels).some((l) => composedContains(l, hit))))) return { ok: true, x, y };
            // A transparent checkbox drawn over by a sibling (the box a
            // person sees): the click lands on what is drawn.
            if (hit && drawnOver(el, hit)) return { ok: true, x, y, standIn: 'what is drawn over it' };
            if (!hit) last = fail('hidden', 'the element is outside the viewport');
            else { last = fail('covered', '', { coveredBy: describe(hit, el) }); covers++; }
          }
        }
      }
      if (now() >= deadline) return Object.assign(last, { timedOut: true });
      await new Promise((r) => setT(r, 30));
    }
  }

  // drawnLabel is the label that draws el, a checkbox or radio input a
  // person cannot see or click: one a pixel or two wide or tall, or clipped
  // away (clip: rect(0 0 0 0), clip-path: inset(50%)). It is one of el's
  // labels that has a size, or else a <label> beside el whose for names no
  // element (the app listens to clicks on it); null when el is drawn itself.
  // labelDrawn: a checkbox or radio made see-through whose label a person
  // sees (TodoMVC's toggle all): the label is the control they click.
  function labelDrawn(el) {
    if (el.localName !== 'input' || (el.type !== 'checkbox' && el.type !== 'radio') || !el.labels) return false;
    return Array.from(el.labels).some((l) => { const r = l.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !opacityWhy(l); });
  }

  function drawnLabel(el, r) {
    if (el.localName !== 'input' || (el.type !== 'checkbox' && el.type !== 'radio')) return null;
    const cs = getComputedStyle(el);
    const clipped = cs.clipPath === 'inset(50%)' || /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(cs.clip);
    if (r.width > 2 && r.height > 2 && !clipped) return null;
    const sized = (l) => { const b = l.getBoundingClientRect(); return b.width > 2 && b.height > 2 && l.checkVisibility({ visibilityProperty: true }); };
    if (el.labels) for (const l of el.labels) if (sized(l)) return l;
    for (const s of [el.nextElementSibling, el.previousElementSibling]) {
      if (s && s.localName === 'label' && s.hasAttribute('for') && s.control === null && sized(s)) return s;
    }
    return null;
  }

  // drawnOver says hit, the element at the centre of el, a transparent
  // checkbox or radio input, is what draws it: an element beside it in its
  // parent (or its label) that is no control of its own.
  function drawnOver(el, hit) {
    if (el.localName !== 'input' || (el.type !== 'checkbox' && el.type !== 'radio')) return false;
    let op = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) op *= Number(getComputedStyle(e).opacity);
    if (op > 0.05) return false;
    const p = el.parentElement;
    if (!p || !composedContains(p, hit)) return false;
    for (let e = hit; e && e !== p; e = e.parentElement) if (e.matches(CONTROL_SEL)) return false;
    return true;
  }

  function hiddenAncestor(el) {
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null) {
      if (e.nodeType === 1 && e.getAttribute('aria-hidden') === 'true') return true;
    }
    return false;
  }

  function hiddenWhy(el) {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null) {
      const cs = getComputedStyle(e);
      const who = e === el ? 'the element' : 'an ancestor (' + e.localName + ')';
      if (cs.display === 'none') return who + ' has display: none';
      if (e.hidden) return who + ' has the hidden attribute';
      if (e.getAttribute('aria-hidden') === 'true') return who + ' has aria-hidden=true';
    }
    const d = closedDetails(el);
    if (d) return 'the element is inside a closed <details>' + detailsWords(d);
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') return 'the element has visibility: ' + cs.visibility;
    return 'the element is not visible';
  }

  // ---- visibility as a person sees it ----------------------------------------
  // A person sees an element when it is rendered (not display: none, not in
  // a closed <details>, not under content-visibility: hidden), not
  // visibility: hidden, not see-through (opacity 0, its own or an
  // ancestor's), not inert, and some of its box is left after every
  // ancestor that clips it (overflow other than visible, clip, clip-path)
  // and lies inside the area of the page one can scroll to; a scroll box
  // clips at its scrollable area, since a person scrolls it. With cover
  // (see seenWhy), one of the points of its box must also be on top.
  // unseenWhy answers why not, '' when it is seen; it is the cheap part,
  // without the cover.

  // flatParent is e's parent in the flat tree (a slotted element's slot, a
  // shadow root's host), within one document.
  const flatParent = (e) => e.assignedSlot || e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const who = (e, el) => e === el ? 'the element' : 'an ancestor (' + tagWords(e) + ')';
  function tagWords(e) {
    let s = e.localName;
    if (e.id) s += '#' + e.id;
    else if (e.classList && e.classList.length) s += '.' + Array.from(e.classList).slice(0, 2).join('.');
    return s;
  }

  // closedDetails is the closed <details> whose hidden content holds el
  // (its own summary is shown), or null.
  function closedDetails(el) {
    for (let c = el, e = flatParent(el); e; c = e, e = flatParent(e)) {
      if (e.localName === 'details' && !e.open && !(c.localName === 'summary' && e.querySelector(':scope > summary') === c)) return e;
    }
    return null;
  }
  function detailsWords(d) {
    const sm = d.querySelector(':scope > summary');
    const t = sm ? cutText(norm(sm.textContent), 60) : '';
    return t ? ' ("' + t + '")' : '';
  }

  // inertOne is el or its nearest ancestor that is inert, or null.
  function inertOne(el) {
    for (let e = el; e; e = flatParent(e)) if (e.inert) return e;
    return null;
  }

  // transparentOne is el or the ancestor that makes it see-through
  // (opacity: 0), or null.
  // A native input or select made see-through over its own drawing (a
  // styled checkbox, switch or file button: the input fills the box that
  // draws it) is seen as that drawing, as a person clicks it.
  function transparentOne(el) {
    if (!el.checkVisibility || el.checkVisibility({ opacityProperty: true })) return null;
    for (let e = el; e; e = flatParent(e)) {
      if (getComputedStyle(e).opacity !== '0') continue;
      if (e === el && (el.localName === 'input' || el.localName === 'select')) {
        const p = flatParent(el);
        if (p && p.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
          const r = el.getBoundingClientRect(), pr = p.getBoundingClientRect();
          const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
          if (cx >= pr.left && cx <= pr.right && cy >= pr.top && cy <= pr.bottom && pr.width > 0 && pr.height > 0) return null;
          // or over the label beside it that draws it (TodoMVC's toggle all
          // in its angular and preact builds: the label's for names no id,
          // the chevron it draws lies over the input, which takes the click)
          for (const lb of [el.nextElementSibling, el.previousElementSibling]) {
            if (!lb || lb.localName !== 'label' || !lb.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
            const lr = lb.getBoundingClientRect();
            if (cx >= lr.left && cx <= lr.right && cy >= lr.top && cy <= lr.bottom && lr.width > 0 && lr.height > 0) return null;
          }
        }
      }
      return e;
    }
    return null;
  }

  // FIXED_CB says a computed style makes its element the containing block
  // of fixed descendants (and so of absolute ones).
  function fixedCB(cs) {
    return cs.transform !== 'none' || cs.perspective !== 'none' || cs.filter !== 'none' || cs.backdropFilter !== 'none' ||
      (cs.contain !== 'none' && /paint|layout|strict|content/.test(cs.contain)) || /transform|perspective|filter/.test(cs.willChange);
  }

  // zeroClip says a computed style's clip or clip-path leaves nothing.
  function zeroClip(cs) {
    const c = cs.clip;
    if (c && c !== 'auto' && (cs.position === 'absolute' || cs.position === 'fixed')) {
      const m = /rect\(\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px\s*\)/.exec(c);
      if (m && (+m[2] <= +m[4] || +m[3] <= +m[1])) return true;
    }
    const cp = cs.clipPath;
    return cp !== 'none' && /^inset\((50|100)%\)$|^circle\(0(px)?( at [^)]*)?\)$/.test(cp);
  }

  // clipWhy intersects el's box with what clips it in its document and in
  // the frames around it; it answers why nothing is left, '' when some is.
  function clipWhy(el) {
    const r = el.getBoundingClientRect();
    let l = r.left, t = r.top, rt = r.right, b = r.bottom;
    if (r.width <= 0 || r.height <= 0) return 'the element has no size';
    let e = el, pos = getComputedStyle(el).position;
    if (zeroClip(getComputedStyle(el))) return 'the element is clipped to nothing (' + (getComputedStyle(el).clipPath !== 'none' ? 'clip-path' : 'clip') + ')';
    for (;;) {
      const doc = e.ownerDocument, win = doc.defaultView;
      for (let a = flatParent(e); a && a !== doc.documentElement && a !== doc.body; a = flatParent(a)) {
        const cs = getComputedStyle(a);
        if (cs.display === 'contents') continue;
        if (zeroClip(cs)) return who(a, el) + ' is clipped to nothing';
        const holds = pos === 'fixed' ? fixedCB(cs) : pos === 'absolute' ? cs.position !== 'static' || fixedCB(cs) : true;
        if (!holds) continue;
        pos = cs.position;
        const ox = cs.overflowX, oy = cs.overflowY;
        if (ox === 'visible' && oy === 'visible') continue;
        const ar = a.getBoundingClientRect();
        const cl = ar.left + a.clientLeft, ct = ar.top + a.clientTop;
        // a box a person scrolls clips at its scrollable area; what is
        // left there is then taken as scrolled into the box's view
        if (ox !== 'visible') {
          const scroll = ox === 'auto' || ox === 'scroll';
          const x0 = scroll ? cl - a.scrollLeft : cl, x1 = x0 + (scroll ? a.scrollWidth : a.clientWidth);
          l = Math.max(l, x0); rt = Math.min(rt, x1);
          if (scroll && rt - l >= 1) { const w = Math.min(rt - l, a.clientWidth); l = Math.min(Math.max(l, cl), cl + a.clientWidth - w); rt = l + w; }
        }
        if (oy !== 'visible') {
          const scroll = oy === 'auto' || oy === 'scroll';
          const y0 = scroll ? ct - a.scrollTop : ct, y1 = y0 + (scroll ? a.scrollHeight : a.clientHeight);
          t = Math.max(t, y0); b = Math.min(b, y1);
          if (scroll && b - t >= 1) { const hh = Math.min(b - t, a.clientHeight); t = Math.min(Math.max(t, ct), ct + a.clientHeight - hh); b = t + hh; }
        }
        if (rt - l < 1 || b - t < 1) return who(a, el) + ' clips it away (overflow: ' + (ox === oy ? ox : ox + ' ' + oy) + ')';
      }
      // the page: fixed boxes stay in the viewport; the rest lies in the
      // area one can scroll to (the viewport where the root hides overflow)
      const se = doc.scrollingElement || doc.documentElement, rcs = getComputedStyle(doc.documentElement), bcs = doc.body ? getComputedStyle(doc.body) : rcs;
      const hideX = /hidden|clip/.test(rcs.overflowX) || (rcs.overflowX === 'visible' && /hidden|clip/.test(bcs.overflowX));
      const hideY = /hidden|clip/.test(rcs.overflowY) || (rcs.overflowY === 'visible' && /hidden|clip/.test(bcs.overflowY));
      const vw = win.innerWidth, vh = win.innerHeight;
      const x0 = pos === 'fixed' || hideX ? 0 : -se.scrollLeft, x1 = pos === 'fixed' || hideX ? vw : x0 + Math.max(se.scrollWidth, vw);
      const y0 = pos === 'fixed' || hideY ? 0 : -se.scrollTop, y1 = pos === 'fixed' || hideY ? vh : y0 + Math.max(se.scrollHeight, vh);
      l = Math.max(l, x0); rt = Math.min(rt, x1); t = Math.max(t, y0); b = Math.min(b, y1);
      if (rt - l < 1 || b - t < 1) return pos === 'fixed' ? 'the element is outside the viewport, fixed where no one can scroll to it' : 'the element is outside the page, where no one can scroll to it';
      // a frame: what is left, in the frame element's box
      const fe = win.frameElement;
      if (!fe || win === window.top) return '';
      const fr = fe.getBoundingClientRect(), ox = fr.left + fe.clientLeft, oy = fr.top + fe.clientTop;
      l = Math.max(l + ox, ox); t = Math.max(t + oy, oy); rt = Math.min(rt + ox, ox + fe.clientWidth); b = Math.min(b + oy, oy + fe.clientHeight);
      if (rt - l < 1 || b - t < 1) return 'the element is outside its frame\'s box';
      e = fe; pos = getComputedStyle(fe).position;
    }
  }

  // boxedOf is the element whose box stands for el: an option of a closed
  // select stands for its select; a display: contents element for its
  // first child element with a box.
  function boxedOf(el) {
    if (el.localName === 'option' || el.localName === 'optgroup') { const sel = el.closest('select'); if (sel) return sel; }
    for (let i = 0; i < 8 && el.nodeType === 1 && getComputedStyle(el).display === 'contents'; i++) {
      let c = null;
      for (const k of childNodesOf(el)) if (k.nodeType === 1 && getComputedStyle(k).display !== 'none') { c = k; break; }
      if (!c) break;
      el = c;
    }
    return el;
  }

  // unseenWhy says why a person does not see el (rendered or not), '' when
  // they do; the cover is not judged.
  // they do; the cover is not judged, nor (noOpacity) whether it is
  // see-through: a page may fade an element in once it is scrolled to.
  function unseenWhy(el, noOpacity) {
    el = boxedOf(el);
    if (!el.checkVisibility({ visibilityProperty: true }) || hiddenAncestor(el)) return hiddenWhy(el);
    const i = inertOne(el);
    if (i) return who(i, el) + ' is inert';
    if (!noOpacity) { const o = transparentOne(el); if (o) return who(o, el) + ' has opacity: 0'; }
    return clipWhy(el);
  }
  function opacityWhy(el) {
    const o = transparentOne(boxedOf(el));
    return o ? who(o, el) + ' has opacity: 0' : '';
  }

  // coverOf is what lies over el at every one of nine points of its box
  // that are in the viewport (the element must have been scrolled to), or
  // null when any of them shows el (or its label), or none is in view.
  function coverOf(el) {
    el = boxedOf(el);
    const r = el.getBoundingClientRect(), off = frameOffset(el);
    const vw = window.innerWidth, vh = window.innerHeight;
    let first = null, tried = 0;
    for (const fy of [0.5, 0.1, 0.9]) {
      for (const fx of [0.5, 0.1, 0.9]) {
        const x = off.x + r.left + r.width * fx, y = off.y + r.top + r.height * fy;
        if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
        tried++;
        const hit = deepHit(x, y);
        if (!hit) continue;
        if (composedContains(el, hit) || composedContains(hit, el) || (el.labels && Array.from(el.labels).some((lb) => composedContains(lb, hit)))) return null;
        if (first === null) first = hit;
      }
    }
    return tried > 0 ? first : null;
  }

  // seen judges el as a person looking at the page: it scrolls el into
  // view (every scroll box around it, then the page) and answers
  // {seen: true} or {seen: false, reason: 'hidden'|'covered', detail,
  // coveredBy}.
  function seen(ref) {
    const el = resolve(ref);
    if (!el || !el.isConnected) return { seen: false, reason: 'detached', detail: 'the element is no longer on the page' };
    const rec = refs.byEl.get(el);
    if (rec) { const r = seenOf(el); return Object.assign(r, r.seen ? {} : { role: rec.role, name: rec.name }); }
    return seenOf(el);
  }
  // holds says whether the element behind outer holds the one behind inner.
  function holds(outer, inner) {
    const a = resolve(outer), b = resolve(inner);
    if (!a || !b || !a.isConnected || !b.isConnected) return { known: false, in: false };
    return { known: true, in: a !== b && composedContains(a, b) };
  }
  function seenOf(el) {
    let why = unseenWhy(el, true);
    if (why) return { seen: false, reason: 'hidden', detail: why };
    scrollIntoViewDeep(boxedOf(el));
    if ((why = opacityWhy(el))) return { seen: false, reason: 'hidden', detail: why };
    const c = coverOf(el);
    if (c) return { seen: false, reason: 'covered', detail: '', coveredBy: describe(c, boxedOf(el)) };
    return { seen: true };
  }

  // ---- element operations used by actions ----------------------------------
  function focus(ref) {
    const el = resolve(ref);
    if (!el) return false;
    el.focus({ preventScroll: true });
    return true;
  }

  function clearAndFocus(ref) {
    const el = resolve(ref);
    if (!el) return 'detached';
    el.focus({ preventScroll: true });
    if (el.localName === 'input' || el.localName === 'textarea') {
      const t = el.type;
      if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(t)) return 'set-value';
      if (['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden'].includes(t)) return 'not-editable';
      el.select();
      return el.value === '' ? 'empty' : 'selected';
    }
    if (el.isContentEditable) {
      const r = el.ownerDocument.createRange();
      r.selectNodeContents(el);
      const s = el.ownerDocument.defaultView.getSelection();
      s.removeAllRanges(); s.addRange(r);
      return el.textContent === '' ? 'empty' : 'selected';
    }
    return 'not-editable';
  }

  function setValue(ref, value) {
    const el = resolve(ref);
    if (!el) return false;
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }

  // changed fires change on the input or text area behind ref, as leaving
  // a field whose value a person changed does.
  function changed(ref) {
    const el = resolve(ref);
    if (!el || (el.localName !== 'input' && el.localName !== 'textarea')) return false;
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }

  function valueOf(ref) {
    const el = resolve(ref);
    if (!el) return null;
    if ('value' in el) return el.value;
    return hasShadowBelow(el) ? composedTextContent(el) : el.textContent;
  }

  // attributeOf reads the attribute called name on the element behind ref:
  // { found: false } when ref names no element, else its value (null when
  // the element has no such attribute). Nothing else in this script reads
  // an attribute it is told the name of (tests read ground truth with it).
  function attributeOf(ref, name) {
    const el = resolve(ref);
    if (!el) return { found: false, value: null };
    return { found: true, value: el.getAttribute(String(name)) };
  }

  // hasShadowBelow says whether el is or contains a shadow host or a slot:
  // only then does its text differ from its composed (rendered) text.
  function hasShadowBelow(el) {
    if (el.shadowRoot || el.localName === 'slot') return true;
    for (const e of el.querySelectorAll('*')) if (e.shadowRoot || e.localName === 'slot') return true;
    return false;
  }

  // composedTextContent is textContent over the composed tree: shadow roots
  // in place of their hosts' children, slots' assigned nodes in place of
  // their fallback. It walks with an explicit stack.
  function composedTextContent(el) {
    let out = '';
    const stack = [{ kids: childNodesOf(el), i: 0 }];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.kids.length) { stack.pop(); continue; }
      const c = f.kids[f.i++];
      if (c.nodeType === 3) out += c.data;
      else if (c.nodeType === 1 && c.localName !== 'style' && c.localName !== 'script') stack.push({ kids: childNodesOf(c), i: 0 });
    }
    return out;
  }

  // textOf is an element's rendered text as innerText gives it, with the
  // content of open shadow roots (nested too) and slotted nodes in place,
  // as a reader sees it. Without shadow roots below, it is innerText.
  function textOf(ref) {
    const el = resolve(ref);
    if (!el) return null;
    if (!hasShadowBelow(el)) return el.innerText || el.textContent || '';
    return composedInnerText(el) || composedTextContent(el);
  }

  // composedInnerText follows innerText's rules (required line breaks
  // around blocks, two around paragraphs, a tab between cells, hidden
  // content left out) over the composed tree. Subtrees with no shadow root
  // below are read by innerText itself, so light content reads exactly as
  // it does in the light DOM.
  function composedInnerText(el) {
    const parts = []; // strings, and numbers for required line breaks
    const stack = [{ kids: childNodesOf(el), i: 0, after: null }];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.kids.length) { stack.pop(); if (f.after !== null) parts.push(f.after); continue; }
      const c = f.kids[f.i++];
      if (c.nodeType === 3) {
        if (c.parentElement && getComputedStyle(c.parentElement).visibility !== 'visible') continue;
        const t = c.data.replace(/[ \t\n\r\f]+/g, ' ');
        if (t) parts.push(t);
        continue;
      }
      if (c.nodeType !== 1 || SKIP_TAGS.has(c.localName) || c.localName === 'style' || c.localName === 'template') continue;
      if (c.localName === 'br') { parts.push('\n'); continue; }
      const cs = getComputedStyle(c);
      if (cs.display === 'none') continue;
      const cell = cs.display === 'table-cell';
      const lb = c.localName === 'p' ? 2 : cell ? 0 : cs.display.startsWith('inline') || cs.display === 'contents' ? 0 : 1;
      if (lb) parts.push(lb);
      if (cell && parts.length && typeof parts[parts.length - 1] === 'string') parts.push('\t');
      if (!c.shadowRoot && c.localName !== 'slot' && !hasShadowBelow(c)) {
        const t = c.innerText;
        if (t) parts.push({ raw: t });
        if (lb) parts.push(lb);
        continue;
      }
      stack.push({ kids: childNodesOf(c), i: 0, after: lb || null });
    }
    // join: a run of required line breaks becomes its largest count of
    // newlines, dropped at the start and the end; spaces next to a line
    // break go, and runs of spaces become one.
    let out = '', pend = 0, lineStart = true;
    for (const p of parts) {
      if (typeof p === 'number') { pend = Math.max(pend, p); continue; }
      let t = typeof p === 'string' ? p : p.raw;
      if (typeof p === 'string') {
        if (lineStart || pend) t = t.replace(/^ +/, '');
        if (t === '') continue;
      }
      if (pend && out !== '') { out = out.replace(/ +$/, '') + '\n'.repeat(pend); }
      pend = 0;
      if (typeof p === 'string' && out.endsWith(' ') && t.startsWith(' ')) t = t.slice(1);
      out += t;
      lineStart = out.endsWith('\n');
    }
    return out.replace(/ +$/, '');
  }

  // selectOption chooses the wanted options of the <select> behind ref
  // (by value, or by label whatever its case), and no other; with mode
  // 'add' or 'remove', in a select that takes several, it chooses them too,
  // or unchooses them, keeping the others as they are. It answers the
  // options chosen (mode: all of them, in the list's order).
  function selectOption(ref, wanted, mode) {
    const el = resolve(ref);
    if (!el) return { error: 'detached' };
    if (el.localName !== 'select') return { error: 'not-select' };
    const opts = Array.from(el.options);
    const label = (o) => norm(o.label || o.text);
    const pick = [];
    for (const w of wanted) {
      const nw = norm(w).toLowerCase();
      let o = opts.find((o) => o.value === w) || opts.find((o) => label(o).toLowerCase() === nw);
      if (!o) return { error: 'no-option', options: opts.map(label) };
      if (o.disabled) return { error: 'option-disabled', option: label(o) };
      pick.push(o);
    }
    if ((pick.length > 1 || mode) && !el.multiple) return { error: 'not-multiple' };
    if (mode === 'remove') {
      const off = pick.find((o) => !o.selected);
      if (off) return { error: 'not-chosen', option: label(off), options: opts.filter((o) => o.selected).map(label) };
    }
    for (const o of opts) o.selected = mode === 'add' ? o.selected || pick.includes(o) : mode === 'remove' ? o.selected && !pick.includes(o) : pick.includes(o);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { selected: (mode ? opts.filter((o) => o.selected) : pick).map(label) };
  }

  function checkedOf(ref) {
    const el = resolve(ref);
    if (!el) return null;
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    const a = el.getAttribute('aria-checked') || el.getAttribute('aria-pressed');
    if (a === null) return null;
    return a === 'true';
  }

  function info(ref) {
    const el = resolve(ref);
    if (!el) return null;
    const rec = refs.byEl.get(el);
    return rec ? { role: rec.role, name: rec.name, connected: el.isConnected } : null;
  }

  // ---- Playwright locators (e2e export playwright) ------------------------
  // playwrightLocator proposes, for the element behind ref, the locator a
  // Playwright author would write, in Playwright's order of preference:
  // getByRole(role, { name, exact }), getByLabel, getByPlaceholder,
  // getByTestId, getByText, and CSS last. Each candidate is counted on the
  // page the way Playwright resolves it (roles and names from this script's
  // accessible-name code; getByRole skips hidden elements, the others do
  // not), and only one that finds exactly this element is taken: Playwright
  // refuses a locator that matches several (strict mode). When none is
  // unique alone it is chained under a container (a row, list item, dialog,
  // article or landmark, filtered by text: hint.scope names it when the
  // description did, "in the Alice row"), then narrowed with .nth() as the
  // last resort. Random-looking ids, classes and test ids and the banned
  // attributes are never used.
  const PW_SCOPES = new Set(['row', 'listitem', 'dialog', 'alertdialog', 'article', 'region', 'form', 'navigation',
    'group', 'menu', 'listbox', 'tabpanel', 'banner', 'main', 'complementary', 'contentinfo', 'toolbar']);
  // pwShown is the element a locator is sought for while it is hidden only
  // until its container is hovered: it counts as shown (the export hovers
  // the container first).
  let pwShown = null;
  // pwDoc is the document a locator is counted in: the page's, or a
  // frame's for an element inside a frame.
  let pwDoc = document;
  function pwHidden(el) {
    for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null) {
      if (e.nodeType === 1 && e.getAttribute('aria-hidden') === 'true') return true;
    }
    return el.checkVisibility ? !el.checkVisibility({ visibilityProperty: true }) : false;
  }
  function pwRole(el) {
    const r = roleOf(el);
    return !r || r === 'generic' || r === 'generic_clickable' || r === 'iframe' ? '' : r;
  }
  function pwName(el, role) { return norm(accName(el, role, null)); }
  const pwLower = (s) => norm(s).toLowerCase();
  // pwAll lists the elements under root and in the open shadow roots under
  // it, as Playwright's locators see them.
  function pwAll(root) {
    const out = [];
    const walk = (r) => { for (const e of r.querySelectorAll('*')) { out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
    walk(root);
    if (root.shadowRoot) walk(root.shadowRoot);
    return out;
  }
  // pwCount returns the elements under root (a document or element) that
  // loc matches, as Playwright would match them.
  function pwMatches(root, loc) {
    const all = pwAll(root);
    const same = (v) => loc.exact ? norm(v) === loc.value : pwLower(v).includes(pwLower(loc.value));
    switch (loc.kind) {
      case 'role':
        return all.filter((e) => pwRole(e) === loc.role && (e === pwShown || !pwHidden(e)) &&
          (loc.name === undefined || loc.name === null || (loc.exact ? pwName(e, loc.role) === loc.name : pwLower(pwName(e, loc.role)).includes(pwLower(loc.name)))) &&
          (!loc.hasText || pwLower(e.textContent).includes(pwLower(loc.hasText))));
      case 'label':
        return all.filter((e) => {
          const l = e.getAttribute('aria-label');
          if (l !== null && same(l)) return true;
          return e.labels && e.labels.length && same(labelsText(e));
        });
      case 'placeholder':
        return all.filter((e) => same(e.getAttribute('placeholder') || '') && (e.localName === 'input' || e.localName === 'textarea'));
      case 'testid':
        return all.filter((e) => e.getAttribute(loc.attr) === loc.value);
      case 'text':
        return all.filter((e) => {
          if (SKIP_TAGS.has(e.localName)) return false;
          if (!same(e.textContent)) return false;
          for (const c of e.children) if (same(c.textContent)) return false;
          return true;
        });
      case 'css':
        return all.filter((e) => matches(e, loc.value));
    }
    return [];
  }
  // pwScopes returns the containers a scope {role, name, hasText} matches.
  function pwScopeMatches(sc) {
    return pwAll(pwDoc).filter((e) => pwRole(e) === sc.role && !pwHidden(e) &&
      (!sc.name || pwName(e, sc.role) === sc.name) &&
      (!sc.hasText || pwLower(e.textContent).includes(pwLower(sc.hasText))));
  }
  // pwTexts lists the short texts in a container outside el, in document
  // order: what a filter({ hasText }) can tell the container by.
  function pwTexts(box, el) {
    const out = [];
    const walker = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (el.contains(n)) continue;
      const p = n.parentElement;
      if (!p || SKIP_TAGS.has(p.localName) || pwHidden(p)) continue;
      const t = norm(n.data);
      if (t && t.length <= 60 && !out.includes(t)) out.push(t);
    }
    return out;
  }
  // playwrightLocator drops exact: true where the looser match (a case-
  // insensitive substring, Playwright's default) finds the element alone
  // too: that is how a person writes it.
  function playwrightLocator(ref, hint, bannedList) {
    const el = resolve(ref);
    pwShown = el && el.isConnected && pwHidden(el) ? el : null;
    pwDoc = el && el.ownerDocument ? el.ownerDocument : document;
    try { return pwLoose(ref, pwLocator(ref, hint, bannedList)); } finally { pwShown = null; pwDoc = document; }
  }
  function pwLoose(ref, loc) {
    if (loc.error) return loc;
    if (pwShown && loc.scope) loc.hover = true;
    if (!loc.exact || loc.nth !== undefined) { loc.color = pwColor(resolve(ref)); return loc; }
    let root = pwDoc;
    if (loc.scope) {
      const boxes = pwScopeMatches(loc.scope);
      if (boxes.length !== 1) return loc;
      root = boxes[0];
    }
    loc.color = pwColor(resolve(ref));
    const loose = Object.assign({}, loc, { exact: false });
    const m = pwMatches(root, loose);
    if (m.length === 1 && m[0] === resolve(ref)) loc.exact = false;
    return loc;
  }
  // pwColor is the colour a person sees the element in, as the CSS
  // property toHaveCSS checks (see colorOf).
  function pwColor(el) {
    const cs = (el.ownerDocument.defaultView || window).getComputedStyle(el);
    const bg = cs.backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(\d+, \d+, \d+, 0\)/.test(bg)) return { property: 'background-color', value: bg };
    return { property: 'color', value: cs.color };
  }
  function pwLocator(ref, hint, bannedList) {
    const el = resolve(ref);
    if (!el || !el.isConnected) return { error: 'detached' };
    if (el.ownerDocument === document) return pwLocatorIn(el, hint, bannedList);
    // In a frame: the frames from the top down, each by a selector that
    // finds it alone in its parent document (contentFrame() in the spec),
    // then the element's own locator, counted in its frame's document.
    const fp = framePath(el, new Set(bannedList || []), false);
    if (fp.error) return fp;
    const loc = pwLocatorIn(el, hint, bannedList); // pwDoc is el's document (playwrightLocator)
    if (!loc.error) loc.frames = fp.parts;
    return loc;
  }
  // framePath lists the frames of el's document from the top down, each by
  // a selector that finds it alone in its parent document: by what names
  // it (pwFrameSelector), which a frame inserted before it does not
  // change, else, when place is set, by its structural path. It returns
  // { parts } or { error }.
  function framePath(el, banned, place) {
    const parts = [];
    for (let d = el.ownerDocument; d !== document; ) {
      const f = d.defaultView && d.defaultView.frameElement;
      if (!f) return { error: 'it is inside a frame e2e cannot reach from the page' };
      const fr = f.getRootNode();
      if (fr !== f.ownerDocument) return { error: 'it is inside a frame in a shadow root, which the export does not name yet' };
      const p = pwFrameSelector(f, banned) || (place ? structuralPath(f, fr, banned) : '');
      if (!p || match(fr, { kind: 'css', value: p }).length !== 1) return { error: 'it is inside a frame that nothing names alone' };
      parts.unshift(p);
      d = f.ownerDocument;
    }
    return { parts };
  }
  // pwFrameSelector is a CSS selector that finds the frame element f alone
  // in its document: by its title, name, test id, stable id or src, as a
  // person would pick the frame.
  function pwFrameSelector(f, banned) {
    const tag = f.localName;
    const q = (v) => JSON.stringify(v);
    const tries = [];
    const title = f.getAttribute('title');
    if (title && !banned.has('title')) tries.push(tag + '[title=' + q(title) + ']');
    const name = f.getAttribute('name');
    if (name && !banned.has('name') && !isRandom(name)) tries.push(tag + '[name=' + q(name) + ']');
    for (const a of TEST_ATTRS) { const v = f.getAttribute(a); if (v && !banned.has(a) && !isRandom(v)) tries.push('[' + a + '=' + q(v) + ']'); }
    if (f.id && !banned.has('id') && !isRandom(f.id)) tries.push('#' + CSS.escape(f.id));
    const src = f.getAttribute('src');
    if (src && !banned.has('src')) tries.push(tag + '[src=' + q(src) + ']');
    for (const sel of tries) {
      let m;
      try { m = f.ownerDocument.querySelectorAll(sel); } catch (e) { continue; }
      if (m.length === 1 && m[0] === f) return sel;
    }
    return '';
  }
  // pwLocatorIn is pwLocator for an element of the document pwDoc.
  function pwLocatorIn(el, hint, bannedList) {
    // In a shadow root, only what names the element itself is counted (a
    // role and name, a label, a placeholder, a test id, an id or class):
    // text, containers and ordinals would be counted across shadow
    // boundaries differently from Playwright.
    const inShadow = el.getRootNode() !== pwDoc;
    hint = inShadow ? {} : (hint || {});
    const banned = new Set(bannedList || []);
    const usable = (a, v) => v && !banned.has(a) && !isRandom(v);
    const cands = [];
    const role = pwRole(el);
    if (!inShadow && (role === 'row' || role === 'listitem' || role === 'article')) {
      // a row is known by a text in it, not by all its cells
      const avoid = pwLower(hint.avoid || '');
      for (const t of pwTexts(el, document.createElement('i')).slice(0, 6)) {
        // not by the text the step expects in it: that would prove nothing
        if (avoid && (pwLower(t).includes(avoid) || avoid.includes(pwLower(t)))) continue;
        cands.push({ kind: 'role', role, hasText: t });
      }
    }
    // A container named by all its content (a row: every cell) is not
    // known by that name; in a shadow root its content is read differently.
    const byContent = role === 'row' || role === 'listitem' || role === 'article' || role === 'cell' || role === 'gridcell';
    if (role && !(byContent && inShadow)) {
      const name = pwName(el, role);
      if (name && name.length <= (byContent ? 40 : 80)) cands.push({ kind: 'role', role, name, exact: true });
      else if (!name) cands.push({ kind: 'role', role });
    }
    const field = ['input', 'textarea', 'select'].includes(el.localName) || el.isContentEditable;
    if (field) {
      const al = el.getAttribute('aria-label');
      if (usable('aria-label', al)) cands.push({ kind: 'label', value: norm(al), exact: true });
      else if (el.labels && el.labels.length && !banned.has('label')) { const lt = labelsText(el); if (lt) cands.push({ kind: 'label', value: lt, exact: true }); }
      const ph = el.getAttribute('placeholder');
      if (usable('placeholder', ph)) cands.push({ kind: 'placeholder', value: norm(ph), exact: true });
    }
    for (const a of TEST_ATTRS) {
      const v = el.getAttribute(a);
      if (usable(a, v)) cands.push({ kind: 'testid', attr: a, value: v });
    }
    const txt = norm(el.textContent);
    // an expectation on the text must not find its element by that text
    if (!field && !inShadow && !hint.noText && txt && txt.length <= 80 && !banned.has('text')) cands.push({ kind: 'text', value: txt, exact: true });
    if (usable('id', el.id)) cands.push({ kind: 'css', value: '#' + CSS.escape(el.id), reason: 'no role, label, placeholder, test id or text names it alone; its id does' });
    if (!banned.has('class')) {
      for (const c of (el.getAttribute('class') || '').trim().split(/\s+/)) {
        if (c && !isRandom(c) && !generatedName(c)) cands.push({ kind: 'css', value: el.localName + '.' + CSS.escape(c), reason: 'no role, label, placeholder, test id or text names it alone; its class does' });
      }
    }
    const path = inShadow ? '' : structuralPath(el, pwDoc, banned);
    if (path) cands.push({ kind: 'css', value: path, reason: 'no role, label, placeholder, test id, text or stable id names it; a structural path does (fragile)' });
    const counted = (root, c) => { const m = pwMatches(root, c); return { n: m.length, i: m.indexOf(el) }; };
    // 1. The description named a container ("in the Alice row"): chain
    // under it when that container is unique and holds the element.
    const scopes = [];
    if (hint.scopeRole) {
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (pwRole(a) !== hint.scopeRole) continue;
        if (hint.scopeText && pwLower(a.textContent).includes(pwLower(hint.scopeText))) scopes.push({ box: a, sc: { role: hint.scopeRole, hasText: hint.scopeText } });
        break;
      }
    }
    const tryScoped = (s, css) => {
      const boxes = pwScopeMatches(s.sc);
      if (boxes.length !== 1 || boxes[0] !== s.box) return null;
      for (const c of cands) {
        if (c.kind === 'css' && (!css || c.value === path)) continue; // a document path does not read inside a container
        const k = counted(s.box, c);
        if (k.n === 1 && k.i === 0) return Object.assign({}, c, { scope: s.sc, count: 1 });
      }
      return null;
    };
    for (const s of scopes) { const r = tryScoped(s, true); if (r) return r; }
    // 2. A candidate unique on the whole page (CSS comes after chains).
    const ordinal = hint.nth !== undefined && hint.nth !== null;
    const unique = (c) => { const k = counted(pwDoc, c); return k.n === 1 && k.i === 0; };
    if (!ordinal) {
      for (const c of cands) if (c.kind !== 'css' && unique(c)) return Object.assign({}, c, { count: 1 });
    }
    // 3. Chained under the nearest container that tells it apart.
    for (let a = inShadow ? null : el.parentElement; a && a !== pwDoc.body; a = a.parentElement) {
      const r = pwRole(a);
      if (!PW_SCOPES.has(r)) continue;
      const name = pwName(a, r);
      const tries = [];
      if (name && name.length <= 80 && r !== 'row' && r !== 'listitem') tries.push({ role: r, name });
      for (const t of pwTexts(a, el)) tries.push({ role: r, hasText: t });
      for (const sc of tries) { const got = tryScoped({ box: a, sc }, false); if (got) return got; }
    }
    // 4. A stable id; then an ordinal among the matches of the best
    // candidate; then a structural path.
    if (!ordinal) {
      for (const c of cands) if (c.kind === 'css' && c.value !== path && unique(c)) return Object.assign({}, c, { count: 1 });
    }
    for (const c of inShadow ? [] : cands) {
      if (c.kind === 'css') continue;
      const k = counted(pwDoc, c);
      if (k.i >= 0) return Object.assign({}, c, { nth: k.i, count: k.n, reason: ordinal ? '' : k.n + ' elements match and no container tells them apart; this is match ' + (k.i + 1) });
    }
    if (inShadow) return { error: 'it is inside a shadow root and nothing on it names it alone' };
    const last = cands[cands.length - 1];
    return last ? Object.assign({}, last, { count: counted(pwDoc, last).n }) : { error: 'nothing names it' };
  }

  // guardPopups stops this document from opening a new window (a link or
  // form with a target, a modified click, window.open) on an origin that no
  // pattern matches, and reports each refused URL through the
  // __e2eBlockedPopup binding. Loads in the same tab are guarded in the
  // browser (Fetch); a new window is a new target that interception does
  // not reach before its first request leaves, so it is stopped here.
  let popupGuard = null;
  function guardPopups(patterns) {
    if (popupGuard) return;
    const res = patterns.map((p) => new RegExp(p));
    const allowed = (u) => {
      let url;
      try { url = new URL(String(u), location.href); } catch (e) { return true; }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
      return res.some((r) => r.test(url.origin));
    };
    const report = (u) => {
      let href = String(u);
      try { href = new URL(href, location.href).href; } catch (e) { /* keep it as given */ }
      try { window.__e2eBlockedPopup(href); } catch (e) { /* no binding: still refused */ }
    };
    const newWindow = (target, ev) => {
      const t = (target || '').toLowerCase();
      return (t !== '' && t !== '_self' && t !== '_top' && t !== '_parent') ||
        (ev && (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button === 1));
    };
    const onClick = (ev) => {
      const a = ev.composedPath().find((n) => n instanceof Element && n.matches('a[href], area[href]'));
      if (!a || !newWindow(a.getAttribute('target'), ev) || allowed(a.href)) return;
      ev.preventDefault();
      ev.stopImmediatePropagation();
      report(a.href);
    };
    const onSubmit = (ev) => {
      const f = ev.target;
      const target = (ev.submitter && ev.submitter.getAttribute('formtarget')) || f.getAttribute('target');
      const action = (ev.submitter && ev.submitter.getAttribute('formaction')) || f.action;
      if (!newWindow(target, null) || allowed(action)) return;
      ev.preventDefault();
      ev.stopImmediatePropagation();
      report(action);
    };
    const open = window.open;
    window.open = function (u, ...rest) {
      if (u !== undefined && u !== null && String(u) !== '' && !allowed(u)) {
        report(u);
        return null;
      }
      return open.call(this, u, ...rest);
    };
    document.addEventListener('click', onClick, true);
    document.addEventListener('auxclick', onClick, true);
    document.addEventListener('submit', onSubmit, true);
    popupGuard = () => {
      window.open = open;
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('auxclick', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
    };
  }

  function unguardPopups() {
    if (popupGuard) popupGuard();
    popupGuard = null;
  }

  return { snapshotText, snapshotEncoded, readOut, captureElement, resolveCached, reidentify, reidDebug: (on) => { REID_DEBUG.on = !!on; }, settle, actionable, seen, holds, resolve, focus, clearAndFocus, setValue, changed, valueOf, attributeOf, textOf,
    selectOption, checkedOf, info, track, guardPopups, unguardPopups, playwrightLocator };
})();
