// A QR code as an SVG element tree (uqr computes the modules; nothing is parsed from strings).
import { encode } from 'uqr';
import { useMemo } from 'preact/hooks';

export function QrCode({ text, label, size = 168 }: { text: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    // The standard's quiet zone, 4 modules of white: the dark theme's background is no quiet zone.
    const qr = encode(text, { ecc: 'M', border: 4 });
    let d = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { path: d, modules: qr.size };
  }, [text]);
  return (
    <svg class="qr" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shape-rendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
