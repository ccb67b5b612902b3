/**
 * The motion capture requests' payloads (contract.ts: importMocap, cancelMocap, exportMocap): a BVH or
 * VRM Animation onto a model as VMD, and a VMD on a model out as .vrma or .bvh. The conversions are
 * shared/bvh's; main runs them off its event loop (electron/services/mocap-service.ts). Bytes cross,
 * objects don't: the source's bytes and the VMD's bytes travel, the model is read by main from its path
 * (or, for a model dropped on a browser's window, which has none, travels as bytes too).
 */
import type { ImportReport } from '../bvh/import';
import type { Diagnostic } from '../vmd/errors';

export type MocapFormat = 'bvh' | 'vrma';

/** What the motion capture import dialog offers: import-bvh's options (shared/bvh/import.ts). */
export interface MocapOptions {
  /** Scale of the hips' translation (default: model leg length / capture leg length). */
  scale?: number;
  /** The capture's frame rate, when its Frame Time is wrong (BVH only). */
  fps?: number;
  /** Feet planted with the leg IK bones (default: when the model has 足ＩＫ). */
  footIk?: boolean;
  /** Fitting tolerances (defaults 0.02 and 0.5°). */
  positionTol?: number;
  rotationTolDeg?: number;
  /** Rest alignment reference: the capture's rest pose or its first frame. */
  rest?: 'rest' | 'first';
  /** Start at the origin: the path moved so that frame 0 stands where the model rests (X/Z; import-bvh --origin). */
  origin?: boolean;
  /** Replace capture glitches by the interpolation of their neighbours (import-bvh --despike). */
  despike?: boolean;
}

/** One conversion: the source's bytes (a dialog's, a drop's), the model by path, options and map rows. */
export interface MocapImportJob {
  /** Names the job for cancelMocap (the renderer makes it: a few letters and digits). */
  id: string;
  format: MocapFormat;
  /** The source's file name (or path), for errors. */
  name: string;
  bytes: Uint8Array;
  /** The model the motion is for (.pmx/.pmd); main reads it. null: the standard MMD skeleton (the preview's built-in figure). */
  model: string | null;
  /**
   * The model's bytes, when the renderer holds the model but there is no path to read it by (a model dropped
   * on a browser's window: `model` is then its file name, for errors); main reads nothing then.
   */
  modelBytes?: Uint8Array;
  options?: MocapOptions;
  /** Map-file rows over the built-in or guessed map: joint → part or MMD bone ('-' unmaps). BVH only. */
  map?: [string, string][];
  /** Expression → morph rows over the default table ('-' leaves one out). VRM Animation only. */
  morphs?: [string, string][];
}

/** One row of the map table: a joint of the driving skeleton and the part it plays (null: none). */
export interface MocapJointRow {
  joint: string;
  part: string | null;
  /** The MMD bone the part is (null for a part MMD models lack, such as toes). */
  bone: string | null;
}

export interface MocapImportResult {
  /** The VMD the import writes (the CLI's import-bvh / import-vrma output with the same options). */
  vmd: Uint8Array;
  report: ImportReport & { expressions?: { expression: string; morph: string; inModel: boolean }[] };
  /** The driving skeleton's joints in file order (End Sites left out), each with its part: the map table. */
  joints: MocapJointRow[];
  /** Milliseconds the conversion took in its worker. */
  ms: number;
  /** A VRM Animation's expressions (preset and custom names, file order): the expression table's rows. */
  expressions?: string[];
  /** The model's morph names (file order, each once): what an expression row may name. VRM Animation only. */
  modelMorphs?: string[];
  /**
   * What the reader ignored in the capture (a BVH's invalid Frame Time read at the frame rate given), as the
   * command line prints it before the import's warnings (op-warnings.ts captureWarnings); absent when nothing.
   */
  readNotes?: Diagnostic[];
  /**
   * The import's own warnings (report.warnings, the model's name cut to fit the header, map rows naming
   * nothing) with their codes, for the dialog's wording; absent when none.
   */
  importNotes?: Diagnostic[];
}

/** An export: the document's VMD bytes played on a model, written as .vrma or .bvh. */
export interface MocapExportJob {
  id: string;
  format: MocapFormat;
  vmd: Uint8Array;
  /** The model the motion is played on; null: the standard MMD skeleton (the preview's built-in figure). */
  model: string | null;
  morphs?: [string, string][];
}

/** What an export carries that the motion moves (the app's notice says them, as export-bvh/export-vrma warn). */
export interface MocapExportNotes {
  /** Bones the motion moves that reach no humanoid joint (shared/bvh/take.ts HumanoidTake.leftOut). */
  leftOutBones: string[];
  /** VRMA only: morphs the motion moves that no expression took. */
  unusedMorphs: string[];
}
