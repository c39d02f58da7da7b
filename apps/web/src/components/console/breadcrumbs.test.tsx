import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Breadcrumbs } from './breadcrumbs';

describe('Breadcrumbs', () => {
  it('links up the hierarchy and marks the current page last', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <Breadcrumbs
          items={[
            { label: 'Organizations', href: '/enterprise/organizations' },
            { label: 'Demo Org', href: '/enterprise/organizations/1' },
            { label: 'Users', href: '/ignored-for-the-last' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(html).toContain('aria-label="Breadcrumb"');
    expect(html).toContain('<a href="/enterprise/organizations"');
    expect(html).toContain('<a href="/enterprise/organizations/1"');
    expect(html).not.toContain('/ignored-for-the-last');
    expect(html).toContain('<span aria-current="page">Users</span>');
  });
});
