/**
 * The editor canvases' colours and fonts in one place (timeline, curve editor, music waveform), and the
 * part of a 2D context their drawing modules use (timeline-draw.ts, curve-draw.ts, waveform-draw.ts take
 * a `Canvas2D`, so unit tests draw into a recording fake). A colour that means the same thing on two
 * canvases (the selection, the playhead, label text) is one entry of `INK`.
 */

/** Meanings shared across canvases. */
export const INK = {
  /** Selected keys, the dragged curve handle, the waveform's playhead. */
  selection: '#ffb23e',
  /** The playhead on the timeline and its frame in the curve editor's live plot. */
  playhead: '#ff5a5f',
  /** Ruler numbers, plot labels, the curve handles' arms. */
  label: '#8b93a1',
  /** Strong lines: the ruler's edge, the curve square's border. */
  edge: '#3a404c',
  /** Inside of a drawing area: the curve square, the plot strip, the waveform row. */
  panel: '#1b1e24',
  /** The curve editor's background (and the unselected handle's fill). */
  ground: '#15171b',
} as const;

export const TIMELINE_COLORS = {
  bg: '#17191e', rowA: '#1c1f25', rowB: '#1f222a', group: '#262a33',
  ruler: '#121418', rulerText: INK.label, rulerClock: '#5c6472', tick: '#2c313b', tickMajor: INK.edge,
  key: '#b9c4d6', keyEdge: '#0e1014', sel: INK.selection, summary: '#6c7689', cursor: INK.playhead,
  cut: '#e0565b', range: 'rgba(79,179,200,0.35)',
  box: 'rgba(255,178,62,0.12)', boxEdge: 'rgba(255,178,62,0.8)', activeRow: 'rgba(88,140,255,0.10)', end: 'rgba(255,255,255,0.04)',
  /** Beat markers across the key rows: the music row's beat colour (#e8c25a), faint. */
  beat: 'rgba(232,194,90,0.22)',
  /** The 表示・IK row: a span where IK bones are off (FK legs), and the bar under a span where the model is hidden. */
  ikOff: 'rgba(255,140,60,0.30)', hidden: '#9a7cff',
} as const;

export const CURVE_COLORS = {
  bg: INK.ground, square: INK.panel, grid: '#262a32', diagonal: '#323845', border: INK.edge, axisText: '#5f6775',
  arm: INK.label, handleFill: INK.ground, handleFillActive: '#ffffff', handleRingActive: INK.selection,
  plotBg: INK.panel, plotCursor: INK.playhead, plotText: INK.label,
  /** Under a value label drawn inside the plot strip (a pane too narrow for it beside the strip). */
  plotLabelBacking: 'rgba(20,22,27,0.85)',
  /** A fit preview's plot: the original (wide, under) and the result drawn over it. */
  fitOriginal: INK.label, fitResult: INK.selection,
} as const;

/** Colours per curve channel: bone X, Y, Z, rotation; the camera adds distance and fov (also the tabs' colours). */
export const CHANNEL_COLORS = ['#ff6b6b', '#5fd068', '#4da3ff', '#f5c542', '#c77dff', '#37d5d6'] as const;

/** The music row: background, waveform, middle line, playhead, beat markers (beat-draw.ts). */
export const WAVE_COLORS = { bg: INK.panel, wave: '#5fa8d3', mid: '#2c3440', head: INK.selection, beat: '#e8c25a' } as const;

export const CANVAS_FONTS = {
  /** The timeline ruler's frame numbers (the UI's stack, with the bundled Noto Sans JP last). */
  ruler: '11px "Segoe UI", "Hiragino Sans", "Noto Sans CJK JP", "Yu Gothic UI", system-ui, "Noto Sans JP", sans-serif',
  /** The curve editor's axis and plot labels. */
  small: '10px system-ui, sans-serif',
} as const;

/** What the drawing modules call on a 2D context (a real CanvasRenderingContext2D fits it). */
export interface Canvas2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textBaseline: CanvasTextBaseline;
  textAlign: CanvasTextAlign;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, r: number, start: number, end: number): void;
  fill(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  measureText(text: string): { width: number };
}
