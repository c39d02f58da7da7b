import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Toast } from './toast';

describe('Toast', () => {
  it('keeps an empty live region when there is no message', () => {
    const html = renderToStaticMarkup(<Toast status={null} ms={5000} />);
    expect(html).toBe('<div class="toast-region" role="status" aria-live="polite"></div>');
  });

  it('fades over the screen’s time and speaks errors assertively', () => {
    const html = renderToStaticMarkup(
      <Toast status={{ kind: 'error', text: 'Failed to load organizations.' }} ms={3000} />,
    );
    expect(html).toContain('aria-live="assertive"');
    expect(html).toContain('class="status status-error toast"');
    expect(html).toContain('data-testid="status-error"');
    expect(html).toContain('animation-duration:3000ms');
    expect(html).toContain('Failed to load organizations.');
  });

  it('shows a card’s message only in that card’s Toast, and the screen’s only in its own', () => {
    const status = { kind: 'success' as const, text: 'Caption saved.', at: 'media-7-caption' };
    const inCard = renderToStaticMarkup(<Toast status={status} ms={5000} at="media-7-caption" />);
    expect(inCard).toContain('Caption saved.');
    const otherCard = renderToStaticMarkup(
      <Toast status={status} ms={5000} at="media-8-caption" />,
    );
    expect(otherCard).not.toContain('Caption saved.');
    expect(renderToStaticMarkup(<Toast status={status} ms={5000} />)).not.toContain('Caption');
  });
});
