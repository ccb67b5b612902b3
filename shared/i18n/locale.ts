/** The UI languages, in one place: every string table, the settings and the IPC contract take their type from here. */
export const LOCALES = ['en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** Whether a value read from outside (settings file, IPC) names a UI language. */
export function isLocale(x: unknown): x is Locale {
  return (LOCALES as readonly unknown[]).includes(x);
}
