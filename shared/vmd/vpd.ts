/**
 * VPD pose files: Shift_JIS text (UTF-8 when it starts with a BOM), CRLF or LF, `//` comments.
 *
 *   Vocaloid Pose Data file
 *   model.osm;          // parent file name
 *   2;                  // bone count (often wrong in hand-edited files: sections are counted instead)
 *   Bone0{センター
 *   0.000000,1.250000,-0.500000;          // position x, y, z
 *   0.000000,0.000000,0.000000,1.000000;  // quaternion x, y, z, w
 *   }
 *   Morph0{まばたき
 *   1.000000;           // weight
 *   }
 *
 * Values are in MMD coordinates, like VMD keys. Lines are split on raw bytes (0x0A never occurs inside
 * a Shift_JIS character), so errors report exact byte offsets.
 */
import { fail, ok, type Diagnostic, type Result } from './errors';
import { decodeText, encodeSjis } from './sjis';
import type { Quat, Vec3 } from './records';

export const VPD_MAGIC = 'Vocaloid Pose Data file';

export interface VpdBone {
  name: string;
  position: Vec3;
  rotation: Quat;
}

export interface VpdPose {
  /** Parent model file name, e.g. "初音ミク.osm". */
  model: string;
  bones: VpdBone[];
  morphs: { name: string; weight: number }[];
  /** The count the file's header line declared (may differ from bones.length). */
  declaredBones: number | null;
  encoding: 'shift_jis' | 'utf-8';
}

interface Line {
  text: string;
  offset: number;
}

function splitLines(bytes: Uint8Array, utf8: boolean): Line[] {
  const lines: Line[] = [];
  const start0 = utf8 ? 3 : 0;
  const dec = utf8 ? new TextDecoder('utf-8') : null;
  let s = start0;
  for (let i = start0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      let e = i;
      if (e > s && bytes[e - 1] === 0x0d) e--;
      const raw = bytes.subarray(s, e);
      const text = dec ? dec.decode(raw) : decodeText(raw);
      const noComment = text.split('//', 1)[0].trim();
      if (noComment) lines.push({ text: noComment, offset: s });
      s = i + 1;
    }
  }
  return lines;
}

function parseNumbers(line: Line, n: number, what: string): number[] | string {
  const body = line.text.replace(/;\s*$/, '');
  const parts = body.split(',').map((p) => p.trim());
  if (parts.length !== n) return `${what}: expected ${n} numbers, found "${line.text}"`;
  const nums = parts.map(Number);
  if (nums.some((x, i) => parts[i] === '' || !Number.isFinite(x))) return `${what}: not a number in "${line.text}"`;
  return nums;
}

export function readVpd(bytes: Uint8Array): Result<VpdPose> {
  const utf8 = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const lines = splitLines(bytes, utf8);
  if (lines.length === 0 || !lines[0].text.startsWith(VPD_MAGIC)) {
    return fail('E_VPD_MAGIC', `not a VPD file: it does not start with "${VPD_MAGIC}"`, 0);
  }
  const diagnostics: Diagnostic[] = [];
  let model = '';
  let declaredBones: number | null = null;
  let i = 1;
  if (i < lines.length && !/^(Bone|Morph)\d*\{/.test(lines[i].text)) {
    model = lines[i].text.replace(/;\s*$/, '');
    i++;
  }
  if (i < lines.length && /^\d+;?$/.test(lines[i].text)) {
    declaredBones = parseInt(lines[i].text, 10);
    i++;
  }
  const bones: VpdBone[] = [];
  const morphs: VpdPose['morphs'] = [];
  while (i < lines.length) {
    const l = lines[i];
    const bone = /^Bone\d*\{(.*)$/.exec(l.text);
    const morph = bone ? null : /^Morph\d*\{(.*)$/.exec(l.text);
    if (bone) {
      const p = lines[i + 1] ? parseNumbers(lines[i + 1], 3, `bone "${bone[1]}" position`) : 'missing position';
      if (typeof p === 'string') return fail('E_VPD_SYNTAX', p, lines[i + 1]?.offset ?? l.offset);
      const r = lines[i + 2] ? parseNumbers(lines[i + 2], 4, `bone "${bone[1]}" rotation`) : 'missing rotation';
      if (typeof r === 'string') return fail('E_VPD_SYNTAX', r, lines[i + 2]?.offset ?? l.offset);
      bones.push({ name: bone[1].trim(), position: p as Vec3, rotation: r as Quat });
      i += 3;
      if (i < lines.length && lines[i].text === '}') i++;
      else return fail('E_VPD_SYNTAX', `bone section "${bone[1]}" has no closing "}"`, lines[i]?.offset ?? bytes.length);
    } else if (morph) {
      const w = lines[i + 1] ? parseNumbers(lines[i + 1], 1, `morph "${morph[1]}" weight`) : 'missing weight';
      if (typeof w === 'string') return fail('E_VPD_SYNTAX', w, lines[i + 1]?.offset ?? l.offset);
      morphs.push({ name: morph[1].trim(), weight: (w as number[])[0] });
      i += 2;
      if (i < lines.length && lines[i].text === '}') i++;
      else return fail('E_VPD_SYNTAX', `morph section "${morph[1]}" has no closing "}"`, lines[i]?.offset ?? bytes.length);
    } else {
      return fail('E_VPD_SYNTAX', `unexpected line "${l.text.slice(0, 40)}"`, l.offset);
    }
  }
  if (declaredBones !== null && declaredBones !== bones.length) {
    diagnostics.push({
      code: 'W_VPD_COUNT',
      message: `header declares ${declaredBones} bone(s) but the file has ${bones.length} bone section(s); the sections are used`,
      params: { declared: declaredBones, n: bones.length },
    });
  }
  return ok({ model, bones, morphs, declaredBones, encoding: utf8 ? 'utf-8' : 'shift_jis' }, diagnostics);
}

const fix6 = (x: number) => {
  const s = x.toFixed(6);
  return s === '-0.000000' ? '0.000000' : s;
};

/** Writes a VPD the way MMD does: Shift_JIS, CRLF, six decimals. */
export function writeVpd(pose: Pick<VpdPose, 'model' | 'bones' | 'morphs'>): Uint8Array {
  const L: string[] = [];
  L.push(VPD_MAGIC, '');
  L.push(`${pose.model || 'model.osm'};\t\t// 親ファイル名`);
  L.push(`${pose.bones.length};\t\t\t\t// 総ポーズボーン数`, '');
  pose.bones.forEach((b, i) => {
    L.push(`Bone${i}{${b.name}`);
    L.push(`  ${b.position.map(fix6).join(',')};\t\t\t\t// trans x,y,z`);
    L.push(`  ${b.rotation.map(fix6).join(',')};\t\t// Quaternion x,y,z,w`);
    L.push('}', '');
  });
  pose.morphs.forEach((m, i) => {
    L.push(`Morph${i}{${m.name}`);
    L.push(`  ${fix6(m.weight)};\t\t\t\t// weight`);
    L.push('}', '');
  });
  return encodeSjis(L.join('\r\n'));
}
