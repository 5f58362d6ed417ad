/**
 * The engine's tuned numbers, one typed table per stage, each with the reason it has the value it has.
 * (Stages not yet moved here keep theirs beside their code: see docs/model.md.)
 */

/** Finding detached leaves on a plain background (`pipeline/leaf-scene.ts`); CIELAB units, working pixels. */
export const LEAF_SCENE = {
  /** leaf green needs a* below minus this: grey, cream and wood have a* >= -3 */
  greenMinNegA: 6,
  /**
   * ... and chroma at least this: leaf green measured chroma 25-60 (15-25 in shade), while the greenish cream
   * flesh and olive CBSD necrosis of the real crops stay under 15 (hue 100-130 too)
   */
  greenMinChroma: 15,
  /** ... and L* at least this: black cloth is no leaf */
  greenMinL: 8,
  /**
   * ... and at most this: leaves measured L* 15-60 (median 19-29 on paper), while cream flesh under a green
   * cast is as green in hue but L* 80-95 (generated slices with a colour cast were taken for leaves)
   */
  greenMaxL: 75,
  /** a leaf yellowed all over: yellow this saturated (cream to yellow cassava flesh stays under 40) ... */
  yellowMinChroma: 45,
  /** ... and not paler than this */
  yellowMaxL: 88,
  /** a photo with less green than this share of the frame is not looked at as a leaf photo */
  minGreenShare: 0.06,
  /** a piece of background smaller than this share of the frame is a gap between leaflets, not the board */
  minBackgroundPiece: 0.002,
  /** with less background than this share of the frame, leaves fill it: a canopy */
  minBackgroundShare: 0.03,
  /** colour samples of the background for its k-means */
  backgroundSamples: 4000,
  backgroundClusters: 3,
  /** lightness counts half: a lighting gradient across paper moves L* far more than hue */
  lightnessWeight: 0.5,
  /** a background colour holds pixels within this many of its own spreads */
  spreadFactor: 1.5,
  /** leaf tissue that is not green (chlorosis, spots) stands at least this far from every background colour */
  minBackgroundDistance: 6,
  /** a region clear of the background is leaf when at least this share of it is green */
  minGreenInLeaf: 0.25,
  /** a hole up to this share of the frame is filled (a spot as dark as a black board); larger ones are the board between leaflets */
  maxFilledHole: 0.003,
  /** leaves smaller than this share of the frame, or of the largest leaf, are crumbs */
  minLeafShare: 0.01,
  minShareOfLargest: 0.1,
  /** the background's texture is read on L* box-blurred by this radius (working px): sensor noise is no texture */
  textureBlur: 2,
  /** background gradient (|dL*| per working pixel) below which a pixel's neighbourhood is smooth */
  smoothGradient: 2,
  /**
   * A plain background (paper, board, cloth) is smooth at that scale: paper behind the detached leaflets
   * measured mean gradient 0.22-0.75 and 92-98 % smooth pixels (generated boards with heavy noise 0.15-0.40,
   * 100 %); sand, soil and litter round leaves on the plant 1.06-6.0 and 23-89 %
   */
  maxBackgroundTexture: 1,
  minBackgroundSmooth: 0.85,
  /** detached leaves leave the board showing on much of the frame (35-80 % measured); a plant, 10-17 % */
  minBackgroundPerimeter: 0.25,
  /** ... and on much of the photo (22-41 % measured) */
  minPlainShare: 0.08,
} as const;

/** Symptoms on a leaf, relative to its own healthy green (`models/leaf-lesions.ts`); CIELAB units, degrees. */
export const LEAF_LESION = {
  /** the healthy reference is the leaf's clearly green pixels (chroma at least this, as leaf-scene) */
  referenceMinChroma: 15,
  /**
   * ... at this quantile of their hue (the greener side): on a mosaic leaf a third of the green is already
   * yellowing, which pulls the median 3-6 degrees toward yellow; healthy leaves spread +-6 degrees round it
   */
  referenceHueQuantile: 0.6,
  /**
   * no healthy leaf green is yellower than this hue (the real leaflets' green: 123-132 degrees; a lime-green
   * leaf about 119; chlorotic yellow 95-105)
   */
  minHealthyHue: 113,
  /**
   * hue turned this many degrees from the healthy green toward yellow is chlorosis / mosaic (at p = 0.5):
   * healthy leaflets keep 91-95 % of their green within 6 degrees, mosaic leaflets 72 %; 8 read the three
   * mosaic photos 2.7, 3.0, 1.9, 7 reads 3.0, 3.2, 2.0 (by eye 3, 3, 4) and the healthy ones 0.2-0.4
   */
  chloroticHueShift: 7,
  /** ... the logistic's width in degrees */
  hueSlope: 3,
  /** each unit of lightness above the healthy green, past a few (veins, sheen), counts this many degrees */
  lighteningWeight: 0.6,
  lighteningFree: 4,
  /** below this chroma the hue says nothing: a neutral pixel is a glare when lighter than the green by ... */
  neutralChroma: 10,
  glareLightening: 15,
  /** the outline's blend of leaf and background, this share of the crop's long side (at least the minimum, px) */
  edgeRingShare: 0.004,
  edgeRingMin: 2,
  /** brown (hue under this, with some chroma) is necrosis whatever the leaf's green */
  brownMaxHue: 85,
  brownMinChroma: 8,
} as const;

