/** The File tab's Model section from a parsed model: inspect MODEL's facts (shared/pmx modelInfo), counts only. */
import { modelInfo, type MorphKindGroup } from '../../../shared/pmx/model-inspect';
import type { ModelData, ModelEncoding } from '../../../shared/pmx/model-types';

export interface ModelFacts {
  nameEn: string;
  comment: string;
  commentEn: string;
  /** "PMX 2.0", "PMX 2.1", "PMD 1.0". */
  formatText: string;
  encoding: ModelEncoding | null;
  vertices: number;
  faces: number;
  materials: number;
  textures: number;
  bones: number;
  iks: number;
  /** The morphs a user sees (a PMD's base left out), by kind. */
  morphs: number;
  morphKinds: Record<MorphKindGroup, number>;
  displayFrames: number;
  /** As the file stores them, whether physics is on or not. */
  rigidBodies: number;
  joints: number;
  /** The physics section could not be read (its counts are then 0). */
  physicsUnreadable: boolean;
  /**
   * Materials with a toon (shared toon01–10 or the model's own): MMD's self-shadow is as dark as the toon's dark
   * end, so a model with none (Gene_light) shows no self-shadow, in MMD as in the preview.
   */
  toonMaterials: number;
}

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
    toonMaterials: m.materials.filter((x) => x.toon >= 0).length,
  };
}
