import { SECONDS_PER_IMAGE_ESTIMATE } from '@cassavascope/contract';

/** Spec section 9: image count x 0.3, rounded up, in seconds. */
export function estimatedSeconds(images: number): number {
  return Math.ceil(images * SECONDS_PER_IMAGE_ESTIMATE);
}
