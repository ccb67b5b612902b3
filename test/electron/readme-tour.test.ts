/**
 * README.md's command-line tour, run as a new user runs it: the ```sh blocks between `<!-- tour:start -->` and
 * `<!-- tour:end -->`, top to bottom, in a scratch folder beside a stand-in clone that has `../shared/corpus`
 * beside it (a link to the corpus). The setup lines (mkdir, cd, cp, `cat > FILE <<'EOF'`) are done here as the
 * shell does them, and each `vmd-studio …` line runs through the CLI in process. Every command must exit 0 and
 * must leave every file that was there before it as it was (an input, or an earlier line's output: the tour
 * writes new names only), and the files the setup made end with the bytes they began with. A line this file
 * cannot run fails it, so the tour keeps to what is checked here.
 *
 * Without the corpus the run is skipped; the checks on the README's text (every output a new name, every
 * example inside the tour) still run.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusDir, corpusPresent, repoRoot } from '../helpers/corpus';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const README = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** One line of the tour: its line number in README.md, its text, and a here-document's body. */
interface TourLine {
  n: number;
  text: string;
  body?: string;
}

/** The lines of the ```sh blocks between the tour's markers (blank lines left out; a here-document is one line). */
function tourLines(md: string): TourLine[] {
  const lines = md.split('\n');
  const start = lines.indexOf('<!-- tour:start -->'), end = lines.indexOf('<!-- tour:end -->');
  if (start < 0 || end < start) throw new Error('README.md has no <!-- tour:start --> … <!-- tour:end --> (in that order)');
  const out: TourLine[] = [];
  let inSh = false;
  for (let i = start + 1; i < end; i++) {
    const t = lines[i];
    if (!inSh) {
      if (/^```sh\s*$/.test(t)) inSh = true;
      else if (/^```/.test(t)) throw new Error(`README.md:${i + 1}: a code block in the tour that is not \`\`\`sh`);
      continue;
    }
    if (/^```\s*$/.test(t)) {
      inSh = false;
      continue;
    }
    if (!t.trim()) continue;
    const heredoc = /^cat > (\S+) <<'(\w+)'$/.exec(t);
    if (heredoc) {
      const stop = lines.indexOf(heredoc[2], i + 1);
      if (stop < 0 || stop >= end) throw new Error(`README.md:${i + 1}: the here-document has no ${heredoc[2]} line`);
      out.push({ n: i + 1, text: t, body: lines.slice(i + 1, stop).join('\n') + '\n' });
      i = stop;
      continue;
    }
    out.push({ n: i + 1, text: t });
  }
  if (inSh) throw new Error('README.md: the tour ends inside a code block');
  return out;
}

/** A line's words as a POSIX shell splits them, for the few forms the tour uses (quotes, # comments). */
function words(line: TourLine): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  let quote: string | null = null;
  for (const ch of line.text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      cur ??= '';
    } else if (/\s/.test(ch)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else if (ch === '#' && cur === null) {
      break;
    } else if ('$`\\|;&<>()*?[]{}~!'.includes(ch)) {
      throw new Error(`README.md:${line.n}: '${ch}' outside quotes is shell syntax this test does not run: ${line.text}`);
    } else {
      cur = (cur ?? '') + ch;
    }
  }
  if (quote) throw new Error(`README.md:${line.n}: an unclosed quote`);
  if (cur !== null) out.push(cur);
  return out;
}

/** What one tour line does, as data: the checks on the text and the run both read it. */
type Step =
  | { kind: 'mkdir'; dirs: string[] }
  | { kind: 'cd'; dir: string }
  | { kind: 'cp'; from: string[]; to: string }
  | { kind: 'write'; file: string; body: string }
  | { kind: 'cli'; argv: string[]; outputs: string[] };

function stepOf(line: TourLine): Step {
  if (line.body !== undefined) return { kind: 'write', file: /^cat > (\S+)/.exec(line.text)![1], body: line.body };
  const [cmd, ...args] = words(line);
  const bad = () => new Error(`README.md:${line.n}: a line this test cannot run: ${line.text}`);
  if (cmd === 'mkdir' && args.length && !args.some((a) => a.startsWith('-'))) return { kind: 'mkdir', dirs: args };
  if (cmd === 'cd' && args.length === 1) return { kind: 'cd', dir: args[0] };
  if (cmd === 'cp' && args.length >= 2 && !args.some((a) => a.startsWith('-'))) return { kind: 'cp', from: args.slice(0, -1), to: args[args.length - 1] };
  if (cmd === 'vmd-studio' && args.length) {
    const outputs = args.flatMap((a, i) => ((a === '-o' || a === '--report') && i + 1 < args.length ? [args[i + 1]] : []));
    return { kind: 'cli', argv: args, outputs };
  }
  throw bad();
}

const steps = tourLines(README).map((line) => ({ line, step: stepOf(line) }));

