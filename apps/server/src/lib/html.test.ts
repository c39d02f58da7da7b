import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from './html.js';

describe('html', () => {
  it('escapes every interpolated text, in content and in attributes', () => {
    const name = `<script>alert("x")</script> & 'quoted'`;
    const out = html`<p title="${name}">${name}</p>`.text;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>',
    );
    expect(out).not.toContain('<script>');
  });

  it('keeps nested templates as markup and escapes their values once', () => {
    const items = ['a<b', 'c&d'].map((text) => html`<li>${text}</li>`);
    const list = html`<ul>
      ${items}
    </ul>`;
    expect(list.text.replace(/\s+/g, '')).toBe('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${12}`.text).toBe('012');
  });

  it('passes trusted markup through and escapes the five characters', () => {
    expect(html`${trusted('<b>x</b>')}`.text).toBe('<b>x</b>');
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
