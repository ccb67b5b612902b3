/**
 * What the app says of one of MMD's or its neighbours' files it does not read (shared/ipc/mmd-family.ts: a .pmm
 * project, a MikuMikuMoving .mvd, nanoem's files, an accessory, an MME effect), named: "project.pmm: a
 * MikuMikuDance project (.pmm), not a motion; … save each model's motion … as .vmd …". The drop's notice and the
 * file dialog's line say it in the same words as a motion read that is one and the CLI (err.notMotion.<kind>).
 */
import { MMD_FAMILY_FORMATS, type MmdFamily } from '../../../shared/ipc/mmd-family';
import type { UiStringKey } from '../../../shared/i18n/strings';
import type { NoticeText } from '../stores/notify';

export function mmdFamilyNotice(name: string, family: MmdFamily): NoticeText {
  const what: NoticeText = { key: `err.notMotion.${family}` as UiStringKey, params: { format: MMD_FAMILY_FORMATS[family], rename: '' } };
  return { key: 'notify.fileIs', params: { name, what } };
}
