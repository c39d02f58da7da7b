import { describe, expect, it } from 'vitest';
import { MEDIA_CAPTION_MAX, MEDIA_SCREEN_MESSAGES, captionChange } from './media-model';

describe('captionChange', () => {
  it('trims and saves a new caption', () => {
    expect(captionChange(null, '  Hello  ')).toEqual({ kind: 'save', caption: 'Hello' });
    expect(captionChange('Old', 'New')).toEqual({ kind: 'save', caption: 'New' });
  });

  it('turns an empty caption into null', () => {
    expect(captionChange('Old', '   ')).toEqual({ kind: 'save', caption: null });
  });

  it('is unchanged when the trimmed text is the same', () => {
    expect(captionChange('Hello', ' Hello ')).toEqual({ kind: 'unchanged' });
    expect(captionChange(null, '')).toEqual({ kind: 'unchanged' });
    expect(captionChange('', '  ')).toEqual({ kind: 'unchanged' });
  });
});

describe('the caption limit', () => {
  // The server's (contracts CAPTION_MAX_LENGTH and MEDIA_MESSAGES.captionTooLong, which the web
  // may not import at run time); e2e/tests/text-limits-and-booth-health.spec.ts sees both say it.
  it('is the server’s limit, refused with the server’s message', () => {
    expect(MEDIA_CAPTION_MAX).toBe(500);
    expect(MEDIA_SCREEN_MESSAGES.captionTooLong).toBe('Caption must be at most 500 characters.');
  });
});
