import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Schemas whose type is exported under another name, and where. */
const TYPED_ELSEWHERE: Record<string, string> = {
  TemplateOrientationSchema: 'TemplateOrientation (rules.ts, the same tuple without zod)',
  CaptureKindSchema: 'CaptureKind (rules.ts, the same tuple without zod)',
};

const sources = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file, text: readFileSync(`${import.meta.dirname}/${file}`, 'utf8') }));

describe('contracts', () => {
  // The web and the booth agent use these types instead of declaring the shapes again.
  it('exports the inferred type of every schema beside it', () => {
    const untyped = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/export const (\w+Schema)\b/g)]
        .map((match) => match[1]!)
        .filter((name) => !(name in TYPED_ELSEWHERE))
        .filter(
          (name) => !new RegExp(`export type \\w+ = z\\.(infer|input)<typeof ${name}>`).test(text),
        )
        .map((name) => `${file}: ${name}`),
    );
    expect(untyped).toEqual([]);
  });
});
