// Go's %q, as the Pulumi CLI quotes names and values in its messages and its diff display
// (strconv.Quote, QuoteRune). One home for the engine, the commands and the display.

/** Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's %q (strconv.Quote, appendEscapedRune): printable characters as they are, the others escaped. */
export function goQuote(s: string): string {
  const named: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '"': '\\"',
    '\\': '\\\\',
  };
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (named[ch]) out += named[ch];
    else if (GO_PRINTABLE.test(ch)) out += ch;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return out + '"';
}

/** Go's %q of a rune (strconv.QuoteRune): goQuote's escapes, in single quotes. */
export function goQuoteRune(ch: string): string {
  if (ch === "'") return "'\\''";
  return `'${ch === '"' ? ch : goQuote(ch).slice(1, -1)}'`;
}
