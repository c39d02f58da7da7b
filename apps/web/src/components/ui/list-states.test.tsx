import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmptyPanel, ListBody } from './list-states';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const idle = { isPending: false, isError: false, isFetching: false };

function render(query: typeof idle, items: readonly string[], options: { error?: boolean } = {}) {
  return renderToStaticMarkup(
    <ListBody
      query={query}
      items={items}
      listClassName="card-grid console-grid"
      listLabel="Things"
      itemKey={(item) => item}
      renderItem={(item) => <span className="thing">{item}</span>}
      loadingLabel="Loading things…"
      skeletonCount={3}
      renderSkeleton={(index) => <span className="bone">{index}</span>}
      empty={<EmptyPanel>Nothing here.</EmptyPanel>}
      error={options.error ? <p role="alert">Failed to load things.</p> : undefined}
    />,
  );
}

describe('ListBody', () => {
  it('shows skeleton cards, hidden from screen readers, while the first load runs', () => {
    const html = render({ ...idle, isPending: true }, []);
    expect(html.match(/class="bone"/g)).toHaveLength(3);
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('aria-hidden="true"');
    expect(text(html)).toContain('Loading things…');
  });

  it('shows the cards in a named list, dimmed while a newer page loads', () => {
    const html = render(idle, ['a', 'b']);
    expect(html.match(/class="thing"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Things"');
    expect(html).not.toContain('aria-busy');
    expect(render({ ...idle, isFetching: true }, ['a'])).toContain('aria-busy="true"');
  });

  it('shows the empty state for an empty page', () => {
    const html = render(idle, []);
    expect(text(html)).toBe('Nothing here.');
    expect(html).toContain('role="status"');
  });

  it('shows the error panel when the load failed, or else the empty list', () => {
    expect(text(render({ ...idle, isError: true }, [], { error: true }))).toBe(
      'Failed to load things.',
    );
    expect(text(render({ ...idle, isError: true }, []))).toBe('Nothing here.');
  });
});
