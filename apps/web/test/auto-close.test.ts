import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutoClose } from '../src/lib/auto-close';

/**
 * The upload dialog closes by itself a second after an upload that fully succeeded. A researcher who closes it
 * first and starts the next upload within that second must keep the next dialog (a flaky browser step found
 * the old timer closing it, failed files and all).
 */
describe('a dialog that closes by itself', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes after the delay', () => {
    const close = vi.fn();
    const auto = createAutoClose(close, 1000);
    auto.schedule();
    vi.advanceTimersByTime(999);
    expect(close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('does not close a dialog opened again within the delay', () => {
    const close = vi.fn();
    const auto = createAutoClose(close, 1000);
    auto.schedule();
    vi.advanceTimersByTime(300);
    auto.cancel(); // the researcher closes it, then the next upload opens it
    vi.advanceTimersByTime(5000);
    expect(close).not.toHaveBeenCalled();
  });

  it('waits the whole delay again after a second success', () => {
    const close = vi.fn();
    const auto = createAutoClose(close, 1000);
    auto.schedule();
    vi.advanceTimersByTime(800);
    auto.schedule();
    vi.advanceTimersByTime(800);
    expect(close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