/**
 * The lines run shorter here, or not at all, to keep this file's run near 15 s of CPU (the whole tour takes about
 * a minute); each rule must match exactly one tour line (a README change that loses one fails the test until
 * this table follows it). A shortened line reads the same inputs and writes the same output name. A line not run
 * writes nothing that a later line reads. VMD_README_TOUR_FULL=1 runs every line as written.
 */
const SHORTER: { line: RegExp; why: string; argv?: (argv: string[]) => string[] }[] = [
  {
    line: /^vmd-studio speed dance\.vmd --factor 1\.5 --refit /,
    why: 'not run: re-fits every track of the 2,810-frame dance; fit-commands.test.ts runs speed --refit',
  },
  {
    line: /^vmd-studio physics-bake dance\.vmd --model gene\.pmx -o dance_physics\.vmd/,
    why: 'frames 0–30 (--to 30): the whole dance is 2,810 frames of Gene\'s physics',
    argv: (a) => [...a, '--to', '30'],
  },
  {
    line: /^vmd-studio physics-bake dance\.vmd --model miku\.pmd -o part_physics\.vmd --from 300 --to 900 /,
    why: 'frames 300–330 in place of 300–900',
    argv: (a) => a.map((w, i) => (a[i - 1] === '--to' ? '330' : w)),
  },
  {
    line: /^vmd-studio physics-bake gene\.pmx dance\.vmd -o raw\.vmd --raw /,
    why: 'frames 0–30 (--to 30), as the first',
    argv: (a) => [...a, '--to', '30'],
  },
  {
    line: /^vmd-studio ik-bake gene\.pmx dance\.vmd -o dance_fk\.vmd/,
    why: 'frames 0–30 (--to 30): the whole dance is 2,810 frames posed and fitted several times',
    argv: (a) => [...a, '--to', '30'],
  },
  {
    line: /^vmd-studio ik-bake miku\.pmd dance\.vmd -o legs_fk\.vmd /,
    why: 'frames 0–30 (--to 30), as the first',
    argv: (a) => [...a, '--to', '30'],
  },
  {
    line: /^vmd-studio ik-bake dance\.vmd --model miku\.pmd -o part_fk\.vmd --from 300 --to 900 /,
    why: 'frames 300–330 in place of 300–900',
    argv: (a) => a.map((w, i) => (a[i - 1] === '--to' ? '330' : w)),
  },
  {
    line: /^vmd-studio ik-bake miku\.pmd dance\.vmd -o raw_fk\.vmd --raw/,
    why: 'frames 0–30 (--to 30), as the first',
    argv: (a) => [...a, '--to', '30'],
  },
  {
    line: /^vmd-studio import-bvh walk\.bvh --model miku\.pmd -o walk_mapped\.vmd /,
    why: 'not run: a second fit of the whole capture; mocap-cli.test.ts runs --map and --no-foot-ik',
  },
  {
    line: /^vmd-studio import-bvh walk\.bvh -o walk_std\.vmd/,
    why: 'not run: a third fit of the whole capture; mocap-cli.test.ts imports without a model',
  },
  {
    line: /^vmd-studio batch import-bvh captures\//,
    why: 'not run: the same capture fitted once more in a worker; batch-import-bvh.test.ts runs it',
  },
  {
    line: /^vmd-studio batch import-vrma anims\//,
    why: 'not run: the .vrma that import-vrma converted just before, fitted again in a worker; batch-import-vrma.test.ts runs it',
  },
];

const FULL = process.env.VMD_README_TOUR_FULL === '1';

function shorterFor(text: string) {
  return FULL ? undefined : SHORTER.find((r) => r.line.test(text));
}

