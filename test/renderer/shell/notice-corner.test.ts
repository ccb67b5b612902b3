/**
 * Where the notices stand (shell/notice-floor.ts noticeCorner): the bottom right corner of the preview's
 * picture, inset 8 px, at most 380 px wide; above the floors and below the ceilings that lie across that column;
 * reaching down over the rest of the preview pane only when asked (NotificationList.vue asks where the picture
 * holds fewer than two notices), and then above the floors there and below the floors in the picture. Every expected value is worked out by hand
 * from the boxes below (a picture 400 × 500 px at x 900–1300, y 100–600).
 */
import { describe, expect, it } from 'vitest';
import { noticeCorner, type Box } from '../../../renderer/src/shell/notice-floor';

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });
const PICTURE = box(900, 100, 1300, 600);

describe('the notices’ corner in the preview', () => {
  it('stands at the picture’s bottom right, 8 px in, 380 px wide at most, as tall as the picture less the insets', () => {
    // 400 − 2 × 8 = 384 > 380: 380 wide, its right edge 8 px left of 1300; from y 108 down to 592.
    expect(noticeCorner(PICTURE)).toEqual({ left: 912, width: 380, bottom: 592, maxHeight: 484 });
    // The narrowest preview (240 px, stores/layout.ts MIN_RIGHT): 224 wide, filling it but for the insets.
    expect(noticeCorner(box(1000, 100, 1240, 600))).toEqual({ left: 1008, width: 224, bottom: 592, maxHeight: 484 });
  });

  it('stops below a ceiling across its column and stacks above a floor across it; boxes beside the column or empty count for nothing', () => {
    const views = box(1200, 104, 1290, 130); // ⤡ and the view buttons, top right: the top goes to 130 + 8
    const beside = box(902, 126, 912, 160); // a button ending where the column starts (912): beside it, not across
    const switches = box(1180, 570, 1294, 592); // the camera switches, bottom right: the bottom goes to 570 − 8
    const gone = box(0, 0, 0, 0); // a registered element not laid out (display: none)
    expect(noticeCorner(PICTURE, [switches, gone], [views, beside, gone])).toEqual({ left: 912, width: 380, bottom: 562, maxHeight: 562 - 138 });
    // Of two floors the higher counts, of two ceilings the lower.
    const poseRow = box(904, 520, 1000, 590);
    const lowView = box(1250, 104, 1290, 150);
    expect(noticeCorner(PICTURE, [switches, poseRow], [views, lowView])).toEqual({ left: 912, width: 380, bottom: 512, maxHeight: 512 - 158 });
  });

  it('keeps 80 px even where floors and ceilings leave less', () => {
    expect(noticeCorner(PICTURE, [box(1000, 300, 1100, 320)], [box(1000, 250, 1100, 280)])).toEqual({ left: 912, width: 380, bottom: 292, maxHeight: 80 });
  });

  it('given the pane, reaches down to its bottom over the play bar, above the floors below the picture and below those in it', () => {
    const pane = box(900, 60, 1300, 800);
    expect(noticeCorner(PICTURE, [], [], pane)).toEqual({ left: 912, width: 380, bottom: 792, maxHeight: 792 - 108 });
    // The camera switches at the picture's bottom: reaching up from below, the stack stops under them (592 + 8).
    const switches = box(1180, 570, 1294, 592);
    expect(noticeCorner(PICTURE, [switches], [], pane)).toEqual({ left: 912, width: 380, bottom: 792, maxHeight: 792 - 600 });
    // The mouse and pick hints across the picture's bottom left (no bone picked): as high as the lower of the two.
    const hints = box(904, 540, 1300, 596);
    expect(noticeCorner(PICTURE, [hints, switches], [box(1200, 104, 1290, 130)], pane)).toEqual({ left: 912, width: 380, bottom: 792, maxHeight: 792 - 604 });
    // A panel's footer under the picture, across the column (a retarget panel dragged wide): the stack stays above it.
    const footer = box(8, 700, 1000, 740);
    expect(noticeCorner(PICTURE, [switches, footer], [], pane)).toEqual({ left: 912, width: 380, bottom: 692, maxHeight: 692 - 600 });
    // A pane that ends with the picture adds nothing.
    expect(noticeCorner(PICTURE, [switches], [], PICTURE)).toEqual({ left: 912, width: 380, bottom: 562, maxHeight: 562 - 108 });
  });
});
