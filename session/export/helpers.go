package export

// The functions a spec defines when it calls them, written after its
// imports, in this order.
const (
	helperFillSecret  = "fillSecret"
	helperTextPattern = "textPattern"
	helperWildcard    = "wildcard"
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
	{helperWildcard, `// wildcard is a pattern for an e2e URL expectation: * matches anything.
function wildcard(url: string): string {
  return url.split('*').map((p) => p.replace(/[\\^$.|?*+()[\]{}\/]/g, '\\$&')).join('.*');
}
`},
}
