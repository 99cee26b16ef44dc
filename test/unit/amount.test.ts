import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatAmount, MAX_DENOMINATION, parseAmount, UINT64_MAX } from '../../src/core/amount.js';
import { FormatError } from '../../src/core/errors.js';

describe('parseAmount', () => {
  it('scales by the denomination (AVAX on X/P = 9, wei = 18)', () => {
    expect(parseAmount('1', 9)).toBe(1_000_000_000n);
    expect(parseAmount('1.5', 9)).toBe(1_500_000_000n);
    expect(parseAmount('0.000000001', 9)).toBe(1n);
    expect(parseAmount('1', 18)).toBe(10n ** 18n);
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
    expect(parseAmount('0', 9)).toBe(0n);
    expect(parseAmount('007.10', 9)).toBe(7_100_000_000n);
  });

  it('handles denomination 0 (whole units only) and 32 (the node maximum)', () => {
    expect(parseAmount('42', 0)).toBe(42n);
    expect(parseAmount('42.', 0)).toBe(42n);
    expect(parseAmount('42.0', 0)).toBe(42n);
    expect(() => parseAmount('42.01', 0)).toThrow(/at most 0 decimal places/);
    expect(() => parseAmount('0.5', 0)).toThrow(FormatError);
    expect(parseAmount('0.' + '0'.repeat(31) + '1', 32)).toBe(1n);
    expect(() => parseAmount('0.' + '0'.repeat(32) + '1', 32)).toThrow(/at most 32 decimal places/);
    // with 32 decimals even 1.0 is far beyond u64
    expect(() => parseAmount('1', 32)).toThrow(/maximum/);
  });

  it('accepts a leading or trailing point and surrounding whitespace', () => {
    expect(parseAmount('.5', 9)).toBe(500_000_000n);
    expect(parseAmount('5.', 9)).toBe(5_000_000_000n);
    expect(parseAmount('  2.25\t\n', 9)).toBe(2_250_000_000n);
  });

  it('rejects too many decimals', () => {
    expect(() => parseAmount('0.0000000001', 9)).toThrow(/at most 9 decimal places/);
    expect(() => parseAmount('1.23', 1)).toThrow(/at most 1 decimal place for/);
    expect(() => parseAmount('1.00000000010', 9)).toThrow(/at most 9 decimal places/);
  });

  it('takes trailing zeros past the denomination: they add no precision', () => {
    expect(parseAmount('1.0000000000', 9)).toBe(1_000_000_000n);
    expect(parseAmount('0.10000000000000000000', 2)).toBe(10n);
  });

  it('rejects empty text, signs, exponents, separators and non-digits', () => {
    for (const text of ['', '   ', '.', '-1', '+1', '1e3', '1E3', '1,000', '1 000', '1.2.3', '0x10', 'Infinity', 'NaN', '１', '٣']) {
      expect(() => parseAmount(text, 9), JSON.stringify(text)).toThrow(FormatError);
    }
  });

  it('enforces u64 (default) and a caller-supplied maximum', () => {
    expect(parseAmount('18446744073709551615', 0)).toBe(UINT64_MAX);
    expect(() => parseAmount('18446744073709551616', 0)).toThrow(/maximum/);
    expect(parseAmount('18446744073.709551615', 9)).toBe(UINT64_MAX);
    expect(() => parseAmount('18446744073.709551616', 9)).toThrow(/maximum/);
    expect(parseAmount('10', 0, 10n)).toBe(10n);
    expect(() => parseAmount('11', 0, 10n)).toThrow(/maximum/);
    // EVM balances are not u64-bounded: a caller passes a larger max
    expect(parseAmount('100', 18, 2n ** 256n - 1n)).toBe(100n * 10n ** 18n);
  });

  it('rejects an invalid denomination', () => {
    for (const d of [-1, 33, 1.5, Number.NaN]) {
      expect(() => parseAmount('1', d)).toThrow(/denomination/);
      expect(() => formatAmount(1n, d)).toThrow(/denomination/);
    }
  });
});

describe('formatAmount', () => {
  it('places the point and trims trailing zeros without rounding', () => {
    expect(formatAmount(0n, 9)).toBe('0');
    expect(formatAmount(1n, 9)).toBe('0.000000001');
    expect(formatAmount(1_500_000_000n, 9)).toBe('1.5');
    expect(formatAmount(1_000_000_000n, 9)).toBe('1');
    expect(formatAmount(999_999_999n, 9)).toBe('0.999999999');
    expect(formatAmount(UINT64_MAX, 9)).toBe('18446744073.709551615');
    expect(formatAmount(UINT64_MAX, 0)).toBe('18446744073709551615');
    expect(formatAmount(1n, 32)).toBe('0.' + '0'.repeat(31) + '1');
    expect(formatAmount(10n ** 18n + 1n, 18)).toBe('1.000000000000000001');
  });

  it('groups thousands in the whole part only, and keeps the sign of negatives', () => {
    expect(formatAmount(1_234_567_890_000_000n, 9, { groupThousands: true })).toBe('1,234,567.89');
    expect(formatAmount(123_000_000_000n, 9, { groupThousands: true })).toBe('123');
    expect(formatAmount(1_234n, 0, { groupThousands: true })).toBe('1,234');
    expect(formatAmount(1_000_000n, 9, { groupThousands: true })).toBe('0.001');
    expect(formatAmount(-1_500_000_000n, 9)).toBe('-1.5');
    expect(formatAmount(-1n, 9)).toBe('-0.000000001');
  });
});

describe('parse ∘ format', () => {
  it('returns every u64 amount unchanged at every denomination', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: UINT64_MAX }), fc.integer({ min: 0, max: MAX_DENOMINATION }), (units, d) => {
        expect(parseAmount(formatAmount(units, d), d)).toBe(units);
      }),
      { numRuns: 500 },
    );
  });

  it('format ∘ parse gives the canonical text of what the user typed', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,9}$/),
        fc.stringMatching(/^\d{0,9}$/),
        (whole, fraction) => {
          const typed = `${whole}.${fraction}`;
          const canonical = fraction.replace(/0+$/, '') === '' ? whole : `${whole}.${fraction.replace(/0+$/, '')}`;
          expect(formatAmount(parseAmount(typed, 9), 9)).toBe(canonical);
        },
      ),
    );
  });
});
