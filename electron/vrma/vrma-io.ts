/**
 * The glTF container of VRM Animation (.vrma, binary glTF) read and written with @gltf-transform/core:
 * the nodes, the animation's channels and the VRMC_vrm_animation extension (humanoid bones and
 * expressions, node indices resolved through gltf-transform's reader and writer contexts) become
 * shared/bvh/vrma.ts's plain `VrmaData`, and back. It lives on the Node side because shared/ compiles
 * without the DOM and Node types gltf-transform's own declarations need; the renderer can run the same
 * code (the library is platform-neutral) when the editor takes VRMA.
 *
 * Reading too goes through gltf-transform, with the extension interpreted here per the VRMC_vrm_animation
 * 1.0 spec (humanoid.humanBones, expressions.preset/custom → nodes; an expression's weight is its node's
 * translation X), rather than through three's GLTFLoader with @pixiv/three-vrm-animation: that loader does
 * run in Node for a textureless .vrma, but it hands back tracks already normalized to its own rest space
 * and three.js objects, and the tests use it as the independent reader of what this module writes
 * (test/electron/mocap-cli.test.ts), which it could not be if the importer were built on it.
 */
import { Document, Extension, NodeIO, type Node, type ReaderContext, type WriterContext } from '@gltf-transform/core';
import type { CodecError } from '../../shared/vmd';
import type { VrmaData, VrmaNode, VrmaTrack } from '../../shared/bvh/vrma';

const NAME = 'VRMC_vrm_animation';

interface VrmaJson {
  specVersion?: string;
  humanoid?: { humanBones?: Record<string, { node?: number }> };
  expressions?: { preset?: Record<string, { node?: number }>; custom?: Record<string, { node?: number }> };
}

const PRESETS = new Set(['happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight', 'lookUp', 'lookDown', 'lookLeft', 'lookRight']);

/** The extension as gltf-transform reads and writes it: node references, indices only in the file. */
class VrmcVrmAnimation extends Extension {
  static override EXTENSION_NAME = NAME;
  override readonly extensionName = NAME;
  humanBones = new Map<string, Node>();
  expressions = new Map<string, Node>();
  json: VrmaJson | null = null;

  read(context: ReaderContext): this {
    const ext = context.jsonDoc.json.extensions?.[NAME] as VrmaJson | undefined;
    if (!ext) return this;
    this.json = ext;
    const node = (i: unknown) => (typeof i === 'number' && Number.isInteger(i) ? context.nodes[i] : undefined);
    for (const [k, v] of Object.entries(ext.humanoid?.humanBones ?? {})) {
      const n = node(v?.node);
      if (n) this.humanBones.set(k, n);
    }
    for (const group of [ext.expressions?.preset ?? {}, ext.expressions?.custom ?? {}]) {
      for (const [k, v] of Object.entries(group)) {
        const n = node(v?.node);
        if (n) this.expressions.set(k, n);
      }
    }
    return this;
  }

  write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    const idx = (n: Node) => context.nodeIndexMap.get(n)!;
    const humanBones: Record<string, { node: number }> = {};
    for (const [k, n] of this.humanBones) humanBones[k] = { node: idx(n) };
    const preset: Record<string, { node: number }> = {}, custom: Record<string, { node: number }> = {};
    for (const [k, n] of this.expressions) (PRESETS.has(k) ? preset : custom)[k] = { node: idx(n) };
    const ext: Record<string, unknown> = { specVersion: '1.0', humanoid: { humanBones } };
    if (this.expressions.size) ext.expressions = { ...(Object.keys(preset).length ? { preset } : {}), ...(Object.keys(custom).length ? { custom } : {}) };
    json.extensions = { ...(json.extensions ?? {}), [NAME]: ext };
    return this;
  }
}

function io(): NodeIO {
  return new NodeIO().registerExtensions([VrmcVrmAnimation]);
}

/**
 * Largest magnitude of a rest or keyed value: 10⁶ (a thousand kilometres; a quaternion's parts are at
 * most 1). Past it, the import's scaled positions and normalised rotations overflow to Infinity or NaN
 * in a VMD's float32 keys.
 */
