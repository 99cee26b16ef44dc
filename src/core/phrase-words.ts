/**
 * The words of a typed or pasted recovery phrase: NFKD, lowercase, split on any whitespace. Characters
 * that show nothing (zero-width space and joiners, word joiner, soft hyphen, byte-order mark), which
 * copying from a web page or a document can bring along, are dropped: the words are what the user sees.
 */
export function phraseWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}
