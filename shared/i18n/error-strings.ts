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
  'err.E_NAME_ENCODING': 'A name has characters Shift_JIS cannot hold',
  'err.E_EMPTY': 'Nothing to apply this to',
  'err.E_FILE_EMPTY': 'The file is empty (0 bytes)',
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
  'opt.curveRange': '{option}: the four numbers must be 0 to 127, not “{value}”',
  'opt.curveUnknown': '{option}: “{value}” is neither a curve preset nor four numbers x1,y1,x2,y2',
  'opt.channelUnknown': '{option}: there is no channel “{value}” (channels: {allowed})',
  'opt.channelsNone': '{option}: choose at least one channel',
  'opt.pattern': '{option}: “{value}” is not a valid regular expression',
  'opt.mapJson': '{option}: the name map is not valid JSON',
  'opt.mapJsonAt': '{option}: the name map is not valid JSON (line {line}, character {char})',
  'opt.mapShape': '{option}: the name map must be an object of names or a list of pairs',
  'opt.mapEntry': '{option}: entry {entry} of the name map must pair a name with a new name',
  'opt.mapColumns': '{option}: line {line} of the name map must have two columns, old and new',
  'opt.invalid': '{option}: {detail}',
};

export type ErrorStringKey = keyof typeof en;

const ja: Record<ErrorStringKey, string> = {
  'err.E_PMX_INDEX': 'モデルが持っていない頂点・ボーン・材質を参照しています（壊れたファイル）',
  'err.E_PMX_DEFORM': 'PMX にない頂点の変形方式が使われています（壊れたファイル）',
  'err.E_PMX_MORPH': 'PMX にない種類のモーフがあります（壊れたファイル）',
  'err.E_NAME_ENCODING': '名前に Shift_JIS で表せない文字があります',
  'err.E_EMPTY': '適用する対象がありません',
  'err.E_FILE_EMPTY': 'ファイルが空です（0 バイト）',
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
  'opt.curveRange': '{option}：4 つの数は 0〜127 にしてください（「{value}」）',
  'opt.curveUnknown': '{option}：「{value}」は補間のプリセットでも 4 つの数 x1,y1,x2,y2 でもありません',
  'opt.channelUnknown': '{option}：チャンネル「{value}」はありません（チャンネル：{allowed}）',
  'opt.channelsNone': '{option}：チャンネルを 1 つ以上選んでください',
  'opt.pattern': '{option}：「{value}」は正しい正規表現ではありません',
  'opt.mapJson': '{option}：名前の対応表が正しい JSON ではありません',
  'opt.mapJsonAt': '{option}：名前の対応表が正しい JSON ではありません（{line} 行目、{char} 文字目）',
  'opt.mapShape': '{option}：名前の対応表は名前のオブジェクトか組のリストにしてください',
  'opt.mapEntry': '{option}：名前の対応表の {entry} 番目の項目は、名前と新しい名前の組にしてください',
  'opt.mapColumns': '{option}：名前の対応表の {line} 行目は old と new の 2 列にしてください',
  'opt.invalid': '{option}：{detail}',
};

export const errorStrings: Record<'en' | 'ja', Record<ErrorStringKey, string>> = { en, ja };
