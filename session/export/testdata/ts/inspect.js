// inspect.js reads a JSON array of cases ({ src, input }) on stdin and
// writes, for each, what TypeScript's own parser makes of src: its syntax
// errors, the kinds of its top-level statements, how many test(…) and
// test.step(…) calls it holds, and, when it declares v, v's value once the
// code runs (for a regular expression: its source and whether it matches
// input whole).
const ts = require('typescript');
const vm = require('vm');

let data = '';
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  const out = JSON.parse(data).map(({ src, input }) => {
    const sf = ts.createSourceFile('spec.ts', src, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const res = {
      errors: sf.parseDiagnostics.map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
      statements: sf.statements.map((s) => ts.SyntaxKind[s.kind]),
      tests: 0,
      steps: 0,
      comments: 0,
    };
    const walk = (n) => {
      if (ts.isCallExpression(n)) {
        const e = n.expression.getText(sf);
        if (e === 'test') res.tests++;
        if (e === 'test.step') res.steps++;
      }
      ts.forEachChild(n, walk);
    };
    walk(sf);
    res.comments = (ts.getLeadingCommentRanges(src, 0) || []).length;
    if (res.errors.length === 0 && /\b(const|let) v\b/.test(src)) {
      const js = ts.transpileModule(src + '\n;globalThis.__v = v;', { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
      const ctx = {};
      try {
        vm.runInNewContext(js, ctx);
        const v = ctx.__v;
        if (Object.prototype.toString.call(v) === '[object RegExp]') {
          res.source = v.source;
          res.matches = new RegExp('^(?:' + v.source + ')$').test(input);
        } else {
          res.value = v;
        }
      } catch (e) {
        res.errors.push('run: ' + e.message);
      }
    }
    return res;
  });
  process.stdout.write(JSON.stringify(out));
});
