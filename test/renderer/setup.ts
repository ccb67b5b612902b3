// Each renderer test's mounted components are unmounted after it (their overlays, listeners and timers go
// with them), so no test file leaves state in a module that another file then reads: the files of this
// project share one module graph (isolate is off), and this file runs before each of them. The hook is
// registered again for each file (the previous file's went with its suite).
import { disableAutoUnmount, enableAutoUnmount } from '@vue/test-utils';
import { afterEach } from 'vitest';

disableAutoUnmount();
enableAutoUnmount(afterEach);
