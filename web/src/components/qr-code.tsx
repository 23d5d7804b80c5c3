/**
 * A QR code drawn in the page as SVG from the `qr` encoder's module grid: the code a TOTP
 * enrolment shows carries the secret, so no image service may render it, and an SVG of our own
 * needs nothing the CSP forbids (no inline markup string, no data: image).
 */
import { encodeQR } from 'qr';
import { useMemo } from 'react';

/** The quiet zone a scanner needs around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;

/** One path of unit squares, a square per dark module, rows merged into runs. */
function modulesPath(grid: boolean[][]): string {
  const parts: string[] = [];
  grid.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let end = x;
      while (row[end + 1]) end++;
      parts.push(`M${x} ${y}h${end - x + 1}v1h-${end - x + 1}z`);
      x = end;
    }
  });
  return parts.join('');
}

export function QrCode({ value, label, size = 208 }: { value: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    const grid = encodeQR(value, 'raw', { ecc: 'medium', border: QUIET_ZONE });
    return { path: modulesPath(grid), modules: grid.length };
  }, [value]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${modules} ${modules}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
