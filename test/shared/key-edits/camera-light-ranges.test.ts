// Camera-panel entries MMD's own panels cannot make: a self-shadow range past 0–9999 (12000 stored
// 0.1 − 0.12 = −0.02) stops at the slider's end, and a FOV of 45.6 is stored as the whole number 46; both say
// so (the notice reads shadowDistanceClamp / fovRounding). The file is read back by offsets worked out here
// (header 50, counts, 61-byte camera records with the FOV at +56, 9-byte self-shadow records).
import { describe, expect, it } from 'vitest';
import { writeVmd } from '../../../shared/vmd';
import { editValues, entryEdit, fovRounding, parseEntry, shadowDistanceClamp, type KeyRef } from '../../../shared/key-edits';
import { buildFixture } from '../../helpers/vmd-fixtures';
import { accepted as ok, readOk as parse } from '../../helpers/key-edit';

const BYTES = buildFixture({
  cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
  shadows: [{ frame: 90, mode: 0, distance: 0.01125 }],
});
/** Header 50; bone count, morph count, camera count; one 61-byte camera record. */
const CAMERA_AT = 50 + 4 + 4 + 4;
const FOV_AT = CAMERA_AT + 4 + 4 + 12 + 12 + 24;
/** After the camera record: light count (0), self-shadow count, then the record: frame 4, mode 1, distance 4. */
const SHADOW_DISTANCE_AT = CAMERA_AT + 61 + 4 + 4 + 4 + 1;
const camera: KeyRef[] = [{ kind: 'camera', record: 0 }];
const shadow: KeyRef[] = [{ kind: 'shadow', record: 0 }];
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const f = Math.fround;

describe('self-shadow range stops at MMD’s 0–9999', () => {
  const doc = parse(BYTES);
  const stored = (text: string) => view(writeVmd(ok(editValues(doc, shadow, entryEdit('shadowDistance', 0, parseEntry(text)!))).doc)).getFloat32(SHADOW_DISTANCE_AT, true);

  it('the fixture holds 8875 (0.01125) where the offsets say', () => {
    expect(view(BYTES).getFloat32(SHADOW_DISTANCE_AT, true)).toBe(f(0.01125));
  });

  it('12000 is stored as 9999 (0.1 − 9999 / 100000 = 0.00001), never the negative −0.02', () => {
    expect(stored('12000')).toBe(f(0.00001));
    expect(stored('-50')).toBe(f(0.1));
    // In range: as typed.
    expect(stored('5000')).toBe(f(0.05));
    expect(stored('9999')).toBe(f(0.00001));
  });

  it('an offset stops there too: 8875 + 2000 is 9999, 8875 − 9000 is 0', () => {
    expect(stored('+2000')).toBe(f(0.00001));
    expect(stored('-=9000')).toBe(f(0.1));
    expect(stored('+100')).toBe(f(0.1 - 0.08975));
  });

  it('says what the entry became, for the notice', () => {
    expect(shadowDistanceClamp(parseEntry('12000')!, 8875)).toBe(9999);
    expect(shadowDistanceClamp(parseEntry('-3')!, 8875)).toBe(0);
    expect(shadowDistanceClamp(parseEntry('+2000')!, 8875)).toBe(9999);
    expect(shadowDistanceClamp(parseEntry('5000')!, 8875)).toBeNull();
    expect(shadowDistanceClamp(parseEntry('9999')!, 8875)).toBeNull();
    expect(shadowDistanceClamp(parseEntry('0')!, 8875)).toBeNull();
    // An offset on mixed keys (nothing shown) has no one value to report.
    expect(shadowDistanceClamp(parseEntry('+2000')!, undefined)).toBeNull();
  });
});

describe('FOV is a whole number', () => {
  const doc = parse(BYTES);
  const fov = (text: string) => view(writeVmd(ok(editValues(doc, camera, entryEdit('fov', 0, parseEntry(text)!))).doc)).getUint32(FOV_AT, true);

  it('45.6 is stored 46, 45.4 is 45; the fixture had 30', () => {
    expect(view(BYTES).getUint32(FOV_AT, true)).toBe(30);
    expect(fov('45.6')).toBe(46);
    expect(fov('45.4')).toBe(45);
  });

  it('the notice says 45.6 became 46; a whole number in range says nothing', () => {
    expect(fovRounding(parseEntry('45.6')!, 30)).toBe(46);
    expect(fovRounding(parseEntry('0')!, 30)).toBe(1);
    expect(fovRounding(parseEntry('200')!, 30)).toBe(179);
    expect(fovRounding(parseEntry('+0.5')!, 30)).toBe(31);
    expect(fovRounding(parseEntry('45')!, 30)).toBeNull();
    expect(fovRounding(parseEntry('+5')!, 30)).toBeNull();
  });
});
