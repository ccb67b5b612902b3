// new-user pass nuprefs 3: `inspect` of a pose saved as UTF-8 without a BOM quietly printed its model name garbled
// (蛻晞浹繝溘け.osm, UTF-8 read as Shift_JIS). Now it reads the names as written and warns, as the app does.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Encoding from 'encoding-japanese';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const POSE = 'Vocaloid Pose Data file\r\n\r\n初音ミク.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
const WARNING = 'read as UTF-8 text; MMD reads VPD as Shift_JIS: Export VPD writes Shift_JIS';

describe('inspect: a VPD saved as UTF-8 without a BOM', () => {
  it('prints its names as written and the warning, in the table and in --json; the Shift_JIS file has no warning', async () => {
    const d = mk('inspect-vpd-utf8');
    writeFileSync(path.join(d, 'utf8.vpd'), new TextEncoder().encode(POSE));
    writeFileSync(path.join(d, 'sjis.vpd'), Uint8Array.from(Encoding.convert(Encoding.stringToCode(POSE), { to: 'SJIS', from: 'UNICODE' }) as number[]));
    const j = await runCliCaptured(['inspect', '--json', 'utf8.vpd', 'sjis.vpd'], d);
    expect(j.code).toBe(0);
    const [u, s] = j.out.trim().split('\n').map((l) => JSON.parse(l) as { model: string; bones: string[]; warnings: string[] });
    expect([u.model, u.bones, u.warnings]).toEqual(['初音ミク.osm', ['センター'], [WARNING]]);
    expect([s.model, s.bones, s.warnings]).toEqual(['初音ミク.osm', ['センター'], []]);
    const t = await runCliCaptured(['inspect', 'utf8.vpd'], d);
    expect(t.code).toBe(0);
    expect(t.out).toContain('初音ミク.osm');
    expect(t.out).toContain(`warning ${WARNING}`);
  });
});
