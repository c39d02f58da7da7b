import { describe, expect, it } from 'vitest';
import { captionChange } from './media-model';

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
