/**
 * Error lines by code for the codes the model reader, the key editor and the batch engine added, and the
 * UI's wording of option errors (`E_ARGUMENT` with an `option`): the CLI says `--from must be a number`,
 * the app says it with the option's label in its language. strings.ts checks that every `ErrorCode` has an
 * `err.<code>` line in both languages. `en` defines the keys; `ja` must have the same.
 */
const en = {
  'err.E_PMX_INDEX': 'The model refers to a vertex, bone or material it does not have (damaged file)',
  'err.E_PMX_DEFORM': 'The model uses a vertex deform type PMX does not define (damaged file)',
  'err.E_PMX_MORPH': 'The model has a morph of a kind PMX does not define (damaged file)',
  'err.E_EMPTY': 'Nothing to apply this to',
  'err.E_RANGE': 'A key would move outside the frames a motion can hold',
  'err.E_COLLISION': 'A key would land where its track already has one',
  'err.E_EXISTS': 'That frame already has a key on this track',
  'opt.required': '{option}: required',
  'opt.number': '{option}: a number is needed, not “{value}”',
  'opt.integer': '{option}: a whole number is needed, not “{value}”',
  'opt.min': '{option}: at least {min}, not {value}',
  'opt.positive': '{option}: must be greater than 0, not {value}',
  'opt.boolean': '{option}: on or off, not “{value}”',
  'opt.order': '{option}: must not be before {other} ({min})',
  'opt.mapFormat': '{option}: a name map is a .csv or .json file',
  'opt.invalid': '{option}: {detail}',
};

export type ErrorStringKey = keyof typeof en;

const ja: Record<ErrorStringKey, string> = {
  'err.E_PMX_INDEX': 'モデルが持っていない頂点・ボーン・材質を参照しています（壊れたファイル）',
  'err.E_PMX_DEFORM': 'PMX にない頂点の変形方式が使われています（壊れたファイル）',
  'err.E_PMX_MORPH': 'PMX にない種類のモーフがあります（壊れたファイル）',
  'err.E_EMPTY': '適用する対象がありません',
  'err.E_RANGE': 'キーがモーションに入るフレームの範囲の外に出てしまいます',
  'err.E_COLLISION': '移動先のフレームには既にキーがあります',
  'err.E_EXISTS': 'このトラックのそのフレームには既にキーがあります',
  'opt.required': '{option}：入力が必要です',
  'opt.number': '{option}：数値を入力してください（「{value}」）',
  'opt.integer': '{option}：整数を入力してください（「{value}」）',
  'opt.min': '{option}：{min} 以上にしてください（{value}）',
  'opt.positive': '{option}：0 より大きくしてください（{value}）',
  'opt.boolean': '{option}：オンかオフを指定してください（「{value}」）',
  'opt.order': '{option}：{other}（{min}）より前にはできません',
  'opt.mapFormat': '{option}：名前の対応表は .csv か .json ファイルです',
  'opt.invalid': '{option}：{detail}',
};

export const errorStrings: Record<'en' | 'ja', Record<ErrorStringKey, string>> = { en, ja };
