package export

// The functions a spec defines when it calls them, written after its
// imports, in this order.
const (
	helperFillSecret  = "fillSecret"
	helperTextPattern = "textPattern"
	helperWildcard    = "wildcard"
	helperDialogs     = "dialogs"
	helperChoose      = "chooseOption"
)

var helpers = []struct{ name, code string }{
	{helperFillSecret, `// fillSecret fills a field with a secret's value as fill() does in Chromium
// (it waits for the field, clears it and inserts the text), but keeps the
// value out of Playwright's reports: fill() names its step after the value
// it types.
async function fillSecret(field: Locator, value: string, options?: { timeout?: number }): Promise<void> {
  await field.fill('', options);
  const cdp = await field.page().context().newCDPSession(field.page());
  try {
    await cdp.send('Input.insertText', { text: value });
  } finally {
    await cdp.detach();
  }
}
`},
	{helperTextPattern, `// textPattern is a pattern that finds text as e2e does: white space runs
// match any white space.
function textPattern(text: string): string {
  return text.trim().split(/\s+/).map((w) => w.replace(/[\\^$.|?*+()[\]{}\/]/g, '\\$&')).join('\\s+');
}
`},
	{helperDialogs, `// dialogs answers the page's dialogs as e2e does: each takes the oldest
// answer a dialog step gave that no dialog has taken, else OK (where
// Playwright would dismiss it); their messages are kept for expectDialog.
type DialogLog = { answers: Array<(d: Dialog) => Promise<void>>; messages: string[]; checked: number };
const dialogLogs = new WeakMap<Page, DialogLog>();
function dialogs(page: Page): DialogLog {
  let log = dialogLogs.get(page);
  if (!log) {
    const l: DialogLog = { answers: [], messages: [], checked: 0 };
    page.on('dialog', async (d) => {
      l.messages.push(d.message());
      const answer = l.answers.shift();
      await (answer ? answer(d) : d.accept(d.defaultValue()));
    });
    dialogLogs.set(page, l);
    log = l;
  }
  return log;
}

// expectDialog waits for a dialog, opened since the last such check, whose
// message is want (white space runs compared as one space) or matches it.
async function expectDialog(page: Page, want: string | RegExp, options?: { timeout?: number }): Promise<void> {
  const log = dialogs(page);
  const norm = (s: string) => s.trim().split(/\s+/).join(' ');
  const fits = (m: string) => (typeof want === 'string' ? norm(m) === norm(want) : want.test(m));
  const found = () => log.messages.slice(log.checked).findIndex(fits);
  await expect.poll(found, { message: 'a dialog saying ' + want, ...options }).toBeGreaterThanOrEqual(0);
  log.checked += found() + 1;
}
`},
	{helperChoose, `// chooseOption adds option to what a <select multiple> has chosen, or
// removes it, keeping the other options chosen, as e2e's select add and
// remove do: selectOption alone would choose the given options only.
async function chooseOption(list: Locator, option: string, add: boolean, options?: { timeout?: number }): Promise<void> {
  const chosen = await list.evaluate((s: HTMLSelectElement) => Array.from(s.selectedOptions, (o) => ({ value: o.value, label: o.label })), undefined, options);
  const norm = (s: string) => s.trim().split(/\s+/).join(' ').toLowerCase();
  const keep = chosen.filter((o) => o.value !== option && norm(o.label) !== norm(option)).map((o) => o.value);
  if (!add && keep.length === chosen.length) {
    throw new Error('option ' + option + ' is not chosen');
  }
  await list.selectOption(add ? [...keep, option] : keep, options);
}
`},
	{helperWildcard, `// wildcard is a pattern for an e2e URL expectation: * matches anything.
function wildcard(url: string): string {
  return url.split('*').map((p) => p.replace(/[\\^$.|?*+()[\]{}\/]/g, '\\$&')).join('.*');
}
`},
}
