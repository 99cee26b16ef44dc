// The rewards and activity CSV (src/core/staking/csv.ts): exact decimals from bigint, ISO dates,
// RFC 4180 quoting, formulas defused, and thousands of small payouts summing to the last nAVAX.
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, csvField, csvOf, type CsvRow } from '../../src/core/staking/csv.js';

/** A minimal RFC 4180 reader, to read back what csvOf wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = (): void => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  return rows;
}

describe('the staking CSV', () => {
  it('writes one line per row: ISO date, tx ID, kind, exact amount, asset, fee in AVAX', () => {
    const csv = csvOf([
      { time: Date.UTC(2026, 10, 25, 5, 4, 52), txID: '2Btx', kind: 'staking-reward', amount: 708_748n, denomination: 9, asset: 'AVAX' },
      { time: 0, txID: '0xabc', kind: 'send', amount: 1n, denomination: 18, asset: 'AVAX', fee: 21_000_000_000_000n, feeDenomination: 18 },
      { time: 1, txID: 'x', kind: 'delegate', amount: 25_000_000_000n, denomination: 9, asset: 'AVAX', fee: 8_299n },
    ]);
    expect(csv).toBe(
      `${CSV_HEADER}\r\n` +
        '2026-11-25T05:04:52.000Z,2Btx,staking-reward,0.000708748,AVAX,\r\n' +
        '1970-01-01T00:00:00.000Z,0xabc,send,0.000000000000000001,AVAX,0.000021\r\n' +
        '1970-01-01T00:00:00.001Z,x,delegate,25,AVAX,0.000008299\r\n',
    );
  });

  it('quotes commas, quotes and line breaks, and defuses what a spreadsheet would run as a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    const back = parseCsv(csvOf([{ time: 0, txID: 't', kind: 'receive', amount: 5n, denomination: 0, asset: 'Gold, "the" coin\r\n=1+1', fee: 1n }]));
    expect(back[1]).toEqual(['1970-01-01T00:00:00.000Z', 't', 'receive', '5', `Gold, "the" coin\r\n=1+1`, '0.000000001']);
  });

  it('is exact with 5,000 small payouts: every amount reads back to its nAVAX and they sum to the total', () => {
    const rows: CsvRow[] = Array.from({ length: 5_000 }, (_, i) => ({
      time: Date.UTC(2026, 0, 1) + i * 86_400_000,
      txID: `reward-${i}`,
      kind: 'staking-reward',
      amount: BigInt(i * 7 + 1),
      denomination: 9,
      asset: 'AVAX',
    }));
    const csv = csvOf(rows);
    const lines = parseCsv(csv);
    expect(lines).toHaveLength(5_001);
    expect(lines[0]).toEqual(CSV_HEADER.split(','));
    let total = 0n;
    for (const [i, line] of lines.slice(1).entries()) {
      const [date, txID, kind, amount] = line;
      expect([txID, kind]).toEqual([`reward-${i}`, 'staking-reward']);
      expect(new Date(date!).getTime()).toBe(rows[i]!.time);
      const [whole, fraction = ''] = amount!.split('.');
      const navax = BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
      expect(navax).toBe(rows[i]!.amount);
      total += navax;
    }
    expect(total).toBe(rows.reduce((s, r) => s + r.amount!, 0n));
    expect(total).toBe(87_487_500n);
  });

  it('writes a row whose time no date can show with an empty date instead of failing', () => {
    const csv = csvOf([
      { time: 1e20, txID: 'far', kind: 'receive', amount: 1n, denomination: 18, asset: 'AVAX' },
      { time: 0, txID: 'ok', kind: 'receive', amount: 1n, denomination: 9, asset: 'AVAX' },
    ]);
    expect(csv.split('\r\n').slice(1, 3)).toEqual([',far,receive,0.000000000000000001,AVAX,', '1970-01-01T00:00:00.000Z,ok,receive,0.000000001,AVAX,']);
  });
});
