/**
 * Error lines for motion capture and VRM Animation import/export (BVH, .vrma, retargeting onto a model).
 * strings.ts merges them into every table; `en` defines the keys, `ja` must have the same.
 */
const en = {
  'err.E_BVH_SYNTAX': 'The BVH file has a line that is not BVH',
  'err.E_BVH_TRUNCATED': 'The BVH file ends before its hierarchy or its frames are complete',
  'err.E_BVH_CHANNELS': 'A BVH joint or frame has the wrong number of channels',
  'err.E_BVH_NUMBER': 'The BVH file has a value that is not a number',
  'err.E_BVH_TOO_LARGE': 'The BVH file declares more frames or joints than it holds or can be read',
  'err.E_VRMA_FORMAT': 'Not a VRM Animation file (glTF with VRMC_vrm_animation), or one that cannot be read',
  'err.E_RETARGET': 'The model lacks the bones the motion needs',
};

export type BvhStringKey = keyof typeof en;

const ja: Record<BvhStringKey, string> = {
  'err.E_BVH_SYNTAX': 'BVH ファイルに BVH ではない行があります',
  'err.E_BVH_TRUNCATED': 'BVH ファイルが階層またはフレームの途中で終わっています',
  'err.E_BVH_CHANNELS': 'BVH の関節またはフレームのチャンネル数が合いません',
  'err.E_BVH_NUMBER': 'BVH ファイルに数値ではない値があります',
  'err.E_BVH_TOO_LARGE': 'BVH ファイルが、持っている、または読める以上のフレームや関節を宣言しています',
  'err.E_VRMA_FORMAT': 'VRM アニメーション（VRMC_vrm_animation 付きの glTF）ではないか、読めないファイルです',
  'err.E_RETARGET': 'モーションに必要なボーンがモデルにありません',
};

export const bvhStrings: Record<'en' | 'ja', Record<BvhStringKey, string>> = { en, ja };