const MAX_MAGNITUDE = 1e6;

function inRange(v: ArrayLike<number>): boolean {
  for (let i = 0; i < v.length; i++) if (!(Math.abs(v[i]) <= MAX_MAGNITUDE)) return false;
  return true;
}

/**
 * What is wrong with a GLB's container (glTF 2.0 spec, "Binary glTF Layout"), or null: a 12-byte header
 * ("glTF", version 2, the whole length) and chunks of (length, type, data) that end where the file does.
 * Said in our words, with the byte where it goes wrong, before gltf-transform reads it (its own message
 * for a cut file is "Invalid typed array length").
 */
function glbProblem(b: Uint8Array): string | null {
  const not = 'not a binary glTF (.vrma) file';
  if (b.byteLength < 12) return `${not}: ${b.byteLength} bytes, shorter than the 12-byte GLB header`;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (v.getUint32(0, true) !== 0x46546c67) return `${not}: it does not begin with "glTF"`;
  const version = v.getUint32(4, true);
  if (version !== 2) return `glTF version ${version} (at byte 4); a .vrma is glTF 2`;
  const length = v.getUint32(8, true);
  if (length > b.byteLength) return `the file is cut: its header says ${length.toLocaleString('en-US')} bytes (at byte 8), the file has ${b.byteLength.toLocaleString('en-US')}`;
  for (let at = 12, i = 0; at < length; i++) {
    if (at + 8 > length) return `chunk ${i + 1} at byte ${at}: its 8-byte header runs past the GLB's end (${length} bytes)`;
    const size = v.getUint32(at, true);
    if (at + 8 + size > length) return `chunk ${i + 1} at byte ${at} holds ${size.toLocaleString('en-US')} bytes, past the GLB's end (${length.toLocaleString('en-US')} bytes)`;
    at += 8 + size;
  }
  return null;
}

