/**
 * Camera follows a bone: the free view's camera path works the followed bone out in slices between frames
 * (follow-samples.ts), not all at once (seconds for a bone leg IK moves). With a fake frame clock: no tick runs more
 * than its share of bone evaluations, the coarse pass (every 4th frame) comes first and draws a path before the
 * rest, a change drops the stale work, and the finished path is the one a whole evaluation draws (1e-9).
 */
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { readModel } from '../../../shared/pmx/model-reader';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks } from '../../../shared/vmd/tracks';
import { BoneFollower } from '../../../shared/scene/camera-follow';
import { buildCameraPath } from '../../../renderer/src/preview/camera-view';
import { FollowSamples, type FrameClock } from '../../../renderer/src/preview/follow-samples';
import { FrameProfiler } from '../../../renderer/src/preview/frame-profiler';
import { MotionDriver } from '../../../renderer/src/preview/motion-driver';
import { PreviewScene } from '../../../renderer/src/preview/preview-scene';
import { blockFromRecords, buildVmd, encodeCameraRecord, withBlocks } from '../../../shared/vmd';

/** A frame clock the test turns by hand: `step()` runs the ticks asked for since the last one. */
function fakeClock() {
  let waiting: (() => void)[] = [];
  const clock: FrameClock = (tick) => {
    waiting.push(tick);
    return () => {
      waiting = waiting.filter((t) => t !== tick);
    };
  };
  return {
    clock,
    get pending() {
      return waiting.length;
    },
    step() {
      const now = waiting;
      waiting = [];
      now.forEach((t) => t());
    },
  };
}

/** A bone evaluation that counts itself: a point moving on a known curve. */
function countingBone() {
  const calls: number[] = [];
  const at = (f: number) => {
    calls.push(f);
    return [Math.sin(f / 7), f * 0.25, Math.cos(f / 5)];
  };
  return { at, calls };
}

