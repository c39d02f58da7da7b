/**
 * A tagged template for server-rendered HTML that escapes by default: every interpolated value
 * is text (`& < > " '` become character references, so it can stand in element content and in
 * quoted attribute values alike) unless it is itself the result of `html`. Arrays are joined;
 * `null`, `undefined` and `false` render nothing, so `${cond && html`…`}` works.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue =
  SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => REFERENCES[ch]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i += 1) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Text already known to be safe markup (a constant style sheet); never pass outside input. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * Escapes a JSON text for a <script> element (a page's data for its app): no value can close the
 * tag or open a comment (`<`), and the two line separators JSON allows in strings but older
 * JavaScript parsers did not (U+2028, U+2029) are written as escapes too.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
