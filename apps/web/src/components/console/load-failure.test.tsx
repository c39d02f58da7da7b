import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { LOAD_FAILURE_TEXT, LoadFailure, loadFailureKind } from './load-failure';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const query = { refetch: () => Promise.resolve(), isFetching: false };

const render = (error: unknown) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <LoadFailure
        error={error}
        thing="organization"
        failedMessage="Failed to load organization details."
        query={query}
        back={{ href: '/enterprise/organizations', label: 'Back to Organizations' }}
      />
    </MemoryRouter>,
  );

describe('LoadFailure (issue 20 item 18)', () => {
  it('says a refusal plainly, with the reason and the way back, and no Try again', () => {
    const html = render(
      new ApiError('Only super users and Flashbooth admins can do that with a device.', 403, 'x'),
    );
    expect(text(html)).toBe(
      'You don’t have access to this page. Only super users and Flashbooth admins can do that with a device. ← Back to Organizations',
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('href="/enterprise/organizations"');
    expect(html).not.toContain('Try again');
  });

  it('says a missing record is not there or not theirs, without the server’s words', () => {
    const html = render(new ApiError('Organization not found.', 404, 'not_found'));
    expect(text(html)).toBe(
      `${LOAD_FAILURE_TEXT.notFound('organization')} ← Back to Organizations`,
    );
    expect(html).not.toContain('Try again');
    expect(html).not.toContain('Failed to load');
  });

  it('keeps the screen’s message and Try again for any other failure', () => {
    for (const error of [new ApiError('Boom', 500, 'internal'), new TypeError('fetch failed')]) {
      const html = render(error);
      expect(text(html)).toBe(
        'Failed to load organization details. Try again ← Back to Organizations',
      );
      expect(loadFailureKind(error)).toBe('failed');
    }
  });
});