describe('the camera path\'s follow samples', () => {
  it('run at most perTick evaluations a tick, every 4th frame first; in between, the coarse path is a straight line between them', () => {
    const c = fakeClock();
    const bone = countingBone();
    const s = new FollowSamples(bone.at, c.clock, { perTick: 5, step: 4 });
    s.want(10, 30);
    // Nothing is worked out before a tick: the one frame the playhead needs never waits on this.
    expect(bone.calls).toEqual([]);
    expect(s.sample(10)).toBeUndefined();
    c.step();
    expect(bone.calls).toEqual([10, 14, 18, 22, 26]);
    c.step();
    // 10…30 every 4th (30 is the range's end, 10 + 20), then the rest in order.
    expect(bone.calls).toEqual([10, 14, 18, 22, 26, 30, 11, 12, 13, 15]);
    // Frame 20 is between the known 18 and 22: halfway between their positions, not evaluated.
    const p18 = [Math.sin(18 / 7), 18 * 0.25, Math.cos(18 / 5)], p22 = [Math.sin(22 / 7), 22 * 0.25, Math.cos(22 / 5)];
    const mid = s.sample(20)!;
    for (let k = 0; k < 3; k++) expect(mid[k]).toBeCloseTo((p18[k] + p22[k]) / 2, 12);
    let ticks = 2;
    while (c.pending > 0) {
      const before = bone.calls.length;
      c.step();
      ticks++;
      expect(bone.calls.length - before).toBeLessThanOrEqual(5);
    }
    // 21 frames, each once, in ⌈21 / 5⌉ ticks.
    expect(bone.calls.length).toBe(21);
    expect(new Set(bone.calls).size).toBe(21);
    expect(ticks).toBe(5);
    expect(s.done).toBe(true);
    for (let f = 10; f <= 30; f++) expect(s.sample(f)).toEqual([Math.sin(f / 7), f * 0.25, Math.cos(f / 5)]);
  });

  it('a new range keeps what is known and queues only the rest; dispose drops the queued work; a paused one waits', () => {
    const c = fakeClock();
    const bone = countingBone();
    const s = new FollowSamples(bone.at, c.clock, { perTick: 100, step: 4 });
    s.want(0, 9);
    c.step();
    expect(bone.calls.length).toBe(10);
    s.want(0, 12);
    c.step();
    expect(bone.calls.slice(10)).toEqual([12, 10, 11]);
    s.setPaused(true);
    s.want(0, 20);
    expect(c.pending).toBe(0);
    s.setPaused(false);
    expect(c.pending).toBe(1);
    s.dispose();
    expect(c.pending).toBe(0);
    c.step();
    expect(bone.calls.length).toBe(13);
  });

  it('in the preview: the camera at the playhead is followed at once, its path fills in by ticks; an edit elsewhere draws it again from what is known', () => {
    const world = new PreviewScene();
    const driver = new MotionDriver(world, new FrameProfiler());
    const c = fakeClock();
    driver.followClock = c.clock;
    // A camera keyed at 0 and 100 (target still at the origin, distance −10): its eye 10 units before its target.
    const keys = [0, 100].map((frame) => encodeCameraRecord({ frame, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }));
    const doc = withBlocks(buildVmd({}), { camera: blockFromRecords('camera', keys) });
    driver.setMotion(doc, buildTracks(doc));
    const bone = countingBone();
    driver.setFollow(bone.at);
    driver.poseAt(40);
    // One evaluation, the playhead's: the camera's target is the bone's place there.
    expect(bone.calls).toEqual([40]);
    expect(driver.cameraPose!.target).toEqual([Math.sin(40 / 7), 10, Math.cos(40 / 5)]);
    const line = () => (world.editorMarks()[1].children[0] as THREE.LineSegments).geometry;
    expect(line().drawRange.count).toBe(0);
    c.step();
    // 64 a tick at most (PATH_SLICE): 0, 4, …, 100 is 26 frames, then 38 of the rest; every segment is drawn already.
    expect(bone.calls.length).toBe(1 + 64);
    expect(line().drawRange.count).toBe(200);
    c.step();
    expect(bone.calls.length).toBe(1 + 101);
    expect(c.pending).toBe(0);
    // Segment k runs from frame k to k + 1; the eye is the bone's place moved 10 back along −Z (+Z in three.js).
    const pos = line().getAttribute('position');
    for (const f of [0, 37, 99]) {
      expect(pos.getX(2 * f)).toBeCloseTo(Math.sin(f / 7), 6);
      expect(pos.getY(2 * f)).toBeCloseTo(f * 0.25, 6);
      expect(pos.getZ(2 * f)).toBeCloseTo(-(Math.cos(f / 5) - 10), 6);
    }
    // The document edited (the path is drawn again): nothing evaluated again, the path whole at once.
    driver.setMotion(doc, buildTracks(doc));
    expect(bone.calls.length).toBe(1 + 101);
    expect(line().drawRange.count).toBe(200);
    // A new follow before the last one finished: the old one's queued frames are never evaluated.
    const old = countingBone(), next = countingBone();
    driver.setFollow(old.at);
    driver.setFollow(next.at);
    while (c.pending > 0) c.step();
    expect(old.calls).toEqual([]);
    expect(next.calls.length).toBe(101);
  });

  describe.skipIf(!corpusPresent)('on a real rig', () => {
    it('Gene_light\'s left ankle (leg IK) under wavefile_camera: the sliced path, once finished, is the whole evaluation\'s (1e-9)', () => {
      const model = readModel(new Uint8Array(readFileSync(corpusPath('gene/Gene_light.pmx'))));
      const dance = readVmd(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'))));
      const cam = readVmd(new Uint8Array(readFileSync(corpusPath('threejs/vmds/wavefile_camera.vmd'))));
      if (!model.ok || !dance.ok || !cam.ok) throw new Error('corpus files unreadable');
      const tracks = buildTracks(dance.value);
      const camera = buildTracks(cam.value).camera;
      const first = camera.frames[0], last = camera.frames[camera.frames.length - 1];
      const sliced = new BoneFollower(model.value, dance.value, tracks, '左足首');
      let evaluations = 0;
      const c = fakeClock();
      const N = 40;
      const s = new FollowSamples((f) => (evaluations++, sliced.at(f)), c.clock, { perTick: N, step: 4 });
      s.want(first, last);
      // The path as the preview keeps it: drawn once, placed again after each tick (PreviewScene.setCameraPath).
      const v = buildCameraPath(camera, (f) => s.sample(f));
      s.onUpdate = () => v.refresh();
      const geo = (p: ReturnType<typeof buildCameraPath>) => (p.group.children[0] as THREE.LineSegments).geometry;
      expect(geo(v).drawRange.count).toBe(0);
      const coarse = Math.floor((last - first) / 4) + 1 + ((last - first) % 4 ? 1 : 0);
      let ticks = 0, drawnEarly = -1;
      while (c.pending > 0) {
        const before = evaluations;
        c.step();
        ticks++;
        expect(evaluations - before).toBeLessThanOrEqual(N);
        // Once the coarse pass is through (every 4th frame and the last), the path is drawn whole, straight between them, before the rest.
        if (drawnEarly < 0 && evaluations >= coarse && evaluations < last - first + 1) drawnEarly = geo(v).drawRange.count;
      }
      expect(evaluations).toBe(last - first + 1);
      expect(ticks).toBe(Math.ceil((last - first + 1) / N));
      const whole = new BoneFollower(model.value, dance.value, tracks, '左足首');
      for (let f = first; f <= last; f++) {
        const want = whole.at(f)!, got = s.sample(f)!;
        for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k]), `frame ${f}`).toBeLessThan(1e-9);
      }
      const b = buildCameraPath(camera, (f) => whole.at(f));
      const la = geo(v).getAttribute('position').array, lb = geo(b).getAttribute('position').array;
      expect(la.length).toBe(lb.length);
      expect(geo(v).drawRange.count).toBe(lb.length / 3);
      expect(drawnEarly).toBe(lb.length / 3);
      let worst = 0;
      for (let i = 0; i < la.length; i++) worst = Math.max(worst, Math.abs(la[i] - lb[i]));
      expect(worst).toBeLessThan(1e-9);
      v.dispose();
      b.dispose();
    });
  });
});
