import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../lib/html.js';
import { boothIdOf, fillBoothFrame } from './web-app.js';

describe('scriptSafeJson', () => {
  it('cannot close its script element or open a comment, and escapes the line separators', () => {
    const text = scriptSafeJson({ name: '</script><!-- \u2028\u2029' });
    expect(text).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><!-- \u2028\u2029' });
  });
});

describe('boothIdOf', () => {
  it('takes database ids only', () => {
    expect(boothIdOf('1')).toBe(1);
    expect(boothIdOf('2147483647')).toBe(2147483647);
    for (const bad of ['0', '01', '-1', '1.5', 'abc', '2147483648', '99999999999', '', ' 1']) {
      expect(boothIdOf(bad), bad).toBeNull();
    }
  });
});

describe('fillBoothFrame', () => {
  const placeholders = { deviceName: 'fb-booth-device-name', orgName: 'fb-booth-venue-name' };
  const frame =
    '<html><head><title>Flashbooth</title></head><body>' +
    '<dd>fb-booth-venue-name</dd><dd>fb-booth-device-name</dd></body></html>';
  const data = {
    device: { id: 7, name: 'A <b>"B"</b>', org_name: null, price_rupees: 0, status: 'idle' },
    templates: { items: [], last_evaluated_key: null },
  };

  it('puts the escaped name in the markup, a dash for no venue, and the data before </head>', () => {
    const html = fillBoothFrame(frame, placeholders, data, 1234);
    expect(html).toContain('<dd>—</dd><dd>A &lt;b&gt;&quot;B&quot;&lt;/b&gt;</dd>');
    const json = /<script type="application\/json" id="booth-data">([^<]*)<\/script><\/head>/.exec(
      html,
    );
    expect(JSON.parse(json![1]!)).toEqual({ device_id: 7, rendered_at: 1234, ...data });
  });
});
