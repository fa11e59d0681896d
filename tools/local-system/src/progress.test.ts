import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressReporter } from './progress.js';

describe('progressReporter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says what it still waits for, and for how long, whenever nothing was said for quietMs', () => {
    const lines: string[] = [];
    const progress = progressReporter((line) => lines.push(line), { quietMs: 5_000 });
    progress.log('waiting for hub API server…');
    vi.advanceTimersByTime(4_999);
    expect(lines).toEqual(['waiting for hub API server…']);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(5_000);
    expect(lines).toEqual(['waiting for hub API server…', '  … still waiting for hub API server (5 s)', '  … still waiting for hub API server (10 s)']);
    progress.log('starting Azure emulator…');
    vi.advanceTimersByTime(3_000);
    expect(lines.at(-1)).toBe('starting Azure emulator…');
    progress.stop();
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(4);
  });

  it('stays quiet before the first phase and while lines keep coming', () => {
    const lines: string[] = [];
    const progress = progressReporter((line) => lines.push(line), { quietMs: 1_000 });
    vi.advanceTimersByTime(5_000);
    expect(lines).toEqual([]);
    for (let i = 0; i < 5; i++) {
      progress.log(`step ${i}`);
      vi.advanceTimersByTime(900);
    }
    expect(lines).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4']);
    progress.stop();
  });
});
