// The trace's DOM snapshots (trace.go): the document serialised as HTML
// that renders on its own in a sandboxed frame: styles kept (same-origin
// stylesheets inlined up to a size, the others linked), scripts and event
// handler attributes removed, javascript: URLs dropped, resource URLs made
// absolute, field values and states written as attributes, open shadow
// roots as declarative shadow DOM, frames left empty. Fields a secret was
// typed into (mask.js) and password fields show dots, never their value.
// It runs in the masking world (see mask.go), out of the page's reach.
if (!window.__e2eTrace) window.__e2eTrace = (() => {
  'use strict';
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
  const URLS = new Set(['src', 'href', 'poster', 'action', 'formaction', 'data']);
  const DOTS = '\u25cf\u25cf\u25cf\u25cf\u25cf\u25cf';
  // Text and attributes are escaped alike, as the redactor's named-entity
  // form of a value has it (redact.Forms), so that a secret the page shows
  // is found in the HTML whatever its characters.
  const ENT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\u00a0': '&nbsp;' };
  const esc = (s) => s.replace(/[&<>"'\u00a0]/g, (c) => ENT[c]);
  const escAttr = esc;
  const abs = (u) => { try { return new URL(u, document.baseURI).href; } catch (e) { return u; } };
  const inStyle = (css) => css.replace(/<\/style/gi, '<\\/style');
  function sheetText(sheet) {
    try { return Array.from(sheet.cssRules, (r) => r.cssText).join('\n'); } catch (e) { return null; }
  }

  function serialize(target, o) {
    const secret = (window.__e2eMask && window.__e2eMask.secret) || (() => false);
    const out = [];
    let size = 0, truncated = false, cssLeft = o.cssTotal;
    const push = (s) => {
      if (truncated) return;
      if (size + s.length > o.maxBytes) { truncated = true; return; }
      size += s.length; out.push(s);
    };
    function children(n) { for (let c = n.firstChild; c && !truncated; c = c.nextSibling) walk(c); }
    function walk(n) {
      if (n.nodeType === 3) { push(esc(n.data)); return; }
      if (n.nodeType !== 1) return;
      const el = n, tag = el.localName;
      if (tag === 'script' || tag === 'base') return;
      if (tag === 'link' && /(^|\s)stylesheet(\s|$)/i.test(el.rel || '') && el.sheet) {
        const css = sheetText(el.sheet);
        if (css !== null && css.length <= o.cssMax && css.length <= cssLeft) {
          cssLeft -= css.length;
          push('<style data-e2e-href="' + escAttr(abs(el.href)) + '">' + inStyle(css) + '</style>');
          return;
        }
      }
      push('<' + tag);
      const field = tag === 'input' || tag === 'textarea' || tag === 'select' || tag === 'option';
      for (const a of Array.from(el.attributes)) {
        const name = a.name.toLowerCase();
        let v = a.value;
        if (name.startsWith('on') || name === 'srcdoc' || name === 'nonce' || name === 'integrity') continue;
        if (field && (name === 'value' || name === 'checked' || name === 'selected')) continue;
        if (tag === 'iframe' && name === 'src') v = 'about:blank';
        else if (/^\s*(javascript|vbscript):/i.test(v)) v = '#';
        else if (URLS.has(name)) v = abs(v);
        else if (name === 'srcset') v = v.split(',').map((p) => { const t = p.trim().split(/\s+/); t[0] = abs(t[0]); return t.join(' '); }).join(', ');
        push(' ' + a.name + '="' + escAttr(v) + '"');
      }
      if (el === target) push(' data-e2e-target=""');
      const masked = secret(el) || (tag === 'input' && (el.type || '').toLowerCase() === 'password');
      if (tag === 'input') {
        const type = (el.type || '').toLowerCase();
        if (type === 'checkbox' || type === 'radio') { if (el.checked) push(' checked'); }
        else if (type !== 'file' && el.value) push(' value="' + (masked ? DOTS : escAttr(el.value)) + '"');
        if (masked) push(' data-e2e-masked=""');
      } else if (tag === 'option' && el.selected) push(' selected');
      push('>');
      if (VOID.has(tag)) return;
      if (tag === 'head') push('<base href="' + escAttr(document.baseURI) + '">');
      if (masked) push(DOTS);
      else if (tag === 'textarea') push(esc(el.value));
      else if (tag === 'style' && el.sheet) { const css = sheetText(el.sheet); push(css === null ? '' : inStyle(css)); }
      else if (tag === 'template') children(el.content);
      else {
        if (el.shadowRoot) {
          push('<template shadowrootmode="open">');
          for (const sh of el.shadowRoot.adoptedStyleSheets || []) { const css = sheetText(sh); if (css) push('<style>' + inStyle(css) + '</style>'); }
          children(el.shadowRoot);
          push('</template>');
        }
        children(el);
      }
      push('</' + tag + '>');
    }
    push('<!DOCTYPE html>');
    walk(document.documentElement);
    for (const sh of document.adoptedStyleSheets || []) { const css = sheetText(sh); if (css) push('<style>' + inStyle(css) + '</style>'); }
    const se = document.scrollingElement || document.documentElement;
    return { html: out.join(''), truncated, url: location.href, title: document.title,
      scrollX: se.scrollLeft, scrollY: se.scrollTop, width: innerWidth, height: innerHeight };
  }
  return { serialize };
})();
