/**
 * Whether Paste repeatedly… (PasteRepeatDialog.vue) is open, and the numbers last pasted with (shown again next
 * time): by default 10 pastes every 90 frames, a blink every 3 s at 30 fps.
 */
import { reactive } from 'vue';

export const pasteRepeatUi = reactive({ open: false, times: 10, every: 90 });
