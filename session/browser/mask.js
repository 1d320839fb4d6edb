// Where a page paints secrets, for the browser package's masking of
// captures (screenshots, screencast frames): boxes in the top viewport, on
// which the Go side paints opaque boxes in the captured image. It runs in
// an isolated world of the main frame (Page.createIsolatedWorld), not in
// the page's own: the secret values it is given are out of reach of the
// page's scripts, which could otherwise replace these functions and read
// them, and the page's changes to built-ins do not reach it. Nothing is
// written to the DOM, so neither the snapshot nor the settle observer sees
// masking. Fields a secret was typed into are kept here (never marked in
// the DOM) and masked whole for as long as they live, whatever they hold
// later. Installing twice is a no-op.
if (!window.__e2eMask) window.__e2eMask = (() => {
  'use strict';
  const secretFields = new WeakSet(), secretFieldList = [];
  const MASK_MAX = 4000; // boxes in one answer; beyond, the whole capture is masked
  function mark(el) {
    if (!el || el.nodeType !== 1) return false;
    if (!secretFields.has(el)) { secretFields.add(el); secretFieldList.push(new WeakRef(el)); }
    maskDirty();
    return true;
  }

  // partialSecret is the part of secret n that field text v shows while n is
  // typed into it: v itself when n contains it, else the longest start of n
  // that v ends with ('' when none, or when v holds all of n: n is a needle).
  function partialSecret(v, n) {
    if (n.includes(v)) return v;
    for (let k = Math.min(n.length - 1, v.length); k > 0; k--) if (v.endsWith(n.slice(0, k))) return n.slice(0, k);
    return '';
  }

  function fieldText(el) {
    if (el.localName === 'input' || el.localName === 'textarea') return el.value || '';
    return el.textContent || '';
  }

  // contentOffset is where el's frame's content starts in the top
  // viewport: frames' borders and padding included.
  function contentOffset(el) {
    let x = 0, y = 0;
    for (let win = el.ownerDocument.defaultView; win && win !== window.top && win.frameElement; win = win.frameElement.ownerDocument.defaultView) {
      const o = frameContent(win.frameElement);
      x += o.x; y += o.y;
    }
    return { x, y };
  }
  function frameContent(f) {
    const r = f.getBoundingClientRect(), cs = getComputedStyle(f);
    return { x: r.left + f.clientLeft + (parseFloat(cs.paddingLeft) || 0), y: r.top + f.clientTop + (parseFloat(cs.paddingTop) || 0) };
  }

  // Pages change a value's white space: their text collapses it, an
  // <input> turns a line break into a space or drops it, markup writes
  // &nbsp; or <br>. A needle holding white space is therefore matched with
  // each run of it standing for any run of white space (control characters
  // too), or none; its white space at the ends is not looked for. A needle
  // of white space only has nothing to look for.
  const WS_ANY = /[\s\u0000-\u001f]/;
  const WS_RUN = /[\s\u0000-\u001f]+/;
  function looseNeedle(n) {
    const parts = n.split(WS_RUN).filter(Boolean);
    if (!parts.length) return null;
    const key = parts.join('\u0000');
    const re = new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\u0000-\\u001f]*'), 'g');
    return { key, re };
  }

  const NOT_TEXT_INPUT = new Set(['checkbox', 'radio', 'range', 'color', 'file', 'hidden', 'image']);
  // secretBoxes answers {b: [x, y, w, h, …], all} for everything painted
  // with one of needles in it (text, a field's value or placeholder, a
  // select's chosen option) and every field a secret was typed into, in
  // open shadow roots and same-origin frames too. all says there were too
  // many to list: mask everything.
  function secretBoxes(needles) {
    const b = [];
    let all = false;
    const add = (r, ox, oy) => {
      if (r.width <= 0 || r.height <= 0) return;
      if (b.length >= 4 * MASK_MAX) { all = true; return; }
      b.push(r.left + ox, r.top + oy, r.width, r.height);
    };
    const ns = new Set();
    for (const n of needles) if (n) ns.add(n);
    for (let i = secretFieldList.length - 1; i >= 0; i--) {
      const el = secretFieldList[i].deref();
      if (!el) { secretFieldList.splice(i, 1); continue; }
      const v = fieldText(el);
      if (v) for (const n of needles) { if (n) { const part = partialSecret(v, n); if (part) ns.add(part); } }
    }
    // A needle holding white space is looked for with its white space
    // loose (see looseNeedle); the others as they are.
    const list = [], loose = new Map();
    for (const n of ns) {
      if (!WS_ANY.test(n)) { list.push(n); continue; }
      const l = looseNeedle(n);
      if (l && !loose.has(l.key)) loose.set(l.key, l.re);
    }
    const looseList = Array.from(loose.values());
    const any = list.length > 0 || looseList.length > 0;
    if (!any && !secretFieldList.length) return { b, all };
    for (const ref of secretFieldList) {
      const el = ref.deref();
      if (el && el.isConnected) { const off = contentOffset(el); add(el.getBoundingClientRect(), off.x, off.y); }
    }
    const has = (s) => {
      if (!s) return false;
      for (const n of list) if (s.includes(n)) return true;
      for (const re of looseList) { re.lastIndex = 0; if (re.test(s)) return true; }
      return false;
    };
    const roots = [[document, 0, 0]];
    for (let guard = 0; roots.length && guard < 10000; guard++) {
      const [root, ox, oy] = roots.pop();
      if (maskRec.on) maskObserve(root);
      const doc = root.ownerDocument || root;
      // Shadow hosts by a scan of the elements, fields and frames by a
      // native query: a 2,000-row table costs a few milliseconds this way.
      for (const n of root.querySelectorAll('*')) if (n.shadowRoot) roots.push([n.shadowRoot, ox, oy]);
      for (const n of root.querySelectorAll('input, textarea, select, iframe, frame')) {
        const tag = n.localName;
        let whole = false;
        if (tag === 'input') {
          whole = !NOT_TEXT_INPUT.has(n.type) && (has(n.value) || (!n.value && has(n.placeholder)));
        } else if (tag === 'textarea') {
          whole = has(n.value) || (!n.value && has(n.placeholder));
        } else if (tag === 'select') {
          whole = Array.prototype.some.call(n.selectedOptions || [], (o) => has(o.label) || has(o.text));
        } else {
          let d = null;
          try { d = n.contentDocument; } catch (e) { d = null; } // cross-origin: not reachable from here
          if (d && d.documentElement) { const o = frameContent(n); roots.push([d, ox + o.x, oy + o.y]); }
        }
        if (whole && !secretFields.has(n)) add(n.getBoundingClientRect(), ox, oy);
      }
      if (!any) continue;
      const top = root.nodeType === 9 ? root.documentElement : root;
      if (!top || !has(top.textContent)) continue; // the common case: no secret in this root's text
      const w = doc.createTreeWalker(top, NodeFilter.SHOW_TEXT);
      const nodes = [], starts = [];
      let text = '';
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        if (n.data.length) { nodes.push(n); starts.push(text.length); text += n.data; }
      }
      if (!text) continue;
      // Text is searched joined across nodes, so that a secret split over
      // elements ("hun<b>ter2</b>") is found; each match is a Range whose
      // client rects are masked.
      const range = doc.createRange();
      const at = (pos) => { // index of the node holding position pos
        let lo = 0, hi = starts.length - 1;
        while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= pos) lo = mid; else hi = mid - 1; }
        return lo;
      };
      const mask = (i, len) => {
        const a = at(i), z = at(i + len - 1);
        try {
          range.setStart(nodes[a], i - starts[a]);
          range.setEnd(nodes[z], i + len - starts[z]);
        } catch (e) { return; }
        for (const r of range.getClientRects()) add(r, ox, oy);
      };
      for (const n of list) {
        for (let i = text.indexOf(n); i >= 0 && !all; i = text.indexOf(n, i + 1)) mask(i, n.length);
      }
      for (const re of looseList) {
        re.lastIndex = 0;
        for (let m = re.exec(text); m && !all; m = re.exec(text)) {
          mask(m.index, m[0].length);
          re.lastIndex = m.index + 1;
        }
      }
      range.detach();
    }
    return { b: b.map((v) => Math.round(v * 10) / 10), all };
  }

  // maskRec records, once a screencast is masked (maskTake), the boxes of
  // every state the page renders between two takes: a change (a mutation,
  // an input, a scroll, a resize, an animation) schedules a look in the next
  // animation frame, before that frame is painted. A take answers the
  // boxes now plus all those recorded since the last take, so that a frame
  // that was painted before the take is covered too.
  const maskRec = { on: false, needles: [], b: [], all: false, raf: 0, seen: new WeakSet(), mo: null };
  function maskDirty() {
    if (!maskRec.on || maskRec.raf) return;
    maskRec.raf = requestAnimationFrame(maskRecord);
  }
  function maskRecord() {
    maskRec.raf = 0;
    const r = secretBoxes(maskRec.needles);
    if (r.all || maskRec.b.length + r.b.length > 4 * MASK_MAX) maskRec.all = true;
    else for (const v of r.b) maskRec.b.push(v);
    // Running animations move things without mutations: look every frame.
    if (document.getAnimations && document.getAnimations().some((a) => a.playState === 'running')) maskDirty();
  }
  const maskOpts = { capture: true, passive: true };
  function maskObserve(root) {
    if (maskRec.seen.has(root)) return;
    maskRec.seen.add(root);
    try { maskRec.mo.observe(root, { subtree: true, childList: true, characterData: true, attributes: true }); } catch (e) { /* not observable */ }
    for (const type of ['input', 'scroll', 'animationstart', 'transitionrun', 'load']) root.addEventListener(type, maskDirty, maskOpts);
    const win = root.defaultView;
    if (win) win.addEventListener('resize', maskDirty, maskOpts);
  }
  function maskTake(needles) {
    maskRec.needles = needles;
    if (!maskRec.on) {
      maskRec.on = true;
      maskRec.mo = new MutationObserver(maskDirty);
    }
    const r = secretBoxes(needles);
    const out = { b: r.b.concat(maskRec.b), all: r.all || maskRec.all };
    maskRec.b = [];
    maskRec.all = false;
    return out;
  }

  // secret says whether el is a field a secret was typed into (for the
  // trace's DOM snapshots, which mask its value as captures mask it).
  function secret(el) { return secretFields.has(el); }

  return { mark, boxes: secretBoxes, take: maskTake, secret };
})();
