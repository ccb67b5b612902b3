/** The File tab's Model section from a parsed model: inspect MODEL's facts (shared/pmx modelInfo), counts only. */
import { modelInfo } from '../../../shared/pmx/model-inspect';
import type { ModelData } from '../../../shared/pmx/model-types';
import type { ModelFacts } from '../stores/preview';

export function modelFacts(m: ModelData): ModelFacts {
  const i = modelInfo(m);
  return {
    nameEn: i.nameEn,
    // Line breaks as the page shows them (Windows tools store CR LF; a CR would show in pre-wrapped text).
    comment: i.comment.replace(/\r\n?/g, '\n'),
    commentEn: i.commentEn.replace(/\r\n?/g, '\n'),
    formatText: i.formatText,
    encoding: i.encoding,
    vertices: i.vertexCount,
    faces: i.faceCount,
    materials: i.materialCount,
    textures: i.textures.length,
    bones: i.bones.length,
    iks: i.iks.length,
    morphs: i.morphs.length,
    morphKinds: i.morphKinds,
    displayFrames: i.displayFrameCount,
    rigidBodies: i.rigidBodyCount,
    joints: i.jointCount,
    physicsUnreadable: i.physicsError !== null,
  };
}
