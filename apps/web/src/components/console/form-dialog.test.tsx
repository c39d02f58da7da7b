import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, FormDialog } from './form-dialog';

const render = (props: Partial<Parameters<typeof FormDialog>[0]> = {}) =>
  renderToStaticMarkup(
    <FormDialog
      open
      title="Create Organization"
      submitLabel="Create"
      busyLabel="Creating..."
      onSubmit={() => undefined}
      onCancel={() => undefined}
      {...props}
    >
      <Field id="name" label="Name">
        <input id="name" />
      </Field>
    </FormDialog>,
  );

describe('FormDialog', () => {
  it('has its title, the fields, Cancel and the submit button', () => {
    const html = render();
    expect(html).toContain('Create Organization');
    expect(html).toContain('<label for="name">Name</label>');
    expect(html).toMatch(/<button type="submit" class="btn btn-primary">Create<\/button>/);
    expect(html).toContain('>Cancel</button>');
  });

  it('says "Creating..." and disables both buttons while busy', () => {
    const html = render({ busy: true });
    expect(html).toContain('Creating...');
    expect(html.match(/disabled=""/g)).toHaveLength(2);
  });

  it('shows an error as an alert, and a notice only without an error', () => {
    expect(render({ error: 'Organization name is required.' })).toContain(
      'role="alert">Organization name is required.</p>',
    );
    expect(render({ notice: 'No changes to save.' })).toContain('status-info');
    expect(render({ notice: 'No changes to save.', error: 'Failed.' })).not.toContain(
      'No changes to save.',
    );
  });
});
