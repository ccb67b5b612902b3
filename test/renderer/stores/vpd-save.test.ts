// Saving a pose (.vpd) document rewrites only what changed: an unedited pose saves byte for byte (−0.000000 as
// written, LF or CR LF as the file has them, the blank line after the last section), and a bone edited in the
// app changes that bone's line and nothing else. Before, every save went through the writer: "-0.000000"
// became "0.000000" on dozens of lines, LF became CR LF and the final blank line went.
// The expected files are the originals with one line replaced by hand (the text below), not the codec's output.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../../helpers/corpus';
import { memoryScene } from './scene-fixtures';
import { decodeDocument, useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { diffDocuments } from '../../../shared/key-edits';

const vpds = corpusFiles('.vpd');
const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const crlf = (b: Uint8Array) => bytesOf(latin1(b).replace(/\n/g, '\r\n'));

/**
 * The file's text with the values of the first value line of its second bone section (its position line:
 * MMD writes position, then rotation), or of its first morph's weight, replaced. Read as latin1: the ASCII
 * lines are compared byte for byte, the Shift_JIS names pass through untouched.
 */
function editedText(text: string): { text: string; line: string } {
  const lines = text.split('\n');
  const heads = lines.flatMap((l, i) => (/^Bone\d+\{/.test(l) ? [i] : []));
  const at = heads.length > 1 ? heads[1] + 1 : lines.findIndex((l) => /^Morph\d+\{/.test(l)) + 1;
  const values = heads.length > 1 ? '-0.000000,0.250000,-1.500000;' : '0.375000;';
  // Keep the indent and what follows the ";" (the tabs and the comment).
  lines[at] = lines[at].replace(/^(\s*)[^;]*;/, `$1${values}`);
  return { text: lines.join('\n'), line: lines[at] };
}

/** The pose opened from an in-memory file `name`: the workspace, and what was written where. */
async function openPose(name: string, bytes: Uint8Array) {
  const { files } = memoryScene([[name, bytes]]);
  expect(await useSceneStore().openPath(name)).toBe(true);
  return { ws: useWorkspaceStore(), written: (p: string) => latin1(files.get(p)!) };
}

describe.skipIf(!corpusPresent)('saving a pose keeps the lines it did not change', () => {
  it.each(vpds.flatMap((f) => [[relName(f), 'LF', f], [relName(f), 'CR LF', f]]))('%s (%s): an unedited Save As is byte for byte the file', async (_n, ends, f) => {
    const original = ends === 'LF' ? readCorpus(f) : crlf(readCorpus(f));
    const { ws, written } = await openPose('/p/' + path.basename(f), original);
    expect(await ws.saveAs('/p/copy.vpd')).toBe(true);
    expect(written('/p/copy.vpd')).toBe(latin1(original));
  });

  it.each(vpds.flatMap((f) => [[relName(f), 'LF', f], [relName(f), 'CR LF', f]]))('%s (%s): one bone edited changes only its line', async (_n, ends, f) => {
    const original = ends === 'LF' ? readCorpus(f) : crlf(readCorpus(f));
    const { text, line } = editedText(latin1(original));
    const name = '/p/' + path.basename(f);
    const { ws, written } = await openPose(name, original);
    // The edit as the app makes it: the document changed to what the edited file reads as, one undo step.
    const want = decodeDocument('edited.vpd', bytesOf(text));
    if (!want.ok) throw new Error(want.error.message);
    useHistoryStore().commit(diffDocuments(ws.doc!, want.value.doc, 'edit a value')!);
    expect(ws.dirty).toBe(true);
    expect(await ws.save()).toBe(true);
    const saved = written(name);
    expect(saved).toBe(text);
    // The one line that differs, as a line diff shows it.
    const a = latin1(original).split('\n'), b = saved.split('\n');
    expect(b.length).toBe(a.length);
    expect(b.filter((l, i) => l !== a[i])).toEqual([line]);
  });
});

