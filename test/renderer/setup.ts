// Each renderer test's mounted components are unmounted after it (their overlays, listeners and timers go
// with them), so no test leaves a panel's keymap handler or overlay for the next one in its file. This file
// runs before each test file; the hook is registered again for each (the previous file's went with its suite).
// The project runs each file in a fresh module graph (vitest.config.ts says why isolate stays on here).
import { disableAutoUnmount, enableAutoUnmount } from '@vue/test-utils';
import { afterEach } from 'vitest';

disableAutoUnmount();
enableAutoUnmount(afterEach);
