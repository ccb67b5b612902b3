#!/usr/bin/env node
// Draws the app and file-type icons from code (no third-party art) and writes them as PNG, ICO and
// ICNS into build/ for electron-builder: icon.{png,ico,icns}, icons/NxN.png (Linux), and per file
// type vmd.{png,ico,icns} and vpd.{png,ico,icns}. PNGs are encoded here with node:zlib.
// Run: node build/make-icons.mjs   (deterministic: same bytes every run)
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const out = path.dirname(fileURLToPath(import.meta.url));

// ---- PNG encoding ----
const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** RGBA pixels (Uint8Array, size*size*4) → PNG bytes. */
export function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- drawing: shapes as coverage functions in unit coordinates, 4×4 supersampled ----
const mix = (a, b, t) => a + (b - a) * t;
function roundRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.max(x0 + r, Math.min(x, x1 - r));
  const cy = Math.max(y0 + r, Math.min(y, y1 - r));
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
}
function nearSegment(x, y, ax, ay, bx, by, w) {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= w * w;
}
/** A cubic Bézier like MMD's interpolation curve, as polyline segments. */
function bezierPoints(p0, p1, p2, p3, n = 48) {
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n, u = 1 - t;
    pts.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return pts;
}
function nearPolyline(x, y, pts, w) {
  for (let i = 1; i < pts.length; i++) if (nearSegment(x, y, pts[i - 1][0], pts[i - 1][1], pts[i][0], pts[i][1], w)) return true;
  return false;
}
const diamond = (x, y, cx, cy, r) => Math.abs(x - cx) + Math.abs(y - cy) <= r;

/** Renders layers [{ test(x,y) → bool, color(x,y) → [r,g,b,a] }] bottom to top. */
function render(size, layers) {
  const px = new Uint8Array(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let pxi = 0; pxi < size; pxi++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (pxi + (sx + 0.5) / S) / size, y = (py + (sy + 0.5) / S) / size;
          let cr = 0, cg = 0, cb = 0, ca = 0;
          for (const L of layers) {
            if (!L.test(x, y)) continue;
            const [lr, lg, lb, la] = L.color(x, y);
            const A = la / 255;
            cr = mix(cr, lr, A); cg = mix(cg, lg, A); cb = mix(cb, lb, A);
            ca = ca + A * (1 - ca);
          }
          r += cr; g += cg; b += cb; a += ca;
        }
      }
      const n = S * S, o = (py * size + pxi) * 4;
      // Colours were blended over black: un-premultiply.
      px[o + 3] = Math.round((a / n) * 255);
      const k = a > 0 ? 1 / a : 0;
      px[o] = Math.round(r * k); px[o + 1] = Math.round(g * k); px[o + 2] = Math.round(b * k);
    }
  }
  return px;
}

const curve = bezierPoints([0.2, 0.78], [0.62, 0.8], [0.38, 0.22], [0.8, 0.22]);
const appLayers = [
  { test: (x, y) => roundRect(x, y, 0.06, 0.06, 0.94, 0.94, 0.2), color: (x, y) => [mix(40, 24, y), mix(120, 70, y), mix(140, 92, y), 255] },
  { test: (x, y) => nearSegment(x, y, 0.2, 0.84, 0.8, 0.84, 0.012) || nearSegment(x, y, 0.2, 0.16, 0.2, 0.84, 0.012), color: () => [255, 255, 255, 90] },
  { test: (x, y) => nearPolyline(x, y, curve, 0.035), color: () => [245, 250, 255, 255] },
  { test: (x, y) => diamond(x, y, 0.2, 0.78, 0.075) || diamond(x, y, 0.8, 0.22, 0.075), color: () => [255, 196, 70, 255] },
];

