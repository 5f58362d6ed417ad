/**
 * The key `ordering=name` sorts by (issue 15 item 9: names sorted as people do, not by code point):
 * - case-insensitive: NFC, then Unicode lower case ("big" next to "Big", both before "plot");
 * - numbers in numeric order: each run of digits is compared by its value ("slice_2" before "slice_10");
 * - Chinese by pinyin: each common Han character (U+4E00-U+9FFF) is replaced by its rank in the pinyin order of
 *   ICU's Chinese collation, after every Latin letter and digit (as a Chinese file manager lists them).
 * The key compares correctly byte by byte (SQLite's BINARY, PostgreSQL's "C" collation), so one index serves it.
 */

/** Digit runs are padded to this many digits (longer numbers keep their length and still sort after shorter). */
const NUMBER_WIDTH = 20;
/** Han ranks are written as code points from here (Supplementary Private Use Area-A: above every BMP character). */
const HAN_BASE = 0xf0000;
const HAN_FIRST = 0x4e00;
const HAN_LAST = 0x9fff;

let hanRanks: Uint16Array | null = null;

/** Rank of every character U+4E00-U+9FFF in pinyin order; built once (about 0.1 s) on first use. */
function ranks(): Uint16Array {
  if (hanRanks) return hanRanks;
  const chars: string[] = [];
  for (let cp = HAN_FIRST; cp <= HAN_LAST; cp++) chars.push(String.fromCodePoint(cp));
  chars.sort(new Intl.Collator('zh-u-co-pinyin').compare);
  const table = new Uint16Array(HAN_LAST - HAN_FIRST + 1);
  chars.forEach((ch, rank) => {
    table[ch.codePointAt(0)! - HAN_FIRST] = rank;
  });
  hanRanks = table;
  return table;
}

export function nameSortKey(name: string): string {
  const lower = name.normalize('NFC').toLowerCase();
  let out = '';
  for (const part of lower.match(/\d+|\D+/gu) ?? []) {
    if (/^\d/.test(part)) {
      const digits = part.replace(/^0+(?=\d)/, '');
      out += digits.length < NUMBER_WIDTH ? digits.padStart(NUMBER_WIDTH, '0') : digits;
      continue;
    }
    for (const ch of part) {
      const cp = ch.codePointAt(0)!;
      out += cp >= HAN_FIRST && cp <= HAN_LAST ? String.fromCodePoint(HAN_BASE + ranks()[cp - HAN_FIRST]!) : ch;
    }
  }
  return out;
}
