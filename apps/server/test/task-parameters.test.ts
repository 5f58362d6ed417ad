import { DEFAULT_PARAMETERS } from '@cassavascope/contract';
import { describe, expect, it } from 'vitest';
import { analysisParameters, storedTaskParameters } from '../src/tasks/task-parameters.js';

describe("a task's stored parameters", () => {
  it('read back as written', () => {
    const written = { ...DEFAULT_PARAMETERS, threshold: 0.7, min_size: 120, split_count: 5 };
    expect(storedTaskParameters(JSON.stringify(written))).toEqual(written);
  });

  it('read a key stored before it existed as its default', () => {
    const { overlay_opacity: _gone, ...older } = { ...DEFAULT_PARAMETERS, threshold: 0.3 };
    const read = storedTaskParameters(JSON.stringify(older));
    expect(read.threshold).toBe(0.3);
    expect(read.overlay_opacity).toBe(DEFAULT_PARAMETERS.overlay_opacity);
  });

  it('still read when a value is out of the present range, and when there is no task', () => {
    expect(storedTaskParameters(JSON.stringify({ threshold: 0.4, min_size: -1 }))).toMatchObject({
      threshold: 0.4,
      min_size: -1,
      split_count: DEFAULT_PARAMETERS.split_count,
    });
    expect(storedTaskParameters(undefined)).toEqual(DEFAULT_PARAMETERS);
    expect(storedTaskParameters('not json')).toEqual(DEFAULT_PARAMETERS);
  });

  it('give the engine everything but split_count', () => {
    const analysis = analysisParameters({ ...DEFAULT_PARAMETERS, split_count: 9 });
    expect(analysis).not.toHaveProperty('split_count');
    expect(analysis.threshold).toBe(DEFAULT_PARAMETERS.threshold);
  });
});