/** Reads a .vrma (GLB). Errors: E_VRMA_FORMAT naming what is missing or out of range, and where. */
export async function readVrma(bytes: Uint8Array): Promise<{ ok: true; value: VrmaData } | { ok: false; error: CodecError }> {
  const bad = (message: string) => ({ ok: false as const, error: { code: 'E_VRMA_FORMAT' as const, message } });
  const container = glbProblem(bytes);
  if (container) return bad(container);
  let doc: Document;
  try {
    // gltf-transform views the GLB's chunks as Uint32Arrays: a view at an offset that is not a multiple of
    // 4 (bytes that came in a browser-mode frame, a pooled Buffer) is copied to an aligned one first.
    doc = await io().readBinary(bytes.byteOffset % 4 === 0 ? bytes : bytes.slice());
  } catch (e) {
    return bad(`not a binary glTF (.vrma) file: ${(e as Error)?.message ?? e}`);
  }
  const ext = doc.getRoot().listExtensionsUsed().find((x) => x.extensionName === NAME) as VrmcVrmAnimation | undefined;
  if (!ext || !ext.json) return bad(`the glTF has no ${NAME} extension`);
  const list = doc.getRoot().listNodes();
  const index = new Map(list.map((n, i) => [n, i]));
  const parentOf = new Map<Node, Node>();
  for (const n of list) for (const c of n.listChildren()) parentOf.set(c, n);
  const nodes: VrmaNode[] = list.map((n) => {
    const t = n.getTranslation(), r = n.getRotation();
    const p = parentOf.get(n);
    return { name: n.getName(), parent: p ? index.get(p)! : -1, translation: [t[0], t[1], t[2]], rotation: [r[0], r[1], r[2], r[3]] };
  });
  for (const nd of nodes) {
    if (!inRange(nd.translation) || !inRange(nd.rotation)) return bad(`node "${nd.name}" has a rest translation or rotation that is not a number or is beyond ±${MAX_MAGNITUDE.toLocaleString('en-US')}`);
  }
  const humanBones: Record<string, number> = {};
  for (const [k, n] of ext.humanBones) humanBones[k] = index.get(n)!;
  const expressions: Record<string, number> = {};
  for (const [k, n] of ext.expressions) expressions[k] = index.get(n)!;
  const tracks: VrmaTrack[] = [];
  const anim = doc.getRoot().listAnimations()[0];
  for (const ch of anim?.listChannels() ?? []) {
    const path = ch.getTargetPath(), node = ch.getTargetNode(), s = ch.getSampler();
    if (!node || !s || (path !== 'rotation' && path !== 'translation')) continue;
    const input = s.getInput()?.getArray(), output = s.getOutput();
    const out = output?.getArray();
    if (!input || !out || !output) continue;
    const n = path === 'rotation' ? 4 : 3;
    const interp = s.getInterpolation();
    const per = interp === 'CUBICSPLINE' ? 3 * n : n;
    if (output.getElementSize() !== n || out.length < input.length * per) return bad(`animation channel of node "${node.getName()}" has ${out.length} values for ${input.length} times`);
    // Normalised integer outputs (glTF allows them for rotations) scale back to −1…1.
    const values = Float32Array.from(out as ArrayLike<number>);
    if (output.getNormalized()) {
      const max = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 }[output.getComponentType() as 5120] ?? 1;
      for (let i = 0; i < values.length; i++) values[i] = Math.max(values[i] / max, -1);
    }
    for (const v of values) if (!Number.isFinite(v)) return bad(`animation channel of node "${node.getName()}" holds a value that is not a number`);
    if (!inRange(values)) return bad(`animation channel of node "${node.getName()}" holds a value beyond ±${MAX_MAGNITUDE.toLocaleString('en-US')}`);
    const times = Float32Array.from(input as ArrayLike<number>);
    // glTF: times in seconds, from 0 and increasing.
    for (let i = 0; i < times.length; i++) {
      if (!(times[i] >= 0) || times[i] === Infinity) return bad(`animation channel of node "${node.getName()}": time ${i + 1} is ${times[i]}, not a time in seconds`);
      if (i > 0 && times[i] < times[i - 1]) return bad(`animation channel of node "${node.getName()}": time ${i + 1} (${times[i]} s) comes before time ${i} (${times[i - 1]} s)`);
    }
    tracks.push({ node: index.get(node)!, path, interpolation: interp, times, values });
  }
  return { ok: true, value: { nodes, humanBones, expressions, tracks } };
}

/** Writes VrmaData as a .vrma (GLB) with gltf-transform. */
export async function writeVrma(v: VrmaData): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  const nodes = v.nodes.map((n) => doc.createNode(n.name).setTranslation([n.translation[0], n.translation[1], n.translation[2]]).setRotation([n.rotation[0], n.rotation[1], n.rotation[2], n.rotation[3]]));
  v.nodes.forEach((n, i) => (n.parent >= 0 ? nodes[n.parent].addChild(nodes[i]) : scene.addChild(nodes[i])));
  doc.getRoot().setDefaultScene(scene);
  const anim = doc.createAnimation('vrma');
  const inputs = new Map<Float32Array, ReturnType<Document['createAccessor']>>();
  for (const t of v.tracks) {
    let input = inputs.get(t.times);
    if (!input) {
      input = doc.createAccessor().setType('SCALAR').setArray(t.times).setBuffer(buffer);
      inputs.set(t.times, input);
    }
    const output = doc.createAccessor().setType(t.path === 'rotation' ? 'VEC4' : 'VEC3').setArray(t.values).setBuffer(buffer);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(t.interpolation);
    anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(nodes[t.node]).setTargetPath(t.path).setSampler(sampler));
  }
  const ext = doc.createExtension(VrmcVrmAnimation);
  for (const [k, i] of Object.entries(v.humanBones)) ext.humanBones.set(k, nodes[i]);
  for (const [k, i] of Object.entries(v.expressions)) ext.expressions.set(k, nodes[i]);
  return io().writeBinary(doc);
}
