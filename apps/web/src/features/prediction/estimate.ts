import { SECONDS_PER_IMAGE_ESTIMATE } from '@cassavascope/contract';

/**
 * Estimated time of a task, in seconds, rounded up: image count x this server's measured seconds per image when
 * it has finished a task (issue 15: the seed's 0.3 s showed 105 s for 349 images that took 27 s), else the seed's
 * image count x 0.3 (spec section 9).
 */
export function estimatedSeconds(images: number, secondsPerImage: number | null = null): number {
  return Math.max(0, Math.ceil(images * (secondsPerImage ?? SECONDS_PER_IMAGE_ESTIMATE) - 1e-9));
}
