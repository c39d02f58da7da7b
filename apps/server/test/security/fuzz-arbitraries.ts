import fc from 'fast-check';

/*
 * Request generators for the fuzz suite (issue 14, item 6): a small mapper from the JSON schemas
 * of the OpenAPI document (made from the contracts' zod 4 schemas by fastify-type-provider-zod)
 * to fast-check arbitraries, and malformed variants of everything. zod-fast-check supports only
 * zod 3, so the mapper reads the same schemas in their JSON form; it knows the keywords the
 * document uses (type, enum, nullable, anyOf/oneOf/allOf, minimum/maximum with OpenAPI 3.0's
 * boolean exclusiveMinimum/exclusiveMaximum, minLength/maxLength, pattern, format uri,
 * items/minItems/maxItems, properties/required/additionalProperties) and generates anything for
 * what it does not know.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
}

const DB_INT_MAX = 2_147_483_647;

/** One long string made once (about 100 kB; the body limit is 1 MB, tested with BIG_BODY). */
const LONG = 'x'.repeat(100_000);
/** A body over the server's 1 MB limit. */
export const BIG_BODY = `{"name":"${'y'.repeat(1_100_000)}"}`;

/** Values that have broken servers before: range edges, NaN-ish text, NUL, odd unicode. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e3',
  '1e309',
  '0x10',
  ' 1',
  '1 ',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999999999',
  '%00',
  '%',
  '%zz',
  '../../etc/passwd',
  '\\',
  "'; DROP TABLE users; --",
  '%_\\',
  '<script>alert(1)</script>',
  '😀👍🏽',
  'Ωmega ñ ü',
  '\u202eevil',
  '\ud800',
  '\uffff',
  '\r\n',
  '9'.repeat(400),
  LONG,
];

const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  1.5,
  -1.5,
  DB_INT_MAX,
  DB_INT_MAX + 1,
  -DB_INT_MAX - 2,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
];

export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 3 }),
  },
);

/** encodeURIComponent, except that a lone surrogate (not encodable) becomes its raw (invalid)
 * UTF-8 bytes, which a server must refuse as such. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** A path segment: mostly ids of real rows, then ids in and out of range, then anything. */
export function pathSegment(realIds: readonly number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...realIds).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('self', 'me', '0', '-1', '1.0', '01', '+1') },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).map(encodeSegment) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '%00', '..', '.', '%2e%2e', 'a%2Fb', '%F0%9F'),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeSegment) },
  );
}

function intArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = schema.minimum;
  let max = schema.maximum;
  if (schema.exclusiveMinimum === true && min !== undefined) min += integer ? 1 : Number.EPSILON;
  if (typeof schema.exclusiveMinimum === 'number')
    min = schema.exclusiveMinimum + (integer ? 1 : 0);
  if (schema.exclusiveMaximum === true && max !== undefined) max -= integer ? 1 : Number.EPSILON;
  if (typeof schema.exclusiveMaximum === 'number')
    max = schema.exclusiveMaximum - (integer ? 1 : 0);
  if (integer) {
    const lo = Math.max(min ?? -DB_INT_MAX, -(2 ** 31));
    const hi = Math.min(max ?? DB_INT_MAX, 2 ** 31 - 1);
    // Small values hit real rows and real limits; the edges come with the schema's bounds.
    return fc.oneof(
      fc.integer({ min: lo, max: hi }),
      fc.integer({ min: Math.max(lo, 0), max: Math.max(Math.min(hi, 60), Math.max(lo, 0)) }),
      fc.constantFrom(lo, hi),
    );
  }
  return fc.double({
    min: min ?? -1e9,
    max: max ?? 1e9,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 60, 300);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
  );
}

/** Values that (mostly) satisfy the schema. */
export function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return hostileValue;
  const base = baseArbitrary(schema, depth);
  return schema.nullable ? fc.oneof({ weight: 5, arbitrary: base }, fc.constant(null)) : base;
}

function baseArbitrary(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromSchema(s, depth + 1)));
  if (schema.allOf?.length) return fromSchema(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return intArbitrary(schema, true);
    case 'number':
      return intArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArbitrary(schema);
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
    case undefined: {
      const properties = schema.properties ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0) return fc.constant({});
      return fc.record(
        Object.fromEntries(keys.map((key) => [key, fromSchema(properties[key], depth + 1)])),
        { requiredKeys: (schema.required ?? []).filter((key) => keys.includes(key)) },
      );
    }
    default:
      return hostileValue;
  }
}

/**
 * An object for the schema, then one of: as generated, a required field missing, a field of the
 * wrong type or value, an extra field, or something that is not an object at all.
 */
export function objectWithMutations(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const valid = fromSchema(schema ?? { type: 'object' });
  const keys = Object.keys(schema?.properties ?? {});
  const asObject = (value: unknown): Record<string, unknown> =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(valid, hostileValue, fc.string({ maxLength: 12 })).map(([value, extra, name]) => ({
      ...asObject(value),
      [name || 'extra']: extra,
    })),
    hostileValue,
  ];
  if (keys.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...keys)).map(([value, key]) => {
        const copy = asObject(value);
        delete copy[key];
        return copy;
      }),
      fc.tuple(valid, fc.constantFrom(...keys), hostileValue).map(([value, key, bad]) => ({
        ...asObject(value),
        [key]: bad,
      })),
    );
  }
  return fc.oneof({ weight: mutations.length, arbitrary: valid }, ...mutations);
}

/** Text that is not JSON, or not the JSON a route takes, sent as application/json. */
export const badJsonText = fc.constantFrom(
  '{',
  '{"a":',
  '[1,2',
  '"unterminated',
  '{"a":1}}',
  '\u0000',
  '{"a":"\\u0000"}',
  'nul',
  'NaN',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '1e999999',
  '-',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '',
);

/** A body with a content type the route may not take. */
export const oddContentBody = fc.constantFrom(
  { contentType: 'text/plain', body: 'hello' },
  { contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=%zz&c' },
  {
    contentType: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  },
  { contentType: 'multipart/form-data', body: 'garbage' },
  { contentType: 'application/xml', body: '<a>1</a>' },
  { contentType: 'application/json; charset=utf-16', body: '{}' },
  { contentType: 'application/octet-stream', body: '\u0000\u0001\u0002' },
  { contentType: 'image/png', body: '\u0089PNG' },
  { contentType: '', body: '{}' },
  { contentType: 'application/json', body: BIG_BODY },
);

/** Query parameters for the schema (mutated), serialised, or a raw query string. */
export function queryString(parameters: Record<string, JsonSchema>, required: string[]) {
  const schema: JsonSchema = { type: 'object', properties: parameters, required };
  const encode = (value: unknown): string[] => {
    if (Array.isArray(value)) return value.flatMap(encode);
    if (value === undefined) return [];
    if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
    return [String(value)];
  };
  const serialised = objectWithMutations(schema).map((value) => {
    const search = new URLSearchParams();
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, v] of Object.entries(value))
        for (const s of encode(v)) search.append(key, s);
    }
    return search.toString();
  });
  return fc.oneof(
    { weight: 6, arbitrary: serialised },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'limit=1&limit=2',
        'offset=%zz',
        'search=%00',
        'a[b]=1&a[c]=2',
        '__proto__[x]=1',
        '%',
        '&&&=',
        'limit=2147483648&offset=-1',
      ),
    },
  );
}
