/** Steps behind the engine's calls: only while it is quiet, one whole step per macrotask. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuietSteps } from '../src/store/quiet-steps.ts';

describe('QuietSteps', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** Steps that count themselves, `total` in all. */
  function counting(total: number) {
    let done = 0;
    return { step: () => ++done < total, done: () => done };
  }

  it('takes the first step after the quiet time, the next at once, until none remains', () => {
    const w = counting(3);
    const steps = new QuietSteps(w.step, 250);
    steps.start();
    vi.advanceTimersByTime(249);
    expect(w.done()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(w.done()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(w.done()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(w.done()).toBe(3);
    expect(steps.running).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(w.done()).toBe(3);
  });

  it('a call postpones the next step by the quiet time; a call in flight holds every step back', () => {
    const w = counting(100);
    let calls = 0;
    const steps = new QuietSteps(w.step, 250, () => calls > 0);
    steps.start();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(200);
      steps.postpone(); // a call every 200 ms
    }
    expect(w.done()).toBe(0);
    // one call longer than the quiet time: started (postpone), then 1 s in flight
    calls++;
    steps.postpone();
    vi.advanceTimersByTime(1000);
    expect(w.done()).toBe(0);
    calls--;
    steps.postpone(); // it ends
    vi.advanceTimersByTime(250);
    expect(w.done()).toBe(1);
  });

  it('a step that throws ends the work; stop cancels what is scheduled', () => {
    let tries = 0;
    const failing = new QuietSteps(() => {
      tries++;
      throw new Error('an unreadable page');
    }, 10);
    failing.start();
    vi.advanceTimersByTime(100);
    expect(tries).toBe(1);
    expect(failing.running).toBe(false);
    const w = counting(5);
    const stopped = new QuietSteps(w.step, 10);
    stopped.start();
    stopped.stop();
    stopped.postpone(); // nothing scheduled: stays stopped
    vi.advanceTimersByTime(100);
    expect(w.done()).toBe(0);
  });
});