describe('README.md: the command-line tour', () => {
  it('every example line is in the tour, and each writes a name of its own (no input, no earlier output replaced)', () => {
    // Outside the tour a `vmd-studio …` line in a code block would be an example nobody runs.
    const md = README.split('\n');
    const [start, end] = [md.indexOf('<!-- tour:start -->'), md.indexOf('<!-- tour:end -->')];
    const outside = md.flatMap((t, i) => (/^vmd-studio /.test(t) && (i < start || i > end) ? [`README.md:${i + 1}: ${t}`] : []));
    expect(outside, 'examples outside <!-- tour:start --> … <!-- tour:end -->').toEqual([]);
    expect(steps.filter((s) => s.step.kind === 'cli').length).toBeGreaterThan(30);

    // Paths as the shell would reach them: relative to the folder the last `cd` went to.
    let cwd = '/clone';
    const made = new Map<string, number>(); // path → the README line that made it
    const problems: string[] = [];
    const claim = (p: string, n: number, what: string) => {
      const key = path.posix.resolve(cwd, p);
      const before = made.get(key);
      if (before !== undefined) problems.push(`README.md:${n}: ${what} ${p} is what line ${before} made`);
      else made.set(key, n);
    };
    for (const { line, step } of steps) {
      if (step.kind === 'cd') cwd = path.posix.resolve(cwd, step.dir);
      else if (step.kind === 'mkdir') step.dirs.forEach((d) => claim(d, line.n, 'mkdir'));
      else if (step.kind === 'write') claim(step.file, line.n, 'cat >');
      else if (step.kind === 'cp') {
        if (step.from.length === 1 && !step.to.endsWith('/')) claim(step.to, line.n, 'cp to');
        else step.from.forEach((f) => claim(path.posix.join(step.to, path.posix.basename(f)), line.n, 'cp to'));
      } else step.outputs.forEach((o) => claim(o, line.n, 'the output'));
    }
    expect(problems).toEqual([]);

    // Every shortening rule still names one line of the tour.
    for (const r of SHORTER) expect(steps.filter((s) => r.line.test(s.line.text)).length, String(r.line)).toBe(1);
  });

  (corpusPresent ? it : it.skip)(
    'runs top to bottom on the corpus: every command exits 0 and changes no file that was there before it',
    async () => {
      // root/vmd-studio stands for the clone, root/shared/corpus for the corpus beside it.
      const root = mk('readme-tour');
      mkdirSync(path.join(root, 'shared'));
      symlinkSync(corpusDir, path.join(root, 'shared', 'corpus'), 'junction');
      mkdirSync(path.join(root, 'vmd-studio'));
      let cwd = path.join(root, 'vmd-studio');
      // Writes stay in root and never reach the corpus through its link.
      const writable = (p: string, n: number) => {
        const abs = path.resolve(cwd, p);
        const rel = path.relative(root, abs);
        if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep)[0] === 'shared') throw new Error(`README.md:${n}: writes ${p}, outside the scratch folders`);
        return abs;
      };

      // Every file under root but the corpus: its stat signature (a replaced file has a new inode or mtime).
      const files = (): Map<string, string> => {
        const m = new Map<string, string>();
        const walk = (d: string) => {
          for (const e of readdirSync(d, { withFileTypes: true })) {
            const p = path.join(d, e.name);
            if (p === path.join(root, 'shared')) continue;
            if (e.isDirectory()) walk(p);
            else {
              const s = lstatSync(p, { bigint: true });
              m.set(path.relative(root, p), `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`);
            }
          }
        };
        walk(root);
        return m;
      };
      const sha = (rel: string) => createHash('sha256').update(readFileSync(path.join(root, rel))).digest('hex');

      const setupHashes = new Map<string, string>();
      const report: string[] = [];
      for (const { line, step } of steps) {
        if (step.kind === 'mkdir') step.dirs.forEach((d) => mkdirSync(writable(d, line.n)));
        else if (step.kind === 'cd') {
          cwd = writable(step.dir, line.n);
          expect(statSync(cwd).isDirectory(), `README.md:${line.n}: cd ${step.dir}`).toBe(true);
        } else if (step.kind === 'write') {
          expect(existsSync(writable(step.file, line.n)), `README.md:${line.n}: ${step.file} is there already`).toBe(false);
          writeFileSync(writable(step.file, line.n), step.body);
        } else if (step.kind === 'cp') {
          for (const f of step.from) {
            const into = step.from.length > 1 || step.to.endsWith('/') ? path.join(step.to, path.basename(f)) : step.to;
            const dest = writable(into, line.n);
            expect(existsSync(dest), `README.md:${line.n}: cp onto ${into}, which is there already`).toBe(false);
            copyFileSync(path.resolve(cwd, f), dest);
          }
        } else {
          if (setupHashes.size === 0) for (const rel of files().keys()) setupHashes.set(rel, sha(rel));
          const rule = shorterFor(line.text);
          if (rule && !rule.argv) {
            report.push(`README.md:${line.n} ${rule.why}`);
            continue;
          }
          const argv = rule?.argv ? rule.argv(step.argv) : step.argv;
          const before = files();
          const t0 = performance.now(), c0 = process.cpuUsage();
          const r = await runCliCaptured(argv, cwd);
          const cpu = process.cpuUsage(c0);
          report.push(`README.md:${line.n} ${((performance.now() - t0) / 1000).toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)${rule ? ` ${rule.why}` : ''}`);
          expect(r.code, `README.md:${line.n}: ${line.text}\n${r.err}`).toBe(0);
          const after = files();
          const changed = [...before].filter(([f, sig]) => after.get(f) !== sig).map(([f]) => f);
          expect(changed, `README.md:${line.n}: ${line.text} changed or removed files that were there before it`).toEqual([]);
        }
      }
      console.log(`README tour:\n${report.join('\n')}`);
      const changedInputs = [...setupHashes].filter(([rel, h]) => sha(rel) !== h).map(([rel]) => rel);
      expect(changedInputs, 'the setup files whose bytes the tour changed').toEqual([]);
    },
    FULL ? 1_800_000 : 300_000,
  );
});
