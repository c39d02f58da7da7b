import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TextFieldDialog } from './text-field-dialog';

const send = { isPending: false, mutate: () => undefined };

const render = (props: Partial<Parameters<typeof TextFieldDialog<number>>[0]> = {}) =>
  renderToStaticMarkup(
    <TextFieldDialog<number>
      title="Restock Printer Media"
      label="Prints left"
      hint="A whole number from 100 to 700."
      initial="700"
      inputMode="numeric"
      submitLabel="Restock"
      check={(text) => ({ kind: 'ok', body: Number(text) })}
      send={send}
      failed="Failed to update prints left."
      onSent={() => undefined}
      onClose={() => undefined}
      {...props}
    />,
  );

describe('TextFieldDialog', () => {
  it('has its title, the labelled field with its text and hint, and the submit button', () => {
    const html = render();
    expect(html).toContain('Restock Printer Media');
    expect(html).toMatch(/<label for="[^"]+">Prints left<\/label>/);
    expect(html).toContain('value="700"');
    expect(html).toContain('inputMode="numeric"');
    expect(html).toContain('A whole number from 100 to 700.');
    expect(html).toMatch(/<button type="submit" class="btn btn-primary">Restock<\/button>/);
  });

  it('keeps submit off while a required field is empty', () => {
    const html = render({ initial: '', required: true });
    expect(html).toMatch(/<button type="submit" class="btn btn-primary" disabled="">/);
  });

  it('says "Saving..." while the value is being sent', () => {
    const html = render({ send: { isPending: true, mutate: () => undefined } });
    expect(html).toContain('Saving...');
  });
});
