import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capMessage, CONDITION_MESSAGE_LIMIT } from './condition-message.js';

describe('capMessage', () => {
  it('leaves a message within the limit as it is', () => {
    expect(capMessage('a; b, c', 7)).toBe('a; b, c');
  });

  it('cuts at a sentence-part boundary and counts the parts left out', () => {
    expect(capMessage('alpha; beta; gamma; delta; epsilon', 24)).toBe('alpha; … and 4 more');
    expect(capMessage('alpha; beta; gamma; delta; epsilon', 25)).toBe('alpha; beta; … and 3 more');
  });

  it('cuts a first part too long at its own items, then counts the parts after it', () => {
    expect(capMessage('rule 0: a, b, c, d, e, f, g, h, i, j; rule 1: k', 40)).toBe('rule 0: a, b, … and 8 more; … and 1 more');
  });

  it('cuts a message with no list at the limit and says how long it was', () => {
    const capped = capMessage('x'.repeat(100), 50);
    expect(capped).toHaveLength(50);
    expect(capped).toMatch(/^x+ … \(100 characters in all\)$/);
  });

  it('keeps a ResolvedRefs message of 16 rules x 16 backendRefs with 253-character names under the CRD bound', () => {
    const name = 'n'.repeat(253);
    const parts = Array.from({ length: 256 }, (_, i) => `backendRef ${i} ServiceImport team-a/${name} not found`);
    const capped = capMessage(parts.join('; '));
    expect(capped.length).toBeLessThanOrEqual(CONDITION_MESSAGE_LIMIT);
    const kept = capped.split('; ').length - 1;
    expect(capped.endsWith(`; … and ${256 - kept} more`)).toBe(true);
    expect(capped.startsWith(parts.slice(0, kept).join('; '))).toBe(true);
  });

  it('never exceeds the limit; a cut message keeps a prefix of whole parts and counts every part it left out', () => {
    const word = fc.string({ minLength: 1, maxLength: 30 }).map((s) => s.replace(/[;,]/g, ''));
    const part = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(', '));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 40 }), fc.integer({ min: 40, max: 600 }), (parts, limit) => {
        const message = parts.join('; ');
        const capped = capMessage(message, limit);
        if (message.length <= limit) {
          expect(capped).toBe(message);
          return;
        }
        expect(capped.length).toBeLessThanOrEqual(limit);
        const counted = /; … and (\d+) more$/.exec(capped);
        if (!counted) return;
        const keptParts = parts.length - Number(counted[1]);
        const prefix = capped.slice(0, capped.length - counted[0].length);
        // Whole parts kept, or the first part itself cut at its items.
        if (prefix !== parts.slice(0, keptParts).join('; ')) expect([keptParts, prefix.endsWith(' more')]).toEqual([1, true]);
      }),
      { seed: 32_768, numRuns: 2_000 },
    );
    // Found by an unseeded run: a first part of items too short to count under a limit shorter than the counts.
    const tiny = ['            ,  ,          ', ...Array.from({ length: 10 }, () => ' ')].join('; ');
    expect(capMessage(tiny, 40).length).toBeLessThanOrEqual(40);
  });
});
