/**
 * What a QR code drawn by web/src/components/qr-code.tsx says, read as a scanner would: its SVG
 * path back into dark modules, those rasterised, and the image decoded by `qr`'s decoder (finder
 * patterns, format bits, error correction), not by comparing against the encoder's output.
 */
import decodeQR from 'qr/decode.js';

export function decodeDrawnQr(svg: { viewBox: string; path: string }, scale = 4): string {
  const modules = Number(svg.viewBox.split(' ')[2]);
  const size = modules * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [, x, y, width] of svg.path.matchAll(/M(\d+) (\d+)h(\d+)/g)) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row++) {
      for (let column = Number(x) * scale; column < (Number(x) + Number(width)) * scale; column++) data.fill(0, (row * size + column) * 4, (row * size + column) * 4 + 3);
    }
  }
  return decodeQR({ width: size, height: size, data });
}