function docLayers(accent, mark) {
  const fold = (x, y) => x > 0.62 && y < 0.26 && x - 0.62 > y - 0.08;
  return [
    { test: (x, y) => roundRect(x, y, 0.16, 0.06, 0.84, 0.94, 0.05) && !fold(x, y), color: () => [238, 241, 245, 255] },
    { test: (x, y) => x > 0.62 && y < 0.26 && x - 0.62 <= y - 0.08 && y >= 0.06 && x <= 0.84, color: () => [200, 206, 214, 255] },
    { test: (x, y) => roundRect(x, y, 0.16, 0.66, 0.84, 0.94, 0.05), color: () => accent },
    ...mark,
  ];
}
const small = bezierPoints([0.28, 0.56], [0.5, 0.58], [0.42, 0.3], [0.58, 0.3]);
const vmdLayers = docLayers([40, 130, 150, 255], [
  { test: (x, y) => nearPolyline(x, y, small, 0.03), color: () => [40, 110, 130, 255] },
  { test: (x, y) => diamond(x, y, 0.28, 0.56, 0.06) || diamond(x, y, 0.58, 0.3, 0.06), color: () => [230, 160, 40, 255] },
]);
// A pose: a stick figure (head, body, arms, legs).
const vpdLayers = docLayers([200, 110, 50, 255], [
  { test: (x, y) => (x - 0.5) ** 2 + (y - 0.2) ** 2 <= 0.006, color: () => [170, 90, 40, 255] },
  {
    test: (x, y) =>
      nearSegment(x, y, 0.5, 0.27, 0.5, 0.45, 0.025) ||
      nearSegment(x, y, 0.5, 0.32, 0.33, 0.24, 0.022) ||
      nearSegment(x, y, 0.5, 0.32, 0.67, 0.4, 0.022) ||
      nearSegment(x, y, 0.5, 0.45, 0.38, 0.6, 0.022) ||
      nearSegment(x, y, 0.5, 0.45, 0.62, 0.6, 0.022),
    color: () => [170, 90, 40, 255],
  },
]);

// ---- containers ----
/** ICO with PNG-compressed entries (Windows Vista and later). */
function encodeIco(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(([size, png], i) => {
    const o = 6 + i * 16;
    header[o] = size >= 256 ? 0 : size;
    header[o + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, o + 4); // planes
    header.writeUInt16LE(32, o + 6); // bpp
    header.writeUInt32LE(png.length, o + 8);
    header.writeUInt32LE(offset, o + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map(([, p]) => p)]);
}
/** ICNS with PNG entries: ic07 128, ic08 256, ic09 512, ic10 1024. */
function encodeIcns(pngs) {
  const type = { 128: 'ic07', 256: 'ic08', 512: 'ic09', 1024: 'ic10' };
  const entries = pngs.filter(([s]) => type[s]).map(([s, png]) => {
    const h = Buffer.alloc(8);
    h.write(type[s], 0, 'ascii');
    h.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([h, png]);
  });
  const body = Buffer.concat(entries);
  const h = Buffer.alloc(8);
  h.write('icns', 0, 'ascii');
  h.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([h, body]);
}

function write(rel, bytes) {
  const p = path.join(out, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, bytes);
}

function family(name, layers, pngSizes) {
  const pngs = pngSizes.map((s) => [s, encodePng(s, render(s, layers))]);
  const bySize = new Map(pngs);
  write(`${name}.png`, bySize.get(512) ?? bySize.get(256));
  write(`${name}.ico`, encodeIco(pngs.filter(([s]) => s <= 256)));
  write(`${name}.icns`, encodeIcns(pngs));
  return bySize;
}

const app = family('icon', appLayers, [16, 32, 48, 64, 128, 256, 512, 1024]);
for (const s of [16, 32, 48, 64, 128, 256, 512]) write(`icons/${s}x${s}.png`, app.get(s));
write('icon.png', app.get(1024));
family('vmd', vmdLayers, [16, 32, 48, 128, 256, 512]);
family('vpd', vpdLayers, [16, 32, 48, 128, 256, 512]);
console.log(`icons written to ${out}`);