/** What each specimen is, and refusals of photos that are no specimen photo (`pipeline/scene-check.ts`). */
export const SCENE_CHECK = {
  /** a root slice shows cream flesh somewhere (all but the most rotten): at least this share of it */
  sliceMinFlesh: 0.12,
  /** a leaf is mostly green */
  leafMinFoliage: 0.35,
  /**
   * one slice's flesh is one body (streaks and wedges notch it, they rarely cut it apart: 0.6-1.0 on the real
   * slices); the cut ends of a heap or basket of whole roots are several separate bodies (0.16 measured)
   */
  sliceMinCohesion: 0.35,
  /** background this textured (mean |gradient L*| per working pixel) is no plain board: foliage, soil, a basket */
  maxBackgroundTexture: 6,
  /**
   * a plain background (board, paper, tray, cloth) keeps its lightness within a few CIELAB units (gradients
   * and weave: 3-6 measured); a field, canopy or heap runs from shadow to sunlit (12-21 on field photos)
   */
  plainMaxSpread: 9,
  /** a background this much foliage, and not plain, is a field or canopy (a plain green cloth is fine) */
  maxBackgroundFoliage: 0.25,
  /**
   * ink, not tissue: a photo of at least this many specimens, nearly all (this share) near-neutral (mean
   * chroma under 4: print and pencil on paper; cream flesh measures 8-20, the greyest real CBSD flesh 5-6), is
   * a page of text or a drawing (a generated printed page gave 60 "specimens")
   */
  inkMinCount: 4,
  inkMinShare: 0.8,
  inkMaxChroma: 4,
  /** a leaf cut off by the frame this much is a leaf on the plant, photographed in the field */
  leafMaxFrameShare: 0.15,
} as const;

/** The slice lesion step of the colour engine (`models/colour-model.ts`, issue 22 point 5). */
export const SLICE_LESION = {
  /**
   * Weight of the shipped slice classifier (`learned/default-slice-model.ts`) in P(discoloured) of a root
   * slice's face, 0 = the rules alone, 1 = the classifier alone; the rules still decide peel, bark and what is
   * not specimen. Off: every weight tried (0.1-1) raised roots + tray's MAE past 0.4504 (the classifier
   * over-reads the tray's faces); measured in docs/model-notebook.md (2026-11-27).
   */
  learnedWeight: 0,
};

/**
 * Root slices cut out onto a flat digital fill (`models/cut-out-lesions.ts`, issue 22): the luma cut their
 * labels follow. Fitted by `node scripts/train-default-model.mjs` on the 83 crops of the CBSD training part only
 * (the held-out crops and the roots crops unseen): least squares of each crop's labelled cut on the features.
 */
export const CUT_OUT_LESION = {
  /** read cut-out slices by their labels' convention at all (false: as every other slice) */
  enabled: true,
  /**
   * ... only on a fill painted white, as round every crop it was learned on (CIELAB L* 100, chroma 0): at least
   * this L* (blurred, as the background is modelled) and at most this chroma
   */
  fillMinL: 95,
  fillMaxChroma: 5,
  /**
   * a pixel at least this in every channel is the fill (no labelled slice pixel of the training crops is: their
   * lightest flesh, the 99th percentile of luma, stays under 245)
   */
  fillMinChannel: 250,
  /**
   * ... and painted, not paper clipped by the exposure: at most this share of the pixels beside the fill are
   * near white (luma >= `shoulderMinLuma`; measured 0-0.01 round the CBSD crops, 0.74-1.0 round clipped paper)
   */
  fillMaxShoulder: 0.3,
  shoulderMinLuma: 235,
  /**
   * cut = c0 + c1 x luma at the rules' share + c2, c3, c4 x the slice's 25th, 50th, 75th percentile of luma
   * (of the features tried, the set with the best 5-fold validation on the training part: 0.49 against 0.52
   * for the 90th percentile and the median)
   */
  coefficients: [29.91, 0.2885, 0.5687, -0.9206, 0.8497] as readonly number[],
  /**
   * the model's share of the slice against the rules' (1 - this): on the training part the model's own share
   * reads best (5 folds: 0.49 at 1, 0.52 at 0.8)
   */
  modelWeight: 1,
  /**
   * grey levels: the logistic's width round the cut, from the labelled cuts' spread round the fit (residual
   * sd 13.7, x sqrt(3) / pi): pixels within it of the cut are uncertain, which the confidence reads
   */
  slope: 7.5,
};
