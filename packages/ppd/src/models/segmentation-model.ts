import type { EngineInfo } from '@cassavascope/contract';
import type { LabPlanes } from '../imaging/lab.js';
import type { RgbImage } from '../imaging/raster.js';
import type { SpecimenKind } from '../types.js';

/**
 * What an engine contributes: per-pixel probabilities. Everything else (thresholds, post-processing, TTA,
 * PPD, rendering) is shared pipeline code, so both engines are scored the same way.
 */
export interface SegmentationModel {
  readonly info: EngineInfo;
  /**
   * Optional: called once a photo with its working image, before the calls below (a lab model notes the
   * working size, so it reads the half-size copy at the scale it was trained on).
   */
  prepare?(working: RgbImage): void;
  /** P(specimen) for every pixel of the working image (`lab`: its CIELAB planes, when the caller has them). */
  specimenProbability(image: RgbImage, lab?: LabPlanes): Promise<Float32Array>;
  /**
   * P(discoloured) for every pixel of one cut (`NOT_SPECIMEN` where a pixel of the mask turns out not to be
   * cut surface, e.g. bark seen from the side: it counts neither as lesion nor in the specimen's area); `mask` marks the specimen's own pixels (the rest is ignored).
   * `kind` says what the specimen is: a root slice's peel is not discolouration; a leaf has none.
   */
  lesionProbability(cut: RgbImage, mask: Uint8Array, kind: SpecimenKind): Promise<Float32Array>;
  close(): Promise<void>;
}

/** A lesion "probability" that takes a pixel out of the specimen (see `lesionProbability`). */
export const NOT_SPECIMEN = -1;
