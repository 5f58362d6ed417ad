/**
 * English sentences in a text: four or more words of Latin letters in a row ("Every image failed; each result
 * gives its error_code"). Proper names, codes, file names and units (DeepLabV3+ ResNet-101, PPD, plot_3.jpg,
 * JPEG, 2.5 MB) are not sentences and pass. A Chinese screen must give an empty list.
 */
export function englishSentences(text: string): string[] {
  const words = String.raw`[A-Za-z][a-z]+`;
  const re = new RegExp(String.raw`\b${words}(?:[ ,;:'’-]+${words}){3,}\b`, 'g');
  return text.match(re) ?? [];
}
