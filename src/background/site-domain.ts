// The registrable domain ("eTLD+1") of a site's origin: what request limits count by, so that a
// page cannot multiply them with subdomain frames (a.evil.com, b.evil.com, …). Suffixes come from
// a part of the Public Suffix List (./public-suffixes.ts); one missing from it makes its sites
// share a limit, never lets a site escape one (docs/architecture.md, "Limits per site").
import { CATEGORY_LABELS, CATEGORY_SUFFIXES, OTHER_SUFFIX_RULES } from './public-suffixes.js';

interface SuffixRules {
  exact: Set<string>;
  /** "*.ck" is kept as "ck": any one label under it is a public suffix. */
  wildcardParents: Set<string>;
  /** "!www.ck" is kept as "www.ck": registrable although a wildcard covers it. */
  exceptions: Set<string>;
}

let rules: SuffixRules | undefined;

/** Unpacked at first use (about 1,300 strings), not at every start of the worker. */
function suffixRules(): SuffixRules {
  if (rules) return rules;
  const exact = new Set<string>();
  const wildcardParents = new Set<string>();
  const exceptions = new Set<string>();
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (const pair of CATEGORY_SUFFIXES.split(' ')) {
    const [tld, named] = pair.split(':') as [string, string];
    for (const letter of named) exact.add(`${CATEGORY_LABELS[letters.indexOf(letter)]}.${tld}`);
  }
  for (const rule of OTHER_SUFFIX_RULES.split(' ')) {
    if (rule.startsWith('*.')) wildcardParents.add(rule.slice(2));
    else if (rule.startsWith('!')) exceptions.add(rule.slice(1));
    else exact.add(rule);
  }
  rules = { exact, wildcardParents, exceptions };
  return rules;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The registrable domain of `origin`'s host: "evil.com" for https://a.b.evil.com, "evil.co.uk"
 * for https://x.evil.co.uk. An IP address stands for itself, any localhost for "localhost", a
 * host that is itself a public suffix (https://github.io) for itself. Ports and schemes do not
 * count (one machine, one site). Anything that is not an origin with a host ("null", garbage) is
 * its own key, unchanged.
 */
export function registrableDomain(origin: string): string {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return origin;
  }
  if (host === '') return origin;
  if (host.startsWith('[') || IPV4.test(host)) return host;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  const labels = host.split('.');
  if (labels.length < 2) return host;
  const { exact, wildcardParents, exceptions } = suffixRules();
  // Longest candidate first: the first rule that matches is the longest public suffix.
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join('.');
    if (exceptions.has(candidate)) return candidate;
    const isSuffix = exact.has(candidate) || (i + 1 < labels.length && wildcardParents.has(labels.slice(i + 1).join('.')));
    if (isSuffix) return i === 0 ? host : labels.slice(i - 1).join('.');
  }
  // No rule: the top-level domain is the suffix (the list's default rule "*").
  return labels.slice(-2).join('.');
}
