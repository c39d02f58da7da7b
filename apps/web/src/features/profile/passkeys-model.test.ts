import { PASSKEY_MESSAGES } from '@flashbooth/contracts/rules';
import { describe, expect, it } from 'vitest';
import { addedText, checkPasskeyName, lastUsedText, suggestPasskeyName } from './passkeys-model';

describe('passkeys model', () => {
  it('suggests a name from the user agent', () => {
    expect(
      suggestPasskeyName(
        'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(
      suggestPasskeyName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone');
    expect(
      suggestPasskeyName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0',
      ),
    ).toBe('Edge on Windows');
    expect(suggestPasskeyName('')).toBe('My passkey');
  });

  it('checks a name as the server does', () => {
    expect(checkPasskeyName('  Work phone ')).toEqual({ name: 'Work phone' });
    expect(checkPasskeyName('   ')).toEqual({ error: PASSKEY_MESSAGES.nameRequired });
    expect(checkPasskeyName('x'.repeat(61))).toEqual({ error: PASSKEY_MESSAGES.nameTooLong });
    expect(checkPasskeyName('x'.repeat(60))).toEqual({ name: 'x'.repeat(60) });
  });

  it('says when a passkey was added and last used, in UTC', () => {
    expect(addedText('2025-05-14T10:20:30')).toBe('Added 14/05/2025 10:20');
    expect(lastUsedText('2025-05-15T08:05:00')).toBe('Last used 15/05/2025 08:05');
    expect(lastUsedText(null)).toBe('Never used');
  });
});
