// A hand-built PMX whose IK chain's links take more than their keys (an append-rotation knee, a thigh with a bone
// morph), for the IK bake's tests: no corpus model has such a chain.
import { Bytes } from '../shared/pmx-fixtures';
import { blockFromRecords, emptyVmd, encodeBoneRecord, encodeMorphRecord, withBlocks, type VmdDocument } from '../../shared/vmd';

const deg = Math.PI / 180;

/** (x, y, z, w) of a turn by `a` radians about a unit axis. */
export const turn = (ax: number, ay: number, az: number, a: number) => [ax * Math.sin(a / 2), ay * Math.sin(a / 2), az * Math.sin(a / 2), Math.cos(a / 2)];

/**
 * A PMX 2.0 with six bones (bone index size 2, UTF-16 names), no mesh:
 *  0 センター (0, 10, 0), root; 1 ひざ補助 (1, 5, 0) under it, a helper the motion turns;
 *  2 左足 (1, 10, 0) under センター; 3 左ひざ (1, 5, 0) under 左足, appending `ratio` of ひざ補助's rotation;
 *  4 左足首 (1, 0.5, 0) under 左ひざ; 5 左足ＩＫ (1, 0.5, 0), root, IK to 左足首, 40 loops, limit 2 rad,
 *  links 左ひざ (X from −180° to −0.5°) and 左足 (no limits).
 * One bone morph ひねり: 左足 moved by (0, 0.2, 0) and turned 25° about Y.
 * `longNames`: two more chains on a right leg a VMD cannot key: 6 右足 (−1, 10, 0) under センター, 7 右ひざの長い名前です
 * (20 bytes in Shift_JIS, over a bone key's 15) under it, 8 右足首 under that; 9 右足ＩＫ (links 7, 6) and
 * 10 とても長い名前の右足ＩＫボーン (30 bytes, over an IK key's 20; links 7, 6), both IK to 右足首.
 */
export function appendKneePmx(o: { ratio: number; longNames?: boolean }): Uint8Array {
  const { ratio } = o;
  const w = new Bytes();
  const t = (s: string) => w.text(s);
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(0, 0, 1, 1, 1, 2, 1, 1);
  t('付与ひざ'); t('append knee'); t(''); t('');
  w.i32(0).i32(0).i32(0).i32(0); // vertices, faces, textures, materials
  w.i32(o.longNames ? 11 : 6);
  const ROT_VIS_ON = 0x001a, MOVE = 0x0004, APPEND_ROTATE = 0x0100, IK = 0x0020;
  const bone = (name: string, pos: number[], parent: number, flags: number) => {
    t(name); t('');
    w.f32(...pos).idx(2, parent).i32(0).u16(flags).f32(0, -1, 0); // tail as an offset (flag 0x0001 clear)
  };
  bone('センター', [0, 10, 0], -1, ROT_VIS_ON | MOVE);
  bone('ひざ補助', [1, 5, 0], 0, ROT_VIS_ON);
  bone('左足', [1, 10, 0], 0, ROT_VIS_ON);
  bone('左ひざ', [1, 5, 0], 2, ROT_VIS_ON | APPEND_ROTATE);
  w.idx(2, 1).f32(ratio);
  bone('左足首', [1, 0.5, 0], 3, ROT_VIS_ON);
  bone('左足ＩＫ', [1, 0.5, 0], -1, ROT_VIS_ON | MOVE | IK);
  w.idx(2, 4).i32(40).f32(2).i32(2);
  w.idx(2, 3).u8(1).f32(-Math.PI, 0, 0).f32(-0.5 * deg, 0, 0);
  w.idx(2, 2).u8(0);
  if (o.longNames) {
    bone('右足', [-1, 10, 0], 0, ROT_VIS_ON);
    bone('右ひざの長い名前です', [-1, 5, 0], 6, ROT_VIS_ON);
    bone('右足首', [-1, 0.5, 0], 7, ROT_VIS_ON);
    for (const name of ['右足ＩＫ', 'とても長い名前の右足ＩＫボーン']) {
      bone(name, [-1, 0.5, 0], -1, ROT_VIS_ON | MOVE | IK);
      w.idx(2, 8).i32(40).f32(2).i32(2);
      w.idx(2, 7).u8(1).f32(-Math.PI, 0, 0).f32(-0.5 * deg, 0, 0);
      w.idx(2, 6).u8(0);
    }
  }
  w.i32(1);
  t('ひねり'); t('twist'); w.u8(4).u8(2).i32(1).idx(2, 2).f32(0, 0.2, 0).f32(...turn(0, 1, 0, 25 * deg));
  w.i32(0).i32(0).i32(0); // display frames, rigid bodies, joints
  return w.build();
}

/** 30 frames: the IK goal walks forward and up, センター drops, ひざ補助 turns 40° about X, ひねり goes 0 → 1. */
export function appendKneeMotion(): VmdDocument {
  const id = [0, 0, 0, 1];
  const bones = [
    encodeBoneRecord({ name: '左足ＩＫ', frame: 0, position: [0, 2, -1.5], rotation: id }),
    encodeBoneRecord({ name: '左足ＩＫ', frame: 30, position: [0.5, 3.5, 1.5], rotation: id }),
    encodeBoneRecord({ name: 'センター', frame: 0, position: [0, 0, 0], rotation: id }),
    encodeBoneRecord({ name: 'センター', frame: 30, position: [0, -1, 0], rotation: id }),
    encodeBoneRecord({ name: 'ひざ補助', frame: 0, position: [0, 0, 0], rotation: id }),
    encodeBoneRecord({ name: 'ひざ補助', frame: 30, position: [0, 0, 0], rotation: turn(1, 0, 0, 40 * deg) }),
  ];
  const morphs = [encodeMorphRecord({ name: 'ひねり', frame: 0, weight: 0 }), encodeMorphRecord({ name: 'ひねり', frame: 30, weight: 1 })];
  return withBlocks(emptyVmd('付与ひざ'), { bone: blockFromRecords('bone', bones), morph: blockFromRecords('morph', morphs) });
}
