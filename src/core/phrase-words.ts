/**
 * The words of a typed or pasted recovery phrase: NFKD, lowercase, split on any whitespace. Characters
 * that show nothing (zero-width space and joiners, word joiner, soft hyphen, byte-order mark), which
 * copying from a web page or a document can bring along, are dropped: the words are what the user sees.
 * So are the numbers of a phrase copied as a numbered list ("1. abandon 2. ability …", as backup
 * screens show it), only when they count 1, 2, 3… in order before each word.
 */
export function phraseWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  // A numbered list: every other word its number, counting 1, 2, 3… ("1." and "1)" too).
  const numbered = words.length % 2 === 0 && words.every((w, i) => i % 2 === 1 || w.replace(/[.)]$/, '') === String(i / 2 + 1));
  return numbered ? words.filter((_, i) => i % 2 === 1) : words;
}
