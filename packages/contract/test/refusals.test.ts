import { describe, expect, it } from 'vitest';
import { REFUSAL_REASONS, refusalReasonOf } from '../src/refusals.js';

/** Issue 25: a refusal's reason is found by the engine's words, so the app can show it translated, never as a code. */
describe('refusalReasonOf', () => {
  it('finds every reason in the engine message it is written into, and none in other words', () => {
    for (const [code, words] of Object.entries(REFUSAL_REASONS)) {
      const message = `Not a specimen photo: ${words}. Photograph cut root slices flat on a plain board.`;
      expect(refusalReasonOf(message)).toBe(code);
    }
    expect(refusalReasonOf('Not a specimen photo: something new.')).toBeNull();
    expect(refusalReasonOf(null)).toBeNull();
  });
});
